/**
 * Infinity Initiative Roll: Infinity N4 (Corvus Belli), wiki page "Initiative
 * and Deployment", section "Initiative Roll".
 *
 *   "… players make a Face to Face Roll using their respective Lieutenant's
 *    WIP Attributes. So, both players roll a D20 and compare their results and
 *    the one with the higher result (that does not exceed their Lieutenant's
 *    WIP Attribute) is the winner of the Initiative Roll."
 *   "In the case of a tie, or both players failing, repeat the Initiative Roll."
 *
 * What the text leaves to the Face to Face rules it names (Infinity N4 wiki,
 * "Face to Face Rolls"), offered as `crits`: a roll equal to the Success Value
 * (SV, here the WIP) is a critical and beats any non-critical success; two
 * criticals cancel, so the roll is repeated; above SV 20 (N4) the excess is
 * added to the die and every result of 20 or more is a critical.
 *
 * Every die face of a player comes down to one score (0 a failure, the result
 * for an ordinary success, CRITICAL for a critical): the higher score wins the
 * roll and equal scores — double failure, double critical, equal results —
 * mean rolling again. That one comparison is the whole Face to Face rule.
 */

import type { Dice } from '../../contract/dice.js';
import type { MetricSpec, ParamSpec, Rng } from '../../contract/types.js';
import { badValue } from '../../errors.js';
import { Fraction } from '../../exact/fraction.js';
import { defineBuiltin, type ParamsOf, type Slots, type TrialOut } from '../define.js';
import { acceptedOutput, digitDraw, stateOf } from '../draw-digits.js';
import { simulateDieByDie } from './streams.js';

/**
 * WIP is an Attribute of 1–30 here: 30 is well above any Lieutenant's WIP with modifiers, and 1 keeps a success
 * possible.
 */
const WIP_MIN = 1;
const WIP_MAX = 30;
const FACES = 20;
/** Above every ordinary result (at most 20), so a critical beats any non-critical success. */
const CRITICAL = 100;

const params = [
  {
    name: 'wipA',
    type: 'integer',
    default: 13,
    min: WIP_MIN,
    max: WIP_MAX,
    doc: "player A's Lieutenant's WIP, the Success Value (13: the common trooper WIP)",
  },
  {
    name: 'wipB',
    type: 'integer',
    default: 13,
    min: WIP_MIN,
    max: WIP_MAX,
    doc: "player B's Lieutenant's WIP, the Success Value (13: the common trooper WIP)",
  },
  {
    name: 'crits',
    type: 'boolean',
    default: true,
    doc:
      'true (default, the Face to Face rules the text names): a roll equal to WIP is a critical, beats any ' +
      'other success, two criticals tie; above WIP 20 the excess is added to the die and results of 20+ ' +
      'are criticals. ' +
      'false: the text alone, no criticals; above WIP 20 every roll succeeds and the raw die is compared ' +
      '(no excess added), so WIP 21–30 play as WIP 20',
  },
] as const satisfies readonly ParamSpec[];

export type InitiativeRoll = ParamsOf<typeof params>;

/**
 * The score of each d20 face (index 1–20) for a Lieutenant of this WIP: 0 a
 * failure, the result for an ordinary success, CRITICAL for a critical.
 */
function faceScores(wip: number, crits: boolean): Int32Array {
  const scores = new Int32Array(FACES + 1);
  for (let face = 1; face <= FACES; face++) {
    if (!crits) {
      // The text alone: a face succeeds when it does not exceed WIP; above 20 every face does, and the raw die decides.
      scores[face] = face <= wip ? face : 0;
      continue;
    }
    const result = face + Math.max(0, wip - FACES);
    if (result > wip) scores[face] = 0;
    else if (result === wip || result >= FACES) scores[face] = CRITICAL;
    else scores[face] = result;
  }
  return scores;
}

/**
 * Of the 400 equally likely face pairs of one roll: how many A wins, A wins with a critical, B wins, B wins with a
 * critical.
 */
function pairCounts(p: InitiativeRoll): { aWins: number; aCrit: number; bWins: number; bCrit: number } {
  const scoresA = faceScores(p.wipA, p.crits);
  const scoresB = faceScores(p.wipB, p.crits);
  const counts = { aWins: 0, aCrit: 0, bWins: 0, bCrit: 0 };
  for (let a = 1; a <= FACES; a++) {
    for (let b = 1; b <= FACES; b++) {
      if (scoresA[a] > scoresB[b]) {
        counts.aWins++;
        if (scoresA[a] === CRITICAL) counts.aCrit++;
      } else if (scoresB[b] > scoresA[a]) {
        counts.bWins++;
        if (scoresB[b] === CRITICAL) counts.bCrit++;
      }
    }
  }
  return counts;
}

function metrics(p: InitiativeRoll): MetricSpec[] {
  const list: MetricSpec[] = [
    {
      name: 'a.wins',
      doc: 'player A wins the Initiative Roll (chooses Initiative or Deployment)',
      label: 'player A wins',
      probability: true,
    },
    { name: 'b.wins', doc: 'player B wins the Initiative Roll', label: 'player B wins', probability: true },
  ];
  if (p.crits) {
    list.push({
      name: 'a.crit',
      doc: 'player A wins with a critical',
      label: 'player A wins with a critical',
      probability: true,
    });
    list.push({
      name: 'b.crit',
      doc: 'player B wins with a critical',
      label: 'player B wins with a critical',
      probability: true,
    });
  }
  list.push({
    name: 'rolls.mean',
    doc: 'expected Face to Face d20 rolls until one decides',
    label: 'rolls needed (expected)',
    probability: false,
  });
  list.push({
    name: 'rolls.1',
    doc: 'the first roll decides (no tie, no double failure)',
    label: 'the first roll decides',
    probability: true,
  });
  return list;
}

/**
 * One Initiative Roll as the text reads it: both roll a d20 against their WIP, the higher success wins (a
 * critical beating any other), and a tie or a double failure rolls again.
 */
function trial(dice: Dice, p: InitiativeRoll, out: TrialOut): void {
  for (let rolls = 1; ; rolls++) {
    const a = faceToFace(dice.d(FACES), p.wipA, p.crits);
    const b = faceToFace(dice.d(FACES), p.wipB, p.crits);
    const aWins = a.success && (!b.success || beats(a, b));
    const bWins = b.success && (!a.success || beats(b, a));
    if (!aWins && !bWins) continue;
    out['a.wins'] = +aWins;
    out['b.wins'] = +bWins;
    out['a.crit'] = +(aWins && a.critical);
    out['b.crit'] = +(bWins && b.critical);
    out['rolls.mean'] = rolls;
    out['rolls.1'] = +(rolls === 1);
    return;
  }
}

/** Of two successes: a critical beats a non-critical; otherwise the higher result wins (two criticals tie). */
const beats = (x: FaceToFace, y: FaceToFace): boolean =>
  x.critical ? !y.critical : !y.critical && x.result > y.result;

interface FaceToFace {
  result: number;
  success: boolean;
  critical: boolean;
}

/** One player's d20 against their WIP (Face to Face Rolls): the result, whether it succeeds, whether it is critical. */
function faceToFace(die: number, wip: number, crits: boolean): FaceToFace {
  // Above SV 20 the excess is added to the die (crits=true, the Face to Face rules); the text alone adds nothing.
  const result = crits ? die + Math.max(0, wip - FACES) : die;
  const success = result <= wip;
  return { result, success, critical: crits && success && (result === wip || result >= FACES) };
}

/**
 * Rolls face to face until the scores differ. The loop ends with probability
 * one: every WIP of 1–30 gives at least two different face scores, so some
 * pair decides — at worst WIP 1 against WIP 1, where 38 of the 400 pairs do
 * (the test "every WIP pairing can be decided" checks all 1800 settings).
 */
function simulate(p: InitiativeRoll, rng: Rng, trials: number, tally: Float64Array, at: Slots): void {
  // Stream 5, the default: a roll's pair of dice as one digit, several to an output (simulateByPairs below).
  if (rng.stream >= 5) simulateByPairs(p, rng, trials, tally, at);
  else simulateDieByDie(faceScores(p.wipA, p.crits), faceScores(p.wipB, p.crits), CRITICAL, rng, trials, tally, at);
}

/** What one Face to Face roll decides: stream 5's outcome codes. */
export const ROLL_AGAIN = 0;
export const A_WINS = 1;
export const A_CRITICAL = 2;
export const B_WINS = 3;
export const B_CRITICAL = 4;

/**
 * The outcome code of each of the 400 face pairs of one roll, at index (A's die − 1)·20 + (B's die − 1): the two d20
 * as base-20 digits, A's the higher.
 */
export function rollOutcomes(p: InitiativeRoll): Uint8Array {
  const scoresA = faceScores(p.wipA, p.crits);
  const scoresB = faceScores(p.wipB, p.crits);
  const outcomes = new Uint8Array(FACES * FACES);
  for (let a = 1; a <= FACES; a++) {
    for (let b = 1; b <= FACES; b++) {
      const scoreA = scoresA[a];
      const scoreB = scoresB[b];
      outcomes[(a - 1) * FACES + (b - 1)] =
        scoreA > scoreB
          ? scoreA === CRITICAL
            ? A_CRITICAL
            : A_WINS
          : scoreB > scoreA
            ? scoreB === CRITICAL
              ? B_CRITICAL
              : B_WINS
            : ROLL_AGAIN;
    }
  }
  return outcomes;
}

/** A roll's face pair is one digit of base 400; three of them come from one output (draw-digits.ts). */
const PAIR_DRAW = digitDraw(FACES * FACES, 3);

/**
 * Stream 5: the same rolls, read three face pairs to a generator output as base-400 digits, each looked up in
 * rollOutcomes. The rolls are taken as one sequence, trial after trial, and every roll is counted without a branch:
 * the outcome histogram gives the winners and the rolls, `run` is the roll's place in its trial (so the squares of
 * the trials' roll counts add up as 1 + 3 + … + (2n − 1) = n²), and a deciding roll closes the trial. Streams 1 to 4
 * branch on every roll's outcome, and a mispredicted branch was most of a trial's time.
 */
function simulateByPairs(p: InitiativeRoll, rng: Rng, trials: number, tally: Float64Array, at: Slots): void {
  const outcomes = rollOutcomes(p);
  const state = stateOf(rng);
  const { bound, reject, scale, powers } = PAIR_DRAW;
  const counts = new Float64Array(B_CRITICAL + 1);
  let decided = 0;
  let run = 0;
  let squares = 0;
  let firstRoll = 0;
  const second = powers[1];
  const third = powers[2];
  let code = 0;
  let decides = 0;
  // An output's three digits, written out (measured: a loop over them ran at half the speed, a closure for the
  // roll at 0.7 to 1 times). For each roll: its outcome counted; `decides`, 1 for a code that decides (1–4) and 0
  // for ROLL_AGAIN; (run − 2) >> 31, all ones for the trial's first roll only; and `run` back to 0 when the roll
  // closes the trial. The digits beyond the last trial are left unread: unused dice change nothing.
  while (decided < trials) {
    const x = acceptedOutput(state, bound, reject);
    code = outcomes[((x >>> 0) * scale) | 0];
    counts[code]++;
    run++;
    squares += 2 * run - 1;
    decides = (code + 3) >> 2;
    firstRoll += decides & ((run - 2) >> 31);
    decided += decides;
    run &= decides - 1;
    if (decided === trials) break;
    code = outcomes[((Math.imul(x, second) >>> 0) * scale) | 0];
    counts[code]++;
    run++;
    squares += 2 * run - 1;
    decides = (code + 3) >> 2;
    firstRoll += decides & ((run - 2) >> 31);
    decided += decides;
    run &= decides - 1;
    if (decided === trials) break;
    code = outcomes[((Math.imul(x, third) >>> 0) * scale) | 0];
    counts[code]++;
    run++;
    squares += 2 * run - 1;
    decides = (code + 3) >> 2;
    firstRoll += decides & ((run - 2) >> 31);
    decided += decides;
    run &= decides - 1;
  }
  tally[at['a.wins']] += counts[A_WINS] + counts[A_CRITICAL];
  tally[at['a.crit']] += counts[A_CRITICAL];
  tally[at['b.wins']] += counts[B_WINS] + counts[B_CRITICAL];
  tally[at['b.crit']] += counts[B_CRITICAL];
  tally[at['rolls.mean']] += counts[ROLL_AGAIN] + decided;
  tally[at['rolls.mean'] + 1] += squares;
  tally[at['rolls.1']] += firstRoll;
}

/**
 * Rolls repeat independently until one decides, so the number of rolls is
 * geometric with parameter d = (pairs A wins + pairs B wins) / 400 and the
 * deciding roll is a roll conditioned on deciding: P(A wins) = A's pairs / decisive pairs.
 */
function exact(p: InitiativeRoll): Record<string, Fraction> {
  const counts = pairCounts(p);
  const decisive = counts.aWins + counts.bWins;
  const result: Record<string, Fraction> = {
    'a.wins': Fraction.of(counts.aWins, decisive),
    'b.wins': Fraction.of(counts.bWins, decisive),
    'a.crit': Fraction.of(counts.aCrit, decisive),
    'b.crit': Fraction.of(counts.bCrit, decisive),
    'rolls.mean': Fraction.of(FACES * FACES, decisive),
    'rolls.1': Fraction.of(decisive, FACES * FACES),
  };
  return Object.fromEntries(metrics(p).map((m) => [m.name, result[m.name]]));
}

const RANGE_ALLOWED = `a..b with integers ${WIP_MIN} ≤ a ≤ b ≤ ${WIP_MAX}, such as 8..16`;

/** Parses `--range a..b` into the WIP values a, a+1, …, b. */
function parseRange(text: string): number[] {
  const match = /^\s*(\d+)\s*\.\.\s*(\d+)\s*$/.exec(text);
  const from = match ? Number(match[1]) : Number.NaN;
  const to = match ? Number(match[2]) : Number.NaN;
  if (!(from >= WIP_MIN && from <= to && to <= WIP_MAX)) throw badValue('--range', text, RANGE_ALLOWED);
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

export const infinity = defineBuiltin({
  id: 'infinity',
  title: 'Infinity Initiative Roll',
  summary:
    "Infinity N4 Initiative Roll: face-to-face d20 against each Lieutenant's WIP, repeated on a tie or double failure",
  source: 'Infinity N4, Initiative and Deployment: Initiative Roll (docs/rules/infinity.md)',
  params,
  readings(params) {
    return [
      {
        param: 'crits',
        text: params.crits
          ? 'the Face to Face rules the text names apply: a roll equal to WIP is a critical and beats any ' +
            'other success, two criticals tie, above WIP 20 the excess is added to the die; crits=false ' +
            'reads the text alone'
          : 'the text alone: no criticals, the higher success wins, and above WIP 20 every roll succeeds on ' +
            'the raw die; crits=true applies the Face to Face rules',
      },
    ];
  },
  metrics,
  headline: () => ['a.wins', 'b.wins', 'a.crit', 'b.crit'],
  trial,
  // a.crit and b.crit keep their slots with crits=false (counts of 0), as shards written before kept them.
  tallyOrder: () => ['a.wins', 'b.wins', 'a.crit', 'b.crit', 'rolls.mean', 'rolls.1'],
  simulate,
  exact,
  matrix: {
    row: 'wipA',
    col: 'wipB',
    metrics: ['a.wins'],
    defaultValues: () => [8, 9, 10, 11, 12, 13, 14, 15, 16],
    parseRange,
  },
});
