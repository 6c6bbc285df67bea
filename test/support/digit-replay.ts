/**
 * Stream 5's digits read again, in BigInt and without src/rules/draw-digits.ts:
 * each xoshiro128** output x (0 ≤ x < 2^32) is kept when x·B mod 2^32 ≥ 2^32
 * mod B, B = b^k (Lemire's test on the whole output), and then gives the k
 * base-b digits of ⌊x·B / 2^32⌋, most significant first. The oracle the
 * rules' stream-5 loops are held to draw by draw.
 */
import { xoshiroNext } from '../../src/engine/random.js';

const TWO_TO_32 = 1n << 32n;

export class DigitReplay {
  readonly #state: Int32Array;
  readonly #base: bigint;
  readonly #bound: bigint;
  readonly #digits: number;
  /** The digits of the current output not yet read, the next one first. */
  #left: number[] = [];
  /** Outputs drawn again, so a test can say its run met the redraw. */
  redrawn = 0;
  outputs = 0;

  /** `state` is copied: the replay steps a generator of its own from there. */
  constructor(state: Int32Array, base: number, digits: number) {
    this.#state = Int32Array.from(state);
    this.#base = BigInt(base);
    this.#bound = BigInt(base) ** BigInt(digits);
    this.#digits = digits;
  }

  /** The next digit. */
  next(): number {
    if (this.#left.length === 0) this.#draw();
    return this.#left.shift()!;
  }

  /** Leaves the current output's remaining digits unread, as a rule does when its trials are done. */
  dropRest(): void {
    this.#left = [];
  }

  #draw(): void {
    const threshold = TWO_TO_32 % this.#bound;
    for (;;) {
      const x = BigInt(xoshiroNext(this.#state) >>> 0);
      this.outputs++;
      if ((x * this.#bound) % TWO_TO_32 < threshold) {
        this.redrawn++;
        continue;
      }
      let value = (x * this.#bound) / TWO_TO_32;
      const digits: number[] = [];
      for (let j = 0; j < this.#digits; j++) {
        digits.unshift(Number(value % this.#base));
        value /= this.#base;
      }
      this.#left = digits;
      return;
    }
  }
}
