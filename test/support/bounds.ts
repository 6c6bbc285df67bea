import { estimate, type Tallied } from '../../src/stats/estimate.js';

/**
 * How far an estimate from n independent trials may stray from the exact
 * value before a test calls it wrong: `sigmas` standard errors. At 5σ a
 * two-sided normal deviation happens by chance with probability 5.7e-7 per
 * comparison, so a file comparing 100 metrics fails a correct build about
 * once in 17,000 seeds; tests use fixed seeds, so it never flakes.
 */
export function proportionTolerance(exact: number, trials: number, sigmas = 5): number {
  return sigmas * Math.sqrt((exact * (1 - exact)) / trials);
}

/** The same for a mean, given the standard deviation of one observation. */
export function meanTolerance(standardDeviation: number, trials: number, sigmas = 5): number {
  return (sigmas * standardDeviation) / Math.sqrt(trials);
}

/**
 * A simulated metric's estimate and how far (5σ) it may stray from the exact value `truth`. σ is exact for a
 * proportion (√(p(1−p)/n)); for a mean it is the sample standard deviation read back from the 95% interval's
 * half-width (half-width / 1.96 · √n), which at a quarter of a million trials is within a fraction of a percent of
 * the true one.
 */
export function estimateWithTolerance(found: Tallied, truth: number): { value: number; tolerance: number } {
  const { estimate: value, lo, hi } = estimate(found, 0.95);
  const tolerance =
    found.kind === 'proportion'
      ? proportionTolerance(truth, found.trials)
      : meanTolerance(((hi - lo) / 2 / 1.959963984540054) * Math.sqrt(found.count), found.count);
  return { value, tolerance };
}

/**
 * Whether `count` successes in `trials` are within 5σ of chance p: a two-sided deviation that large happens by chance
 * with probability 5.7e-7. Where the expected count np is 25 or more the binomial is close to normal and the bound is
 * |count − np| ≤ 5·√(np(1 − p)); a distribution's far tail (a roll-off's many dice) is far rarer (np well below 1), where that normal
 * bound would call a single trial a failure, so there the count is held to the Poisson(np) law the binomial tends
 * to: each tail beyond it must have chance at least 2.9e-7 (half of 5.7e-7).
 */
export function countPlausible(count: number, trials: number, p: number): boolean {
  const expected = trials * p;
  if (expected >= 25) return Math.abs(count - expected) <= 5 * Math.sqrt(expected * (1 - p));
  const TAIL = 2.9e-7;
  let term = Math.exp(-expected); // P(X = 0)
  let below = 0; // P(X < k)
  for (let k = 0; k < count; k++) {
    below += term;
    term *= expected / (k + 1);
  }
  return 1 - below >= TAIL && below + term >= TAIL;
}
