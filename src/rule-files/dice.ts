/**
 * The dice a rule file's trial receives in simulation: the chunk's stream
 * (stream 5 by default), as the built-in rules get it, with each argument
 * checked. A bad argument throws BadDice, which the loop (loop.ts)
 * turns into one line naming the call.
 */

import type { Dice } from '../contract/dice.js';
import type { Rng } from '../contract/types.js';
import { MAX_BOUND, TWO_TO_MINUS_32, xoshiroNext, xoshiroState } from '../engine/random.js';
import { EXPRESSION_ALLOWED, parseDiceExpression } from '../exact/dice-expression.js';
import { drawChance } from '../rules/chance-draw.js';

export type { Dice } from '../contract/dice.js';

/** Thrown by the dice for a bad argument; the trial's caller turns it into a UsageError naming the call. */
export class BadDice extends Error {
  constructor(
    readonly call: string,
    readonly what: string,
    readonly value: unknown,
    readonly allowed: string,
  ) {
    super('bad dice');
  }
}

const isWhole = (value: number, min: number, max: number) =>
  typeof value === 'number' && (value | 0) === value && value >= min && value <= max;

/**
 * A die's faces or `below`'s bound, up to the engine's limit (MAX_BOUND, engine/random.ts); `call` and `what` name the
 * argument in the message.
 */
function faces(call: string, what: string, value: number): number {
  if (!isWhole(value, 1, MAX_BOUND)) throw new BadDice(call, what, value, `a whole number from 1 to ${MAX_BOUND}`);
  return value;
}

const TWENTY_BITS = 1 << 20;

/** How many dice of `sides` faces one `below` draw holds: the most g with sides^g ≤ MAX_BOUND (1 for a lone face). */
const groups = new Map<number, number>();
function groupOf(sides: number): number {
  let group = groups.get(sides);
  if (group === undefined) {
    group = 1;
    if (sides > 1) while (sides ** (group + 1) <= MAX_BOUND) group++;
    groups.set(sides, group);
  }
  return group;
}

/**
 * The dice on the chunk's stream. On the xoshiro128** streams (2 to 4) `d` and `below` step the generator themselves,
 * on its own state (xoshiroState): the same outputs read the same way as the stream's `roll` and `below`, so a seed
 * gives the same dice, without a call through the stream object a die (measured, most of a die's cost in a rule
 * file). Other streams, and every other call, go through the stream.
 */
export class ChunkDice implements Dice {
  /** The current chunk's stream (one Dice serves every chunk, so the trial always meets the same object). */
  #rng: Rng;
  /** The xoshiro128** state of #rng, or undefined when it is another generator (stream 1). */
  #state: Int32Array | undefined;
  /** The last bound `below` drew for, and 2^20 mod it: a rule draws for a few bounds, mostly one. */
  #bound = 1;
  #reject = 0;
  constructor(rng: Rng) {
    this.#rng = rng;
    this.#state = xoshiroState(rng);
  }
  get rng(): Rng {
    return this.#rng;
  }
  set rng(rng: Rng) {
    this.#rng = rng;
    this.#state = xoshiroState(rng);
  }
  d(sides: number): number {
    const state = this.#state;
    if (state === undefined || !isWhole(sides, 1, MAX_BOUND)) return this.#rng.roll(faces('dice.d', 'sides', sides));
    // XoshiroStream's next, then roll's 1 + ⌊sides·u⌋ of u = output · 2^-32: the stream's own die, bit for bit.
    return 1 + (((xoshiroNext(state) >>> 0) * TWO_TO_MINUS_32 * sides) | 0);
  }
  count(n: number, sides: number | string, atLeast: number): number {
    if (typeof sides === 'string') return this.#countRolls(n, sides, atLeast);
    if (!isWhole(n, 0, 1 << 30)) throw new BadDice('dice.count', 'n', n, 'a whole number of dice from 0');
    faces('dice.count', 'sides', sides);
    if (typeof atLeast !== 'number' || Number.isNaN(atLeast))
      throw new BadDice('dice.count', 'atLeast', atLeast, 'a number');
    return this.#rng.count(n, sides, Math.max(0, Math.min(sides + 1, Math.ceil(atLeast))));
  }
  #countRolls(n: number, text: string, atLeast: number): number {
    const expression = parseDiceExpression(text);
    if (!expression)
      throw new BadDice(
        'dice.count',
        'sides',
        text,
        `a whole number of faces from 1 to ${MAX_BOUND}, or ${EXPRESSION_ALLOWED}`,
      );
    if (!isWhole(n, 0, 1 << 30)) throw new BadDice('dice.count', 'n', n, 'a whole number of rolls from 0');
    if (typeof atLeast !== 'number' || Number.isNaN(atLeast))
      throw new BadDice('dice.count', 'atLeast', atLeast, 'a number');
    const { dice, sides } = expression;
    // The n·dice dice in order, as sum reads them; roll r is dice r·dice to r·dice + dice − 1.
    const group = groupOf(sides);
    let hits = 0;
    let total = 0;
    let inRoll = 0;
    for (let left = n * dice; left > 0; left -= group) {
      const size = Math.min(left, group);
      let rest = sides === 1 ? 0 : this.below(sides ** size);
      for (let die = 0; die < size; die++) {
        total += 1 + (rest % sides);
        rest = Math.floor(rest / sides);
        if (++inRoll === dice) {
          if (total >= atLeast) hits++;
          total = 0;
          inRoll = 0;
        }
      }
    }
    return hits;
  }
  sum(n: number, sides: number): number {
    if (!isWhole(n, 0, 1 << 30)) throw new BadDice('dice.sum', 'n', n, 'a whole number of dice from 0');
    faces('dice.sum', 'sides', sides);
    return sides === 1 ? n : this.#read(n, sides, null);
  }
  /**
   * n dice of `sides` faces (more than one) read from `below(sides^g)` draws, g to a draw, die i of a draw its
   * base-sides digit i: their total, each face also written into `into` when given.
   */
  #read(n: number, sides: number, into: Int32Array | null): number {
    const group = groupOf(sides);
    let total = 0;
    let at = 0;
    for (let left = n; left > 0; left -= group) {
      const size = Math.min(left, group);
      let rest = this.below(sides ** size);
      for (let die = 0; die < size; die++) {
        const face = 1 + (rest % sides);
        total += face;
        if (into !== null) into[at++] = face;
        rest = Math.floor(rest / sides);
      }
    }
    return total;
  }
  highest(n: number, sides: number, keep: number): number {
    return this.#kept('dice.highest', n, sides, keep, true);
  }
  lowest(n: number, sides: number, keep: number): number {
    return this.#kept('dice.lowest', n, sides, keep, false);
  }
  /** The scratch the kept dice are sorted in: one per Dice, grown to the largest pool asked for. */
  #pool = new Int32Array(16);
  /** n dice read as `sum` reads them, sorted, and the `keep` highest (or lowest) added up. */
  #kept(call: string, n: number, sides: number, keep: number, highest: boolean): number {
    if (!isWhole(n, 0, MAX_BOUND)) throw new BadDice(call, 'n', n, `a whole number of dice from 0 to ${MAX_BOUND}`);
    faces(call, 'sides', sides);
    if (!isWhole(keep, 0, n)) throw new BadDice(call, 'keep', keep, `a whole number of dice from 0 to n (${n})`);
    if (sides === 1) return keep;
    if (this.#pool.length < n) this.#pool = new Int32Array(Math.max(n, 2 * this.#pool.length));
    this.#read(n, sides, this.#pool);
    const sorted = this.#pool.subarray(0, n).sort();
    let total = 0;
    for (let k = 0; k < keep; k++) total += highest ? sorted[n - 1 - k] : sorted[k];
    return total;
  }
  below(bound: number): number {
    const state = this.#state;
    if (state === undefined || !isWhole(bound, 1, MAX_BOUND))
      return this.#rng.below(faces('dice.below', 'bound', bound));
    if (bound !== this.#bound) {
      this.#bound = bound;
      this.#reject = TWENTY_BITS % bound;
    }
    const reject = this.#reject;
    // XoshiroStream's below (Lemire's method on the top 20 bits), on the stream's own state.
    for (;;) {
      const product = (xoshiroNext(state) >>> 12) * bound;
      if ((product & (TWENTY_BITS - 1)) >= reject) return product >>> 20;
    }
  }
  random(): number {
    return this.#rng();
  }
  chance(p: number): boolean {
    if (typeof p !== 'number' || !(p >= 0 && p <= 1)) throw new BadDice('dice.chance', 'p', p, 'a number from 0 to 1');
    return drawChance(this.#rng, p);
  }
}
