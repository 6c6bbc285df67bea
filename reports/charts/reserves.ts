/**
 * Genesys reserves (src/rules/reserves.ts): when squads arrive, round by
 * round, and the arrival chart of the reserves card a player consults before
 * choosing a reserve round — one line per chosen round, one panel per command
 * level, every value exact.
 */
import { resolveParams } from '../../src/rules/params.js';
import { bestOf } from '../../src/best-of.js';
import type { MetricResult, RunResult } from '../../src/result.js';
import type { Params, Rule } from '../../src/rules/types.js';
import { percent } from '../numbers.js';
import {
  heatmap,
  intervalChart,
  lineChart,
  markerKey,
  metricPoint,
  pointFrom,
  type HeatCell,
  type IntervalPoint,
} from './blocks.js';
import type { Chart, RuleCharts, RunView } from './chart.js';

/**
 * Command levels the card shows unless --range names others: "normally 2–4" (Genesys Project designer preview, §6.5).
 */
export const COMMAND_LEVELS: readonly number[] = [2, 3, 4];

const chosenLabel = (round: number) => (round === 0 ? 'no reserve round' : `round ${round}`);

/** A given squad on the table by the end of round r: arrived.by.r.mean / squads, interval and exact scaled alike. */
function squadInBy(figures: MetricResult, squads: number): MetricResult {
  return {
    estimate: figures.estimate === null ? null : figures.estimate / squads,
    lo: figures.lo === null ? null : figures.lo / squads,
    hi: figures.hi === null ? null : figures.hi / squads,
    exact: figures.exact === null ? null : figures.exact / squads,
    fraction: null,
  };
}

function describeChoice(params: Params): string {
  return params.chosenRound === 0
    ? 'no chosen reserve round'
    : `reserve round ${params.chosenRound} chosen, command ${params.command}`;
}

function arrivalChart(view: RunView): Chart | null {
  const { result } = view;
  const rounds = Number(result.params.rounds);
  const points: IntervalPoint[] = [];
  for (let r = 1; r <= rounds; r++) {
    const point = metricPoint(result, `squad.round.${r}`, `round ${r}`, r, true);
    if (point) points.push(point);
  }
  const never = metricPoint(result, 'squad.never', 'never (lost)', rounds + 1, true);
  if (never) points.push(never);
  if (points.length === 0) return null;
  return {
    id: 'reserves-arrival-by-round',
    title: 'When a given squad arrives',
    caption: `The chance that one squad in reserve arrives in each round, or never (${describeChoice(result.params)}; target ${result.params.target}+). ${markerKey(
      result,
      points.some((p) => p.exact !== null),
    )}`,
    spec: intervalChart(points, {
      orientation: 'vertical',
      categoryTitle: 'arrives in',
      valueTitle: 'probability',
      percent: true,
      bars: true,
      step: 84,
    }),
  };
}

function onTableChart(view: RunView): Chart | null {
  const { result } = view;
  const rounds = Number(result.params.rounds);
  const squads = Number(result.params.squads);
  const points: IntervalPoint[] = [];
  const simulated = result.method === 'simulation';
  const one = 'a given squad';
  const every = `all ${squads} squads`;
  for (let r = 1; r <= rounds; r++) {
    const arrived = result.metrics[`arrived.by.${r}.mean`];
    if (arrived) points.push(pointFrom(squadInBy(arrived, squads), simulated, String(r), r, true, { series: one }));
    const all = metricPoint(result, `all.by.${r}`, String(r), r, true, { series: every });
    if (all) points.push(all);
  }
  if (points.length === 0) return null;
  return {
    id: 'reserves-on-table-by-round',
    title: 'Reserves on the table by the end of each round',
    caption: `The chance that one given squad, and that every one of the ${squads} squads, has arrived by the end of each round (${describeChoice(result.params)}). ${markerKey(
      result,
      points.some((p) => p.exact !== null),
    )}`,
    spec: lineChart(points, {
      xTitle: 'end of round',
      yTitle: 'probability',
      percent: true,
      seriesTitle: 'on the table',
      seriesOrder: [one, every],
      labels: true,
      height: 220,
    }),
  };
}

/** The parameter sets the arrival charts need: every chosen round (none, 1 … rounds) at each command level. */
export function arrivalGrid(rule: Rule, params: Params, commands: readonly number[] = COMMAND_LEVELS): Params[] {
  const rounds = Number(params.rounds);
  const grid: Params[] = [];
  for (const command of commands)
    for (let chosenRound = 0; chosenRound <= rounds; chosenRound++)
      grid.push(resolveParams(rule, [], { ...params, command, chosenRound }));
  return grid;
}

/**
 * The players' chart: a given squad on the table by the end of each round,
 * one line per chosen reserve round, one panel per command level, and the
 * same odds as a table; from results laid out as arrivalGrid lays them out.
 */
export function arrivalCharts(
  params: Params,
  results: readonly RunResult[],
  commands: readonly number[] = COMMAND_LEVELS,
  size: { width?: number; lineHeight?: number; cellWidth?: number } = {},
): Chart[] {
  const rounds = Number(params.rounds);
  const squads = Number(params.squads);
  const choices = Array.from({ length: rounds + 1 }, (_, round) => round);
  const points: IntervalPoint[] = [];
  const cells: HeatCell[] = [];
  results.forEach((result) => {
    const command = `command ${result.params.command}`;
    const chosen = chosenLabel(Number(result.params.chosenRound));
    for (let r = 1; r <= rounds; r++) {
      const figures = squadInBy(result.metrics[`arrived.by.${r}.mean`], squads);
      points.push(
        pointFrom(figures, result.method === 'simulation', String(r), r, true, { series: chosen, facet: command }),
      );
      const value = bestOf(figures);
      cells.push({
        row: chosen,
        col: String(r),
        rowOrder: Number(result.params.chosenRound),
        colOrder: r,
        value,
        text: percent(value, 1),
        facet: command,
      });
    }
  });
  const how = results.every((result) => result.method === 'exact') ? 'Exact values' : 'Simulated values';
  const facets = commands.map((level) => `command ${level}`);
  const series = choices.map(chosenLabel);
  const loss =
    Number(params.leaderLoss) > 0
      ? `; the commander is lost with chance ${params.leaderLoss} each round before the chosen one, then command ${params.fallbackCommand} applies`
      : '';
  const setting = `${squads} squads, target ${params.target}+, ${rounds} rounds; a squad not in by the end of round ${rounds} is lost${loss}`;
  const panelWidth = size.width === undefined ? undefined : Math.floor((size.width - 40) / commands.length) - 20;
  return [
    {
      id: 'reserves-arrival-by-chosen-round',
      title: 'Genesys reserves: a squad on the table, by chosen reserve round and command',
      caption: `The chance that a given squad has arrived by the end of each round, one line per chosen reserve round and one panel per command level (${setting}). ${how}.`,
      spec: lineChart(points, {
        xTitle: 'end of round',
        yTitle: 'squad on the table',
        percent: true,
        seriesTitle: 'chosen reserve round',
        seriesOrder: series,
        facet: { title: 'highest command on the table', order: facets },
        height: size.lineHeight ?? 200,
        ...(panelWidth === undefined ? {} : { width: panelWidth }),
      }),
    },
    {
      id: 'reserves-arrival-table',
      title: 'Genesys reserves: arrival odds table',
      caption: `The same odds as a table: rows are the chosen reserve round, columns on the table by the end of each round, one panel per command level (${setting}). ${how}.`,
      spec: heatmap(cells, {
        rowTitle: 'chosen reserve round',
        colTitle: 'end of round',
        valueTitle: 'squad on the table',
        percent: true,
        cellWidth: size.cellWidth ?? 46,
        cellHeight: 26,
        fontSize: 10,
        facet: { title: 'highest command on the table', order: facets },
      }),
    },
  ];
}

export const reservesCharts: RuleCharts = {
  run(view) {
    return [arrivalChart(view), onTableChart(view)].filter((chart): chart is Chart => chart !== null);
  },
};
