/**
 * The chart shapes every report is built from. Each takes plain rows and
 * returns a Vega-Lite spec in the shared look (../theme.ts):
 *
 *   intervalChart — one value per category: estimate ● with its interval,
 *                   exact value ◇, the value printed beside it (dot plot or bars)
 *   lineChart     — values along an ordered axis, one line per series
 *                   (colour + dash + shape), optional panels
 *   heatmap       — a two-way table with the value printed in every cell (./heatmap.ts)
 *   splitChart    — who gets what: shares of 100% side by side (./split.ts)
 */
import { own } from '../../src/keyed.js';
import type { MetricResult, RunResult } from '../../src/result.js';
import { chartLabel } from '../numbers.js';
import {
  BAR_FILL,
  CHART_CONFIG,
  ESTIMATE_INK,
  EXACT_INK,
  FULL_WIDTH,
  SERIES_COLOURS,
  SERIES_DASHES,
  SERIES_SHAPES,
} from '../theme.js';
import type { VegaLiteSpec } from './chart.js';
import { SCHEMA, safeTitle } from './vega-title.js';

/** One value to draw: a simulated estimate with its interval, an exact value, or both. */
const hasInterval = (point: IntervalPoint) => point.lo !== null && point.hi !== null;

export interface IntervalPoint {
  /** The category (or position along an ordered axis). */
  label: string;
  /** Position of the category along its axis. */
  order: number;
  /** Series (a line, or a group of bars side by side). */
  series?: string;
  /** Panel. */
  facet?: string;
  estimate: number | null;
  lo: number | null;
  hi: number | null;
  exact: number | null;
  /** The value as printed beside the mark. */
  text: string;
}

/**
 * A point for a metric of a run. After `muster run --exact` there is no
 * estimate, only the exact value.
 */
export function metricPoint(
  result: RunResult,
  metric: string,
  label: string,
  order: number,
  probability: boolean,
  extra: Partial<IntervalPoint> = {},
): IntervalPoint | null {
  const value = own(result.metrics, metric);
  if (!value) return null;
  return pointFrom(value, result.method === 'simulation', label, order, probability, extra);
}

/** A point from one metric's figures; `simulated` false keeps only the exact value. */
export function pointFrom(
  value: MetricResult,
  simulated: boolean,
  label: string,
  order: number,
  probability: boolean,
  extra: Partial<IntervalPoint> = {},
): IntervalPoint {
  const finite = (x: number | null) => (x !== null && Number.isFinite(x) ? x : null);
  const estimate = simulated ? finite(value.estimate) : null;
  const best = value.exact ?? estimate ?? Number.NaN;
  return {
    label,
    order,
    estimate,
    lo: simulated ? finite(value.lo) : null,
    hi: simulated ? finite(value.hi) : null,
    exact: value.exact,
    text: Number.isFinite(best) ? chartLabel(best, probability) : '—',
    ...extra,
  };
}

/** The key printed under charts that draw estimates and exact values. */
export function markerKey(result: Pick<RunResult, 'method' | 'confidence'>, anyExact: boolean): string {
  if (result.method === 'exact') return 'Exact values (no simulation).';
  const level = `${+(result.confidence * 100).toFixed(2)}%`;
  const parts = [
    `● simulated estimate with its ${level} interval (where the bar is not visible, the interval is narrower than ` +
      `the dot)`,
  ];
  if (anyExact) parts.push('◇ exact value');
  return `${parts.join('; ')}.`;
}

/**
 * User text (variant labels, parameter values) reaches a spec only as data:
 * series and panels are ordered and filtered by their position, a number,
 * because Vega-Lite compiles a sort list or a `oneOf` filter into an
 * expression, where a label such as `a\u2028b` breaks the parser.
 */
function withDerived(
  points: readonly IntervalPoint[],
  seriesOrder: readonly string[] = [],
  facetOrder: readonly string[] = [],
) {
  return points.map((point) => ({
    ...point,
    seriesOrder: point.series === undefined ? 0 : seriesOrder.indexOf(point.series),
    facetOrder: point.facet === undefined ? 0 : facetOrder.indexOf(point.facet),
    best: point.exact ?? point.estimate,
    shown: point.estimate ?? point.exact,
    labelAt: Math.max(...[point.hi, point.estimate, point.exact].filter((x): x is number => x !== null)),
  }));
}

function valueAxis(title: string, percent: boolean, domain?: [number, number]) {
  return {
    type: 'quantitative',
    title: safeTitle(title),
    axis: percent ? { format: '.0%', tickCount: 5 } : { tickCount: 5 },
    scale: domain ? { domain, nice: false } : percent ? { domain: [0, 1], nice: false } : { zero: true },
  };
}

function tooltip(category: string, percent: boolean) {
  const format = percent ? '.3%' : '.4f';
  return [
    { field: 'label', type: 'nominal', title: safeTitle(category) },
    { field: 'estimate', type: 'quantitative', title: 'estimate', format },
    { field: 'lo', type: 'quantitative', title: 'interval low', format },
    { field: 'hi', type: 'quantitative', title: 'interval high', format },
    { field: 'exact', type: 'quantitative', title: 'exact', format },
  ];
}

interface IntervalChartOptions {
  /** 'horizontal': categories down the side (a dot plot); 'vertical': categories along the bottom. */
  orientation: 'horizontal' | 'vertical';
  categoryTitle: string;
  valueTitle: string;
  percent: boolean;
  /** Draw a light bar up to each value. */
  bars?: boolean;
  /** Series shown side by side within a category, in this order. */
  series?: { title: string; order: string[] };
  domain?: [number, number];
  width?: number;
  /** Pixels per category (and series). */
  step?: number;
}

/** Values per category with their intervals and exact markers, and the value printed beside each. */
export function intervalChart(points: readonly IntervalPoint[], options: IntervalChartOptions): VegaLiteSpec {
  const horizontal = options.orientation === 'horizontal';
  const valueChannel = horizontal ? 'x' : 'y';
  const categoryChannel = horizontal ? 'y' : 'x';
  const offsetChannel = horizontal ? 'yOffset' : 'xOffset';
  const series = options.series;
  const seriesCount = series?.order.length ?? 1;
  const step = options.step ?? (horizontal ? 20 : 34) * seriesCount;
  const category = {
    field: 'label',
    type: 'nominal',
    // No title where the categories are words that say it themselves (a long label list would run into it).
    title: options.categoryTitle ? safeTitle(options.categoryTitle) : null,
    sort: { field: 'order', op: 'min' },
    axis: horizontal ? { labelLimit: 220 } : { labelAngle: 0 },
    // A band scale, as the interval layer would choose: the layout stays the same for exact-only results, which have
    // none.
    scale: { type: 'band', paddingInner: series ? 0.25 : 0.35 },
  };
  const value = (field: string) => ({ ...valueAxis(options.valueTitle, options.percent, options.domain), field });
  const bySeries = { field: 'seriesOrder', op: 'min' } as const;
  const offset = series
    ? {
        [offsetChannel]: {
          field: 'series',
          type: 'nominal',
          sort: bySeries,
          scale: { type: 'band', paddingInner: 0.1 },
        },
      }
    : {};
  const colour = series
    ? {
        color: {
          field: 'series',
          type: 'nominal',
          title: safeTitle(series.title),
          sort: bySeries,
          scale: { domain: series.order, range: SERIES_COLOURS.slice(0, series.order.length) },
        },
      }
    : {};
  const base = { [categoryChannel]: category, ...offset };
  const layers = intervalLayers(points, options, { base, value, colour, valueChannel });

  const size = horizontal
    ? { width: options.width ?? FULL_WIDTH - 160, height: { step } }
    : { width: { step }, height: 220 };
  return {
    $schema: SCHEMA,
    config: CHART_CONFIG,
    data: { values: withDerived(points, series?.order) },
    ...size,
    layer: layers,
  };
}

/** The interval chart's layers: bars if asked, intervals, estimates, exact markers, and the printed values. */
function intervalLayers(
  points: readonly IntervalPoint[],
  options: IntervalChartOptions,
  {
    base,
    value,
    colour,
    valueChannel,
  }: {
    base: VegaLiteSpec;
    value: (field: string) => VegaLiteSpec;
    colour: VegaLiteSpec;
    valueChannel: 'x' | 'y';
  },
): VegaLiteSpec[] {
  const horizontal = options.orientation === 'horizontal';
  const series = options.series;
  const layers: VegaLiteSpec[] = [];
  if (options.bars) {
    layers.push({
      mark: series ? { type: 'bar', opacity: 0.35 } : { type: 'bar', color: BAR_FILL },
      encoding: { ...base, [valueChannel]: value('best'), ...colour },
    });
  }
  // A layer whose filter leaves nothing (intervals of an exact-only result) would give vega a scale with no extent, and
  // a warning.
  if (points.some(hasInterval)) {
    layers.push({
      transform: [{ filter: 'isValid(datum.lo) && isValid(datum.hi)' }],
      mark: { type: 'errorbar', ticks: true, thickness: 1.5, ...(series ? {} : { color: ESTIMATE_INK }) },
      encoding: { ...base, [valueChannel]: value('lo'), [`${valueChannel}2`]: { field: 'hi' }, ...colour },
    });
  }
  if (points.some((point) => point.estimate !== null)) {
    layers.push({
      transform: [{ filter: 'isValid(datum.estimate)' }],
      mark: { type: 'point', filled: true, size: 38, opacity: 1, ...(series ? {} : { color: ESTIMATE_INK }) },
      encoding: {
        ...base,
        [valueChannel]: value('estimate'),
        ...colour,
        tooltip: tooltip(options.categoryTitle || 'category', options.percent),
      },
    });
  }
  if (points.some((point) => point.exact !== null)) {
    layers.push({
      transform: [{ filter: 'isValid(datum.exact)' }],
      mark: {
        type: 'point',
        shape: 'diamond',
        filled: false,
        size: 120,
        strokeWidth: 1.6,
        color: EXACT_INK,
        opacity: 1,
      },
      encoding: {
        ...base,
        [valueChannel]: value('exact'),
        tooltip: tooltip(options.categoryTitle || 'category', options.percent),
      },
    });
  }
  layers.push({
    // Bars side by side are narrower than their labels: those labels read upwards, so neighbours never overlap.
    mark: horizontal
      ? { type: 'text', align: 'left', baseline: 'middle', dx: 9, fontSize: series ? 9.5 : 10.5, color: '#222222' }
      : series
        ? { type: 'text', angle: 270, align: 'left', baseline: 'middle', dx: 7, fontSize: 9.5, color: '#222222' }
        : { type: 'text', align: 'center', baseline: 'bottom', dy: -7, fontSize: 10.5, color: '#222222' },
    encoding: { ...base, [valueChannel]: value('labelAt'), text: { field: 'text' } },
  });
  return layers;
}

interface LineChartOptions {
  xTitle: string;
  yTitle: string;
  percent: boolean;
  seriesTitle: string;
  /** Series in legend order. */
  seriesOrder: string[];
  /** Panels side by side, in this order. */
  facet?: { title: string; order: string[] };
  domain?: [number, number];
  width?: number;
  height?: number;
  /** Print each value beside its point (only sensible for one or two lines). */
  labels?: boolean;
}

/**
 * Where each point's value label goes, so no label lands on another or on
 * the axis: at each position the highest value is labelled above its point,
 * the next below it when there is room (above it when the axis is in the
 * way and the gap allows); a value equal to one already labelled, and any
 * third series, go unlabelled (the tables carry every value).
 */
function labelPlaces(
  points: readonly IntervalPoint[],
  domain: [number, number],
  height: number,
): Array<'above' | 'below' | null> {
  const places: Array<'above' | 'below' | null> = points.map(() => null);
  const span = domain[1] - domain[0] || 1;
  // A label is about 12 px tall and sits 5–6 px from its point: in data units, per pixel of plot height.
  const unit = span / height;
  const groups = new Map<string, number[]>();
  points.forEach((point, index) => {
    const key = `${point.facet ?? ''}\u0000${point.label}`;
    groups.set(key, [...(groups.get(key) ?? []), index]);
  });
  const value = (index: number) => points[index].exact ?? points[index].estimate ?? Number.NaN;
  for (const members of groups.values()) {
    const sorted = members.filter((index) => Number.isFinite(value(index))).sort((a, b) => value(b) - value(a));
    if (sorted.length === 0) continue;
    const [top, second] = sorted;
    places[top] = 'above';
    if (second === undefined || points[second].text === points[top].text) continue;
    const gap = (value(top) - value(second)) / unit;
    const floor = (value(second) - domain[0]) / unit;
    if (floor >= 22) places[second] = 'below';
    else if (gap >= 36) places[second] = 'above';
  }
  return places;
}

/**
 * Values along an ordered axis, one line per series. Lines differ in colour,
 * dash and point shape, so a grey printout still tells them apart; the line
 * joins exact values where known, estimates otherwise.
 */
export function lineChart(points: readonly IntervalPoint[], options: LineChartOptions): VegaLiteSpec {
  // Vega 6 stops a legend that merges colour, dash and shape when an entry is `constructor` or `toString`
  // ("Operator not defined"): series names, a rule file's metrics among them, are drawn as safeTitle gives them.
  const order = options.seriesOrder.map(safeTitle);
  points = points.map((point) => (point.series === undefined ? point : { ...point, series: safeTitle(point.series) }));
  const places = labelPlaces(
    points,
    options.domain ?? (options.percent ? [0, 1] : [0, Math.max(0, ...points.map((p) => p.exact ?? p.estimate ?? 0))]),
    options.height ?? 240,
  );
  const seriesScale = (range: unknown[]) => ({ domain: order, range: range.slice(0, order.length) });
  const legend = { title: safeTitle(options.seriesTitle), symbolSize: 110 };
  const x = {
    field: 'label',
    type: 'ordinal',
    title: safeTitle(options.xTitle),
    sort: { field: 'order', op: 'min' },
    axis: { labelAngle: 0 },
    scale: { type: 'point', padding: 0.4 },
  };
  const y = (field: string) => ({ ...valueAxis(options.yTitle, options.percent, options.domain), field });
  const bySeries = { field: 'seriesOrder', op: 'min' } as const;
  const colour = { field: 'series', type: 'nominal', sort: bySeries, scale: seriesScale(SERIES_COLOURS), legend };
  const layers: VegaLiteSpec[] = [
    {
      transform: [{ filter: 'isValid(datum.best)' }],
      mark: { type: 'line', strokeWidth: 1.8 },
      encoding: {
        x,
        y: y('best'),
        color: colour,
        strokeDash: { field: 'series', type: 'nominal', sort: bySeries, scale: seriesScale(SERIES_DASHES), legend },
      },
    },

    {
      transform: [{ filter: 'isValid(datum.shown)' }],
      mark: { type: 'point', filled: true, size: 40, opacity: 1 },
      encoding: {
        x,
        y: y('shown'),
        color: colour,
        shape: { field: 'series', type: 'nominal', sort: bySeries, scale: seriesScale(SERIES_SHAPES), legend },
        tooltip: [
          { field: 'series', type: 'nominal', title: safeTitle(options.seriesTitle) },
          ...tooltip(options.xTitle, options.percent),
        ],
      },
    },
  ];
  // Intervals and exact markers only where some point has them: an empty layer would give vega a scale with no extent,
  // and a warning.
  if (points.some(hasInterval)) {
    layers.splice(1, 0, {
      transform: [{ filter: 'isValid(datum.lo) && isValid(datum.hi)' }],
      mark: { type: 'errorbar', ticks: true, thickness: 1.3 },
      encoding: { x, y: y('lo'), y2: { field: 'hi' }, color: colour },
    });
  }
  if (points.some((point) => point.exact !== null && point.estimate !== null)) {
    layers.push({
      transform: [{ filter: 'isValid(datum.exact) && isValid(datum.estimate)' }],
      mark: {
        type: 'point',
        shape: 'diamond',
        filled: false,
        size: 190,
        strokeWidth: 1.1,
        color: EXACT_INK,
        opacity: 1,
      },
      encoding: { x, y: y('exact') },
    });
  }
  const height = options.height ?? 240;
  // Placements as numbers (1 above, 2 below, 0 none): filters compare numbers, never text (see
  // test/reports/vega-safety.test.ts).
  const data = withDerived(points, order, options.facet?.order).map((point, index) => ({
    ...point,
    place: !options.labels ? 0 : places[index] === 'above' ? 1 : places[index] === 'below' ? 2 : 0,
  }));
  if (options.labels) layers.push(...valueLabelLayers(data, x, y));
  const panelWidth =
    options.width ??
    (options.facet ? Math.floor((FULL_WIDTH - 40) / options.facet.order.length) - 20 : FULL_WIDTH - 120);
  const inner = { width: panelWidth, height, layer: layers };
  const common = { $schema: SCHEMA, config: CHART_CONFIG, data: { values: data } };
  if (!options.facet) return { ...common, ...inner };
  return facetted(common, inner, options.facet);
}

/** The printed values of a line chart: a text layer for each placement in use (1 above, 2 below). */
function valueLabelLayers(
  data: ReadonlyArray<{ place: number }>,
  x: VegaLiteSpec,
  y: (field: string) => VegaLiteSpec,
): VegaLiteSpec[] {
  const layers: VegaLiteSpec[] = [];
  for (const place of ['above', 'below'] as const) {
    const code = place === 'above' ? 1 : 2;
    // (An empty layer would leave vega a scale with no extent, so only the placements in use.)
    if (!data.some((point) => point.place === code)) continue;
    layers.push({
      transform: [{ filter: { field: 'place', equal: code } }],
      mark:
        place === 'above'
          ? { type: 'text', align: 'left', baseline: 'bottom', dx: 5, dy: -5, fontSize: 10, color: '#222222' }
          : { type: 'text', align: 'left', baseline: 'top', dx: 5, dy: 6, fontSize: 10, color: '#222222' },
      encoding: { x, y: y('best'), text: { field: 'text' } },
    });
  }
  return layers;
}

/** A line chart's panels side by side, one a facet value, sharing the value scale. */
function facetted(
  common: VegaLiteSpec,
  inner: VegaLiteSpec,
  facet: NonNullable<LineChartOptions['facet']>,
): VegaLiteSpec {
  return {
    ...common,
    facet: {
      column: {
        field: 'facet',
        type: 'nominal',
        title: safeTitle(facet.title),
        sort: { field: 'facetOrder', op: 'min' },
        header: { labelOrient: 'top', titleOrient: 'top' },
      },
    },
    spacing: 14,
    spec: inner,
    resolve: { scale: { y: 'shared' } },
  };
}

/** One cell of a two-way table. */
