/**
 * Several dice from one 32-bit output of xoshiro128**, exactly uniform, for
 * the stream-5 fast paths of infinity, deployment and warbands: Lemire's method
 * on the whole output rather than on its top 20 bits as `Rng.below` (engine/random.ts)
 * does, so one output holds a bound up to 2^32 instead of 4096.
 *
 * An output x (0 ≤ x < 2^32) is accepted for a bound B when x·B mod 2^32 is
 * at least 2^32 mod B; then V = ⌊x·B / 2^32⌋ is uniform on [0, B), every
 * value having exactly ⌊2^32 / B⌋ accepted outputs (D. Lemire, "Fast random
 * integer generation in an interval", ACM TOMACS 29(1), 2019). x·B mod 2^32
 * is Math.imul's low word, whatever the size of B.
 *
 * With B = b^k, V's k base-b digits come each on its own, not one after the
 * other: with r_j = x·b^j mod 2^32 (Math.imul again), x·b^j = ⌊x·b^j / 2^32⌋·2^32
 * + r_j, and ⌊x·b^j / 2^32⌋ = ⌊V / b^(k−j)⌋ is V's first j digits, so digit j
 * (from 0, the most significant first) is ⌊r_j·b / 2^32⌋. r_j·b < 2^53 for
 * b < 2^21, so the product, its scaling by 2^-32 and the truncation are exact
 * in doubles. Independent, the digits do not wait for one another (measured:
 * infinity a quarter faster than the digits peeled off one by one).
 */

import type { Rng } from '../contract/types.js';
import { xoshiroNext, xoshiroState } from '../engine/random.js';

const TWO_TO_32 = 4294967296;

/** How k digits of base b are drawn from one output. */
export interface DigitDraw {
  base: number;
  digits: number;
  /** b^k, as a double (2^32 for 32 binary digits). */
  bound: number;
  /** An output x is drawn again when Math.imul(x, bound) >>> 0, x·bound mod 2^32, falls below this: 2^32 mod b^k. */
  reject: number;
  /** b·2^-32: r·scale, truncated, is the digit of the remainder r (exact: a power of two scales exactly). */
  scale: number;
  /** b^j mod 2^32 as an int32 for each digit j: Math.imul(x, powers[j]) >>> 0 is r_j. */
  powers: Int32Array;
}

/**
 * The number of digits of `base` one output gives that yields the most digits per output on average, k·(1 − chance of
 * a redraw), with b^k ≤ 2^32 and k ≤ maxDigits; the smaller k on a tie.
 * @example digitDraw(400, 3).digits // 3: 64,000,000 ≤ 2^32, drawn again with chance 6,967,296 / 2^32 (0.16%)
 */
export function digitDraw(base: number, maxDigits: number): DigitDraw {
  if (!(Number.isInteger(base) && base >= 2 && base < 2 ** 21))
    throw new RangeError(`digitDraw: base ${base}; allowed: a whole number from 2 to 2^21 − 1`);
  let digits = 1;
  let bestYield = 1 - (TWO_TO_32 % base) / TWO_TO_32;
  for (let k = 2, bound = base * base; k <= maxDigits && bound <= TWO_TO_32; k++, bound *= base) {
    const digitsPerOutput = k * (1 - (TWO_TO_32 % bound) / TWO_TO_32);
    if (digitsPerOutput > bestYield) {
      digits = k;
      bestYield = digitsPerOutput;
    }
  }
  const bound = base ** digits;
  const powers = new Int32Array(digits);
  for (let j = 0; j < digits; j++) powers[j] = base ** j % TWO_TO_32;
  return { base, digits, bound, reject: TWO_TO_32 % bound, scale: base / TWO_TO_32, powers };
}

/**
 * The next output of `state` accepted for `bound` with threshold `reject` (see the top of the file), as an int32: the
 * caller reads its digits with Math.imul and >>> 0.
 */
export function acceptedOutput(state: Int32Array, bound: number, reject: number): number {
  for (;;) {
    const x = xoshiroNext(state);
    if (Math.imul(x, bound) >>> 0 >= reject) return x;
  }
}

/**
 * The same method on a stream's uniform, for a caller that holds the stream rather than its state (warbands): the
 * fraction below which `belowExact(rng, bound, ·)` draws again: (2^32 mod bound)/2^32, exact in a double.
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

/**
 * The xoshiro128** state of a stream-5 generator. Every stream from 2 on is xoshiro128** (engine/random.ts); anything
 * else here is muster's own bug.
 */
export function stateOf(rng: Rng): Int32Array {
  const state = xoshiroState(rng);
  if (state === undefined) throw new Error(`stream ${rng.stream}: no xoshiro128** state to draw digits from`);
  return state;
}
