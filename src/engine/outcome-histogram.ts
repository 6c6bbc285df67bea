/**
 * The outcome histogram, with its fallback: a rule that can name each way a
 * trial ends by one whole number (its outcome code) counts trials per code,
 * one increment a trial, and reads every metric off the counts afterwards,
 * once per code that happened. While there are few codes that keeps the hot
 * loop to dice and one addition; past a cap the histogram would be longer
 * than the trials it counts (or than memory allows), and the rule falls back
 * to counting its metrics trial by trial.
 *
 * Reserves (cap 2^18), warbands (2^14) and a rule file that declares
 * `outcomes` (2^20, where past the cap is the file's mistake rather than a
 * fallback) share it. The hot loops increment their entries inline; what is
 * shared is the decision and the reading, so that every rule reads its
 * counts in the same order: ascending code.
 */

/** Where a rule's outcome counts lie: `outcomes` entries from `at`, entry `at + code` counting outcome `code`. */
export interface OutcomeHistogram {
  readonly outcomes: number;
  readonly at: number;
}

/**
 * The histogram for `outcomes` codes (a whole number from 0) from entry `at`,
 * or null when there are more than `cap`: the rule's fallback.
 *
 * @example outcomeHistogram(5 ** 3, 1 << 18) // { outcomes: 125, at: 0 }
 * @example outcomeHistogram(13 ** 5, 1 << 18) // null (371,293 codes)
 */
export function outcomeHistogram(outcomes: number, cap: number, at = 0): OutcomeHistogram | null {
  return outcomes <= cap ? { outcomes, at } : null;
}

/**
 * Each outcome that happened, in ascending code, with how many trials ended
 * in it: `visit(code, times)`, never with times 0. Reading in one fixed order
 * keeps a sum of doubles built from the counts the same bits on every run.
 */
export function forEachOutcome(
  histogram: OutcomeHistogram,
  counts: ArrayLike<number>,
  visit: (code: number, times: number) => void,
): void {
  const { outcomes, at } = histogram;
  for (let code = 0; code < outcomes; code++) {
    const times = counts[at + code];
    if (times !== 0) visit(code, times);
  }
}

/** Null when the counts add up to `trials` (one outcome a trial), else what is wrong, for a tally check. */
export function checkOutcomeCounts(
  histogram: OutcomeHistogram,
  counts: ArrayLike<number>,
  trials: number,
): string | null {
  let sum = 0;
  for (let code = 0; code < histogram.outcomes; code++) sum += counts[histogram.at + code];
  return sum === trials ? null : `the outcome counts sum to ${sum}, not the ${trials} trials`;
}
