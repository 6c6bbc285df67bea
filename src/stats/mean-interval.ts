import { twoSidedZ } from './wilson-interval.js';

/**
 * A normal (central limit) interval for a mean, from the running sum and sum
 * of squares of n observations, using the unbiased sample variance. The
 * counts muster tallies are small integers, so the sums are exact integers
 * in a double up to 2^53 and the variance is computed without cancellation
 * trouble at the sizes we run.
 *
 * @example meanInterval(10, 30, 5, 0.95) // mean 2, sample variance 2.5
 */
export function meanInterval(
  sum: number,
  sumOfSquares: number,
  count: number,
  confidence: number,
): { estimate: number; lo: number; hi: number } {
  if (count === 0) return { estimate: Number.NaN, lo: Number.NaN, hi: Number.NaN };
  const estimate = sum / count;
  if (count === 1) return { estimate, lo: Number.NEGATIVE_INFINITY, hi: Number.POSITIVE_INFINITY };
  const variance = Math.max(0, (sumOfSquares - (sum * sum) / count) / (count - 1));
  const halfWidth = twoSidedZ(confidence) * Math.sqrt(variance / count);
  return { estimate, lo: estimate - halfWidth, hi: estimate + halfWidth };
}
