import { normalQuantile } from './normal-quantile.js';

/**
 * The Wilson score interval for a binomial proportion (Wilson 1927; Agresti &
 * Coull 1998, "Approximate is better than exact"). Unlike the Wald interval
 * it stays inside [0, 1] and keeps its coverage when the proportion is near
 * 0 or 1, which is where odds charts live.
 *
 * At the edges the formula's lower bound for 0 successes is exactly 0 and its
 * upper bound for all successes exactly 1, but floating point leaves
 * 4e-22 or 0.9999999999999999: those ends are set exactly, and every interval
 * is widened, if rounding ever calls for it, to hold its own estimate.
 *
 * @example wilsonInterval(50, 100, 0.95) // { lo: 0.40383…, hi: 0.59616… }
 */
export function wilsonInterval(successes: number, trials: number, confidence: number): { lo: number; hi: number } {
  if (trials === 0) return { lo: 0, hi: 1 };
  const z = twoSidedZ(confidence);
  const proportion = successes / trials;
  const zSquaredOverN = (z * z) / trials;
  const centre = (proportion + zSquaredOverN / 2) / (1 + zSquaredOverN);
  const halfWidth =
    (z / (1 + zSquaredOverN)) * Math.sqrt((proportion * (1 - proportion)) / trials + zSquaredOverN / (4 * trials));
  const lo = successes === 0 ? 0 : Math.min(proportion, Math.max(0, centre - halfWidth));
  const hi = successes === trials ? 1 : Math.max(proportion, Math.min(1, centre + halfWidth));
  return { lo, hi };
}

/** The last confidence asked for and its z: a result asks for one confidence, once a metric and a value. */
let lastConfidence = Number.NaN;
let lastZ = Number.NaN;

/** z such that a standard normal lies within ±z with probability `confidence`. */
export function twoSidedZ(confidence: number): number {
  if (confidence !== lastConfidence) {
    lastZ = normalQuantile(1 - (1 - confidence) / 2);
    lastConfidence = confidence;
  }
  return lastZ;
}
