/**
 * `sweep … --best METRIC[:max|min]`: the best point of a sweep for one
 * metric, and whether it beats the runner-up for certain (exact values
 * differ), beyond noise (the two intervals do not overlap), or not.
 */
import { own } from '../keyed.js';
import type { MetricResult } from '../result.js';
import { UsageError } from '../errors.js';
import type { MetricSpec, Params, Rule } from '../rules/types.js';
import type { SweepBest, SweepResult } from '../../reports/sweep.js';
import { formatParams, formatValue } from './format.js';
import { didYouMean } from './suggest.js';

export function parseBest(rule: Rule, metrics: readonly MetricSpec[], raw: string): { metric: MetricSpec; goal: 'max' | 'min' } {
  const match = /^(.*?)(?::(max|min))?$/.exec(raw.trim());
  const name = match?.[1] ?? '';
  const goal = (match?.[2] ?? 'max') as 'max' | 'min';
  const metric = metrics.find((m) => m.name === name);
  if (!metric) {
    const names = metrics.map((m) => m.name);
    throw new UsageError(`--best: got ${JSON.stringify(raw)}${didYouMean(name, names)}; allowed: one metric name of ${rule.id} (muster describe ${rule.id}), such as ${names[0]}, or ${names[0]}:min for the lowest`);
  }
  return { metric, goal };
}

/**
 * The best point: by exact value where every point has one, else by
 * estimate. The runner-up is the best point whose value differs from the
 * best one's params (ties with equal exact values are reported as ties).
 * "Beyond noise" compares the two points' intervals: when they do not
 * overlap the difference is significant at (at least) the intervals'
 * level; with a shared seed the points are positively correlated, which
 * makes the overlap check conservative.
 */
export function findBest(sweep: SweepResult, metric: string, goal: 'max' | 'min'): SweepBest {
  // Own entries only: a point without a metric named `constructor` does not have it.
  const figures = (point: SweepResult['points'][number]) => own(point.metrics, metric) as MetricResult;
  const points = sweep.points.filter((point) => figures(point) !== undefined);
  if (points.length === 0) throw new UsageError(`--best: no point of the sweep has ${metric}; allowed: a metric the swept points report`);
  const exact = points.every((point) => figures(point).exact !== null);
  const valueOf = (point: (typeof points)[number]) => (exact ? (figures(point).exact as number) : (figures(point).estimate as number));
  const sign = goal === 'max' ? -1 : 1;
  const ranked = [...points].sort((a, b) => sign * (valueOf(a) - valueOf(b)));
  const [best, runnerUp] = ranked;
  const value = valueOf(best);
  const params: Params = best.params;
  if (!runnerUp) return { metric, goal, params, value, runnerUp: null, decided: 'alone' };
  const second = valueOf(runnerUp);
  let decided: SweepBest['decided'];
  if (exact) {
    decided = value === second ? 'tied' : 'exactly';
  } else {
    const a = figures(best);
    const b = figures(runnerUp);
    const apart = goal === 'max' ? (a.lo as number) > (b.hi as number) : (a.hi as number) < (b.lo as number);
    decided = apart ? 'beyond noise' : 'within noise';
  }
  return { metric, goal, params, value, runnerUp: { params: runnerUp.params, value: second }, decided };
}

/** One sentence: which point is best, and by how much and how surely it beats the runner-up. */
export function bestSentence(best: SweepBest, metric: MetricSpec): string {
  const show = (x: number) => formatValue(x, metric.probability);
  const head = `best ${metric.name} (${best.goal === 'max' ? 'highest' : 'lowest'}): ${formatParams(best.params)} at ${show(best.value)}`;
  if (!best.runnerUp) return `${head}, the only point.`;
  const other = `${formatParams(best.runnerUp.params)} at ${show(best.runnerUp.value)}`;
  switch (best.decided) {
    case 'tied':
      return `${head}, tied exactly with ${other}.`;
    case 'exactly':
      return `${head}; it beats the runner-up, ${other}, exactly (exact values).`;
    case 'beyond noise':
      return `${head}; it beats the runner-up, ${other}, beyond noise (the intervals do not overlap).`;
    default:
      return `${head}; but the runner-up, ${other}, is within noise of it (the intervals overlap): simulate more trials or use --exact.`;
  }
}
