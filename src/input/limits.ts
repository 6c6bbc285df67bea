/**
 * The bounds every simulation is held to, wherever it is asked for (the CLI's flags: settings.ts; the library's
 * options: library/core.ts). No Node imports here, so the library's browser entry shares them.
 */

/** Largest run: keeps every tally's sums of squares below 2^53, where doubles count exactly. */
export const MAX_TRIALS = 4e9;
/** Trials of a run, and of each point of a sweep or variant of a comparison, when --trials is not given. */
export const DEFAULT_TRIALS = 1_000_000;
/**
 * Most confidence allowed: beyond six nines the normal quantile runs out of double precision and intervals turn to NaN.
 */
export const MAX_CONFIDENCE = 0.999999;
