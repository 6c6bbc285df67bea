import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCount } from '../../src/output/format.js';

describe('formatCount writes counts as en-US does, without loading Intl', () => {
  it('hand-worked cases: 0, 999, 1,000, 6,553,600, −1,234,567 and the largest safe integer', () => {
    expect([0, 999, 1000, 6_553_600, -1_234_567, Number.MAX_SAFE_INTEGER].map(formatCount)).toEqual([
      '0',
      '999',
      '1,000',
      '6,553,600',
      '-1,234,567',
      '9,007,199,254,740,991',
    ]);
  });

  it('fast-check, seed 20261130: every safe integer as toLocaleString("en-US") writes it', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (count) => {
        expect(formatCount(count)).toBe(count.toLocaleString('en-US'));
      }),
      { seed: 20261130, numRuns: 2000 },
    );
  });
});
