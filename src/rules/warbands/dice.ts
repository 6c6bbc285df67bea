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
 * one look-up of its bucket of 512 draws nearly always. One draw settles a pair roll-off within four throws
 * (1 − 6^-4) and a three-way one within eight dice (99.3 per cent); the rarer draws that leave groups to
 * settle are the only branch that depends on the dice.
 *
 * Streams 1 to 4 never come here: they play the roll-offs die by die (warbands.ts), as their results were made.
 */

import type { Rng } from '../../contract/types.js';
import { belowExact, rejectBelow } from '../draw-digits.js';

export type RollOffKind = 'top' | 'sort';

/** Dice one draw holds: 6^8 = 1,679,616 ≤ 2^21, so bound·x of a 32-bit x stays exact in a double (belowExact). */
const DIGITS = 8;
const FACES = 6;
/** The most warbands, and so the largest group a roll-off has. */
export const MAX_GROUP = 8;
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

/** The table of a roll-off of `kind` among `size` ≥ 2 players, reading `digits` dice a draw. */
export function diceTable(kind: RollOffKind, size: number, digits = DIGITS): DiceTable {
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
    if (group === undefined || used + group > digits) {
      add(used, pending, ways * FACES ** (digits - used));
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
  return { bound: FACES ** digits, classes: ordered };
}

/** Draws per bucket of a compiled table's bucket index: 2^9, so a table of 6^8 draws has 3,281 buckets. */
const BUCKET_BITS = 9;
/** A bucket whose draws fall in more than one class. */
const MIXED = -1;
/** The largest draw: bound·x of a 32-bit x must stay below 2^53 (belowExact). */
const MAX_DRAW = 2 ** 21;
/**
 * An outcome is drawn with a roll-off's dice only while the table keeps six dice a draw (outcomes · 6^6 ≤ 2^21,
 * so at most 44 outcomes): fewer would leave most draws unsettled, and the buckets mostly mixed.
 */
const JOINT_DIGITS = 6;

/**
 * The dice of one roll-off, drawn; with `outcomes` > 1, it also draws a uniform outcome index along with
 * them and counts it in `counts` (one draw of outcomes · 6^d values, outcome-major: the index and the d dice
 * are independent, each uniform). A table compiled into a function of its own, its arrays in the closure
 * (measured: a third faster than reading them off an object each call); for each bucket of 2^BUCKET_BITS
 * draws `bucket` holds the class they all fall in, packed, MIXED for the few that straddle a class start
 * (then a binary search), so a draw's class is one load nearly always.
 */
export type DiceCount = (rng: Rng, counts: Int32Array) => number;

/** How many dice a draw that also holds one of `outcomes` outcomes can read: 0 if it cannot hold JOINT_DIGITS. */
export function jointDigits(outcomes: number): number {
  let digits = 0;
  while (outcomes * FACES ** (digits + 1) <= MAX_DRAW) digits++;
  return digits >= JOINT_DIGITS ? digits : 0;
}

/**
 * A class packed in one number: its dice (at most the 8 a draw reads) in bits 0–3, how many groups it leaves
 * (at most four: each of two or more dice, eight in all) in bits 4–6, the groups themselves four bits each
 * from bit 7, the last first (the order they are put on settle's stack), its outcome from bit 23.
 */
const GROUPS_AT = 7;
const OUTCOME_AT = 23;
/** The bits of a packed class that count the groups it leaves: 0 when the roll-off ends in its draw. */
const GROUPS_LEFT = 7 << 4;

/** A table compiled for drawing: every class packed, each bucket's class (or MIXED), each class's first draw. */
interface Compiled {
  bound: number;
  reject: number;
  start: Int32Array;
  packed: Int32Array;
  bucket: Int32Array;
}

function build(kind: RollOffKind, size: number, outcomes: number): Compiled {
  const table = diceTable(kind, size, outcomes === 1 ? DIGITS : jointDigits(outcomes));
  const { classes } = table;
  const bound = table.bound * outcomes;
  if (outcomes > 1 << (31 - OUTCOME_AT)) throw new RangeError(`warbands dice: ${outcomes} outcomes in one draw`);
  // Class k = outcome · C + class of the dice, starting at outcome · table.bound + the dice class's start.
  const joint = outcomes * classes.length;
  const start = new Int32Array(joint);
  const packed = new Int32Array(joint);
  for (let outcome = 0, k = 0; outcome < outcomes; outcome++) {
    let from = outcome * table.bound;
    for (const c of classes) {
      if (c.pending.length > 4) throw new RangeError(`warbands dice: a class leaves ${c.pending.length} groups`);
      let groups = 0;
      for (const group of c.pending) groups = (groups << 4) | group;
      start[k] = from;
      packed[k] = c.dice | (c.pending.length << 4) | (groups << GROUPS_AT) | (outcome << OUTCOME_AT);
      from += c.ways;
      k++;
    }
  }
  const bucket = new Int32Array(Math.ceil(bound / 2 ** BUCKET_BITS));
  for (let b = 0; b < bucket.length; b++) {
    const low = classOf(start, b * 2 ** BUCKET_BITS);
    const high = classOf(start, Math.min(bound, (b + 1) * 2 ** BUCKET_BITS) - 1);
    bucket[b] = low === high ? packed[low] : MIXED;
  }
  return { bound, reject: rejectBelow(bound), start, packed, bucket };
}

/** The last class start at or below the draw (binary search: only for the draws of mixed buckets). */
function classOf(start: Int32Array, draw: number): number {
  let low = 0;
  let high = start.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (start[middle] <= draw) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** The buckets of a table of 6^8 draws. */
const PLAIN_BUCKETS = Math.ceil(FACES ** DIGITS / 2 ** BUCKET_BITS);
const PLAIN_BOUND = FACES ** DIGITS;
const PLAIN_REJECT = rejectBelow(PLAIN_BOUND);

/** Each kind's tables without an outcome, by group size, for the groups a class leaves; their buckets end to end. */
interface PlainTables {
  tables: Compiled[];
  buckets: Int32Array;
}
const plainTables: Record<RollOffKind, PlainTables> = {
  top: { tables: [], buckets: new Int32Array((MAX_GROUP + 1) * PLAIN_BUCKETS) },
  sort: { tables: [], buckets: new Int32Array((MAX_GROUP + 1) * PLAIN_BUCKETS) },
};

/** The plain tables of every group up to `size` (all a roll-off of `size` can leave), built once. */
function plainUpTo(kind: RollOffKind, size: number): PlainTables {
  const plain = plainTables[kind];
  for (let group = 2; group <= size; group++)
    if (plain.tables[group] === undefined) {
      plain.tables[group] = build(kind, group, 1);
      plain.buckets.set(plain.tables[group].bucket, group * PLAIN_BUCKETS);
    }
  return plain;
}

/** The groups still to settle, the next on top: at most three below the four slots a class writes. */
const stack = new Int32Array(2 * MAX_GROUP);

/**
 * The dice the groups of `entry` (a packed class) throw after its own, each group from its table of its size,
 * depth first in the order the class lists them (a group's groups before the next group's draw, as the
 * roll-off plays them). One loop over every table's buckets laid end to end, a class's groups written four
 * slots at a time with no branch on how many there are: the only branch that depends on the dice is the
 * loop's end. Measured at 8 warbands, where every setup draw leaves groups: 1.13× faster a trial than a call
 * to each group's own compiled function (the call site saw seven of them, so none was inlined).
 */
function settle(rng: Rng, plain: PlainTables, entry: number): number {
  const { buckets, tables } = plain;
  let top = 0;
  let dice = 0;
  let groups = entry;
  for (;;) {
    stack[top] = (groups >>> GROUPS_AT) & 15;
    stack[top + 1] = (groups >>> (GROUPS_AT + 4)) & 15;
    stack[top + 2] = (groups >>> (GROUPS_AT + 8)) & 15;
    stack[top + 3] = (groups >>> (GROUPS_AT + 12)) & 15;
    top += (groups >>> 4) & 7;
    if (top === 0) return dice;
    const group = stack[--top];
    const draw = belowExact(rng, PLAIN_BOUND, PLAIN_REJECT);
    groups = buckets[group * PLAIN_BUCKETS + (draw >>> BUCKET_BITS)];
    if (groups === MIXED) groups = tables[group].packed[classOf(tables[group].start, draw)];
    dice += groups & 15;
  }
}

function compile(kind: RollOffKind, size: number, outcomes: number): DiceCount {
  const plain = plainUpTo(kind, size);
  const { bound, reject, start, packed, bucket } = outcomes === 1 ? plain.tables[size] : build(kind, size, outcomes);
  if (outcomes === 1)
    return (rng) => {
      const draw = belowExact(rng, bound, reject);
      let entry = bucket[draw >>> BUCKET_BITS];
      if (entry === MIXED) entry = packed[classOf(start, draw)];
      return (entry & GROUPS_LEFT) === 0 ? entry & 15 : (entry & 15) + settle(rng, plain, entry);
    };
  return (rng, counts) => {
    const draw = belowExact(rng, bound, reject);
    let entry = bucket[draw >>> BUCKET_BITS];
    if (entry === MIXED) entry = packed[classOf(start, draw)];
    counts[entry >>> OUTCOME_AT]++;
    return (entry & GROUPS_LEFT) === 0 ? entry & 15 : (entry & 15) + settle(rng, plain, entry);
  };
}

const plain: Record<RollOffKind, DiceCount[]> = { top: [], sort: [] };
const joined = new Map<string, DiceCount>();

/**
 * The dice a roll-off of `kind` among `size` ≥ 2 players throws, drawn exactly as likely as playing it die by
 * die: one draw, more only for the groups its class leaves; with `outcomes` > 1 (jointDigits(outcomes) > 0),
 * one uniform outcome index counted in `counts` too. Built on first use and kept for every chunk after.
 */
export function diceCount(kind: RollOffKind, size: number, outcomes = 1): DiceCount {
  if (outcomes === 1) return (plain[kind][size] ??= compile(kind, size, 1));
  const key = `${kind} ${size} ${outcomes}`;
  let count = joined.get(key);
  if (!count) {
    count = compile(kind, size, outcomes);
    joined.set(key, count);
  }
  return count;
}
