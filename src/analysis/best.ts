/**
 * `sweep … --best METRIC[:max|min]`: the best point of a sweep for one
 * metric, and whether it beats the runner-up for certain (exact values
 * differ), beyond noise (the two intervals do not overlap), or not.
 */

import type { MetricSpec, Params, Rule } from '../contract/types.js';
import { UsageError } from '../errors.js';
import { own } from '../keyed.js';
import type { MetricResult } from '../result.js';
import { didYouMean, ruleWord } from '../text/suggest.js';
import type { SweepBest, SweepResult } from './sweep-result.js';

/** `--best METRIC[:max|min]` checked against the metrics some point of the sweep has. */
export function parseBest(
  rule: Rule,
  metrics: readonly MetricSpec[],
  raw: string,
): { metric: MetricSpec; goal: 'max' | 'min' } {
  const match = /^(.*?)(?::(max|min))?$/.exec(raw.trim());
  const name = match?.[1] ?? '';
  const goal = (match?.[2] ?? 'max') as 'max' | 'min';
  const metric = metrics.find((m) => m.name === name);
  if (!metric) {
    const names = metrics.map((m) => m.name);
    throw new UsageError(
      `--best: got ${JSON.stringify(raw)}${didYouMean(name, names)}; ` +
        `allowed: one metric name of ${rule.id} (muster describe ${ruleWord(rule)}), ` +
        `such as ${names[0]}, or ${names[0]}:min for the lowest`,
    );
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
  if (points.length === 0)
    throw new UsageError(`--best: no point of the sweep has ${metric}; allowed: a metric the swept points report`);
  const valueAt = rankingValue(sweep, metric);
  const exact = points.every((point) => figures(point).exact !== null);
  const sign = goal === 'max' ? -1 : 1;
  const ranked = [...points].sort((a, b) => sign * (valueAt(a) - valueAt(b)));
  const [best, runnerUp] = ranked;
  const value = valueAt(best);
  const params: Params = best.params;
  if (!runnerUp) return { metric, goal, params, value, runnerUp: null, decided: 'alone' };
  const second = valueAt(runnerUp);
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

/** The value --best ranks a point by: its exact value where every point has one, else its estimate. */
export function rankingValue(
  sweep: Pick<SweepResult, 'points'>,
  metric: string,
): (point: SweepResult['points'][number]) => number {
  // Own entries only, as in findBest.
  const figures = (point: SweepResult['points'][number]) => own(point.metrics, metric) as MetricResult | undefined;
  const points = sweep.points.filter((point) => figures(point) !== undefined);
  const exact = points.every((point) => figures(point)?.exact !== null);
  return (point) => {
    const value = figures(point);
    if (!value) return Number.NaN;
    return exact ? (value.exact as number) : (value.estimate as number);
  };
}

/** The indices of the points that share the best value (several where exact values tie): the ones the table marks. */
export function bestPoints(sweep: Pick<SweepResult, 'points'>, best: SweepBest): Set<number> {
  const valueAt = rankingValue(sweep, best.metric);
  const marked = new Set<number>();
  sweep.points.forEach((point, index) => {
    if (valueAt(point) === best.value) marked.add(index);
  });
  return marked;
}
