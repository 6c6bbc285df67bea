/**
 * The card of a rule that declares none (a rule file without a
 * `presentation.card`): its declared matrix as heatmaps over the matrix's
 * axis (`--range` through the matrix's own parser), else its headline
 * figures — probabilities on a 0–100% axis, means in a table of their own.
 */

import { checkMatrixMetrics } from '../../src/analysis/metrics.js';
import type { MetricSpec, Params, ParamValue, Rule } from '../../src/contract/types.js';
import { resolveParams } from '../../src/rules/params.js';
import { type IntervalPoint, intervalChart, metricPoint } from '../charts/blocks.js';
import { matrixChart } from '../charts/generic.js';
import { percent } from '../numbers.js';
import { axisValues, type CardBlock, type CardDesign, evaluated, figure, PLOT, table } from './cards.js';

const safeId = (text: string) => text.replace(/[^A-Za-z0-9.-]+/g, '-');

/** Heatmaps of the metrics a rule file's `matrix` tabulates, the rows and columns over its values. */
function matrixCard(rule: Rule): CardDesign {
  const spec = rule.presentation!.matrix!;
  const grid = (params: Params, values: readonly ParamValue[]) =>
    values.flatMap((rowValue) =>
      values.map((colValue) => resolveParams(rule, [], { ...params, [spec.row]: rowValue, [spec.col]: colValue })),
    );
  return {
    accepts: { range: spec.parseRange !== undefined, against: false },
    plan(_rule, params, options) {
      checkMatrixMetrics(rule, rule.metrics(params), spec.metrics);
      return grid(params, axisValues(rule, params, options, { from: 'matrix' }));
    },
    layout(_rule, params, options, results) {
      const values = axisValues(rule, params, options, { from: 'matrix' });
      const count = spec.metrics.length;
      const fit = { width: PLOT.width, height: count === 1 ? PLOT.height : Math.floor((PLOT.height - 80) / count) };
      const blocks: CardBlock[] = spec.metrics.map((metric) => ({
        kind: 'chart',
        chart: matrixChart(rule, spec.row, spec.col, values, values, metric, evaluated(results), '', undefined, fit),
      }));
      return { title: rule.title, subtitle: rule.summary, blocks, varied: [spec.row, spec.col] };
    },
  };
}

/**
 * The headline metrics, else every metric, probabilities first (a mean such as the squads lost is as much the answer
 * as a chance), at most 24.
 */
function chosenMetrics(metrics: readonly MetricSpec[], named: readonly string[]): MetricSpec[] {
  const chosen = named.length > 0 ? metrics.filter((metric) => named.includes(metric.name)) : [];
  const every = [...metrics.filter((metric) => metric.probability), ...metrics.filter((metric) => !metric.probability)];
  return (chosen.length > 0 ? chosen : every).slice(0, 24);
}

const headlineCard: CardDesign = {
  accepts: { range: false, against: false },
  plan: (rule, params) => [resolveParams(rule, [], params)],
  layout(rule, _params, _options, [result]) {
    const list = chosenMetrics(rule.metrics(result.params), rule.presentation?.headline?.(result.params) ?? []);
    const probabilities = list.filter((metric) => metric.probability);
    const means = list.filter((metric) => !metric.probability);
    const blocks: CardBlock[] = [];
    const points = probabilities
      .map((metric, index) => metricPoint(result, metric.name, metric.label ?? metric.name, index, true))
      .filter((point): point is IntervalPoint => point !== null);
    const how =
      result.method === 'exact'
        ? 'Exact values.'
        : `● estimate with its ${percent(result.confidence, 0)} interval${
            points.some((p) => p.exact !== null) ? '; ◇ exact value' : ''
          }.`;
    if (points.length > 0)
      blocks.push({
        kind: 'chart',
        chart: {
          id: safeId(`${rule.id}-headline`),
          title: 'The odds',
          caption: how,
          spec: intervalChart(points, {
            orientation: 'horizontal',
            categoryTitle: '',
            valueTitle: 'probability',
            percent: true,
            bars: true,
            width: 420,
          }),
        },
      });
    if (means.length > 0)
      blocks.push({
        kind: 'table',
        id: safeId(`${rule.id}-means`),
        title: 'Expected values',
        html: table(
          ['', 'expected'],
          means.map((metric) => [metric.label ?? metric.name, figure(result, metric.name, false)]),
          (column) => column > 0,
        ),
        caption:
          result.method === 'exact'
            ? 'Exact values.'
            : `Estimates ± the half-width of their ${percent(result.confidence, 0)} intervals.`,
      });
    return { title: rule.title, subtitle: rule.summary, blocks };
  },
};

/** The generic card: the matrix a rule declares, else its headline figures. */
export function genericDesign(rule: Rule): CardDesign {
  return rule.presentation?.matrix ? matrixCard(rule) : headlineCard;
}
