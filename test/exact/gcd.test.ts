import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { greatestCommonDivisor } from '../../src/exact/fraction.js';

// The oracle: Euclid's algorithm on BigInt remainders, as written in any textbook (1 for 0 and 0, as the module says).
function euclid(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a === 0n ? 1n : a;
}

/** A whole number of up to `bits` bits from 32-bit words. */
const wholeOf = (bits: number) =>
  fc
    .array(fc.integer({ min: 0, max: 0xffffffff }), { minLength: 1, maxLength: Math.ceil(bits / 32) })
    .map((words) => words.reduce((value, word) => (value << 32n) | BigInt(word), 0n));

describe("greatestCommonDivisor (Lehmer's algorithm)", () => {
  it('agrees with Euclid on hand-picked pairs either side of 2^53 and 2^1023', () => {
    const cases: Array<[bigint, bigint]> = [
      [0n, 0n],
      [0n, 6n ** 40n],
      [6n ** 40n, 0n],
      [1n, 2n ** 2000n],
      [2n ** 53n, 2n ** 52n * 3n],
      [2n ** 53n - 1n, 2n ** 53n + 1n],
      [2n ** 1023n, 2n ** 1022n * 3n],
      [2n ** 1024n - 1n, 2n ** 1023n - 1n],
      [6n ** 400n, 36n ** 150n * 35n],
      // Consecutive Fibonacci numbers: every quotient 1, the most steps Euclid can take.
      [fibonacci(400), fibonacci(401)],
      // A quotient far past 50 bits: no step of the leading bits is sure, so one remainder on the full numbers.
      [2n ** 300n + 7n, 7n],
      [(2n ** 200n + 1n) * 2n ** 120n, 2n ** 200n + 1n],
    ];
    for (const [a, b] of cases) expect(greatestCommonDivisor(a, b), `${a}, ${b}`).toBe(euclid(a, b));
  });

  it('agrees with Euclid on random pairs sharing a random factor, up to 5,000 bits (fixed seed)', () => {
    fc.assert(
      fc.property(wholeOf(2500), wholeOf(2500), wholeOf(2500), (a, b, shared) => {
        const x = a * (shared + 1n);
        const y = b * (shared + 1n);
        expect(greatestCommonDivisor(x, y)).toBe(euclid(x, y));
        expect(greatestCommonDivisor(y, x)).toBe(euclid(x, y));
      }),
      { seed: 20261203, numRuns: 400 },
    );
  });
});

function fibonacci(n: number): bigint {
  let [a, b] = [0n, 1n];
  for (let i = 0; i < n; i++) [a, b] = [b, a + b];
  return a;
}
