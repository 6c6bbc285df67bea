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
