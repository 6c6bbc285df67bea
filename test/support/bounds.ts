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
