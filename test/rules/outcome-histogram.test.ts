/**
 * The shared outcome histogram (src/engine/outcome-histogram.ts): where each
 * rule's cap falls, worked out by hand from the rule's own code count, and
 * the order in which the counts are read.
 */
import { describe, expect, it } from 'vitest';
import { checkOutcomeCounts, forEachOutcome, outcomeHistogram } from '../../src/engine/outcome-histogram.js';
import { TycheStream } from '../../src/engine/random.js';
import { adaptRuleFile } from '../../src/rule-files/rule.js';
import { resolveParams } from '../../src/rules/params.js';
import { reserves } from '../../src/rules/reserves/reserves.js';
import { warbands } from '../../src/rules/warbands/warbands.js';

describe('outcomeHistogram: a histogram up to the cap, null (the fallback) past it', () => {
  it('holds exactly cap codes, and not one more', () => {
    expect(outcomeHistogram(1 << 14, 1 << 14, 7)).toEqual({ outcomes: 1 << 14, at: 7 });
    expect(outcomeHistogram((1 << 14) + 1, 1 << 14)).toBeNull();
    expect(outcomeHistogram(0, 1 << 14)).toEqual({ outcomes: 0, at: 0 });
  });

  it('visits each code that happened once, in ascending order, from its offset', () => {
    const counts = [9, 9, 0, 3, 0, 0, 5, 1, 9];
    const seen: Array<[number, number]> = [];
    forEachOutcome({ outcomes: 6, at: 2 }, counts, (code, times) => seen.push([code, times]));
    expect(seen).toEqual([
      [1, 3],
      [4, 5],
      [5, 1],
    ]);
  });

  it('checks that the counts add up to the trials, one outcome a trial', () => {
    const histogram = { outcomes: 3, at: 1 };
    expect(checkOutcomeCounts(histogram, [100, 2, 0, 4], 6)).toBeNull();
    expect(checkOutcomeCounts(histogram, [100, 2, 0, 4], 7)).toBe('the outcome counts sum to 6, not the 7 trials');
  });
});

describe('each rule meets its cap where its code count says', () => {
  it('reserves: (S+1)^(R+1) codes, 4^9 = 2^18 kept as a histogram, 4^10 not', () => {
    const at = (rounds: number) => reserves.tally.length(resolveParams(reserves, ['squads=3', `rounds=${rounds}`]));
    expect(at(8)).toBe(4 ** 9);
    // Past the cap, the running sums: a few entries a round, far fewer than 4^10.
    expect(at(9)).toBeLessThan(1000);
  });

  it('warbands: n^rollers · n codes, 5^5 · 5 = 15,625 within 2^14, 6^5 · 6 = 46,656 past it', () => {
    // Without the histogram the tally holds 3n + n² + 3 · 66 entries (places, first players, three dice counts).
    const base = (n: number) => 3 * n + n * n + 3 * 66;
    const length = (list: string, defender: boolean) =>
      warbands.tally.length(resolveParams(warbands, [`warbands=${list}`, `defender=${defender}`]));
    expect(length('100:5,100:5,100:5,100:5,100:5', false)).toBe(base(5) + 5 ** 5 * 5);
    expect(length('100:5,100:5,100:5,100:5,100:5,100:5', true)).toBe(base(6));
  });

  it('a rule file: outcomes(params) up to 2^20, and one more is its mistake', () => {
    const rule = (outcomes: number) =>
      adaptRuleFile(
        {
          id: 'capped',
          title: 'capped',
          params: [],
          metrics: [{ name: 'won', probability: true }],
          outcomes: () => outcomes,
          read: (outcome: number, _params: unknown, out: Record<string, unknown>) => {
            out.won = outcome === 0 ? 1 : 0;
          },
          trial: () => 0,
        },
        './capped.mjs',
      );
    const tally = new Float64Array(1);
    rule(2 ** 20).tally.simulate({}, new TycheStream('capped').random, 10, tally);
    expect(tally[0]).toBe(10);
    expect(() =>
      rule(2 ** 20 + 1).tally.simulate({}, new TycheStream('capped').random, 10, new Float64Array(1)),
    ).toThrow(
      './capped.mjs (rule capped): outcomes(params): returned 1048577; allowed: a whole number of outcomes from 1 to ' +
        "1048576, or 0 to write each trial's metrics into out at these params",
    );
  });
});
