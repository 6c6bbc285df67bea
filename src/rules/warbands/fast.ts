/**
 * Mordheim warbands on stream 5 (see warbands.ts): the fast path reading each roll-off's outcome and its dice
 * count as separate exact draws (dice.ts says why the pair keeps its law). The outcome of a trial is
 * one uniform index over (defender among its candidates, order of the rollers, first player); while there are
 * few such outcomes it rides on the setup roll-off's draw. A trial at the defaults is then two draws and no
 * branch that depends on the dice: the setup order, first player and the setup pair's dice, then the dice of
 * the three-way roll for the first turn.
 */

import type { Rng } from '../../contract/types.js';
import { belowExact, rejectBelow } from '../draw-digits.js';
import { type DiceCount, diceCount, jointDigits } from './dice.js';
import { foldOrders } from './fold.js';
import { countDice, type Layout } from './layout.js';

/** Outcome draws at most this many values are one draw with the first player; beyond, the first player is its own. */
const JOINT_LIMIT = 1 << 16;

function factorial(n: number): number {
  return n <= 1 ? 1 : n * factorial(n - 1);
}

/**
 * Stream 5's loop over `trials` trials: everything warbands.ts's simulate tallies per trial, in the same
 * places. `candidates` are the defender's candidates (empty without a defender; one: no roll-off).
 */
export function simulateFast(
  n: number,
  candidates: readonly number[],
  at: Layout,
  rng: Rng,
  trials: number,
  tally: Float64Array,
): void {
  const { rollers } = at;
  const defenderRolls = candidates.length >= 2;
  // One uniform draw picks the defender among its candidates, the order the rollers set up in and (when the
  // product is small) the first player: index = (defender · rollers! + order) · n + first.
  const choices = Math.max(1, candidates.length);
  const orders = factorial(rollers);
  const joint = at.outcomes > 0 || choices * orders * n <= JOINT_LIMIT;
  const outcomes = choices * orders * (joint ? n : 1);
  const outcomeReject = rejectBelow(outcomes);
  const firstReject = rejectBelow(n);
  // Trials of each outcome index, turned into the tally's counts after the loop.
  const counts = new Int32Array(outcomes);
  // Each roll-off's dice: one function per roll-off, so each call below always calls the same one. The outcome
  // index rides on the setup roll-off's draw (the first turn's when no one rolls for setup) when it is small.
  const carrier = jointDigits(outcomes) >= (rollers >= 2 ? rollers : n) ? (rollers >= 2 ? 'setup' : 'first') : null;
  playTrials(rng, trials, tally, counts, {
    outcomes: carrier === null ? outcomes : 0,
    outcomeReject,
    firsts: joint ? 0 : n,
    firstReject,
    firstAt: at.first,
    defenderDice: defenderRolls ? diceCount('top', candidates.length) : null,
    defenderAt: at.defenderDice,
    setupDice: rollers >= 2 ? diceCount('sort', rollers, carrier === 'setup' ? outcomes : 1) : null,
    setupAt: at.setupDice,
    firstDice: diceCount('top', n, carrier === 'first' ? outcomes : 1),
    firstDiceAt: at.firstDice,
  });
  // A single warband left after the defender sets up without rolling: no dice, every trial.
  if (rollers < 2) tally[at.setupDice] += trials;

  tallyOutcomes(counts, { n, candidates, at, orders, firsts: joint ? n : 1 }, tally);
}

interface Draws {
  /** Outcomes drawn on their own (0: they ride on a roll-off's draw), and belowExact's rejectBelow for them. */
  outcomes: number;
  outcomeReject: number;
  /** First players drawn on their own (0: in the outcome index), counted at firstAt + first. */
  firsts: number;
  firstReject: number;
  firstAt: number;
  /** Each roll-off's dice (null: no such roll-off) and where its histogram starts. */
  defenderDice: DiceCount | null;
  defenderAt: number;
  setupDice: DiceCount | null;
  setupAt: number;
  firstDice: DiceCount;
  firstDiceAt: number;
}

/**
 * The hot loop, alone in its function: measured, with the tallying after it in the same function V8 entered
 * the loop's optimised code mid-call on every chunk and left it at the first comparison after the loop
 * (never seen by that code), a deoptimisation a chunk costing a quarter of the time.
 */
function playTrials(rng: Rng, trials: number, tally: Float64Array, counts: Int32Array, draws: Draws): void {
  const { outcomes, outcomeReject, firsts, firstReject, firstAt, defenderAt, setupAt, firstDiceAt } = draws;
  const { defenderDice, setupDice, firstDice } = draws;
  for (let trial = 0; trial < trials; trial++) {
    if (outcomes > 0) counts[belowExact(rng, outcomes, outcomeReject)]++;
    if (firsts > 0) tally[firstAt + belowExact(rng, firsts, firstReject)]++;
    if (defenderDice !== null) countDice(tally, defenderAt, defenderDice(rng, counts));
    if (setupDice !== null) countDice(tally, setupAt, setupDice(rng, counts));
    countDice(tally, firstDiceAt, firstDice(rng, counts));
  }
}

/**
 * Adds the outcome counts to the tally: index (defender · orders + order) · firsts + first, the orders of the
 * rollers taken in the factorial number system's (lexicographic) order. With outcome codes, each order is the
 * last one stepped on (nextOrder) instead of decoded from its index; without, the places come from walking the
 * orders' blocks (fold.ts).
 */
function tallyOutcomes(
  counts: Int32Array,
  setting: { n: number; candidates: readonly number[]; at: Layout; orders: number; firsts: number },
  tally: Float64Array,
): void {
  const { n, candidates, at, orders, firsts } = setting;
  const { rollers } = at;
  const hasDefender = candidates.length > 0;
  const defenderRolls = candidates.length >= 2;
  const { first: firstAt, setup: setupAt, defender: defenderAt } = at;
  const rolling = new Int32Array(rollers);
  const places = { tally, setupAt, n, offset: hasDefender ? 1 : 0 };
  // Each order's trials over every first player, when the first player is in the index.
  const byOrder = firsts > 1 ? new Int32Array(orders) : counts;
  for (let choice = 0; choice < Math.max(1, candidates.length); choice++) {
    const defender = hasDefender ? candidates[choice] : -1;
    let count = 0;
    for (let i = 0; i < n; i++) if (i !== defender) rolling[count++] = i;
    const from = choice * orders;
    let times = 0;
    if (at.outcomes > 0)
      times = tallyCodes(counts, from * firsts, { n, rolling, orders, firsts, at: at.outcome }, tally);
    else {
      if (firsts > 1)
        for (let o = 0, index = from * firsts; o < orders; o++) {
          let trials = 0;
          for (let first = 0; first < firsts; first++, index++) {
            trials += counts[index];
            tally[firstAt + first] += counts[index];
          }
          byOrder[o] = trials;
        }
      times = foldOrders(byOrder, firsts > 1 ? 0 : from, rolling, places);
    }
    if (defenderRolls) {
      tally[defenderAt + defender] += times;
      tally[setupAt + defender * n] += times;
    }
  }
}

/** Outcome codes (few warbands): each order's code times n plus each first player, counted at `at`; the trials. */
function tallyCodes(
  counts: Int32Array,
  from: number,
  setting: { n: number; rolling: Int32Array; orders: number; firsts: number; at: number },
  tally: Float64Array,
): number {
  const { n, rolling, orders, firsts, at } = setting;
  const rollers = rolling.length;
  const order = new Int32Array(rollers);
  for (let p = 0; p < rollers; p++) order[p] = p;
  let times = 0;
  for (let o = 0, index = from; o < orders; o++, nextOrder(order)) {
    let code = 0;
    for (let p = rollers - 1; p >= 0; p--) code = code * n + rolling[order[p]];
    for (let first = 0; first < firsts; first++, index++) {
      times += counts[index];
      tally[at + code * n + first] += counts[index];
    }
  }
  return times;
}

/** Steps `order` to the next in lexicographic order (the last wraps round to the first, unused). */
function nextOrder(order: Int32Array): void {
  let i = order.length - 2;
  while (i >= 0 && order[i] > order[i + 1]) i--;
  if (i >= 0) {
    let j = order.length - 1;
    while (order[j] < order[i]) j--;
    const swap = order[i];
    order[i] = order[j];
    order[j] = swap;
  }
  for (let low = i + 1, high = order.length - 1; low < high; low++, high--) {
    const swap = order[low];
    order[low] = order[high];
    order[high] = swap;
  }
}
