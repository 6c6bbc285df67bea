/**
 * The chart shapes every report is built from. Each takes plain rows and
 * returns a Vega-Lite spec in the shared look (../theme.ts):
 *
 *   intervalChart — one value per category: estimate ● with its interval,
 *                   exact value ◇, the value printed beside it (dot plot or bars)
 *   lineChart     — values along an ordered axis, one line per series
 *                   (colour + dash + shape), optional panels
 *   heatmap       — a two-way table with the value printed in every cell
 *   splitChart    — who gets what: shares of 100% side by side
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

const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';

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
    `● simulated estimate with its ${level} interval (where the bar is not visible, the interval is narrower than the dot)`,
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

/** Names Vega cannot take as a title: Object.prototype's own, and `then` (see safeTitle). */
const RESERVED_TITLES = new Set([...Object.getOwnPropertyNames(Object.prototype), 'then']);

/**
 * A title (of an axis, a legend, a tooltip entry) as Vega can draw it. Vega 6 stops a chart whose axis
 * title is `constructor` or `toString` ("Operator not defined"), drops one titled `__proto__`, and
 * refuses such a name or `then` as a tooltip entry's title, which Vega-Lite makes the key of an object
 * in an expression ("Illegal property"); a line or paragraph separator ends the string literal a title
 * becomes there. Such a name gets a zero-width space after it, so it prints as it is; a separator becomes a
 * space. A parameter or metric a rule file named `constructor` is titled `constructor` on its axis.
 */
export function safeTitle(text: string): string {
  const title = text.replace(/[\u2028\u2029]/g, ' ');
  return RESERVED_TITLES.has(title) ? `${title}\u200b` : title;
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

export interface IntervalChartOptions {
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

export interface LineChartOptions {
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
  // test/vega-safety.test.ts).
  const data = withDerived(points, order, options.facet?.order).map((point, index) => ({
    ...point,
    place: !options.labels ? 0 : places[index] === 'above' ? 1 : places[index] === 'below' ? 2 : 0,
  }));
  if (options.labels) {
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
  }
  const panelWidth =
    options.width ??
    (options.facet ? Math.floor((FULL_WIDTH - 40) / options.facet.order.length) - 20 : FULL_WIDTH - 120);
  const inner = { width: panelWidth, height, layer: layers };
  const common = { $schema: SCHEMA, config: CHART_CONFIG, data: { values: data } };
  if (!options.facet) return { ...common, ...inner };
  return {
    ...common,
    facet: {
      column: {
        field: 'facet',
        type: 'nominal',
        title: safeTitle(options.facet.title),
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
export interface HeatCell {
  row: string;
  col: string;
  rowOrder: number;
  colOrder: number;
  value: number;
  text: string;
  facet?: string;
  lo?: number | null;
  hi?: number | null;
}

export interface HeatmapOptions {
  rowTitle: string;
  colTitle: string;
  valueTitle: string;
  percent: boolean;
  /** Colour domain; probabilities use [0, 1] so that equal ink means equal odds across charts. */
  domain?: [number, number];
  cellWidth?: number;
  cellHeight?: number;
  facet?: { title: string; order: string[] };
  fontSize?: number;
  /** Column labels turned to read upwards (long labels). */
  slantColumns?: boolean;
  /**
   * An advantage table: a diverging palette centred on this value (0.5 for
   * "player A wins"), light at even odds and dark at either extreme, so a
   * grey printout still shows how lopsided a cell is (its value is printed too).
   */
  centre?: number;
}

/**
 * A two-way table in a single sequential hue (lightness orders the values,
 * so it prints in grey) or, for an advantage table, a diverging palette
 * centred on even odds, with the value printed in every cell: white on the
 * dark part of the scale and black on the light part.
 */
export function heatmap(cells: readonly HeatCell[], options: HeatmapOptions): VegaLiteSpec {
  const values = cells.map((cell) => cell.value).filter(Number.isFinite);
  const domain = options.domain ?? (options.percent ? [0, 1] : [Math.min(...values), Math.max(...values)]);
  const span = domain[1] - domain[0] || 1;
  const facetOrder = options.facet?.order ?? [];
  const centre = options.centre;
  const reach = centre === undefined ? span : Math.max(centre - domain[0], domain[1] - centre) || 1;
  const data = cells.map((cell) => ({
    ...cell,
    dark: centre === undefined ? (cell.value - domain[0]) / span > 0.55 : Math.abs(cell.value - centre) / reach > 0.62,
    facetOrder: cell.facet === undefined ? 0 : facetOrder.indexOf(cell.facet),
  }));
  const colourScale =
    centre === undefined
      ? { scheme: 'blues', domain, clamp: true }
      : { scheme: 'redblue', domain, domainMid: centre, clamp: true };
  const rowCount = new Set(cells.map((cell) => cell.row)).size;
  const colCount = new Set(cells.map((cell) => cell.col)).size;
  const cellWidth = options.cellWidth ?? Math.max(30, Math.min(64, Math.floor(480 / colCount)));
  const cellHeight = options.cellHeight ?? Math.max(22, Math.min(40, cellWidth * 0.7));
  const format = options.percent ? '.3%' : '.4f';
  const inner = {
    width: { step: cellWidth },
    height: { step: cellHeight },
    encoding: {
      x: {
        field: 'col',
        type: 'ordinal',
        title: safeTitle(options.colTitle),
        sort: { field: 'colOrder', op: 'min' },
        // titleLimit: a column title never runs past its own table into the next panel's.
        axis: {
          orient: 'top',
          labelAngle: options.slantColumns ? -50 : 0,
          labelAlign: options.slantColumns ? 'left' : 'center',
          domain: false,
          ticks: false,
          labelPadding: 4,
          titleLimit: Math.max(60, cellWidth * colCount),
        },
      },
      y: {
        field: 'row',
        type: 'ordinal',
        title: safeTitle(options.rowTitle),
        sort: { field: 'rowOrder', op: 'min' },
        axis: { domain: false, ticks: false },
      },
    },
    layer: [
      {
        mark: { type: 'rect', stroke: 'white', strokeWidth: 1 },
        encoding: {
          color: {
            field: 'value',
            type: 'quantitative',
            title: safeTitle(options.valueTitle),
            scale: colourScale,
            legend: {
              orient: 'right',
              direction: 'vertical',
              format: options.percent ? '.0%' : undefined,
              gradientLength: Math.min(200, rowCount * cellHeight),
            },
          },
          tooltip: [
            { field: 'row', type: 'ordinal', title: safeTitle(options.rowTitle) },
            { field: 'col', type: 'ordinal', title: safeTitle(options.colTitle) },
            { field: 'value', type: 'quantitative', title: safeTitle(options.valueTitle), format },
            { field: 'lo', type: 'quantitative', title: 'interval low', format },
            { field: 'hi', type: 'quantitative', title: 'interval high', format },
          ],
        },
      },
      {
        mark: { type: 'text', baseline: 'middle', fontSize: options.fontSize ?? (cellWidth < 40 ? 9 : 11) },
        encoding: {
          text: { field: 'text' },
          color: { condition: { test: 'datum.dark', value: 'white' }, value: 'black' },
        },
      },
    ],
  };
  const common = { $schema: SCHEMA, config: CHART_CONFIG, data: { values: data } };
  if (!options.facet) return { ...common, ...inner };
  return {
    ...common,
    facet: {
      column: {
        field: 'facet',
        type: 'nominal',
        title: safeTitle(options.facet.title),
        sort: { field: 'facetOrder', op: 'min' },
        header: { labelOrient: 'top', titleOrient: 'top' },
      },
    },
    spacing: 16,
    spec: inner,
  };
}

const SPLIT_FONT_SIZE = 10.5;

/**
 * Whether text fits in `room` pixels: Helvetica's widest common glyphs
 * (digits, capitals, %) are at most 0.67 em, lower case about 0.5 em; the
 * estimate errs wide and keeps 8 px of margin, so a label that passes never
 * touches its segment's edges.
 */
export function fitsIn(text: string, fontSize: number, room: number): boolean {
  let ems = 0;
  for (const character of text)
    ems += /[A-Z%0-9<>]/.test(character) ? 0.67 : /[ .,:;il'’()|]/.test(character) ? 0.3 : 0.56;
  return ems * fontSize + 8 <= room;
}

/** One share of a split: e.g. "player A has the initiative, 52.3%". */
export interface SplitSegment {
  /** The row (the question) this share belongs to. */
  row: string;
  rowOrder: number;
  /** Who gets it. */
  segment: string;
  value: number;
  exact: number | null;
  text: string;
}

/**
 * Shares of 100% per row, as stacked bars with every share printed inside.
 * Segments are told apart by lightness (dark, light, lighter …), not hue.
 */
export function splitChart(
  segments: readonly SplitSegment[],
  options: { segmentTitle: string; segmentOrder: string[]; width?: number },
): VegaLiteSpec {
  // Eight fills for up to eight warbands; neighbours in the order differ most in lightness.
  const fills = ['#1f4e79', '#8fb2d6', '#dfe9f4', '#4f7fb0', '#bcd0e6', '#0b2239', '#7d8b99', '#c7c7c7'];
  const ink = ['white', 'black', 'black', 'white', 'black', 'white', 'white', 'black'];
  const rows: VegaLiteSpec[] = [];
  const byRow = new Map<string, SplitSegment[]>();
  for (const segment of segments) byRow.set(segment.row, [...(byRow.get(segment.row) ?? []), segment]);
  const width = options.width ?? FULL_WIDTH - 160;
  for (const list of byRow.values()) {
    let start = 0;
    for (const segment of [...list].sort(
      (a, b) => options.segmentOrder.indexOf(a.segment) - options.segmentOrder.indexOf(b.segment),
    )) {
      const index = Math.max(0, options.segmentOrder.indexOf(segment.segment)) % fills.length;
      const end = start + segment.value;
      const room = segment.value * width;
      const full = `${segment.segment} ${segment.text}`;
      // A label stays inside its segment: the name and value, else the value alone, else nothing (the legend and the
      // table say it).
      const label = fitsIn(full, SPLIT_FONT_SIZE, room)
        ? full
        : fitsIn(segment.text, SPLIT_FONT_SIZE, room)
          ? segment.text
          : '';
      rows.push({ ...segment, start, end, middle: (start + end) / 2, ink: ink[index], label });
      start = end;
    }
  }
  const y = {
    field: 'row',
    type: 'nominal',
    title: null,
    sort: { field: 'rowOrder', op: 'min' },
    axis: { labelLimit: 200 },
  };
  // The legend lists only who actually appears (an "undecided" share of zero is left out).
  const present = options.segmentOrder.filter((name) => rows.some((row) => row.segment === name));
  return {
    $schema: SCHEMA,
    config: CHART_CONFIG,
    data: { values: rows },
    width,
    height: { step: 34 },
    layer: [
      {
        mark: { type: 'bar', stroke: 'white', strokeWidth: 1 },
        encoding: {
          y,
          x: {
            field: 'start',
            type: 'quantitative',
            title: null,
            scale: { domain: [0, 1], nice: false },
            axis: { format: '.0%', tickCount: 4 },
          },
          x2: { field: 'end' },
          color: {
            field: 'segment',
            type: 'nominal',
            title: safeTitle(options.segmentTitle),
            sort: present,
            scale: {
              domain: present,
              range: present.map((name) => fills[options.segmentOrder.indexOf(name) % fills.length]),
            },
            // A long list of names wraps into rows rather than widening the chart past the page.
            legend: present.length > 3 ? { columns: 3 } : {},
          },
          tooltip: [
            { field: 'row', type: 'nominal', title: 'question' },
            { field: 'segment', type: 'nominal', title: safeTitle(options.segmentTitle) },
            { field: 'value', type: 'quantitative', title: 'share', format: '.3%' },
            { field: 'exact', type: 'quantitative', title: 'exact', format: '.3%' },
          ],
        },
      },
      {
        mark: { type: 'text', baseline: 'middle', fontSize: SPLIT_FONT_SIZE },
        encoding: {
          y,
          x: { field: 'middle', type: 'quantitative' },
          text: { field: 'label' },
          color: { field: 'ink', type: 'nominal', scale: null },
        },
      },
    ],
  };
}
