/**
 * Flames of War reserves (src/rules/fow.ts): platoons on the table turn by
 * turn, attacker against defender — the chart players print — and when each
 * side has everything in.
 */
import { intervalChart, lineChart, markerKey, metricPoint, type IntervalPoint } from './blocks.js';
import type { Chart, RuleCharts, RunView } from './chart.js';
import { indexed } from './players.js';

const SIDES = ['attacker', 'defender'];

/** Points for `<side>.<stem>.<t><suffix>` over every side and turn. */
function perTurn(view: RunView, stem: string, suffix: string, probability: boolean): IntervalPoint[] {
  const names = Object.keys(view.result.metrics);
  const points: IntervalPoint[] = [];
  for (const side of SIDES) {
    const pattern = new RegExp(`^${side}\\.${stem.replaceAll('.', '\\.')}\\.(\\d+)${suffix.replaceAll('.', '\\.')}$`);
    for (const { name, index } of indexed(names, pattern)) {
      const point = metricPoint(view.result, name, String(index), index, probability, { series: side });
      if (point) points.push(point);
    }
  }
  return points;
}

/**
 * The reserve rules behind the figures, said where they are shown: at
 * attackerStart=1 the attacker's ordinary Reserves roll from turn 1, which
 * is what Immediate Reserves do, and the figures change a great deal when
 * they wait (Flames of War 4th-edition missions; the 3rd edition could not
 * be checked).
 */
function reserveRules(view: RunView): string {
  const { attackerStart, defenderStart, hit } = view.result.params;
  const attacker =
    attackerStart === 1
      ? "The attacker's Reserves roll from turn 1 (attackerStart=1), which makes them the same as Immediate Reserves; attackerStart=3 makes them wait."
      : `The attacker's Reserves roll from turn ${attackerStart}.`;
  return `${attacker} The defender's Delayed Reserves roll from turn ${defenderStart}; each die scoring ${hit}+ brings a platoon, one more die each turn.`;
}

export function onTableChart(view: RunView, labels = true): Chart | null {
  const points = perTurn(view, 'onTable', '.mean', false);
  if (points.length === 0) return null;
  return {
    id: 'fow-platoons-on-table',
    title: 'Platoons on the table, turn by turn',
    caption: `Expected platoons on the table at each turn, attacker against defender. ${reserveRules(view)} ${markerKey(
      view.result,
      points.some((p) => p.exact !== null),
    )}`,
    spec: lineChart(points, {
      xTitle: 'turn',
      yTitle: 'platoons on the table (expected)',
      percent: false,
      seriesTitle: 'side',
      seriesOrder: SIDES,
      labels,
    }),
  };
}

export function allInChart(view: RunView, labels = true): Chart | null {
  const points = perTurn(view, 'allIn.by', '', true);
  if (points.length === 0) return null;
  return {
    id: 'fow-all-in',
    title: 'Every reserve in, by turn',
    caption: `The chance that all of a side's reserves are on the table by each turn. ${reserveRules(view)} ${markerKey(
      view.result,
      points.some((p) => p.exact !== null),
    )}`,
    spec: lineChart(points, {
      xTitle: 'turn',
      yTitle: 'all reserves in',
      percent: true,
      seriesTitle: 'side',
      seriesOrder: SIDES,
      labels,
    }),
  };
}

export function firstArrivalChart(view: RunView): Chart | null {
  const points = perTurn(view, 'first', '', true);
  if (points.length === 0) return null;
  return {
    id: 'fow-first-arrival',
    title: 'When the first reserve arrives',
    caption: `The chance that a side's first reserve arrives on each turn. ${markerKey(
      view.result,
      points.some((p) => p.exact !== null),
    )}`,
    spec: intervalChart(points, {
      orientation: 'vertical',
      categoryTitle: 'turn',
      valueTitle: 'probability',
      percent: true,
      bars: true,
      series: { title: 'side', order: SIDES },
      step: 36,
    }),
  };
}

function scatterChart(view: RunView): Chart | null {
  const names = Object.keys(view.result.metrics).filter((name) => name.startsWith('defender.scatter.'));
  const points = names
    .map((name, index) => metricPoint(view.result, name, name.slice('defender.scatter.'.length), index, true))
    .filter((point): point is IntervalPoint => point !== null);
  if (points.length === 0) return null;
  return {
    id: 'fow-scatter',
    title: 'Where the defender’s scattered reserves enter',
    caption: `The chance of each entry point for a scattered reserve. ${markerKey(
      view.result,
      points.some((p) => p.exact !== null),
    )}`,
    spec: intervalChart(points, {
      orientation: 'vertical',
      categoryTitle: 'enters from',
      valueTitle: 'probability',
      percent: true,
      bars: true,
    }),
  };
}

export const fowCharts: RuleCharts = {
  run(view) {
    return [onTableChart(view), allInChart(view), firstArrivalChart(view), scatterChart(view)].filter(
      (chart): chart is Chart => chart !== null,
    );
  },
};
