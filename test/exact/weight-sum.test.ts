/**
 * WeightSum (src/exact/weight-sum.ts) adds integer-over-integer weights over one common denominator without
 * reducing. Each sum here is checked against the same terms added as reduced fractions one by one (Fraction.add,
 * which reduces every step), over denominators that divide one another both ways, are equal, and share a factor
 * or none. The terms come from a small LCG (Numerical Recipes' constants), seed 38.
 */
import { describe, expect, it } from 'vitest';
import { Fraction } from '../../src/exact/fraction.js';
import { WeightSum } from '../../src/exact/weight-sum.js';

describe('WeightSum', () => {
  it('seed 38: 2,000 sums of 1 to 12 terms equal the reduced sums of the same fractions', () => {
    let x = 38;
    const next = (n: number) => {
      x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
      return x % n;
    };
    // Powers of 6 (each divides the next), 36 and 36 again, 10 (shares 2 with 6), 7 (shares nothing).
    const denominators = [1n, 6n, 36n, 216n, 6n ** 20n, 6n ** 21n, 10n, 7n, 7n ** 30n, 12n];
    for (let sum = 0; sum < 2000; sum++) {
      const weights = new WeightSum();
      let reduced = Fraction.ZERO;
      for (let term = 0, terms = 1 + next(12); term < terms; term++) {
        const denominator = denominators[next(denominators.length)];
        const numerator = BigInt(next(1000)) * (next(2) === 0 ? 1n : denominator / (1n + BigInt(next(5))));
        weights.add(numerator, denominator);
        reduced = reduced.add(Fraction.of(numerator, denominator));
      }
      expect(weights.toFraction().toString()).toBe(reduced.toString());
    }
  });
});
