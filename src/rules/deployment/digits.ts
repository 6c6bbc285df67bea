/**
 * Genesys deployment (see deployment.ts) on stream 5: a trial's dice as one
 * digit, several trials to a generator output (draw-digits.ts), counted in a
 * histogram of digits that the tally is read from once a chunk.
 *
 * A trial's digit holds the forward players' dice and the roll-off: digit =
 * 2·v + coin, where v's base-6 digits, least significant first, are the dice
 * of a's forward deployment (its first and second die) then b's, one less
 * than the faces shown (a standard deployment rolls none, so v has 0, 2 or 4
 * digits), and coin, 1 if a wins a roll-off. The roll-off as one fair coin
 * is the same distribution as §6.3's 1d6 each, re-rolled on a tie: of the 30
 * unequal pairs, a's die is the higher in 15. No metric counts the roll-off's
 * dice (`rolloff` is the chance of equal totals), so how many were rolled does
 * not matter, and a coin that no trial needs is read and left unused.
 */

import type { Rng } from '../../contract/types.js';
import { acceptedOutput, type DigitDraw, digitDraw, stateOf } from '../draw-digits.js';
import type { Deployment } from './params.js';
import { plan } from './params.js';
import { A_INITIATIVE, A_PLACES_LAST, aPlacesLast, forwardZones, ROLLOFF, ZONE_SETS_OF, ZONE_TOTAL } from './zones.js';

/** What each trial digit decides (index: the digit, as at the top of the file). */
export interface TrialOutcomes {
  /** The digits' base, 2 · 6^(forward dice): 2, 72 or 2592. */
  base: number;
  zonesA: Uint16Array;
  zonesB: Uint16Array;
  /** 1 where the totals are equal and the roll-off decides. */
  rolloff: Uint8Array;
  /** 1 where a has initiative: the lower total, or the roll-off won. */
  aInitiative: Uint8Array;
}

/** Every trial digit's zone sets and initiative, under these parameters. */
export function trialOutcomes(params: Deployment): TrialOutcomes {
  const a = plan(params.a);
  const b = plan(params.b);
  const compareRaw = params.compare === 'raw';
  const facesA = a.chosen === 0 ? 1 : 36;
  const base = 2 * facesA * (b.chosen === 0 ? 1 : 36);
  const outcomes: TrialOutcomes = {
    base,
    zonesA: new Uint16Array(base),
    zonesB: new Uint16Array(base),
    rolloff: new Uint8Array(base),
    aInitiative: new Uint8Array(base),
  };
  for (let digit = 0; digit < base; digit++) {
    const dice = digit >> 1;
    const diceA = dice % facesA;
    const diceB = (dice - diceA) / facesA;
    const zonesA =
      a.chosen === 0 ? a.zones : forwardZones(a.chosen, 1 + (diceA % 6), 1 + ((diceA / 6) | 0), compareRaw);
    const zonesB =
      b.chosen === 0 ? b.zones : forwardZones(b.chosen, 1 + (diceB % 6), 1 + ((diceB / 6) | 0), compareRaw);
    const totalA = ZONE_TOTAL[zonesA];
    const totalB = ZONE_TOTAL[zonesB];
    outcomes.zonesA[digit] = zonesA;
    outcomes.zonesB[digit] = zonesB;
    outcomes.rolloff[digit] = +(totalA === totalB);
    outcomes.aInitiative[digit] = +(totalA < totalB || (totalA === totalB && (digit & 1) === 1));
  }
  return outcomes;
}

/**
 * The digit draw for each base a trial digit can have, made once: 2592 (both forward) two digits an output, 72 (one
 * forward) five, 2 (neither) five (at most five, for the loops below).
 */
const draws = new Map<number, DigitDraw>();

/** Stream 5's loop: each trial one digit, counted; the tally read from the counts at the end. */
export function simulateByDigits(params: Deployment, rng: Rng, trials: number, tally: Float64Array): void {
  const outcomes = trialOutcomes(params);
  const { base } = outcomes;
  let draw = draws.get(base);
  if (draw === undefined) {
    draw = digitDraw(base, 5);
    draws.set(base, draw);
  }
  const counts = new Float64Array(base);
  countDigits(stateOf(rng), draw, trials, counts);
  const lastWithInitiative = aPlacesLast(params, true);
  const lastWithout = aPlacesLast(params, false);
  for (let digit = 0; digit < base; digit++) {
    const count = counts[digit];
    if (count === 0) continue;
    const aInitiative = outcomes.aInitiative[digit] === 1;
    tally[ZONE_SETS_OF.a + outcomes.zonesA[digit]] += count;
    tally[ZONE_SETS_OF.b + outcomes.zonesB[digit]] += count;
    tally[ROLLOFF] += outcomes.rolloff[digit] * count;
    if (aInitiative) tally[A_INITIATIVE] += count;
    if (aInitiative ? lastWithInitiative : lastWithout) tally[A_PLACES_LAST] += count;
  }
}

/**
 * Counts `trials` trial digits, `draw.digits` to an output; the digits of the last output beyond them are left unread
 * (unused dice change nothing). Five and two digits an output are written out: measured, 1.5 times the speed of a
 * loop over them.
 */
function countDigits(state: Int32Array, draw: DigitDraw, trials: number, counts: Float64Array): void {
  const { digits, bound, reject, scale, powers } = draw;
  const whole = trials - (trials % digits);
  let trial = 0;
  if (digits === 5) {
    const [, second, third, fourth, fifth] = powers;
    for (; trial < whole; trial += 5) {
      const x = acceptedOutput(state, bound, reject);
      counts[((x >>> 0) * scale) | 0]++;
      counts[((Math.imul(x, second) >>> 0) * scale) | 0]++;
      counts[((Math.imul(x, third) >>> 0) * scale) | 0]++;
      counts[((Math.imul(x, fourth) >>> 0) * scale) | 0]++;
      counts[((Math.imul(x, fifth) >>> 0) * scale) | 0]++;
    }
  } else if (digits === 2) {
    const second = powers[1];
    for (; trial < whole; trial += 2) {
      const x = acceptedOutput(state, bound, reject);
      counts[((x >>> 0) * scale) | 0]++;
      counts[((Math.imul(x, second) >>> 0) * scale) | 0]++;
    }
  }
  // Any other number of digits, and the last output's first few.
  while (trial < trials) {
    const x = acceptedOutput(state, bound, reject);
    const read = Math.min(digits, trials - trial);
    for (let digit = 0; digit < read; digit++) counts[((Math.imul(x, powers[digit]) >>> 0) * scale) | 0]++;
    trial += read;
  }
}
