/**
 * Mordheim warbands on stream 5 (see warbands.ts): how many dice a roll-off throws, drawn from tables
 * instead of die by die.
 *
 * Every roll-off in the setup chapter is among players on equal terms, and each player's dice are
 * independent and alike, so relabelling the players changes neither the number of dice thrown nor the law
 * of who ends where: given the dice count, the winner is uniform over those rolling and the setup order
 * uniform over every order. Stream 5 therefore draws the outcome (a uniform winner or order) and the dice
 * count apart, each exactly, and the pair (outcome, dice) keeps its law (test/rules/warbands-dice.test.ts
 * checks the factorisation by enumerating named players).
 *
 * The dice count depends only on how the throws tie. Two kinds of roll-off:
 * - `top` (defender, first turn): m dice; if the highest face is shown by j ≥ 2 of them, those j throw again;
 * - `sort` (setup order): m dice; every face shown by g ≥ 2 of them leaves a group of g that sorts itself
 *   again, each group on its own.
 * A table reads one draw of 6^8 values as eight dice in a row, consumed as the roll-off would throw them:
 * each way the roll-off can go within those eight dice is a class of draws, as many as the digit strings
 * that lead to it, and a class either ends the roll-off (so many dice) or stops where the next throw would
 * need more than the dice left (so many dice so far, these groups still to settle, each then drawn from its
 * own table afresh). Dice unread at the end of a class are thrown away: they are independent of everything
 * read, so the law of the rest is untouched. Classes are contiguous ranges of the draw, so a draw's class is
 * the number of range starts it reaches: compares summed, no branch. One draw settles a pair roll-off
 * within four throws (1 − 6^-4) and a three-way one within eight dice (99.3 per cent).
 */
import type { Rng } from './types.js';

export type RollOffKind = 'top' | 'sort';

/** Dice one draw holds: 6^8 = 1,679,616 ≤ 2^21, so bound·x of a 32-bit x stays exact in a double (belowExact). */
const DIGITS = 8;
const FACES = 6;
/** The most warbands, and so the largest group a roll-off has. */
export const MAX_GROUP = 8;
const TWO_TO_32 = 2 ** 32;

/**
 * The fraction below which `belowExact(rng, bound, ·)` draws again: (2^32 mod bound)/2^32, exact in a double.
 * @example rejectBelow(3) // 2^-32: 2^32 = 3·1431655765 + 1
 */
export function rejectBelow(bound: number): number {
  return (TWO_TO_32 % bound) / TWO_TO_32;
}

/**
 * A draw from 0 … bound − 1, exactly uniform, bound ≤ 2^21: Lemire's method on the 32 bits x of one uniform
 * of a xoshiro stream (u = x·2^-32 exactly). bound·u = bound·x/2^32 is exact in a double, its whole part is
 * ⌊bound·x/2^32⌋ and its fraction (bound·x mod 2^32)/2^32; drawing again when that fraction is below
 * `reject` = rejectBelow(bound) leaves each value exactly ⌊2^32/bound⌋ of the x (Lemire 2019, "Fast random
 * integer generation in an interval"). A redraw is rarer than bound/2^32: 1 in 2,500 for 6^8.
 */
export function belowExact(rng: Rng, bound: number, reject: number): number {
  for (;;) {
    const scaled = rng() * bound;
    const value = scaled | 0;
    if (scaled - value >= reject) return value;
  }
}

function binomial(n: number, k: number): number {
  let result = 1;
  for (let i = 1; i <= k; i++) result = (result * (n - k + i)) / i;
  return result;
}

function factorial(n: number): number {
  return n <= 1 ? 1 : n * factorial(n - 1);
}

/** One way a throw of `size` dice can tie: the groups that throw again, and how many of the 6^size face rows give it. */
interface ThrowOutcome {
  groups: number[];
  ways: number;
}

/** The ways one throw of `size` dice ties, for a roll-off of `kind` (see the file comment). */
export function throwOutcomes(kind: RollOffKind, size: number): ThrowOutcome[] {
  if (kind === 'top') {
    // Exactly j dice on the highest face f: C(size, j) places for them, the others below f.
    const outcomes: ThrowOutcome[] = [];
    for (let j = 1; j <= size; j++) {
      let below = 0;
      for (let face = 1; face <= FACES; face++) below += (face - 1) ** (size - j);
      outcomes.push({ groups: j >= 2 ? [j] : [], ways: binomial(size, j) * below });
    }
    return outcomes;
  }
  // How many dice show each face, with its multinomial count of face rows; only the groups of two or more matter.
  const byGroups = new Map<string, ThrowOutcome>();
  const walk = (face: number, left: number, counts: number[]) => {
    if (face === FACES) {
      const all = [...counts, left];
      const ways = factorial(size) / all.reduce((product, c) => product * factorial(c), 1);
      const groups = all.filter((c) => c >= 2).sort((a, b) => b - a);
      const key = groups.join('+');
      const known = byGroups.get(key);
      if (known) known.ways += ways;
      else byGroups.set(key, { groups, ways });
      return;
    }
    for (let c = 0; c <= left; c++) walk(face + 1, left - c, [...counts, c]);
  };
  walk(1, size, []);
  return [...byGroups.values()];
}

/** One class of a table: `ways` of its draws end with `dice` thrown and `pending` groups still to settle. */
export interface DiceClass {
  dice: number;
  pending: number[];
  ways: number;
}

/** A roll-off of `size` read from one draw of `bound` values (see the file comment): its classes, in draw order. */
export interface DiceTable {
  bound: number;
  classes: DiceClass[];
}

/** The table of a roll-off of `kind` among `size` ≥ 2 players. */
export function diceTable(kind: RollOffKind, size: number): DiceTable {
  const classes = new Map<string, DiceClass>();
  const add = (dice: number, pending: number[], ways: number) => {
    const sorted = [...pending].sort((a, b) => b - a);
    const key = `${dice}|${sorted.join('+')}`;
    const known = classes.get(key);
    if (known) known.ways += ways;
    else classes.set(key, { dice, pending: sorted, ways });
  };
  // `ways` face rows of `used` dice lead here, `pending` groups to settle (the last one next).
  const walk = (pending: number[], used: number, ways: number) => {
    const group = pending[pending.length - 1];
    if (group === undefined || used + group > DIGITS) {
      add(used, pending, ways * FACES ** (DIGITS - used));
      return;
    }
    const rest = pending.slice(0, -1);
    for (const outcome of throwOutcomes(kind, group))
      walk([...rest, ...outcome.groups], used + group, ways * outcome.ways);
  };
  walk([size], 0, 1);
  // Ending classes first, fewest dice first; then the ones that go on: a fixed order, so a seed draws the same dice.
  const ordered = [...classes.values()].sort(
    (a, b) =>
      a.pending.length - b.pending.length || a.dice - b.dice || a.pending.join('+').localeCompare(b.pending.join('+')),
  );
  return { bound: FACES ** DIGITS, classes: ordered };
}

/**
 * The tables of one kind for groups of 2 … MAX_GROUP, flattened into typed arrays for the hot loop: a
 * group of g reads draws below bound[g]; its classes are classFrom[g] … classFrom[g + 1] − 1, class c
 * starting at draw start[c] (the first class of a group at 0), throwing dice[c] and leaving the groups
 * pend[pendFrom[c] … pendFrom[c + 1] − 1].
 */
export interface DiceSampler {
  bound: Int32Array;
  reject: Float64Array;
  classFrom: Int32Array;
  start: Int32Array;
  dice: Int32Array;
  pendFrom: Int32Array;
  pend: Int32Array;
}

const samplers = new Map<RollOffKind, DiceSampler>();

/** The sampler of `kind`, built on first use and kept: a worker builds each once for all its chunks. */
export function diceSampler(kind: RollOffKind): DiceSampler {
  const known = samplers.get(kind);
  if (known) return known;
  const tables = Array.from({ length: MAX_GROUP + 1 }, (_, size) => (size >= 2 ? diceTable(kind, size) : null));
  const all = tables.flatMap((table) => table?.classes ?? []);
  const bound = new Int32Array(MAX_GROUP + 1);
  const reject = new Float64Array(MAX_GROUP + 1);
  const classFrom = new Int32Array(MAX_GROUP + 2);
  const start = new Int32Array(all.length);
  const dice = new Int32Array(all.length);
  const pendFrom = new Int32Array(all.length + 1);
  const pend = new Int32Array(all.reduce((sum, c) => sum + c.pending.length, 0));
  let at = 0;
  let pendAt = 0;
  for (let size = 0; size <= MAX_GROUP; size++) {
    classFrom[size] = at;
    const table = tables[size];
    if (!table) continue;
    bound[size] = table.bound;
    reject[size] = rejectBelow(table.bound);
    let from = 0;
    for (const c of table.classes) {
      start[at] = from;
      dice[at] = c.dice;
      pendFrom[at] = pendAt;
      for (const group of c.pending) pend[pendAt++] = group;
      from += c.ways;
      at++;
    }
  }
  classFrom[MAX_GROUP + 1] = at;
  pendFrom[at] = pendAt;
  const sampler = { bound, reject, classFrom, start, dice, pendFrom, pend };
  samplers.set(kind, sampler);
  return sampler;
}

/**
 * The dice a roll-off of `sampler`'s kind among `size` ≥ 2 players throws, exactly as likely as playing it
 * die by die. `stack` (MAX_GROUP long) holds the groups still to settle.
 */
export function diceThrown(rng: Rng, sampler: DiceSampler, size: number, stack: Int32Array): number {
  const { bound, reject, classFrom, start, dice, pendFrom, pend } = sampler;
  let thrown = 0;
  let top = 0;
  stack[top++] = size;
  do {
    const group = stack[--top];
    const draw = belowExact(rng, bound[group], reject[group]);
    const first = classFrom[group];
    const end = classFrom[group + 1];
    // The draw's class: how many class starts after the first it reaches.
    let c = first;
    for (let k = first + 1; k < end; k++) c += +(draw >= start[k]);
    thrown += dice[c];
    for (let q = pendFrom[c]; q < pendFrom[c + 1]; q++) stack[top++] = pend[q];
  } while (top > 0);
  return thrown;
}
