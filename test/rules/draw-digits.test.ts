/**
 * The 32-bit digit draw of stream 5 (src/rules/draw-digits.ts) against BigInt arithmetic: the draw's constants, the
 * exactness of Lemire's test at the bounds the rules use (every value has exactly ⌊2^32 / B⌋ accepted outputs,
 * counted output by output), and acceptedOutput's choice of outputs. How the rules read an output's digits is held
 * to a BigInt replay in infinity-stream5.test.ts and deployment-stream5.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { chunkStream, xoshiroNext, xoshiroState } from '../../src/engine/random.js';
import { acceptedOutput, digitDraw, stateOf } from '../../src/rules/draw-digits.js';

const TWO_TO_32 = 1n << 32n;

// The bases the rules draw: infinity's face pairs (400), deployment's trial digits (2, 72, 2592); 6 for a plain d6.
// Digits an output, by hand: the k with b^k ≤ 2^32 giving the most digits on average, k·(1 − (2^32 mod b^k)/2^32).
// 400: 400^3 = 6.4e7 (redrawn 0.16%), 400^4 > 2^32. 72: 72^5 = 1,934,917,632 is redrawn with chance 0.099, 4.50 a
// draw against 72^4's 3.98. 2592: 2592^2 = 6,718,464; 2592^3 > 2^32. 2: 2^32, never redrawn. 6: 6^11 =
// 362,797,056, redrawn 7.1% (10.22 a draw), against 6^12 = 2,176,782,336, redrawn 49.3% (6.08).
const EXPECTED_DIGITS: [number, number][] = [
  [400, 3],
  [72, 5],
  [2592, 2],
  [2, 32],
  [6, 11],
];

describe('digitDraw: the bound, threshold, powers and scale of k digits an output', () => {
  for (const [base, digits] of EXPECTED_DIGITS) {
    it(`base ${base}: ${digits} digits an output`, () => {
      const draw = digitDraw(base, 32);
      const bound = BigInt(base) ** BigInt(digits);
      expect(draw.digits).toBe(digits);
      expect(BigInt(draw.bound)).toBe(bound);
      expect(BigInt(draw.reject)).toBe(TWO_TO_32 % bound);
      expect(draw.scale * 2 ** 32).toBe(base);
      expect(Array.from(draw.powers, (power) => BigInt(power >>> 0))).toEqual(
        Array.from({ length: digits }, (_, j) => BigInt(base) ** BigInt(j) % TWO_TO_32),
      );
    });
  }

  it('maxDigits caps the digits: base 72 with at most 4 gives 72^4', () => {
    expect(digitDraw(72, 4).digits).toBe(4);
    expect(digitDraw(400, 1).digits).toBe(1);
  });

  it('refuses a base whose remainders times it would pass 2^53 (2^21 and up), or below 2', () => {
    expect(() => digitDraw(2 ** 21, 2)).toThrow(/base 2097152; allowed: a whole number from 2 to 2\^21/);
    expect(() => digitDraw(1, 2)).toThrow(RangeError);
    expect(() => digitDraw(2.5, 2)).toThrow(RangeError);
  });
});

describe("Lemire's test on 32 bits is exact at every bound the rules use", () => {
  for (const [base] of EXPECTED_DIGITS) {
    const { bound, reject } = digitDraw(base, 32);
    it(`bound ${bound}: each value sampled has exactly ⌊2^32 / bound⌋ accepted outputs`, () => {
      const big = BigInt(bound);
      const each = TWO_TO_32 / big;
      // Values at both ends and in the middle, and 200 more from a fixed stream (seed "lemire").
      const rng = chunkStream('lemire', 'draw-digits', 0, 3);
      const values = [
        0n,
        1n,
        big / 2n,
        big - 1n,
        ...Array.from({ length: 200 }, () => BigInt(Math.floor(rng() * bound))),
      ];
      for (const value of values) {
        // The outputs x with ⌊x·B / 2^32⌋ = value: from ⌈value·2^32 / B⌉ up to ⌈(value + 1)·2^32 / B⌉ − 1.
        const first = (value * TWO_TO_32 + big - 1n) / big;
        const end = ((value + 1n) * TWO_TO_32 + big - 1n) / big;
        let accepted = 0n;
        for (let x = first; x < end; x++) {
          const low = (x * big) % TWO_TO_32;
          // The module's test, x·B mod 2^32 from Math.imul, is the BigInt one.
          expect(Math.imul(Number(x) | 0, bound) >>> 0).toBe(Number(low));
          if (low >= BigInt(reject)) accepted++;
        }
        expect(accepted, `value ${value}`).toBe(each);
      }
    });
  }
});

describe('acceptedOutput', () => {
  it('seed "accepted": returns, in order, the outputs whose x·B mod 2^32 reaches 2^32 mod B, the rest skipped', () => {
    // 72^5 redraws one output in ten, so 5,000 draws skip about 550.
    const { bound, reject } = digitDraw(72, 32);
    const state = stateOf(chunkStream('accepted', 'draw-digits', 0, 5));
    const copy = Int32Array.from(state);
    let skipped = 0;
    for (let draw = 0; draw < 5000; draw++) {
      let expected = xoshiroNext(copy);
      while ((BigInt(expected >>> 0) * BigInt(bound)) % TWO_TO_32 < BigInt(reject)) {
        skipped++;
        expected = xoshiroNext(copy);
      }
      expect(acceptedOutput(state, bound, reject)).toBe(expected);
    }
    expect(skipped).toBeGreaterThan(400);
  });

  it('stateOf gives the stream-5 generator its state and refuses stream 1, which has none', () => {
    const rng = chunkStream('state', 'draw-digits', 0, 5);
    expect(stateOf(rng)).toBe(xoshiroState(rng));
    expect(() => stateOf(chunkStream('state', 'draw-digits', 0, 1))).toThrow(/stream 1: no xoshiro128\*\* state/);
  });
});
