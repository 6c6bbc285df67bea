/**
 * A rule's declared run charts (src/contract/presentation.ts `ChartDecl`)
 * drawn for one run: split bars, bars or dots per category, lines per index.
 * A declaration whose metrics the run did not report draws nothing.
 */
import { bestOf } from '../../src/best-of.js';
import type { ChartDecl, PointSource, SplitRow, Words } from '../../src/contract/presentation.js';
import { own } from '../../src/keyed.js';
import type { MetricResult } from '../../src/result.js';
import { type IntervalPoint, intervalChart, lineChart, pointFrom } from '../charts/blocks.js';
import type { Chart, RunView } from '../charts/chart.js';
import { everyMetricChart } from '../charts/generic.js';
import { type SplitSegment, splitChart } from '../charts/split.js';
import { percent } from '../numbers.js';
import { fill, indicesOf, metricAt, type WordsContext } from './words.js';

const context = (view: RunView, index?: number): WordsContext => ({
  params: view.result.params,
  result: view.result,
  index,
});

/** A metric's figures divided by a parameter's value (interval and exact alike). */
function scaled(figures: MetricResult, by: number): MetricResult {
  const divide = (x: number | null) => (x === null ? null : x / by);
  return {
    estimate: divide(figures.estimate),
    lo: divide(figures.lo),
    hi: divide(figures.hi),
    exact: divide(figures.exact),
    fraction: null,
  };
}

/** The points one source gives; `next` is the order a point without an index takes. */
function sourcePoints(view: RunView, source: PointSource, percentDefault: boolean, next: number): IntervalPoint[] {
  const { result } = view;
  const names = Object.keys(result.metrics);
  const probability = source.probability ?? percentDefault;
  const simulated = result.method === 'simulation';
  const point = (metric: string, label: string, order: number, index?: number): IntervalPoint | null => {
    const raw = own(result.metrics, metric);
    if (!raw) return null;
    const figures = source.per === undefined ? raw : scaled(raw, Number(own(result.params, source.per)));
    const series = source.series === undefined ? {} : { series: fill(source.series, context(view, index)) };
    return pointFrom(figures, simulated, label, order, probability, series);
  };
  const found: Array<IntervalPoint | null> = [];
  if ('prefix' in source) {
    names
      .filter((name) => name.startsWith(source.prefix))
      .forEach((name, position) => {
        found.push(
          point(
            name,
            source.label === undefined ? name.slice(source.prefix.length) : fill(source.label, context(view)),
            position,
          ),
        );
      });
  } else if (source.metric.includes('{#i}')) {
    for (const index of indicesOf(names, source.metric))
      found.push(
        point(metricAt(source.metric, index), fill(source.label ?? '{#i}', context(view, index)), index, index),
      );
  } else {
    // A metric's own label is the rule's text, not words with placeholders.
    const label =
      source.label === undefined
        ? (view.metrics.find((metric) => metric.name === source.metric)?.label ?? source.metric)
        : fill(source.label, context(view));
    found.push(point(source.metric, label, next));
  }
  return found.filter((p): p is IntervalPoint => p !== null);
}

function allPoints(view: RunView, sources: readonly PointSource[], percentDefault: boolean): IntervalPoint[] {
  const points: IntervalPoint[] = [];
  for (const source of sources) {
    const last = points.length === 0 ? -1 : Math.max(...points.map((p) => p.order));
    points.push(...sourcePoints(view, source, percentDefault, last + 1));
  }
  return points;
}

/** The value a split shows: exact where known, else the estimate. */
function best(view: RunView, metric: string): { value: number; exact: number | null } | null {
  const figures = own(view.result.metrics, metric);
  if (!figures) return null;
  const value = bestOf(figures);
  return Number.isFinite(value) ? { value, exact: figures.exact } : null;
}

/** One row's segments, [] where a metric is missing; `shares` lists the share words in order for the legend. */
function splitSegments(
  view: RunView,
  row: SplitRow,
  rowOrder: number,
  outer: number | undefined,
  shares: string[],
): SplitSegment[] {
  if ('oneOf' in row) {
    for (const choice of row.oneOf) {
      const segments = splitSegments(view, choice, rowOrder, outer, shares);
      if (segments.length > 0) return segments;
    }
    return [];
  }
  const label = fill(row.label, context(view, outer));
  const segment = (name: string, value: number, exact: number | null): SplitSegment => ({
    row: label,
    rowOrder,
    segment: name,
    value,
    exact,
    text: percent(value, 1),
  });
  if ('metric' in row) {
    const figures = best(view, row.metric);
    if (!figures) return [];
    const [first, second] = (row.sides ?? ['player A', 'player B']).map((side) => fill(side, context(view, outer)));
    shares.push(first, second);
    return [
      segment(first, figures.value, figures.exact),
      segment(second, 1 - figures.value, figures.exact === null ? null : 1 - figures.exact),
    ];
  }
  const names = Object.keys(view.result.metrics);
  const within = (text: string) => (outer === undefined ? text : text.replaceAll('{#row}', String(outer)));
  const expanded =
    row.each === undefined
      ? row.shares.map((share) => ({ share, index: outer }))
      : indicesOf(names, within(row.each)).flatMap((index) => row.shares.map((share) => ({ share, index })));
  const segments: SplitSegment[] = [];
  let total = 0;
  for (const { share, index } of expanded) {
    const metric = within(index === undefined ? share.metric : metricAt(share.metric, index));
    const figures = best(view, metric);
    if (!figures) return [];
    total += figures.value;
    const name = fill(share.segment, context(view, index));
    shares.push(name);
    segments.push(segment(name, figures.value, figures.exact));
  }
  const rest = 1 - total;
  if (rest > 5e-4) segments.push(segment(fill(row.remainder ?? 'neither', context(view, outer)), rest, null));
  return segments;
}

const unique = (items: readonly string[]) => [...new Set(items)];

/** One declared chart, or null where the run has nothing for it. */
export function declaredChart(view: RunView, decl: Exclude<ChartDecl, { kind: 'every' }>): Chart | null {
  const words = (text: Words, anyExact = false) => fill(text, { ...context(view), anyExact });
  if (decl.kind === 'split') {
    const outers = decl.each === undefined ? [undefined] : indicesOf(Object.keys(view.result.metrics), decl.each);
    const segments: SplitSegment[] = [];
    const shares: string[] = [];
    outers.forEach((outer, n) => {
      decl.rows.forEach((row, r) => {
        const order = decl.each === undefined ? r : n * decl.rows.length + r;
        segments.push(...splitSegments(view, row, order, outer, shares));
      });
    });
    if (segments.length === 0) return null;
    const order = decl.segmentOrder ? decl.segmentOrder.map((text) => words(text)) : unique(shares);
    return {
      id: decl.id,
      title: words(decl.title),
      caption: words(decl.caption),
      spec: splitChart(segments, { segmentTitle: decl.segmentTitle, segmentOrder: order }),
    };
  }
  if (decl.kind === 'lines') {
    let points = allPoints(view, decl.points, decl.percent);
    if (points.length === 0) return null;
    if (decl.byIndex)
      points = points
        .map((p, at) => ({ p, at }))
        .sort((x, y) => x.p.order - y.p.order || x.at - y.at)
        .map(({ p }) => p);
    return {
      id: decl.id,
      title: words(decl.title),
      caption: words(
        decl.caption,
        points.some((p) => p.exact !== null),
      ),
      spec: lineChart(points, {
        xTitle: decl.xTitle,
        yTitle: decl.yTitle,
        percent: decl.percent,
        seriesTitle: decl.seriesTitle,
        seriesOrder: decl.seriesOrder.map((text) => words(text)),
        labels: decl.labels ?? true,
        ...(decl.height === undefined ? {} : { height: decl.height }),
      }),
    };
  }
  const points = allPoints(view, decl.points, decl.percent);
  if (points.length === 0) return null;
  return {
    id: decl.id,
    title: words(decl.title),
    caption: words(
      decl.caption,
      points.some((p) => p.exact !== null),
    ),
    spec: intervalChart(points, {
      orientation: decl.orientation,
      categoryTitle: decl.categoryTitle,
      valueTitle: decl.valueTitle,
      percent: decl.percent,
      bars: decl.kind === 'bars',
      ...(decl.series
        ? { series: { title: decl.series.title, order: decl.series.order.map((text) => words(text)) } }
        : {}),
      ...(decl.step === undefined ? {} : { step: decl.step }),
    }),
  };
}

/**
 * The declared charts of one run, in order; `every` draws the dot plot of every metric (with `whenMissing`, only
 * when another declared chart drew nothing). [] when none of the rule's own charts drew: the caller falls back on
 * the generic ones.
 */
export function declaredCharts(view: RunView, decls: readonly ChartDecl[]): Chart[] {
  const drawn = decls.map((decl) => (decl.kind === 'every' ? null : declaredChart(view, decl)));
  if (!drawn.some((chart) => chart !== null)) return [];
  const missing = decls.some((decl, i) => decl.kind !== 'every' && drawn[i] === null);
  const charts: Chart[] = [];
  decls.forEach((decl, i) => {
    if (decl.kind !== 'every') {
      if (drawn[i]) charts.push(drawn[i]);
    } else if (!decl.whenMissing || missing) {
      const every = everyMetricChart(view);
      if (every) charts.push(every);
    }
  });
  return charts;
}
