/**
 * Mordheim warbands (see warbands.ts) on streams 1 to 4, bit for bit as
 * every result on them was made: every die one uniform, 1 + ⌊6u⌋, the
 * roll-offs played as the text plays them (the defender's, the setup order's
 * ties settled pair by pair, the first turn's). Stream 5, the default, draws
 * each roll-off's outcome and its dice count as exact draws
 * (warbands-fast.ts, warbands-dice.ts).
 */

import type { Rng } from '../../contract/types.js';
import { countDice, type Layout } from './layout.js';

/** Scratch every trial reuses: the roll-off's candidates, the setup order, its rolls and tied segments. */
export interface RollScratch {
  active: Int32Array;
  order: Int32Array;
  roll: Int32Array;
  segments: Int32Array;
}

/** rollOff's answer: winner + ROLL_OFF_DICE · dice thrown, the winner being below 8. */
const ROLL_OFF_DICE = 16;

/**
 * The winner of a roll-off, rolling until one is alone on the highest roll:
 * among warbands 0..count − 1 when `everyone`, else among
 * `active[0..count)`. Returns winner + ROLL_OFF_DICE · dice thrown, so
 * nothing passes through memory. Reorders `active`; allocates nothing.
 */
function rollOff(rng: Rng, active: Int32Array, count: number, everyone: boolean): number {
  let dice = 0;
  let fromActive = !everyone;
  while (count > 1) {
    let best = 0;
    let kept = 0;
    for (let j = 0; j < count; j++) {
      const roll = 1 + ((rng() * 6) | 0);
      if (roll > best) {
        best = roll;
        kept = 0;
      }
      // kept ≤ j, so this never overwrites a player still to roll.
      if (roll === best) active[kept++] = fromActive ? active[j] : j;
    }
    dice += count;
    count = kept;
    fromActive = true;
  }
  return (fromActive ? active[0] : 0) + ROLL_OFF_DICE * dice;
}

/**
 * Two warbands at order[start] and order[start + 1] roll until their dice
 * differ, the higher first; returns the dice thrown. The first die is the
 * first warband's, as settleOrder rolls them.
 */
function settlePair(rng: Rng, order: Int32Array, start: number): number {
  let dice = 0;
  let first = 0;
  let second = 0;
  do {
    first = 1 + ((rng() * 6) | 0);
    second = 1 + ((rng() * 6) | 0);
    dice += 2;
  } while (first === second);
  if (second > first) {
    const who = order[start];
    order[start] = order[start + 1];
    order[start + 1] = who;
  }
  return dice;
}

/**
 * Sorts order[0..rollers) by dice, highest first, each tied group
 * re-rolling among itself until the order is strict; returns the dice
 * thrown. `roll` and `segments` are scratch (n and 2n long).
 */
function settleOrder(rng: Rng, order: Int32Array, rollers: number, roll: Int32Array, segments: Int32Array): number {
  let dice = 0;
  let top = 0;
  segments[top++] = 0;
  segments[top++] = rollers;
  while (top > 0) {
    const end = segments[--top];
    const start = segments[--top];
    if (end - start === 2) {
      // A tie would be pushed back and popped straight away: settle the pair at once.
      dice += settlePair(rng, order, start);
      continue;
    }
    for (let p = start; p < end; p++) roll[p] = 1 + ((rng() * 6) | 0);
    dice += end - start;
    // Insertion sort, highest roll first: groups of at most eight.
    for (let p = start + 1; p < end; p++) {
      const who = order[p];
      const value = roll[p];
      let q = p - 1;
      while (q >= start && roll[q] < value) {
        order[q + 1] = order[q];
        roll[q + 1] = roll[q];
        q--;
      }
      order[q + 1] = who;
      roll[q + 1] = value;
    }
    // Each run of equal rolls keeps its place and re-rolls among itself.
    let runStart = start;
    for (let p = start + 1; p <= end; p++) {
      if (p === end || roll[p] !== roll[runStart]) {
        if (p - runStart > 1) {
          segments[top++] = runStart;
          segments[top++] = p;
        }
        runStart = p;
      }
    }
  }
  return dice;
}

/**
 * One game's setup as the chapter reads: the highest rating defends (most models breaking a tie, then a
 * roll-off among those still tied) and sets up first; the others roll a D6 each, highest next, ties rolling
 * again among themselves for their places (one left over goes without rolling); then everyone rolls for the
 * first turn, those tied for highest rolling again until one is alone.
 */
/** Streams 1 to 4's loop: every die drawn as one uniform, the roll-offs played as the text plays them. */
export function simulateByDie(
  rng: Rng,
  trials: number,
  tally: Float64Array,
  at: Layout,
  candidates: Int32Array,
  fixedDefender: number | null,
  scratch: RollScratch,
): void {
  const { n } = at;
  const { active, order, roll, segments } = scratch;
  for (let trial = 0; trial < trials; trial++) {
    let defender = -1;
    let defenderDice = 0;
    if (fixedDefender !== null) defender = fixedDefender;
    else {
      for (let i = 0; i < candidates.length; i++) active[i] = candidates[i];
      const rolled = rollOff(rng, active, candidates.length, false);
      defender = rolled % ROLL_OFF_DICE;
      defenderDice = (rolled - defender) / ROLL_OFF_DICE;
      tally[at.defender + defender]++;
    }

    let rollers = 0;
    for (let i = 0; i < n; i++) if (i !== defender) order[rollers++] = i;
    // Two rollers (three warbands and a defender, the usual game) need no sorting.
    const setupDice =
      rollers === 2 ? settlePair(rng, order, 0) : rollers > 2 ? settleOrder(rng, order, rollers, roll, segments) : 0;
    const offset = defender >= 0 ? 1 : 0;
    if (fixedDefender === null) {
      tally[at.setup + defender * n]++;
      countDice(tally, at.defenderDice, defenderDice);
    }

    const rolled = rollOff(rng, active, n, true);
    const first = rolled % ROLL_OFF_DICE;
    const firstDiceThrown = (rolled - first) / ROLL_OFF_DICE;
    if (at.outcomes > 0) {
      let code = 0;
      for (let p = rollers - 1; p >= 0; p--) code = code * n + order[p];
      tally[at.outcome + code * n + first]++;
    } else {
      for (let p = 0; p < rollers; p++) tally[at.setup + order[p] * n + p + offset]++;
      tally[at.first + first]++;
    }

    countDice(tally, at.setupDice, setupDice);
    countDice(tally, at.firstDice, firstDiceThrown);
  }
}
