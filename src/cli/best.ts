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
import { didYouMean, ruleWord } from '../text/suggest.js';

/** What the table prints beside the best value of the --best metric's column. */
export const BEST_MARK = '◀';

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
      `--best: got ${JSON.stringify(raw)}${didYouMean(name, names)}; allowed: one metric name of ${rule.id} (muster describe ${ruleWord(rule)}), such as ${names[0]}, or ${names[0]}:min for the lowest`,
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

/**
 * The sweep's answer in words, first thing under its header: which point to
 * choose, its value, and the next best value with how surely it is beaten.
 * @example "Choose chosenRound=2: all.by.4 91.057%, the highest (…), against 85.988% for the next best,
 * chosenRound=1 (exact values)."
 */
export function bestVerdict(sweep: Pick<SweepResult, 'points'>, best: SweepBest, metric: MetricSpec): string {
  const show = (x: number) => formatValue(x, metric.probability);
  const valueAt = rankingValue(sweep, best.metric);
  const marked = bestPoints(sweep, best);
  const exact = sweep.points.every(
    (point) => (own(point.metrics, best.metric) as MetricResult | undefined)?.exact !== null,
  );
  const chosen = formatParams(best.params);
  const tied = sweep.points.filter((point, index) => marked.has(index) && formatParams(point.params) !== chosen);
  const others = tied.map((point) => formatParams(point.params)).join(', or ');
  const choice = tied.length > 0 ? `${chosen} (or ${others}: ${exact ? 'tied exactly' : 'the same estimate'})` : chosen;
  const what = metric.doc ? ` (${metric.doc})` : '';
  const head = `Choose ${choice}: ${metric.name} ${show(best.value)}, the ${best.goal === 'max' ? 'highest' : 'lowest'}${what}`;
  const rest = sweep.points.filter((point, index) => !marked.has(index) && Number.isFinite(valueAt(point)));
  if (rest.length === 0) return `${head}${best.decided === 'alone' ? '; the only point.' : '; every point gives it.'}`;
  const sign = best.goal === 'max' ? -1 : 1;
  const next = [...rest].sort((x, y) => sign * (valueAt(x) - valueAt(y)))[0];
  const sure = exact
    ? 'exact values'
    : intervalsApart(sweep, best, next)
      ? 'beyond noise: the intervals do not overlap'
      : 'within noise: the intervals overlap, so simulate more trials or use --exact';
  return `${head}, against ${show(valueAt(next))} for the next best, ${formatParams(next.params)} (${sure}).`;
}

/** Whether the best point's interval and the next best's part, in the direction of the goal (simulated points). */
function intervalsApart(
  sweep: Pick<SweepResult, 'points'>,
  best: SweepBest,
  next: SweepResult['points'][number],
): boolean {
  const chosen = sweep.points.find((point) => formatParams(point.params) === formatParams(best.params));
  const a = chosen && (own(chosen.metrics, best.metric) as MetricResult | undefined);
  const b = own(next.metrics, best.metric) as MetricResult | undefined;
  if (!a || !b || a.lo === null || a.hi === null || b.lo === null || b.hi === null) return false;
  return best.goal === 'max' ? a.lo > b.hi : a.hi < b.lo;
}
