/**
 * Mordheim warbands (see warbands.ts): where each count sits in the tally, shared by the fast paths of every
 * stream (warbands.ts for streams 1 to 4, fast.ts for stream 5) and summarize.
 */
import { outcomeHistogram } from '../../engine/outcome-histogram.js';
import { mean, type Tallied } from '../../stats/estimate.js';
import { readWarbands, type Warbands } from './setup.js';

/**
 * How many trials threw each number of dice below DICE_HISTOGRAM, then the
 * sum and the sum of squares of the rarer larger counts (a roll-off of
 * eight needs dozens of dice only a few times in a million).
 */
export const DICE_HISTOGRAM = 64;
const DICE_COUNTS = DICE_HISTOGRAM + 2;

/**
 * A trial's setup order (the warbands that rolled, in place order) and
 * first player as one number: Σ order[p]·n^p over the rollers, times n,
 * plus the first player. There are n^rollers·n codes; up to OUTCOME_LIMIT
 * the tally counts codes, beyond it places and first players one by one.
 */
const OUTCOME_LIMIT = 1 << 14;
const outcomeCount = (n: number, rollers: number): number =>
  outcomeHistogram(n ** rollers * n, OUTCOME_LIMIT)?.outcomes ?? 0;

// Tally layout for n warbands. Underdog counts are per trial even though the
// underdog is fixed by the ratings, so every metric reads the same way. The
// dice each roll-off took are counted as histograms (see countDice), and
// while there are few of them each trial's setup order and first player are
// one outcome code (see outcomeCount): the hot loop only increments, and
// summarize turns the counts into every metric.
export function layout(p: Warbands) {
  const n = readWarbands(p.warbands).length;
  const rollers = p.defender ? n - 1 : n;
  const base = 3 * n + n * n + 3 * DICE_COUNTS;
  const outcomes = outcomeCount(n, rollers);
  return {
    n,
    rollers,
    defender: 0,
    underdog: n,
    setup: 2 * n, // index setup + i·n + (k − 1): warband i set up k-th
    first: 2 * n + n * n,
    setupDice: 3 * n + n * n,
    firstDice: 3 * n + n * n + DICE_COUNTS,
    defenderDice: 3 * n + n * n + 2 * DICE_COUNTS,
    /** Trials with each outcome code, when there are at most OUTCOME_LIMIT codes (outcomes > 0). */
    outcomes,
    outcome: base,
    length: base + outcomes,
  };
}

export type Layout = ReturnType<typeof layout>;

export function countDice(tally: Float64Array, at: number, dice: number): void {
  if (dice < DICE_HISTOGRAM) tally[at + dice]++;
  else {
    tally[at + DICE_HISTOGRAM] += dice;
    tally[at + DICE_HISTOGRAM + 1] += dice * dice;
  }
}

/**
 * The dice of one roll-off per trial, as a mean, from its counts, with its whole distribution: the trials that threw
 * each number of dice below DICE_HISTOGRAM, and beyond them the rest (their dice only summed).
 */
export function diceMean(tally: Float64Array, at: number, trials: number): Tallied {
  let sum = tally[at + DICE_HISTOGRAM];
  let sumOfSquares = tally[at + DICE_HISTOGRAM + 1];
  let counted = 0;
  for (let dice = 0; dice < DICE_HISTOGRAM; dice++) {
    sum += dice * tally[at + dice];
    sumOfSquares += dice * dice * tally[at + dice];
    counted += tally[at + dice];
  }
  const result = mean(sum, sumOfSquares, trials);
  if (result.kind === 'mean')
    result.histogram = { min: 0, counts: tally.subarray(at, at + DICE_HISTOGRAM), beyond: trials - counted };
  return result;
}
