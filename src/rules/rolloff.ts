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
import { Fraction } from '../exact/fraction.js';
import { mean, proportion, type Tallied } from '../stats/estimate.js';
import type { MetricSpec, Params, Rule, Rng } from './types.js';

const BONUS_LIMIT = 6;
/** Equally likely ordered pairs of one roll-off: 6^4 (A's two dice and B's). */
const PAIRS = 6 ** 4;

const bonusOf = (params: Params) => Number(params.bonusA);

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
    doc: 'expected rolls of 2d6 each until the totals differ',
    label: 'rolls (expected)',
    probability: false,
  },
];

const at = { aWins: 0, bWins: 1, rolls: 2, rollsSquared: 3, firstRoll: 4, length: 5 };

const d6 = (rng: Rng) => 1 + ((rng() * 6) | 0);

/** Rolls 2d6 each until the totals (A's with its bonus) differ; ends with probability one, as some pair decides. */
function simulate(params: Params, rng: Rng, trials: number, tally: Float64Array): void {
  const bonus = bonusOf(params);
  let aWins = 0;
  let rollsSum = 0;
  let rollsSquared = 0;
  let firstRoll = 0;
  for (let trial = 0; trial < trials; trial++) {
    let rolls = 0;
    let totalA = 0;
    let totalB = 0;
    do {
      rolls++;
      totalA = d6(rng) + d6(rng) + bonus;
      totalB = d6(rng) + d6(rng);
    } while (totalA === totalB);
    if (totalA > totalB) aWins++;
    rollsSum += rolls;
    rollsSquared += rolls * rolls;
    if (rolls === 1) firstRoll++;
  }
  tally[at.aWins] += aWins;
  tally[at.bWins] += trials - aWins;
  tally[at.rolls] += rollsSum;
  tally[at.rollsSquared] += rollsSquared;
  tally[at.firstRoll] += firstRoll;
}

function summarize(_params: Params, tally: Float64Array, trials: number): Record<string, Tallied> {
  return {
    'a.wins': proportion(tally[at.aWins], trials),
    'b.wins': proportion(tally[at.bWins], trials),
    'rolls.1': proportion(tally[at.firstRoll], trials),
    'rolls.mean': mean(tally[at.rolls], tally[at.rollsSquared], trials),
  };
}

function exact(params: Params): Record<string, Fraction> {
  const { aWins, bWins } = rollCounts(bonusOf(params));
  const decisive = aWins + bWins;
  return {
    'a.wins': Fraction.of(aWins, decisive),
    'b.wins': Fraction.of(bWins, decisive),
    'rolls.1': Fraction.of(decisive, PAIRS),
    'rolls.mean': Fraction.of(PAIRS, decisive),
  };
}

export const rolloff: Rule = {
  id: 'rolloff',
  title: '2d6 roll-off',
  summary:
    '2d6 roll-off, as Noctvale breaks equal counts: the higher total wins, ties roll again; a bonus for one side',
  source:
    'the 2d6 roll-off of Noctvale, Standard Battle Set-Up, step 3 (Determine Initiative), with a bonus for one side',
  params: [
    {
      name: 'bonusA',
      type: 'integer',
      default: 0,
      min: -BONUS_LIMIT,
      max: BONUS_LIMIT,
      doc: "added to player A's total every roll (negative: that much to player B's)",
    },
  ],
  // The text settles every figure: nothing to read.
  readings: () => [],
  metrics: () => METRICS,
  headline: () => ['a.wins', 'b.wins'],
  tallyLength: () => at.length,
  simulate,
  summarize,
  exact,
};
