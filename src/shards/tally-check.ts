/**
 * The consistency check every tally read back from disk gets (a shard's, a
 * checkpoint's), in a module of its own so that a command resuming a
 * checkpoint does not load the rule-file machinery for it.
 */
import type { Params, Rule } from '../contract/types.js';

/**
 * What is inconsistent in a tally of `trials` trials, or null: whole
 * numbers, none below zero but where the rule sums signed values, every
 * proportion's successes within its trials, every mean's sum of squares at
 * least its sum squared over its count (Cauchy–Schwarz), and the rule's
 * own structural check.
 */
export function checkCounts(rule: Rule, params: Params, tally: Float64Array, trials: number): string | null {
  for (const [index, value] of tally.entries()) {
    if (!Number.isSafeInteger(value))
      return `entry ${index}: ${value} is not a whole number from −(2^53 − 1) to 2^53 − 1`;
    // A built-in rule only counts. A rule file's mean keeps the whole part of its sum, which may be negative: its own
    // check says where.
    if (value < 0 && !rule.file) return `entry ${index}: ${value} is a count below zero`;
  }
  const own = rule.tally.check?.(params, tally, trials);
  if (own) return own;
  const tallied = rule.tally.summarize(params, tally, trials);
  for (const [name, value] of Object.entries(tallied)) {
    if (value.kind === 'proportion') {
      if (!(value.successes >= 0 && value.successes <= value.trials))
        return `${name}: ${value.successes} successes in ${value.trials} trials`;
    } else {
      if (
        !(value.count >= 0) ||
        !Number.isFinite(value.sum) ||
        !Number.isFinite(value.sumOfSquares) ||
        value.sumOfSquares < 0
      )
        return `${name}: sums ${value.sum}, ${value.sumOfSquares} are not sums of observations`;
      // n·Σx² ≥ (Σx)², with a relative slack for the rules whose observations are fractions (shares).
      if (value.count > 0 && value.count * value.sumOfSquares < value.sum * value.sum * (1 - 1e-12))
        return (
          `${name}: its sum of squares ${value.sumOfSquares} is below its sum ${value.sum} squared over ` +
          `${value.count} trials`
        );
      if (value.count === 0 && (value.sum !== 0 || value.sumOfSquares !== 0))
        return `${name}: nonzero sums over no trials`;
    }
  }
  return null;
}
