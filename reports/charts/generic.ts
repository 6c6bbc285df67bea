/**
 * Charts any rule gets without a chart module of its own: every probability
 * as a dot plot with intervals and exact markers, and the simulation checked
 * against the exact values; and the heatmap of a declared matrix's two-way
 * table that `muster matrix --html` and the cards draw.
 */

import type { Evaluated } from '../../src/analysis/evaluate.js';
import { bestOf } from '../../src/best-of.js';
import type { MetricSpec, ParamValue, Rule } from '../../src/contract/types.js';
import { own } from '../../src/keyed.js';
import { formatCount } from '../../src/output/format.js';
import type { MetricResult } from '../../src/result.js';
import { presentationOf } from '../../src/rules/index.js';
import { percent } from '../numbers.js';
import { type IntervalPoint, intervalChart, markerKey, metricPoint } from './blocks.js';
import type { Chart, RunView } from './chart.js';
import { type HeatCell, heatmap } from './heatmap.js';

/**
 * Every probability metric as a dot plot, or every mean (`kind`); without `kind`, the probabilities, or for a rule
 * with none, the means.
 */
export function everyMetricChart(view: RunView, kind?: 'probability' | 'mean'): Chart | null {
  const { rule, result } = view;
  const probabilities = view.metrics.filter((metric) => metric.probability);
  const isProbability = kind === undefined ? probabilities.length > 0 : kind === 'probability';
  const chosen = isProbability ? probabilities : view.metrics.filter((metric) => !metric.probability);
  const points = chosen
    .map((metric, index) => metricPoint(result, metric.name, metric.label ?? metric.name, index, isProbability))
    .filter((point): point is IntervalPoint => point !== null);
  if (points.length === 0) return null;
  return {
    id: `${rule.id}-${isProbability ? 'probabilities' : 'means'}`,
    title: `${rule.title}: every ${isProbability ? 'probability' : 'mean'}`,
    caption:
      `Each ${isProbability ? 'probability' : 'expected value'} the rule reports, in the order muster ` +
      `describe lists them (the table below says what each means). ${markerKey(
        result,
        points.some((p) => p.exact !== null),
      )}`,
    spec: intervalChart(points, {
      orientation: 'horizontal',
      categoryTitle: '',
      valueTitle: isProbability ? 'probability' : 'expected value',
      percent: isProbability,
    }),
  };
}

/**
 * Each simulated probability minus its exact value, in percentage points,
 * with its interval: about 95% of 95% intervals should cross zero. The
 * page says how many do.
 */
export function exactCheckChart(view: RunView): Chart | null {
  const { rule, result } = view;
  if (result.method !== 'simulation') return null;
  const rows = view.metrics
    .filter((metric) => metric.probability)
    .map((metric, index) => ({ metric, value: own(result.metrics, metric.name) as MetricResult, index }))
    .filter(
      ({ value }) =>
        value &&
        value.exact !== null &&
        value.estimate !== null &&
        value.lo !== null &&
        value.hi !== null &&
        Number.isFinite(value.estimate),
    );
  if (rows.length === 0) return null;
  const points: IntervalPoint[] = rows.map(({ metric, value, index }) => {
    // In percentage points: a probability's error reads best on the scale the tables use.
    const exact = value.exact as number;
    const error = ((value.estimate as number) - exact) * 100;
    return {
      label: metric.label ?? metric.name,
      order: index,
      estimate: error,
      lo: ((value.lo as number) - exact) * 100,
      hi: ((value.hi as number) - exact) * 100,
      exact: 0,
      text: `${error >= 0 ? '+' : '−'}${Math.abs(error).toFixed(3)} pp`,
    };
  });
  // A hair of tolerance: an interval clipped at 0 or 1 may end a rounding error short of an exact 0 or 1.
  const covered = rows.filter(
    ({ value }) =>
      (value.lo as number) - 1e-12 <= (value.exact as number) &&
      (value.exact as number) <= (value.hi as number) + 1e-12,
  ).length;
  const widest = Math.max(...points.map((p) => Math.max(Math.abs(p.lo ?? 0), Math.abs(p.hi ?? 0))));
  const reach = widest > 0 ? widest * 1.15 : 0.1;
  const level = `${+(result.confidence * 100).toFixed(2)}%`;
  return {
    id: `${rule.id}-exact-check`,
    title: `${rule.title}: simulation against the exact values`,
    caption:
      `Every simulated probability minus its exact value, with its ${level} interval, in percentage points; ` +
      `the diamonds mark zero. ${covered} of ${rows.length} intervals cover the exact value (about ${level} of ` +
      `them should).`,
    spec: intervalChart(points, {
      orientation: 'horizontal',
      categoryTitle: '',
      valueTitle: 'estimate − exact (percentage points)',
      percent: false,
      domain: [-reach, reach],
    }),
  };
}

/**
 * The generic charts of one run: every probability, and every mean on an axis of its own (a rule file's mean, such
 * as the squads lost, is as much its answer as a chance, and the printed page has no diagnostics to find it in).
 */
export function genericRunCharts(view: RunView): Chart[] {
  return [everyMetricChart(view, 'probability'), everyMetricChart(view, 'mean')].filter(
    (chart): chart is Chart => chart !== null,
  );
}

/** Axis titles in words, where the parameter names are terse. */
interface AxisTitles {
  row?: string;
  col?: string;
}

/** Whether a metric of a rule reads as player A's advantage (its presentation says so), centred on even odds. */
function isAdvantage(rule: Rule, metric: string): boolean {
  return presentationOf(rule).matrix?.advantage?.includes(metric) ?? false;
}

/** A matrix axis label: the rule's short form (src/contract/types.ts MatrixSpec.label) where it has one. */
function axisLabel(rule: Rule, value: ParamValue): string {
  return rule.presentation?.matrix?.label?.(value) ?? String(value);
}

/** A heatmap of one metric over rows × cols from evaluated points laid out row by row. */
export function matrixChart(
  rule: Rule,
  row: string,
  col: string,
  rows: readonly ParamValue[],
  cols: readonly ParamValue[],
  metricName: string,
  evaluated: readonly Evaluated[],
  note = '',
  titles: AxisTitles = presentationOf(rule).matrix ?? {},
  /** The largest the table may be, in CSS pixels (a card sizes it to the sheet). */
  fit: { width?: number; height?: number } = {},
): Chart {
  const metric: MetricSpec | undefined = rule.metrics(evaluated[0].result.params).find((m) => m.name === metricName);
  const words = metric?.label ?? metricName;
  const probability = metric?.probability ?? true;
  const longest = Math.max(...cols.map((value) => axisLabel(rule, value).length));
  const cellWidth = fit.width
    ? Math.min(72, Math.floor(fit.width / cols.length))
    : cols.length > 12
      ? 32
      : cols.length > 9
        ? 40
        : 56;
  const cellHeight = fit.height
    ? Math.max(14, Math.min(48, Math.round(cellWidth * 0.75), Math.floor(fit.height / rows.length)))
    : undefined;
  const digits = cellWidth >= 50 ? 1 : 0;
  const cells: HeatCell[] = [];
  rows.forEach((rowValue, i) => {
    cols.forEach((colValue, j) => {
      const figures = own(evaluated[i * cols.length + j].result.metrics, metricName) as MetricResult;
      const simulated = evaluated[i * cols.length + j].result.method === 'simulation';
      const value = bestOf(figures);
      cells.push({
        row: axisLabel(rule, rowValue),
        col: axisLabel(rule, colValue),
        rowOrder: i,
        colOrder: j,
        value,
        text: probability
          ? digits === 0
            ? percent(value, 0).replace('%', '')
            : percent(value, digits)
          : value.toFixed(digits + 1),
        lo: simulated ? figures.lo : null,
        hi: simulated ? figures.hi : null,
      });
    });
  });
  const exact = evaluated.every((point) => point.result.method === 'exact');
  const first = evaluated[0].result;
  const how = exact
    ? 'Exact values.'
    : `Simulated, ${formatCount(first.trials)} trials a cell (seed ${first.seed}); hover a cell for its interval.`;
  const units = probability && digits === 0 ? ' Cells show percentages.' : '';
  return {
    id: `${rule.id}-matrix-${row}-${col}`.replace(/[^A-Za-z0-9.-]+/g, '-'),
    title: `${rule.title}: ${words}, by ${titles.row ?? row} and ${titles.col ?? col}`,
    caption:
      `${metric?.doc ?? metricName}, with ${titles.row ?? row} down the side and ${titles.col ?? col} ` +
      `across the top. ${how}${units}${note ? ` ${note}` : ''}`,
    spec: heatmap(cells, {
      rowTitle: titles.row ?? row,
      colTitle: titles.col ?? col,
      valueTitle: words,
      percent: probability,
      cellWidth,
      ...(cellHeight === undefined
        ? {}
        : {
            cellHeight,
            fontSize: cellWidth < 24 || cellHeight < 18 ? 8 : cellWidth < 40 ? 9 : cellWidth < 60 ? 11 : 13,
          }),
      slantColumns: longest > 5,
      ...(probability && isAdvantage(rule, metricName) ? { centre: 0.5 } : {}),
    }),
  };
}
