/**
 * distributionOfCounts (a distribution from whole-number counts over one total) against a hand-worked case and
 * against the definitions written out here in fractions: P(X = v) = count/total, the mean Σ v·P, the variance
 * Σ (v − mean)²·P. Seeded counts (seedrandom, fixed seed), so a failure reproduces.
 */
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { distributionOfCounts } from '../../src/exact/exact-distribution.js';
import { Fraction } from '../../src/exact/fraction.js';

const text = (values: readonly Fraction[]) => values.map((value) => value.toString());

describe('distributionOfCounts', () => {
  it('a hand-worked case: two fair coins, heads counted (1, 2, 1 of 4)', () => {
    const found = distributionOfCounts(0, [1n, 2n, 1n], 4n);
    expect(found.min).toBe(0);
    expect(text(found.probabilities)).toEqual(['1/4', '1/2', '1/4']);
    expect(found.beyond.toString()).toBe('0');
    // Mean 0·1/4 + 1·1/2 + 2·1/4 = 1; variance (0 − 1)²/4 + 0 + (2 − 1)²/4 = 1/2.
    expect(found.mean.toString()).toBe('1');
    expect(found.variance.toString()).toBe('1/2');
  });

  it('lists from the first value with a chance to the last, zeros between kept', () => {
    // Values 3..7 with counts 0, 2, 0, 1, 0 of 3: listed 4..6.
    const found = distributionOfCounts(3, [0n, 2n, 0n, 1n, 0n], 3n);
    expect(found.min).toBe(4);
    expect(text(found.probabilities)).toEqual(['2/3', '0', '1/3']);
    // Mean (2·4 + 6)/3 = 14/3; variance (2·(4 − 14/3)² + (6 − 14/3)²)/3 = (8/9 + 16/9)/3 = 8/9.
    expect(found.mean.toString()).toBe('14/3');
    expect(found.variance.toString()).toBe('8/9');
  });

  it('equals the definitions, in fractions, on 200 seeded count lists', () => {
    const random = seedrandom('distribution-of-counts');
    for (let round = 0; round < 200; round++) {
      const length = 1 + Math.floor(random() * 12);
      const min = Math.floor(random() * 21) - 10;
      const counts: bigint[] = Array.from({ length }, () => (random() < 0.3 ? 0n : BigInt(Math.floor(random() * 1e9))));
      if (!counts.some((count) => count !== 0n)) counts[0] = 1n;
      const total = counts.reduce((sum, count) => sum + count, 0n);
      const found = distributionOfCounts(min, counts, total);
      const chances = counts.map((count) => Fraction.of(count, total));
      let mean = Fraction.ZERO;
      chances.forEach((chance, at) => {
        mean = mean.add(chance.mul(Fraction.of(min + at)));
      });
      let variance = Fraction.ZERO;
      chances.forEach((chance, at) => {
        const off = Fraction.of(min + at).sub(mean);
        variance = variance.add(off.mul(off).mul(chance));
      });
      const first = counts.findIndex((count) => count !== 0n);
      const last = counts.length - 1 - [...counts].reverse().findIndex((count) => count !== 0n);
      expect(found.min).toBe(min + first);
      expect(text(found.probabilities)).toEqual(text(chances.slice(first, last + 1)));
      expect(found.mean.equals(mean)).toBe(true);
      expect(found.variance.equals(variance)).toBe(true);
    }
  });

  it('refuses counts that do not add up to the total, or no chance at all', () => {
    expect(() => distributionOfCounts(0, [1n, 1n], 3n)).toThrow(/add up to 2, not 3/);
    expect(() => distributionOfCounts(0, [0n, 0n], 1n)).toThrow(/at least one value/);
  });
});
