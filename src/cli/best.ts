/**
 * `sweep … --best` on the terminal: the mark beside the best value, and the
 * answer in words (the best point itself is found by src/analysis/best.ts).
 */
import { bestPoints, rankingValue } from '../analysis/best.js';
import type { SweepBest, SweepResult } from '../analysis/sweep.js';
import type { MetricSpec } from '../contract/types.js';
import { DEFAULT_PATHS } from '../exact/replay-dice.js';
import { own } from '../keyed.js';
import type { MetricResult } from '../result.js';
import { formatParams, formatValue } from './format.js';

/** What the table prints beside the best value of the --best metric's column. */
export const BEST_MARK = '◀';

/**
 * The sweep's answer in words, first thing under its header: which point to
 * choose, its value, and the next best value with how surely it is beaten.
 * @example "Choose chosenRound=2: all.by.4 91.057%, the highest (…), against 85.988% for the next best,
 * chosenRound=1 (exact values)."
 */
export function bestVerdict(
  sweep: Pick<SweepResult, 'points'>,
  best: SweepBest,
  metric: MetricSpec,
  /** Whether the rule has an exact solution --exact could try (a rule file's enumeration, past the quick budget). */
  solvable = false,
): string {
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
  const head =
    `Choose ${choice}: ${metric.name} ${show(best.value)}, the ` +
    `${best.goal === 'max' ? 'highest' : 'lowest'}${what}`;
  const rest = sweep.points.filter((point, index) => !marked.has(index) && Number.isFinite(valueAt(point)));
  if (rest.length === 0) return `${head}${best.decided === 'alone' ? '; the only point.' : '; every point gives it.'}`;
  const sign = best.goal === 'max' ? -1 : 1;
  const next = [...rest].sort((x, y) => sign * (valueAt(x) - valueAt(y)))[0];
  const sure = exact
    ? 'exact values'
    : intervalsApart(sweep, best, next)
      ? 'beyond noise: the intervals do not overlap'
      : solvable
        ? 'within noise: the intervals overlap, so simulate more trials (--trials N) or try --exact in place of ' +
          `the simulation's options (it enumerates up to ${DEFAULT_PATHS.toLocaleString('en-US')} paths)`
        : 'within noise: the intervals overlap, so simulate more trials (--trials N)';
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
