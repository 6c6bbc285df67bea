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
import { belowExact, rejectBelow } from './draw-digits.js';
import type { Rng } from './types.js';

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

function compile(kind: RollOffKind, size: number, outcomes: number): DiceCount {
  const table = diceTable(kind, size, outcomes === 1 ? DIGITS : jointDigits(outcomes));
  const { classes } = table;
  const bound = table.bound * outcomes;
  const reject = rejectBelow(bound);
  // Class k = outcome · C + class of the dice, starting at outcome · table.bound + the dice class's start.
  const joint = outcomes * classes.length;
  const start = new Int32Array(joint);
  const dice = new Int32Array(joint);
  const goesOn = new Uint8Array(joint);
  const outcomeOf = new Int32Array(joint);
  for (let outcome = 0, k = 0; outcome < outcomes; outcome++) {
    let from = outcome * table.bound;
    for (const c of classes) {
      start[k] = from;
      dice[k] = c.dice;
      goesOn[k] = +(c.pending.length > 0);
      outcomeOf[k] = outcome;
      from += c.ways;
      k++;
    }
  }
  // The last class start at or below the draw (binary search: only for the draws of mixed buckets).
  const classOf = (draw: number): number => {
    let low = 0;
    let high = joint - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (start[middle] <= draw) low = middle;
      else high = middle - 1;
    }
    return low;
  };
  // Class k packed in one number: its dice (at most the 8 a draw reads) in bits 0–3, whether groups are left
  // in bit 4, k itself in bits 5–14 (for settling them), its outcome above; a pure bucket holds its class
  // packed, so most draws read one number.
  if (joint > 1 << 10) throw new RangeError(`warbands dice: ${joint} classes, more than 10 bits hold`);
  const packed = new Int32Array(joint);
  for (let k = 0; k < joint; k++) packed[k] = dice[k] | (goesOn[k] << 4) | (k << 5) | (outcomeOf[k] << 15);
  const bucket = new Int32Array(Math.ceil(bound / 2 ** BUCKET_BITS));
  for (let b = 0; b < bucket.length; b++) {
    const low = classOf(b * 2 ** BUCKET_BITS);
    const high = classOf(Math.min(bound, (b + 1) * 2 ** BUCKET_BITS) - 1);
    bucket[b] = low === high ? packed[low] : MIXED;
  }
  // The groups class k leaves, pend[pendFrom[k] … pendFrom[k + 1] − 1], each settled from its own table.
  const pendFrom = new Int32Array(joint + 1);
  const pend = new Int32Array(outcomes * classes.reduce((sum, c) => sum + c.pending.length, 0));
  for (let k = 0, at = 0; k < joint; k++) {
    for (const group of classes[k % classes.length].pending) pend[at++] = group;
    pendFrom[k + 1] = at;
  }
  const own = plain[kind];
  const settle = (rng: Rng, k: number): number => {
    let more = 0;
    for (let q = pendFrom[k]; q < pendFrom[k + 1]; q++) {
      const group = pend[q];
      more += (own[group] ??= compile(kind, group, 1))(rng, NO_COUNTS);
    }
    return more;
  };
  if (outcomes === 1)
    return (rng) => {
      const draw = belowExact(rng, bound, reject);
      let entry = bucket[draw >>> BUCKET_BITS];
      if (entry === MIXED) entry = packed[classOf(draw)];
      return (entry & 16) === 0 ? entry & 15 : (entry & 15) + settle(rng, (entry >>> 5) & 1023);
    };
  return (rng, counts) => {
    const draw = belowExact(rng, bound, reject);
    let entry = bucket[draw >>> BUCKET_BITS];
    if (entry === MIXED) entry = packed[classOf(draw)];
    counts[entry >>> 15]++;
    return (entry & 16) === 0 ? entry & 15 : (entry & 15) + settle(rng, (entry >>> 5) & 1023);
  };
}

const NO_COUNTS = new Int32Array(0);
/** Each kind's tables without an outcome, by group size, for settling the groups a class leaves. */
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
