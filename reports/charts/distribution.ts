/**
 * A distribution metric drawn whole (docs/json.md, "A distribution"): a bar
 * for each value's chance, exact where known (◇) and simulated with its
 * interval (●) otherwise, and the at-least and at-most tails one click away
 * — a radio bound to the chart on screen, one panel each in print.
 *
 *   DistributionResult ─► rows, one per value and view (each value, at least, at most; the chance past the last
 *   value listed as its own bar) ─► layers (bar, interval, estimate, exact) ─► on screen: one chart, the view a
 *   radio param; in print: the three views stacked
 *
 * The plot is 250 px wide, so the chart with its axes fits a phone's 339-px column without shrinking its 11-px
 * text; bars narrow as values grow and the axis keeps the labels that fit.
 */

import type { MetricSpec } from '../../src/contract/types.js';
import { own } from '../../src/keyed.js';
import type { DistributionResult } from '../../src/result-distribution.js';
import { percent } from '../numbers.js';
import { BAR_FILL, CHART_CONFIG, ESTIMATE_INK, EXACT_INK } from '../theme.js';
import { markerKey } from './blocks.js';
import type { Chart, RunView, VegaLiteSpec } from './chart.js';
import { SCHEMA, safeTitle } from './vega-title.js';

/** The three ways a distribution reads: each value's chance, and the chance of it or more, or of it or less. */
export const DISTRIBUTION_VIEWS = [
  { key: 'each', title: 'P(=)', words: 'each value' },
  { key: 'at least', title: 'P(≥)', words: 'at least' },
  { key: 'at most', title: 'P(≤)', words: 'at most' },
] as const;
export type DistributionView = (typeof DISTRIBUTION_VIEWS)[number]['key'];

/** The plot's width in CSS pixels: with the axes it stays inside a phone's 339-px column. */
export const DISTRIBUTION_PLOT_WIDTH = 250;

/** One bar: a value (or "past the last listed") in one view. */
export interface DistributionBar {
  view: DistributionView;
  /** The value as the axis prints it: "3", or ">13" for everything past the last value listed. */
  label: string;
  order: number;
  estimate: number | null;
  lo: number | null;
  hi: number | null;
  exact: number | null;
  /** The exact chance as a fraction, where known. */
  fraction: string | null;
  /** The height drawn: the exact chance where known, else the estimate. */
  best: number;
  /** What a screen reader (and a test) reads for the bar. */
  description: string;
}

interface ChanceLike {
  estimate: number | null;
  lo: number | null;
  hi: number | null;
  exact: number | null;
  fraction: string | null;
}

function bar(view: DistributionView, label: string, order: number, chance: ChanceLike): DistributionBar | null {
  const best = chance.exact ?? chance.estimate;
  if (best === null || !Number.isFinite(best)) return null;
  const words = DISTRIBUTION_VIEWS.find((v) => v.key === view)?.title ?? view;
  const parts: string[] = [];
  if (chance.estimate !== null)
    parts.push(
      `${percent(chance.estimate, 3)} simulated (${percent(chance.lo ?? chance.estimate, 3)} to ` +
        `${percent(chance.hi ?? chance.estimate, 3)})`,
    );
  if (chance.exact !== null) parts.push(`${chance.fraction ?? percent(chance.exact, 3)} exact`);
  return {
    view,
    label,
    order,
    estimate: chance.estimate,
    lo: chance.lo,
    hi: chance.hi,
    exact: chance.exact,
    fraction: chance.fraction,
    best,
    description: `${words.replace(')', ` ${label})`)}: ${parts.join('; ')}`,
  };
}

/**
 * Every bar of a distribution, in every view. The chance past the last value listed (a distribution without end)
 * is its own bar, `>n`, in the each-value and at-least views; in the at-most view it is the rest of 1.
 */
export function distributionBars(distribution: DistributionResult): DistributionBar[] {
  const bars: Array<DistributionBar | null> = [];
  distribution.values.forEach((entry, order) => {
    const label = String(entry.value);
    bars.push(bar('each', label, order, entry));
    bars.push(bar('at least', label, order, entry.atLeast));
    bars.push(bar('at most', label, order, entry.atMost));
  });
  const beyond = distribution.beyond;
  if (beyond && ((beyond.exact ?? 0) > 0 || (beyond.estimate ?? 0) > 0)) {
    const label = `>${beyond.above}`;
    bars.push(bar('each', label, distribution.values.length, beyond));
    bars.push(bar('at least', label, distribution.values.length, beyond));
  }
  return bars.filter((b): b is DistributionBar => b !== null);
}

/** Characters of an axis title a line: about the plot's width at 11 px (some 6.5 px a character). */
const TITLE_LINE = Math.floor(DISTRIBUTION_PLOT_WIDTH / 6.5);

/**
 * The value axis's title in lines that fit the plot, broken between words: one long line ("defender's platoons on
 * the table when it can first win, turn 6") widened the chart past a phone's box.
 */
export function wrapTitle(text: string): string | string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of safeTitle(text).split(' ')) {
    if (line !== '' && line.length + 1 + word.length > TITLE_LINE) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  lines.push(line);
  return lines.length === 1 ? lines[0] : lines;
}

/**
 * The marks of one view: the bar to the best value, the interval and estimate where simulated, the exact diamond
 * where known (a layer with nothing to draw would leave its scale an empty extent, which vega warns of).
 */
function layers(bars: readonly DistributionBar[], valueTitle: string) {
  const labels = [...new Set(bars.map((bar) => bar.label))];
  const stride = Math.ceil(labels.length / Math.floor(DISTRIBUTION_PLOT_WIDTH / 28));
  const labelled = labels.filter((_, index) => index % stride === 0);
  const x = {
    field: 'label',
    type: 'ordinal',
    title: wrapTitle(valueTitle),
    sort: { field: 'order', op: 'min' },
    // Every stride-th value labelled, as many as fit the plot at 11 px (a label is up to 4 characters, about 28 px):
    // vega's own overlap removal only hides the others, whose boxes a layout check still finds.
    axis: { labelAngle: 0, labelOverlap: false, values: labelled },
    scale: { type: 'band', paddingInner: 0.2 },
  };
  const y = (field: string) => ({
    field,
    type: 'quantitative',
    title: 'chance',
    axis: { format: '.0%', tickCount: 5 },
    scale: { zero: true, domainMin: 0 },
  });
  const tooltip = [
    { field: 'label', type: 'nominal', title: 'value' },
    { field: 'exact', type: 'quantitative', title: 'exact', format: '.4%' },
    { field: 'fraction', type: 'nominal', title: 'fraction' },
    { field: 'estimate', type: 'quantitative', title: 'estimate', format: '.4%' },
    { field: 'lo', type: 'quantitative', title: 'interval low', format: '.4%' },
    { field: 'hi', type: 'quantitative', title: 'interval high', format: '.4%' },
  ];
  const simulated = bars.some((b) => b.estimate !== null);
  const exact = bars.some((b) => b.exact !== null);
  return [
    {
      mark: { type: 'bar', color: BAR_FILL, stroke: ESTIMATE_INK, strokeWidth: 0.5 },
      encoding: { x, y: y('best'), tooltip, description: { field: 'description', type: 'nominal' } },
    },
    ...(simulated
      ? [
          {
            transform: [{ filter: 'isValid(datum.lo) && isValid(datum.hi)' }],
            mark: { type: 'rule', color: ESTIMATE_INK, strokeWidth: 1.6, aria: false },
            encoding: { x, y: y('lo'), y2: { field: 'hi' } },
          },
          {
            transform: [{ filter: 'isValid(datum.estimate)' }],
            mark: { type: 'point', filled: true, size: 28, color: ESTIMATE_INK, aria: false },
            encoding: { x, y: y('estimate') },
          },
        ]
      : []),
    ...(exact
      ? [
          {
            transform: [{ filter: 'isValid(datum.exact)' }],
            mark: {
              type: 'point',
              shape: 'diamond',
              filled: false,
              size: 46,
              color: EXACT_INK,
              strokeWidth: 1.3,
              aria: false,
            },
            encoding: { x, y: y('exact') },
          },
        ]
      : []),
  ];
}

/** The chart on screen: one plot, the view chosen by a radio under it (each value first). */
export function distributionSpec(bars: readonly DistributionBar[], valueTitle: string): VegaLiteSpec {
  return {
    $schema: SCHEMA,
    config: CHART_CONFIG,
    data: { values: bars },
    params: [
      {
        name: 'view',
        value: 'each',
        bind: {
          input: 'radio',
          options: DISTRIBUTION_VIEWS.map((v) => v.key),
          labels: DISTRIBUTION_VIEWS.map((v) => `${v.words} ${v.title}`),
          name: 'show ',
        },
      },
    ],
    transform: [{ filter: 'datum.view === view' }],
    width: DISTRIBUTION_PLOT_WIDTH,
    height: 170,
    layer: layers(bars, valueTitle),
  };
}

/** One view alone (a card's panel draws each value's chance), `height` pixels tall. */
export function distributionViewSpec(
  bars: readonly DistributionBar[],
  valueTitle: string,
  view: DistributionView,
  height: number,
): VegaLiteSpec {
  const shown = bars.filter((bar) => bar.view === view);
  return {
    $schema: SCHEMA,
    config: CHART_CONFIG,
    data: { values: shown },
    width: DISTRIBUTION_PLOT_WIDTH,
    height,
    layer: layers(shown, valueTitle),
  };
}

/** The chart in print: the three views stacked, each titled. */
export function distributionPrintSpec(bars: readonly DistributionBar[], valueTitle: string): VegaLiteSpec {
  return {
    $schema: SCHEMA,
    config: CHART_CONFIG,
    data: { values: bars },
    vconcat: DISTRIBUTION_VIEWS.map((view) => ({
      title: { text: `${view.words} ${view.title}`, fontSize: 12 },
      transform: [{ filter: { field: 'view', equal: view.key } }],
      width: DISTRIBUTION_PLOT_WIDTH,
      height: 120,
      layer: layers(bars, valueTitle),
    })),
  };
}

/** A distribution chart: on screen (`print` false) with the radio, or the three print panels. */
export function distributionChart(
  view: Pick<RunView, 'rule' | 'result'>,
  metric: MetricSpec,
  distribution: DistributionResult,
  print: boolean,
): Chart {
  const bars = distributionBars(distribution);
  const words = metric.label ?? metric.name;
  const valueTitle = metric.label?.replace(/\s*\(expected\)$/, '') ?? metric.name;
  const sim = view.result.method === 'simulation';
  const mean = own(view.result.metrics, metric.name);
  const moments = [
    mean && (mean.exact ?? mean.estimate) !== null ? `mean ${(mean.exact ?? mean.estimate ?? 0).toFixed(3)}` : '',
    distribution.sd.exact !== null || distribution.sd.estimate !== null
      ? `sd ${(distribution.sd.exact ?? distribution.sd.estimate ?? 0).toFixed(3)}`
      : '',
    distribution.median.exact !== null || distribution.median.estimate !== null
      ? `median ${distribution.median.exact ?? distribution.median.estimate}`
      : '',
  ].filter(Boolean);
  const beyond = bars.some((b) => b.label.startsWith('>'))
    ? ` The last bar is everything past ${distribution.beyond?.above}.`
    : '';
  const unseen =
    sim && distribution.unseen && distribution.unseen.length > 0
      ? ` Never seen in the simulation: ${distribution.unseen.join(', ')}.`
      : '';
  const how = print
    ? 'Each value’s chance, then the chance of at least and of at most each value.'
    : 'Each value’s chance; choose at least or at most under the chart for the tails.';
  const id = `${view.rule.id}-distribution-${metric.name}`.replace(/[^A-Za-z0-9.-]+/g, '-');
  return {
    id: print ? `${id}-print` : id,
    title: `${view.rule.title}: ${words.replace(/\s*\(expected\)$/, '')}, the whole distribution`,
    caption:
      `${metric.doc}${/[.!?]$/.test(metric.doc) ? '' : '.'} ${how} ${moments.join(' · ')}.${beyond}${unseen} ` +
      markerKey(
        view.result,
        bars.some((b) => b.exact !== null),
      ),
    spec: print ? distributionPrintSpec(bars, valueTitle) : distributionSpec(bars, valueTitle),
  };
}

/** Each distribution metric of a run, on screen and in print (in that order). */
export function distributionCharts(view: RunView): Array<{ screen: Chart; print: Chart }> {
  const found = view.result.distributions;
  if (!found) return [];
  return view.metrics
    .filter((metric) => metric.distribution && own(found, metric.name))
    .map((metric) => {
      const distribution = own(found, metric.name) as DistributionResult;
      return {
        screen: distributionChart(view, metric, distribution, false),
        print: distributionChart(view, metric, distribution, true),
      };
    });
}
