/**
 * "How many roll-offs will this take?": the number of 2d6 roll-offs as a
 * whole distribution, for rolloff (any bonus) and noctvale (equal counts
 * roll; unequal ones never do). The oracle is brute force from the text
 * (Noctvale, Standard Battle Set-Up, step 3: "each player rolls 2d6; the
 * higher result has initiative. Reroll ties."): every sequence of two
 * roll-offs, die by die (1296² = 1,679,616 sequences of eight dice), counted
 * by how many rolls it took — 1, 2, or more — with none of the rules'
 * tables or formulas. The simulation is held to it value by value within 5σ.
 */
import { describe, expect, it } from 'vitest';
import { simulateRunInThread } from '../../src/analysis/run-in-thread.js';
import type { Rule } from '../../src/contract/types.js';
import { Fraction } from '../../src/exact/fraction.js';
import { noctvale } from '../../src/rules/noctvale.js';
import { resolveParams } from '../../src/rules/params.js';
import { rolloff } from '../../src/rules/rolloff.js';
import { proportionTolerance } from '../support/bounds.js';
import { exactResult } from '../support/exact-result.js';

/** P(1 roll), P(2 rolls) and P(3 or more), counting every sequence of two roll-offs' eight dice. */
function bruteForce(bonusA: number): [Fraction, Fraction, Fraction] {
  const tied: boolean[] = [];
  for (let a1 = 1; a1 <= 6; a1++)
    for (let a2 = 1; a2 <= 6; a2++)
      for (let b1 = 1; b1 <= 6; b1++) for (let b2 = 1; b2 <= 6; b2++) tied.push(a1 + a2 + bonusA === b1 + b2);
  let one = 0;
  let two = 0;
  let more = 0;
  for (const first of tied)
    for (const second of tied) {
      if (!first) one++;
      else if (!second) two++;
      else more++;
    }
  const all = tied.length ** 2;
  return [Fraction.of(one, all), Fraction.of(two, all), Fraction.of(more, all)];
}

const exactOf = (rule: Rule, params: ReturnType<typeof resolveParams>, name: string) => {
  const d = exactResult(rule, params, 's').distributions?.[name];
  if (!d) throw new Error(`no distribution ${name}`);
  return d;
};

describe('the number of roll-offs, exactly, against brute force from the text', () => {
  for (const bonus of [-3, 0, 2, 6]) {
    it(`rolloff bonusA=${bonus}: P(1), P(2) and P(≥3) as every two-roll sequence counts them`, () => {
      const d = exactOf(rolloff, resolveParams(rolloff, [`bonusA=${bonus}`]), 'rolls.mean');
      const [one, two, more] = bruteForce(bonus);
      expect(d.values[0]).toMatchObject({ value: 1, fraction: one.toString() });
      expect(d.values[1]).toMatchObject({ value: 2, fraction: two.toString() });
      expect(d.values[2].atLeast.fraction).toBe(more.toString());
      // Listed to a stated depth: what lies beyond it is under 10^-12, and every listed chance and beyond add to 1.
      expect(d.beyond?.above).toBe(d.values[d.values.length - 1].value);
      expect(d.beyond?.exact as number).toBeLessThanOrEqual(1e-12);
      expect(d.values[0].atLeast.fraction).toBe('1');
    });
  }

  it('rolloff: the mean and variance are the geometric ones of the brute-force tie chance, exactly', () => {
    const params = resolveParams(rolloff, []);
    const [one] = bruteForce(0);
    const tie = one.complement();
    const d = exactOf(rolloff, params, 'rolls.mean');
    // Mean 1/(1 − t), variance t/(1 − t)² for a roll repeated with chance t.
    expect(rolloff.exact?.values(params)['rolls.mean'].toString()).toBe(Fraction.ONE.div(one).toString());
    expect(d.variance.fraction).toBe(tie.div(one.mul(one)).toString());
    expect(d.median.exact).toBe(1);
  });

  it('noctvale: equal counts roll (the same chances as a plain roll-off), unequal counts never', () => {
    const [one, two, more] = bruteForce(0);
    const equal = exactOf(noctvale, resolveParams(noctvale, ['fightersA=7', 'fightersB=7']), 'rolloffs.mean');
    expect(equal.values.slice(0, 2).map((v) => [v.value, v.fraction])).toEqual([
      [1, one.toString()],
      [2, two.toString()],
    ]);
    expect(equal.values[2].atLeast.fraction).toBe(more.toString());
    const unequal = exactOf(noctvale, resolveParams(noctvale, ['fightersA=5', 'fightersB=9']), 'rolloffs.mean');
    expect(unequal.values.map((v) => [v.value, v.fraction])).toEqual([[0, '1']]);
    expect(unequal.beyond?.fraction).toBe('0');
  });
});

describe('the simulated number of roll-offs against the exact distribution', () => {
  const settings = { seed: 'rolls', stream: 5 as const, threads: 1, confidence: 0.95, trials: 400_000 };

  for (const [rule, set, name] of [
    [rolloff, ['bonusA=1'], 'rolls.mean'],
    [noctvale, ['fightersA=8', 'fightersB=8'], 'rolloffs.mean'],
    [noctvale, ['fightersA=5', 'fightersB=9'], 'rolloffs.mean'],
  ] as const) {
    it(`seed "rolls": ${rule.id} ${set.join(' ')}, 400,000 trials: P(=k), P(≥k) within 5σ; beyond as counted`, async () => {
      const params = resolveParams(rule, [...set]);
      const result = await simulateRunInThread(rule, params, settings);
      const d = result.distributions?.[name];
      if (!d) throw new Error('no distribution');
      let counted = 0;
      for (const v of d.values) {
        counted += v.count as number;
        // 5σ of a binomial proportion for each chance compared (at most 30 here): a correct build fails by chance
        // about once in 60,000 seeds.
        for (const chance of [v, v.atLeast]) {
          const exact = chance.exact as number;
          expect(Math.abs((chance.estimate as number) - exact)).toBeLessThanOrEqual(
            proportionTolerance(exact, settings.trials),
          );
        }
      }
      expect(counted + (d.beyond?.estimate ?? 0) * settings.trials).toBe(settings.trials);
      expect(result.metrics[name].exact).toBe(rule.exact?.values(params)[name].toNumber());
    });
  }
});
