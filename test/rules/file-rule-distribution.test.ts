/**
 * A rule file's distribution metric (docs/custom-rules.md, "Distributions"):
 * `{ name, distribution: true, min?, max?, doc }`, a whole number a trial.
 * Exact distributions from enumerating the file's dice are held against
 * closed forms worked by hand (the binomial for sixes among n dice; the
 * geometric for roll-offs re-rolled on ties, P(k rolls) = (1/6)^(k−1)·5/6);
 * simulation against those within 5σ per value; bad values refused in one
 * line naming the metric; the histogram the same bits on any chunk split.
 */
import { describe, expect, it } from 'vitest';
import { simulateRunInThread } from '../../src/analysis/run-in-thread.js';
import type { Rule } from '../../src/contract/types.js';
import { UsageError } from '../../src/errors.js';
import { Fraction } from '../../src/exact/fraction.js';
import { adaptRuleFile } from '../../src/rule-files/rule.js';
import { proportionTolerance } from '../support/bounds.js';
import { exactResult } from '../support/exact-result.js';

const ORIGIN = './dist.mjs';
type Out = Record<string, unknown>;
type Dice = { d(sides: number): number };

/** Sixes among `dice` d6 (0 to 10), and whether there was one. */
const sixes = (): Rule =>
  adaptRuleFile(
    {
      id: 'sixes',
      title: 'sixes',
      params: [{ name: 'dice', type: 'integer', default: 4, min: 1, max: 10 }],
      metrics: [
        { name: 'sixes', distribution: true, min: 0, max: 10, doc: 'sixes rolled' },
        { name: 'any', probability: true },
      ],
      trial(dice: Dice, p: { dice: number }, out: Out) {
        let n = 0;
        for (let i = 0; i < p.dice; i++) if (dice.d(6) === 6) n++;
        out.sixes = n;
        out.any = n > 0;
      },
    },
    ORIGIN,
  );

/** Roll-offs of 1d6 against 1d6 until no tie, at most `cap` (the step form: a state per roll so far). */
const rollOffs = (cap?: number): Rule =>
  adaptRuleFile(
    {
      id: 'rolls',
      title: 'rolls',
      metrics: [{ name: 'rolls', distribution: true, min: 1 }],
      start: () => ({ n: 0, done: false }),
      step: (s: { n: number }, dice: Dice) => {
        const tie = dice.d(6) === dice.d(6);
        return { n: s.n + 1, done: !tie || (cap !== undefined && s.n + 1 >= cap) };
      },
      done: (s: { done: boolean }) => s.done,
      report: (s: { n: number }, _p: unknown, out: Out) => {
        out.rolls = s.n;
      },
    },
    ORIGIN,
  );

/** C(n, k) by the multiplicative formula. */
function choose(n: number, k: number): bigint {
  let result = 1n;
  for (let i = 0; i < k; i++) result = (result * BigInt(n - i)) / BigInt(i + 1);
  return result;
}

/** The binomial(n, 1/6) chance of k sixes: C(n, k)·5^(n−k)/6^n. */
const binomial = (n: number, k: number) => Fraction.of(choose(n, k) * 5n ** BigInt(n - k), 6n ** BigInt(n));

const settings = (trials: number, seed = 'dist') => ({
  seed,
  stream: 5 as const,
  threads: 1,
  confidence: 0.95,
  trials,
});

describe('exact distributions of a rule file, from enumerating its dice', () => {
  it('sixes among n dice is the binomial(n, 1/6), value by value, with its tails and moments', () => {
    const rule = sixes();
    for (const n of [1, 3, 5]) {
      const { distributions } = exactResult(rule, { dice: n }, 's', [10, 90]);
      const d = distributions?.sixes;
      if (!d) throw new Error('no distribution');
      expect(d.values.map((v) => v.value)).toEqual(Array.from({ length: n + 1 }, (_, k) => k));
      for (const v of d.values) {
        expect(v.fraction).toBe(binomial(n, v.value).toString());
        let atLeast = Fraction.ZERO;
        for (let k = v.value; k <= n; k++) atLeast = atLeast.add(binomial(n, k));
        expect(v.atLeast.fraction).toBe(atLeast.toString());
        expect(v.atMost.fraction).toBe(atLeast.complement().add(binomial(n, v.value)).toString());
        expect(v.count).toBeNull();
      }
      // Binomial moments: mean n/6, variance n·(1/6)·(5/6).
      expect(d.variance.fraction).toBe(Fraction.of(5 * n, 36).toString());
      expect(d.beyond).toBeNull();
      expect(d.unseen).toBeNull();
    }
  });

  it('percentiles and median are the least value whose at-most chance reaches p (worked by hand)', () => {
    // 3 dice: P(0) = 125/216 ≈ 0.5787, P(≤1) = 200/216 ≈ 0.9259, P(≤2) = 215/216 ≈ 0.9954.
    const d = exactResult(sixes(), { dice: 3 }, 's', [10, 57.87, 58, 92.5, 99.5, 99.6]).distributions?.sixes;
    expect(d?.median.exact).toBe(0);
    expect(d?.percentiles.map((p) => p.exact)).toEqual([0, 0, 1, 1, 2, 3]);
  });

  it('roll-offs capped at 4: (1/6)^(k−1)·5/6 for k < 4, the rest at 4', () => {
    const d = exactResult(rollOffs(4), {}, 's').distributions?.rolls;
    expect(d?.values.map((v) => v.fraction)).toEqual(['5/6', '5/36', '5/216', '1/216']);
    // Unbounded range: what lies past the last value listed is stated, here exactly nothing.
    expect(d?.beyond?.above).toBe(4);
    expect(d?.beyond?.fraction).toBe('0');
  });
});

describe('simulated distributions against the exact ones', () => {
  it('seed "dist": sixes among 4 dice, 200,000 trials, every P(=k), P(≥k), P(≤k) within 5σ', async () => {
    const trials = 200_000;
    const result = await simulateRunInThread(sixes(), { dice: 4 }, settings(trials));
    const d = result.distributions?.sixes;
    if (!d) throw new Error('no distribution');
    let counted = 0;
    for (const v of d.values) {
      counted += v.count as number;
      // 5σ for each of the 15 chances compared (a binomial proportion): fails by chance about once in 10^5 seeds.
      for (const chance of [v, v.atLeast, v.atMost]) {
        const exact = chance.exact as number;
        expect(Math.abs((chance.estimate as number) - exact)).toBeLessThanOrEqual(proportionTolerance(exact, trials));
        expect(chance.lo as number).toBeLessThanOrEqual(chance.estimate as number);
      }
    }
    expect(counted).toBe(trials);
    expect(result.metrics.sixes.fraction).toBe('2/3');
    expect(d.median).toEqual({ p: 50, estimate: 1, exact: 1 });
  });

  it('seed "dist": roll-offs without end, listed to the last value seen, beyond it 0 counted and exact', async () => {
    const trials = 100_000;
    const result = await simulateRunInThread(rollOffs(), {}, settings(trials));
    const d = result.distributions?.rolls;
    if (!d) throw new Error('no distribution');
    // The chain has no end, so enumeration cannot list it: no exact values beside the simulation.
    expect(d.values[0].exact).toBeNull();
    for (const v of d.values) {
      const exact = Fraction.of(1, 6)
        .pow(v.value - 1)
        .mul(Fraction.of(5, 6))
        .toNumber();
      expect(Math.abs((v.estimate as number) - exact)).toBeLessThanOrEqual(proportionTolerance(exact, trials));
    }
    expect(d.beyond?.above).toBe(d.values[d.values.length - 1].value);
    expect(d.beyond?.estimate).toBe(0);
  });

  it('the histogram is the same bits however the trials are split into chunks (1 thread or several)', async () => {
    const rule = sixes();
    const one = await simulateRunInThread(rule, { dice: 6 }, settings(50_000, 'split'));
    const again = await simulateRunInThread(rule, { dice: 6 }, { ...settings(50_000, 'split'), threads: 7 });
    expect(again.distributions).toEqual(one.distributions);
    expect(one.distributions?.sixes.values.map((v) => v.count)).not.toContain(null);
  });
});

describe('a distribution metric is checked in one line naming it', () => {
  const withMetric =
    (metric: object, write: (out: Out) => void = () => {}) =>
    () =>
      adaptRuleFile(
        {
          id: 'bad',
          title: 'bad',
          metrics: [metric],
          trial: (_d: Dice, _p: unknown, out: Out) => write(out),
        },
        ORIGIN,
      );
  const refused = (make: () => Rule, run: (rule: Rule) => unknown = () => {}): string => {
    try {
      run(make());
    } catch (error) {
      expect(error).toBeInstanceOf(UsageError);
      return (error as Error).message;
    }
    throw new Error('not refused');
  };
  const simulate = (rule: Rule) =>
    rule.tally.simulate({}, Object.assign(() => 0.5, {}) as never, 4, new Float64Array(20));

  it('its declaration', () => {
    expect(refused(withMetric({ name: 'n', distribution: true, min: 3, max: 2 }))).toBe(
      `${ORIGIN} (rule bad): metric "n": max 2 is below min 3; allowed: min ≤ max`,
    );
    expect(refused(withMetric({ name: 'n', distribution: true, probability: true }))).toMatch(
      /metric "n": probability: got true beside distribution: true; allowed: absent/,
    );
    expect(refused(withMetric({ name: 'n', probability: false, max: 4 }))).toMatch(
      /metric "n": max: only a distribution has a range/,
    );
    expect(refused(withMetric({ name: 'n', distribution: true, min: 0.5 }))).toMatch(
      /metric "n": min: got 0\.5; allowed: a whole number/,
    );
    expect(refused(withMetric({ name: 'n', distribution: 'yes' }))).toMatch(
      /metric "n": distribution: got "yes"; allowed: true, false or absent/,
    );
  });

  it('a value outside its range, or not whole, simulated and enumerated alike', () => {
    const bounded = { name: 'n', distribution: true, min: 1, max: 3 };
    const cases: Array<[(out: Out) => void, string]> = [
      [(out) => (out.n = 4), 'got 4'],
      [(out) => (out.n = 1.5), 'got 1.5'],
      [() => {}, 'got 0'],
      [(out) => (out.n = 'two'), 'got "two"'],
    ];
    for (const [write, got] of cases) {
      const make = withMetric(bounded, write);
      const allowed = 'allowed: a whole number from 1 to 3 (a distribution)';
      expect(refused(make, simulate)).toMatch(`metric "n": ${got}`);
      expect(refused(make, (rule) => rule.exact?.values({}))).toMatch(`metric "n": ${got}`);
      if (got !== 'got "two"') expect(refused(make, simulate)).toContain(allowed);
    }
  });

  it('a step may not write one: the final state is reported', () => {
    const rule = adaptRuleFile(
      {
        id: 'bad',
        title: 'bad',
        metrics: [{ name: 'n', distribution: true }],
        start: () => 0,
        step: (_s: number, _d: Dice, _p: unknown, out: Out) => {
          out.n = 1;
          return 1;
        },
        done: (s: number) => s === 1,
        report: () => {},
      },
      ORIGIN,
    );
    expect(
      refused(
        () => rule,
        (r) => r.exact?.values({}),
      ),
    ).toMatch(/step wrote the distribution "n"/);
  });
});
