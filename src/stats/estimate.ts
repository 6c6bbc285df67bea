import { meanInterval } from './mean-interval.js';
import { wilsonInterval } from './wilson-interval.js';

/**
 * What a rule reads off its tally for one metric: either a count of
 * successes among independent trials (a proportion), or the running sums of
 * one observation per trial (a mean). Counts stay integers until here.
 */
export type Tallied =
  | { kind: 'proportion'; successes: number; trials: number }
  | { kind: 'mean'; sum: number; sumOfSquares: number; count: number; histogram?: Histogram };

/**
 * A distribution metric's counts beside its mean: `counts[i]` trials gave the whole number `min + i`, and
 * `beyond` trials gave more than the last value listed (null where the metric's range is bounded).
 */
export interface Histogram {
  min: number;
  counts: ArrayLike<number>;
  beyond: number | null;
}

interface Estimate {
  estimate: number;
  lo: number;
  hi: number;
}

/** The point estimate and its interval at the given confidence level. */
export function estimate(tallied: Tallied, confidence: number): Estimate {
  if (tallied.kind === 'proportion') {
    const { lo, hi } = wilsonInterval(tallied.successes, tallied.trials, confidence);
    return { estimate: tallied.trials === 0 ? Number.NaN : tallied.successes / tallied.trials, lo, hi };
  }
  return meanInterval(tallied.sum, tallied.sumOfSquares, tallied.count, confidence);
}

export const proportion = (successes: number, trials: number): Tallied => ({ kind: 'proportion', successes, trials });
export const mean = (sum: number, sumOfSquares: number, count: number): Tallied => ({
  kind: 'mean',
  sum,
  sumOfSquares,
  count,
});
