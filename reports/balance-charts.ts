/**
 * The balance map's charts, apart from the page around them (./balance.ts) so
 * that the calculator page draws the same ones: two varied parameters draw a
 * heat map coloured away from the target (light at the target, dark at either
 * extreme, so a grey printout still reads), the target's contour drawn between
 * neighbouring cells on either side of it and the nearest cells outlined; one
 * draws the metric as a line with the target as a rule across it. Nothing here
 * computes: it reads the result src/analysis/balance.ts assembles.
 */
import type { BalanceResult } from '../src/analysis/balance.js';
import type { MetricSpec, ParamValue, Rule } from '../src/contract/types.js';
import { own } from '../src/keyed.js';
import { formatParams } from '../src/output/format.js';
import { bestOf, type MetricResult } from '../src/result.js';
import type { Chart, VegaLiteSpec } from './charts/chart.js';
import { type HeatCell, heatmap } from './charts/heatmap.js';
import { SCHEMA, safeTitle } from './charts/vega-title.js';
import { percent } from './numbers.js';
import { CHART_CONFIG, EXACT_INK, SERIES_COLOURS } from './theme.js';

/** The contour's ink: the palette's orange, apart from the heat map's red–blue. */
const CONTOUR_INK = SERIES_COLOURS[1];

type Point = BalanceResult['points'][number];

/** The figure a point is drawn at: the value the balance compared (exact where it compared exact values). */
function figure(point: Point, metric: MetricSpec, exact: boolean): number | undefined {
  const value = own(point.metrics, metric.name) as MetricResult | undefined;
  if (!value) return undefined;
  const shown = exact ? value.exact : bestOf(value);
  return shown === null || Number.isNaN(shown) ? undefined : shown;
}

/** A point's position in each --vary list: where it sits on the map. */
function positionOf(result: BalanceResult, point: Point): number[] {
  return result.vary.map((vary) =>
    vary.values.findIndex((value) => String(value) === String(own(point.params, vary.name))),
  );
}

/**
 * The edges of a cell the target's contour runs along, as an SVG path in the symbol's [−1, 1] box: the right edge
 * where the cell to the right lies on the other side of the target, the bottom edge likewise below. `aspect` is the
 * cell's height over its width (the symbol is a square as wide as the cell).
 */
function contourPath(right: boolean, below: boolean, aspect: number): string {
  const h = +aspect.toFixed(4);
  return [right ? `M1,${-h}L1,${h}` : '', below ? `M-1,${h}L1,${h}` : ''].join('');
}

/** The balance map of two parameters: the heat map, the contour, the nearest cells outlined. */
function mapChart(rule: Rule, result: BalanceResult, metric: MetricSpec): Chart {
  const { balance } = result;
  const [down, across] = result.vary;
  const target = balance.target.value;
  const nearest = new Set(balance.nearest.map((point) => formatParams(point.params)));
  const values = new Map<string, number>();
  for (const point of result.points) {
    const value = figure(point, metric, balance.exact);
    if (value !== undefined) values.set(positionOf(result, point).slice(0, 2).join(','), value);
  }
  const side = (i: number, j: number) => {
    const value = values.get(`${i},${j}`);
    return value === undefined ? undefined : Math.sign(value - target);
  };
  const crosses = (a: number | undefined, b: number | undefined) => a !== undefined && b !== undefined && a * b < 0;
  const colCount = across.values.length;
  const cellWidth = Math.max(30, Math.min(64, Math.floor(480 / colCount)));
  const cellHeight = Math.max(22, Math.min(40, cellWidth * 0.7));
  const cells: Array<HeatCell & { fair: boolean; contour: string }> = [];
  for (const point of result.points) {
    const value = figure(point, metric, balance.exact);
    if (value === undefined) continue;
    const [i, j] = positionOf(result, point);
    const here = side(i, j);
    cells.push({
      row: String(down.values[i]),
      col: String(across.values[j]),
      rowOrder: i,
      colOrder: j,
      value,
      text: metric.probability ? percent(value, 1) : value.toFixed(3),
      fair: nearest.has(formatParams(point.params)),
      contour: contourPath(crosses(here, side(i, j + 1)), crosses(here, side(i + 1, j)), cellHeight / cellWidth),
    });
  }
  const spread = [...values.values()];
  const domain: [number, number] = metric.probability ? [0, 1] : [Math.min(...spread), Math.max(...spread)];
  const centred = target > domain[0] && target < domain[1];
  const spec = heatmap(cells, {
    rowTitle: down.name,
    colTitle: across.name,
    valueTitle: metric.name,
    percent: metric.probability,
    domain,
    cellWidth,
    cellHeight,
    slantColumns: across.values.some((value) => String(value).length > 6),
    ...(centred ? { centre: target } : {}),
  }) as VegaLiteSpec & { layer: unknown[] };
  spec.layer.push(
    {
      transform: [{ filter: 'datum.fair' }],
      mark: { type: 'rect', fill: null, stroke: EXACT_INK, strokeWidth: 3 },
    },
    {
      transform: [{ filter: "datum.contour !== ''" }],
      mark: { type: 'point', filled: false, stroke: CONTOUR_INK, strokeWidth: 3, strokeCap: 'square', opacity: 1 },
      encoding: {
        shape: { field: 'contour', type: 'nominal', scale: null },
        size: { value: cellWidth * cellWidth },
      },
    },
  );
  return {
    id: 'balance-map',
    title: `${rule.title}: ${metric.name} by ${down.name} and ${across.name}, target ${balance.target.text}`,
    caption:
      `${metric.doc}. Rows ${down.name}, columns ${across.name}. ` +
      `${centred ? 'Light cells are near the target, dark ones far from it on either side; ' : ''}` +
      `the orange line runs between neighbouring cells on either side of the target (its contour); ` +
      `the outlined cell${balance.nearest.length === 1 ? ' is' : 's are'} nearest the target. ` +
      `${balance.exact ? 'Exact values.' : 'Simulated estimates.'}`,
    spec,
  };
}

/** One parameter: the metric as a line, the target as a rule across it, the nearest settings ringed. */
function lineOfOne(rule: Rule, result: BalanceResult, metric: MetricSpec): Chart {
  const { balance } = result;
  const [only] = result.vary;
  const nearest = new Set(balance.nearest.map((point) => formatParams(point.params)));
  const data = result.points.flatMap((point) => {
    const value = figure(point, metric, balance.exact);
    if (value === undefined) return [];
    return [
      {
        setting: String(own(point.params, only.name) as ParamValue),
        order: positionOf(result, point)[0],
        value,
        fair: nearest.has(formatParams(point.params)),
      },
    ];
  });
  const format = metric.probability ? '.1%' : '.3f';
  const x = {
    field: 'setting',
    type: 'ordinal',
    title: safeTitle(only.name),
    sort: { field: 'order', op: 'min' },
    axis: { labelAngle: 0 },
  };
  const y = {
    field: 'value',
    type: 'quantitative',
    title: safeTitle(metric.name),
    axis: { format },
    ...(metric.probability ? { scale: { domain: [0, 1] } } : { scale: { zero: false } }),
  };
  const spec: VegaLiteSpec = {
    $schema: SCHEMA,
    config: CHART_CONFIG,
    width: Math.min(620, Math.max(240, data.length * 40)),
    height: 260,
    layer: [
      {
        data: { values: data },
        mark: { type: 'line', point: { filled: true, size: 40 }, color: '#1f4e79' },
        encoding: {
          x,
          y,
          tooltip: [
            { field: 'setting', type: 'ordinal', title: safeTitle(only.name) },
            { field: 'value', type: 'quantitative', title: safeTitle(metric.name), format },
          ],
        },
      },
      {
        data: { values: data },
        transform: [{ filter: 'datum.fair' }],
        mark: { type: 'point', size: 260, strokeWidth: 3, filled: false, color: EXACT_INK },
        encoding: { x, y },
      },
      {
        data: { values: [{ target: balance.target.value }] },
        mark: { type: 'rule', color: CONTOUR_INK, strokeWidth: 2, strokeDash: [6, 4] },
        encoding: { y: { field: 'target', type: 'quantitative' } },
      },
    ],
  };
  return {
    id: 'balance-line',
    title: `${rule.title}: ${metric.name} by ${only.name}, target ${balance.target.text}`,
    caption:
      `${metric.doc}. The dashed orange rule is the target; the ringed point${balance.nearest.length === 1 ? ' is' : 's are'} ` +
      `nearest it. ${balance.exact ? 'Exact values.' : 'Simulated estimates.'}`,
    spec,
  };
}

/** The map for one or two varied parameters; none for more (the words and the JSON answer those). */
export function balanceCharts(rule: Rule, result: BalanceResult, metric: MetricSpec): Chart[] {
  if (result.points.length === 0) return [];
  if (result.vary.length === 1) return [lineOfOne(rule, result, metric)];
  if (result.vary.length === 2) return [mapChart(rule, result, metric)];
  return [];
}
