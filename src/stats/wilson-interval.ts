import { normalQuantile } from './normal-quantile.js';

/**
 * The Wilson score interval for a binomial proportion (Wilson 1927; Agresti &
 * Coull 1998, "Approximate is better than exact"). Unlike the Wald interval
 * it stays inside [0, 1] and keeps its coverage when the proportion is near
 * 0 or 1, which is where odds charts live.
 *
 * @example wilsonInterval(50, 100, 0.95) // { lo: 0.40383…, hi: 0.59616… }
 */
export function wilsonInterval(successes: number, trials: number, confidence: number): { lo: number; hi: number } {
  if (trials === 0) return { lo: 0, hi: 1 };
  const z = twoSidedZ(confidence);
  const proportion = successes / trials;
  const zSquaredOverN = (z * z) / trials;
  const centre = (proportion + zSquaredOverN / 2) / (1 + zSquaredOverN);
  const halfWidth = (z / (1 + zSquaredOverN)) * Math.sqrt((proportion * (1 - proportion)) / trials + zSquaredOverN / (4 * trials));
  return { lo: Math.max(0, centre - halfWidth), hi: Math.min(1, centre + halfWidth) };
}

/** z such that a standard normal lies within ±z with probability `confidence`. */
export function twoSidedZ(confidence: number): number {
  return normalQuantile(1 - (1 - confidence) / 2);
}
