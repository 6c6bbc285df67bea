/**
 * A plain 2d6 roll-off: each player rolls 2d6, the higher total wins, and
 * equal totals roll again. It is how Noctvale breaks equal activation counts
 * (Noctvale, Standard Battle Set-Up, step 3 "Determine Initiative": "each
 * player rolls 2d6; the higher result has initiative. Reroll ties."), and the
 * roll-off many games use for the first turn. `bonusA` is the common house
 * variant of a flat bonus to one side (negative: the bonus goes to player B),
 * 0 by default, as the text has none.
 *
 * Rolls repeat independently until the totals differ, so the number of rolls
 * is geometric and the deciding roll is one roll conditioned on deciding: of
 * the 1,296 equally likely pairs of totals, P(A wins) = A's pairs / decisive pairs.
 */

import type { Dice } from '../contract/dice.js';
import type { MetricSpec, ParamSpec, Rng } from '../contract/types.js';
import { xoshiroState } from '../engine/random.js';
import { type ExactDistribution, geometricDistribution } from '../exact/exact-distribution.js';
import { Fraction } from '../exact/fraction.js';
import { defineBuiltin, histogramOf, type ParamsOf, type Slots, type TrialOut } from './define.js';

const BONUS_LIMIT = 6;
/** Equally likely ordered pairs of one roll-off: 6^4 (A's two dice and B's). */
const PAIRS = 6 ** 4;

const params = [
  {
    name: 'bonusA',
    type: 'integer',
    default: 0,
    min: -BONUS_LIMIT,
    max: BONUS_LIMIT,
    doc: "added to player A's total every roll (negative: that much to player B's)",
  },
] as const satisfies readonly ParamSpec[];

type RollOff = ParamsOf<typeof params>;

/** Of the 1,296 equally likely rolls, how many A wins and how many B wins (the rest are ties). */
function rollCounts(bonus: number): { aWins: number; bWins: number } {
  let aWins = 0;
  let bWins = 0;
  for (let a = 2; a <= 12; a++)
    for (let b = 2; b <= 12; b++) {
      // Ways to roll a total t on 2d6: 6 − |t − 7|.
      const ways = (6 - Math.abs(a - 7)) * (6 - Math.abs(b - 7));
      if (a + bonus > b) aWins += ways;
      else if (b > a + bonus) bWins += ways;
    }
  return { aWins, bWins };
}

const METRICS: MetricSpec[] = [
  { name: 'a.wins', doc: 'player A wins the roll-off', label: 'player A wins', probability: true },
  { name: 'b.wins', doc: 'player B wins the roll-off', label: 'player B wins', probability: true },
  {
    name: 'rolls.1',
    doc: 'the first roll decides (the totals differ)',
    label: 'the first roll decides',
    probability: true,
  },
  {
    name: 'rolls.mean',
    doc: 'rolls of 2d6 each until the totals differ: the expected number, and its whole distribution',
    label: 'rolls (expected)',
    probability: false,
    // Ties can repeat without end: listed to a depth, with the chance of everything beyond it.
    distribution: { min: 1, max: null },
  },
];
const ROLLS = METRICS[3];

/** One roll-off as the text reads: 2d6 each, the higher total wins, equal totals roll again. */
function trial(dice: Dice, p: RollOff, out: TrialOut): void {
  let rolls = 0;
  let totalA = 0;
  let totalB = 0;
  do {
    rolls++;
    totalA = dice.d(6) + dice.d(6) + p.bonusA;
    totalB = dice.d(6) + dice.d(6);
  } while (totalA === totalB);
  out['a.wins'] = totalA > totalB ? 1 : 0;
  out['b.wins'] = totalA > totalB ? 0 : 1;
  out['rolls.1'] = rolls === 1 ? 1 : 0;
  out['rolls.mean'] = rolls;
}

/**
 * A chunk's roll-offs as the loops below count them: the histogram of rolls in the tally, and the sums they return.
 * Noctvale's equal counts roll off the same way (rules/noctvale.ts), its histogram from 0 rolls.
 */
export interface RollCount {
  tally: Float64Array;
  /** The histogram of rolls: rolls r at counted + r − 1 up to `top`, more at `beyond` (define.ts histogramOf). */
  counted: number;
  top: number;
  beyond: number;
  /** Filled by the loop: A's wins, trials decided by the first roll, Σ rolls and Σ rolls². */
  sums: Float64Array;
}

/**
 * The same, counted straight into the tally; ends with probability one, as some pair decides. Each die is
 * 1 + ⌊6u⌋ of one uniform (the stream's `roll`), A's two dice and then B's.
 */
function simulate(p: RollOff, rng: Rng, trials: number, tally: Float64Array, at: Slots): void {
  const { at: counted, top, beyond } = histogramOf(ROLLS, at);
  const count: RollCount = { tally, counted, top, beyond, sums: new Float64Array(4) };
  rollOffTrials(p.bonusA, rng, trials, count);
  const [aWins, firstRoll, rollsSum, rollsSquared] = count.sums;
  tally[at['a.wins']] += aWins;
  tally[at['b.wins']] += trials - aWins;
  tally[at['rolls.1']] += firstRoll;
  tally[at['rolls.mean']] += rollsSum;
  tally[at['rolls.mean'] + 1] += rollsSquared;
}

/**
 * `trials` roll-offs, A's total + `bonus` against B's, each rolled again until they differ, counted into `count`: its
 * histogram of rolls in the tally, and the sums.
 */
export function rollOffTrials(bonus: number, rng: Rng, trials: number, count: RollCount): void {
  const state = xoshiroState(rng);
  if (state === undefined) uniformTrials(bonus, rng, trials, count);
  else localTrials(bonus, state, trials, count);
}

/**
 * Streams 2 to 5 (xoshiro128**): the generator's step written out with its state in locals, read at the start and
 * written back at the end, so each die is the very output `rng()` would give (XoshiroStream's `random`) without a
 * load and a store of the state in memory a die (measured: 8× the tight loop through `rng()`).
 */
function localTrials(bonus: number, state: Int32Array, trials: number, count: RollCount): void {
  const { tally, counted, top, beyond } = count;
  let s0 = state[0];
  let s1 = state[1];
  let s2 = state[2];
  let s3 = state[3];
  let aWins = 0;
  let firstRoll = 0;
  let rollsSum = 0;
  let rollsSquared = 0;
  for (let n = 0; n < trials; n++) {
    let rolls = 0;
    // A's total + bonus − B's total: the 1s of 1 + ⌊6u⌋ cancel, so each die adds (A) or takes (B) its ⌊6u⌋.
    let lead = 0;
    do {
      rolls++;
      lead = bonus;
      for (let die = 0; die < 4; die++) {
        // xoshiro128**'s step (engine/random.ts, xoshiroNext): its output x, and u = x · 2^-32.
        const t2 = s2 ^ s0;
        const t3 = s3 ^ s1;
        const m = Math.imul(s1, 5);
        const out = Math.imul((m << 7) | (m >>> 25), 9);
        s2 = t2 ^ (s1 << 9);
        s0 ^= t3;
        s1 ^= t2;
        s3 = (t3 << 11) | (t3 >>> 21);
        // ⌊6u⌋ = ⌊6x / 2^32⌋ in integers, x's high and low halves apart: the value `(rng() * 6) | 0` gives, exactly.
        const face = ((out >>> 16) * 6 + (((out & 0xffff) * 6) >>> 16)) >>> 16;
        lead += die < 2 ? face : -face;
      }
    } while (lead === 0);
    // Counted without a branch (who wins is a coin toss, a branch on it mispredicted half the time), and the
    // histogram's one-roll count, nine trials in ten, added once at the end instead of a store each.
    aWins += +(lead > 0);
    rollsSum += rolls;
    rollsSquared += rolls * rolls;
    if (rolls === 1) firstRoll++;
    else tally[rolls > top ? beyond : counted + rolls - 1]++;
  }
  state[0] = s0;
  state[1] = s1;
  state[2] = s2;
  state[3] = s3;
  tally[1 > top ? beyond : counted] += firstRoll;
  count.sums.set([aWins, firstRoll, rollsSum, rollsSquared]);
}

/** Stream 1 (tyche-i, its state the stream's own): the same dice, one uniform `rng()` a die. */
function uniformTrials(bonus: number, rng: Rng, trials: number, count: RollCount): void {
  const { tally, counted, top, beyond } = count;
  let aWins = 0;
  let firstRoll = 0;
  let rollsSum = 0;
  let rollsSquared = 0;
  for (let n = 0; n < trials; n++) {
    let rolls = 0;
    let totalA = 0;
    let totalB = 0;
    do {
      rolls++;
      totalA = 2 + ((rng() * 6) | 0) + ((rng() * 6) | 0) + bonus;
      totalB = 2 + ((rng() * 6) | 0) + ((rng() * 6) | 0);
    } while (totalA === totalB);
    if (totalA > totalB) aWins++;
    rollsSum += rolls;
    rollsSquared += rolls * rolls;
    if (rolls === 1) firstRoll++;
    tally[rolls > top ? beyond : counted + rolls - 1]++;
  }
  count.sums.set([aWins, firstRoll, rollsSum, rollsSquared]);
}

function exact(p: RollOff): Record<string, Fraction> {
  const { aWins, bWins } = rollCounts(p.bonusA);
  const decisive = aWins + bWins;
  return {
    'a.wins': Fraction.of(aWins, decisive),
    'b.wins': Fraction.of(bWins, decisive),
    'rolls.1': Fraction.of(decisive, PAIRS),
    'rolls.mean': Fraction.of(PAIRS, decisive),
  };
}

/** The rolls: geometric, each roll a tie (and so rolled again) with chance 1 − decisive/1296. */
function exactDistributions(p: RollOff): Record<string, ExactDistribution> {
  const { aWins, bWins } = rollCounts(p.bonusA);
  return { 'rolls.mean': geometricDistribution(1, Fraction.of(PAIRS - aWins - bWins, PAIRS)) };
}

/**
 * The template for a new built-in rule (docs/architecture.md): defineBuiltin puts simulate into the Rule's `tally`,
 * exact and exactDistributions into its `exact`, headline and readings into its `presentation`.
 */
export const rolloff = defineBuiltin({
  id: 'rolloff',
  title: '2d6 roll-off',
  summary:
    '2d6 roll-off, as Noctvale breaks equal counts: the higher total wins, ties roll again; a bonus for one side',
  source:
    'the 2d6 roll-off of Noctvale, Standard Battle Set-Up, step 3 (Determine Initiative), with a bonus for one side',
  params,
  // The text settles every figure: nothing to read.
  readings: () => [],
  metrics: () => METRICS,
  headline: () => ['a.wins', 'b.wins'],
  trial,
  simulate,
  exact,
  exactDistributions,
});
