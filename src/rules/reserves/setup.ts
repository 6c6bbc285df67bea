/**
 * Genesys reserves (see reserves.ts): the parameters, and what they settle before a die is thrown: the
 * face each round needs and the commander's chance to see the chosen round.
 */

import type { ParamSpec } from '../../contract/types.js';
import { Fraction } from '../../exact/fraction.js';
import type { ParamsOf } from '../define.js';

export const params = [
  { name: 'squads', type: 'integer', default: 4, min: 1, max: 100, doc: 'squads held in reserve' },
  {
    name: 'rounds',
    type: 'integer',
    default: 4,
    min: 1,
    max: 12,
    doc: 'rounds in which reserves may arrive; a squad not in after the last is lost (the text: four)',
  },
  {
    name: 'target',
    type: 'integer',
    default: 7,
    min: 2,
    max: 20,
    doc: 'a squad arrives when 1d6 + round (+ bonus) reaches this (the text: 7+)',
  },
  {
    name: 'chosenRound',
    type: 'integer',
    default: 0,
    min: 0,
    max: 12,
    doc:
      'the chosen reserve round declared before the game, 0 for none; at most rounds (muster run reserves --set ' +
      'chosenRound=call solves when to call it in play instead)',
  },
  {
    name: 'command',
    type: 'integer',
    default: 2,
    min: 0,
    max: 10,
    doc: 'highest command on the table, added to every reserve roll in the chosen round (normally 2–4)',
  },
  {
    name: 'leaderLoss',
    type: 'number',
    default: 0,
    min: 0,
    max: 1,
    doc: 'chance the commander is lost in each round before the chosen round; the bonus needs it alive',
  },
  {
    name: 'fallbackCommand',
    type: 'integer',
    default: 0,
    min: 0,
    max: 10,
    doc: 'bonus used instead once the commander is lost (the next-highest command on the table)',
  },
  {
    name: 'firstRound',
    type: 'integer',
    default: 1,
    min: 1,
    max: 12,
    doc:
      'the first round in which reserves roll; the text does not say rolls wait, so 1 (default) reads "each ' +
      'squad rolls separately each round" literally; at most rounds',
  },
] as const satisfies readonly ParamSpec[];

export type Reserves = ParamsOf<typeof params>;

/**
 * Chance the commander is still on the table when the chosen round comes: (1 − leaderLoss)^(chosenRound − 1), with
 * leaderLoss the decimal typed (0.15 is 3/20).
 */
export function commanderSurvives(p: Reserves): Fraction {
  if (p.chosenRound <= 1) return Fraction.ONE;
  return Fraction.fromParameter(p.leaderLoss)
    .complement()
    .pow(p.chosenRound - 1);
}

/** The lowest die face (1–6, or 7 for never) that brings a squad in, round by round; index r for round r. */
export function facesNeeded(p: Reserves, bonus: number): Int32Array {
  const needed = new Int32Array(p.rounds + 1);
  for (let round = 1; round <= p.rounds; round++) {
    const modifier = round + (round === p.chosenRound ? bonus : 0);
    // Before the first rolling round no die is thrown: 7 is a face no die shows.
    needed[round] = round < p.firstRound ? 7 : Math.min(7, Math.max(1, p.target - modifier));
  }
  return needed;
}

/** Most squads for which the whole distribution ("at least k of n by round r") is reported. */
export const DISTRIBUTION_SQUADS = 12;
