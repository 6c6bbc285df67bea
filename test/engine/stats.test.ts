import { describe, expect, it } from 'vitest';
import { meanInterval } from '../../src/stats/mean-interval.js';
import { normalQuantile } from '../../src/stats/normal-quantile.js';
import { twoSidedZ, wilsonInterval } from '../../src/stats/wilson-interval.js';

// Expected values: scipy 1.17 (scipy.stats.norm.ppf and binomtest(k, n).proportion_ci(method='wilson')).
describe('normalQuantile (AS 241)', () => {
  it.each([
    [0.975, 1.959963984540054],
    [0.995, 2.5758293035489004],
    [1e-10, -6.361340902404056],
    [0.3, -0.5244005127080409],
    [0.9999999, 5.199337582290661],
  ])('Φ⁻¹(%s) matches scipy to 1e-14 relative', (p, expected) => {
    expect(Math.abs(normalQuantile(p) - expected)).toBeLessThanOrEqual(1e-14 * Math.abs(expected));
  });

  it('gives ±∞ at 0 and 1 and NaN outside', () => {
    expect(normalQuantile(0)).toBe(Number.NEGATIVE_INFINITY);
    expect(normalQuantile(1)).toBe(Number.POSITIVE_INFINITY);
    expect(normalQuantile(1.5)).toBeNaN();
  });

  it('a 95% interval uses z = 1.95996…', () => {
    expect(twoSidedZ(0.95)).toBeCloseTo(1.959963984540054, 13);
  });

  it('gives each confidence its own z when they alternate (the last one is kept)', () => {
    // scipy.stats.norm.ppf(0.995) and norm.ppf(0.975).
    for (let turn = 0; turn < 3; turn++) {
      expect(twoSidedZ(0.99)).toBeCloseTo(2.5758293035489004, 13);
      expect(twoSidedZ(0.95)).toBeCloseTo(1.959963984540054, 13);
      expect(twoSidedZ(0.95)).toBeCloseTo(1.959963984540054, 13);
    }
  });
});

describe('wilsonInterval', () => {
  it.each([
    [50, 100, 0.95, 0.4038315303659956, 0.5961684696340044],
    [0, 10, 0.95, 0, 0.27753279986288926],
    [9, 10, 0.99, 0.49276822876710646, 0.9881484965889671],
  ])('%i of %i at %s matches scipy', (successes, trials, confidence, lo, hi) => {
    const interval = wilsonInterval(successes, trials, confidence);
    expect(Math.abs(interval.lo - lo)).toBeLessThan(1e-13);
    expect(Math.abs(interval.hi - hi)).toBeLessThan(1e-13);
  });

  it(
    'starts at exactly 0 for no successes and ends at exactly 1 for all successes, at any trial count and ' +
      'confidence',
    () => {
      // Algebraically the Wilson bounds are 0 and 1 there; before the fix the
      // floating-point formula gave e.g. 4.2e-22 and 0.9999999999999999.
      for (const trials of [1, 7, 1000, 65_536, 1_000_000, 4_128_768, 1e9]) {
        for (const confidence of [0.9, 0.95, 0.99, 0.999999]) {
          expect(wilsonInterval(0, trials, confidence).lo, `0 of ${trials} at ${confidence}`).toBe(0);
          expect(wilsonInterval(trials, trials, confidence).hi, `${trials} of ${trials} at ${confidence}`).toBe(1);
          expect(wilsonInterval(trials, trials, confidence).lo).toBeLessThan(1);
          expect(wilsonInterval(0, trials, confidence).hi).toBeGreaterThan(0);
        }
      }
    },
  );

  it('always holds its own estimate, lo ≤ k/n ≤ hi, including counts next to the edges', () => {
    for (const trials of [1, 2, 3, 10, 999, 65_536, 1_000_000, 1e9, 2 ** 40]) {
      const counts = new Set(
        [0, 1, 2, Math.floor(trials / 3), trials - 2, trials - 1, trials].filter((k) => k >= 0 && k <= trials),
      );
      for (const successes of counts) {
        for (const confidence of [0.5, 0.95, 0.999999]) {
          const { lo, hi } = wilsonInterval(successes, trials, confidence);
          const estimate = successes / trials;
          expect(
            lo <= estimate && estimate <= hi,
            `${successes} of ${trials} at ${confidence}: [${lo}, ${hi}] around ${estimate}`,
          ).toBe(true);
          expect(lo >= 0 && hi <= 1).toBe(true);
        }
      }
    }
  });
});

describe('meanInterval', () => {
  it('observations 0, 1, 2, 3, 4: mean 2, sample variance 2.5, half-width z·√(2.5/5)', () => {
    const sum = 0 + 1 + 2 + 3 + 4;
    const sumOfSquares = 0 + 1 + 4 + 9 + 16;
    const { estimate, lo, hi } = meanInterval(sum, sumOfSquares, 5, 0.95);
    expect(estimate).toBe(2);
    expect(hi - estimate).toBeCloseTo(1.959963984540054 * Math.sqrt(0.5), 12);
    expect(estimate - lo).toBeCloseTo(hi - estimate, 12);
  });

  it('a constant observation has a zero-width interval', () => {
    expect(meanInterval(30, 90, 10, 0.95)).toEqual({ estimate: 3, lo: 3, hi: 3 });
  });
});
