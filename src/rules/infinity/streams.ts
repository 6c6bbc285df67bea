/**
 * Infinity's Initiative Roll (see infinity.ts) on streams 1 to 4, bit for
 * bit as every result on them was made: one uniform a d20, 1 + ⌊20u⌋, A's
 * then B's, a roll again while the scores tie. Stream 5, the default, reads
 * a roll's pair of dice as one digit (infinity.ts, simulateByPairs).
 */

import type { Rng } from '../../contract/types.js';
import type { Slots } from '../define.js';

/** A d20. */
const FACES = 20;

/**
 * A chunk's trials into the tally: `scoresA` and `scoresB` give each face (1 to 20) its Face to Face score, as
 * infinity.ts's faceScores does, `critical` the score of a critical.
 */
export function simulateDieByDie(
  scoresA: Int32Array,
  scoresB: Int32Array,
  critical: number,
  rng: Rng,
  trials: number,
  tally: Float64Array,
  at: Slots,
): void {
  // Counted in locals and added to the tally once a chunk: whole numbers below 2^53, so the sums are the same.
  let aWins = 0;
  let aCrit = 0;
  let bWins = 0;
  let bCrit = 0;
  let rollsSum = 0;
  let rollsSquared = 0;
  let firstRoll = 0;
  for (let trial = 0; trial < trials; trial++) {
    let rolls = 0;
    let scoreA = 0;
    let scoreB = 0;
    do {
      rolls++;
      scoreA = scoresA[1 + ((rng() * FACES) | 0)];
      scoreB = scoresB[1 + ((rng() * FACES) | 0)];
    } while (scoreA === scoreB);
    if (scoreA > scoreB) {
      aWins++;
      if (scoreA === critical) aCrit++;
    } else {
      bWins++;
      if (scoreB === critical) bCrit++;
    }
    rollsSum += rolls;
    rollsSquared += rolls * rolls;
    if (rolls === 1) firstRoll++;
  }
  tally[at['a.wins']] += aWins;
  tally[at['a.crit']] += aCrit;
  tally[at['b.wins']] += bWins;
  tally[at['b.crit']] += bCrit;
  tally[at['rolls.mean']] += rollsSum;
  tally[at['rolls.mean'] + 1] += rollsSquared;
  tally[at['rolls.1']] += firstRoll;
}
