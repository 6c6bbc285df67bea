/**
 * Is a difference between two variants real? Two-sample z-tests on the
 * tallied counts behind each interval, and Holm's step-down adjustment when
 * many metrics are tested at once.
 */
import type { Tallied } from '../stats/estimate.js';

/**
 * The upper tail of the standard normal, Q(x) = P(Z > x). Below 3 it sums
 * Marsaglia's series Φ(x) = ½ + φ(x)(x + x³/3 + x⁵/(3·5) + …) (J. Stat.
 * Software 11(4), 2004), all terms positive; from 3 on it evaluates the
 * continued fraction Q(x) = φ(x)/(x + 1/(x + 2/(x + 3/(x + …)))) from the
 * bottom up, which keeps full relative accuracy far into the tail.
 *
 * @example normalUpperTail(1.959963984540054) // 0.025 (scipy.stats.norm.sf)
 * @example normalUpperTail(5) // 2.866515718791939e-7
 */
export function normalUpperTail(x: number): number {
  if (Number.isNaN(x)) return Number.NaN;
  if (x < 0) return 1 - normalUpperTail(-x);
  const density = Math.exp(-(x * x) / 2) / Math.sqrt(2 * Math.PI);
  if (x < 3) {
    let term = x;
    let sum = x;
    for (let k = 1; k < 200 && term > 1e-17 * sum; k++) {
      term *= (x * x) / (2 * k + 1);
      sum += term;
    }
    return 0.5 - density * sum;
  }
  let fraction = x;
  for (let k = 120; k >= 1; k--) fraction = x + k / fraction;
  return density / fraction;
}

/** The estimate and the variance of the estimate, from tallied counts. */
function estimateVariance(tallied: Tallied): { estimate: number; variance: number } {
  if (tallied.kind === 'proportion') {
    const p = tallied.successes / tallied.trials;
    return { estimate: p, variance: (p * (1 - p)) / tallied.trials };
  }
  const mean = tallied.sum / tallied.count;
  const sampleVariance =
    tallied.count > 1
      ? Math.max(0, (tallied.sumOfSquares - (tallied.sum * tallied.sum) / tallied.count) / (tallied.count - 1))
      : Number.POSITIVE_INFINITY;
  return { estimate: mean, variance: sampleVariance / tallied.count };
}

interface ZTest {
  difference: number;
  standardError: number;
  z: number;
  /** Two-sided. */
  p: number;
}

/**
 * Two-sample z-test of `b − a` for independent samples (unpooled: each
 * side's own variance, the same test for proportions and means). With no
 * variance on either side (both always 0, say) the difference is certain:
 * p is 1 when it is zero and 0 otherwise.
 */
export function twoSampleZ(a: Tallied, b: Tallied): ZTest {
  const first = estimateVariance(a);
  const second = estimateVariance(b);
  const difference = second.estimate - first.estimate;
  const standardError = Math.sqrt(first.variance + second.variance);
  if (standardError === 0)
    return {
      difference,
      standardError,
      z: difference === 0 ? 0 : Math.sign(difference) * Number.POSITIVE_INFINITY,
      p: difference === 0 ? 1 : 0,
    };
  const z = difference / standardError;
  return { difference, standardError, z, p: Math.min(1, 2 * normalUpperTail(Math.abs(z))) };
}

/**
 * Holm's step-down adjusted p-values (Holm 1979): sort ascending, multiply
 * the i-th smallest (from 0) by m − i, carry the running maximum, cap at 1.
 * Rejecting where the adjusted p ≤ α keeps the chance of any false
 * "significant" among all m tests at most α, with no assumption about how
 * the tests depend on each other — metrics of one run are far from
 * independent.
 *
 * @example holm([0.01, 0.04, 0.03]) // [0.03, 0.06, 0.06]
 */
export function holm(pValues: readonly number[]): number[] {
  const m = pValues.length;
  const order = pValues.map((p, index) => ({ p, index })).sort((x, y) => x.p - y.p);
  const adjusted = new Array<number>(m);
  let running = 0;
  order.forEach(({ p, index }, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    adjusted[index] = running;
  });
  return adjusted;
}
