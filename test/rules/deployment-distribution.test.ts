/**
 * "What zone total will my forward gamble leave me with?": each player's
 * zone total as a whole distribution, checked exactly against the
 * independent enumeration of deployment-brute-force.ts (The Genesys
 * Project, §6.2: a forward deployment's 36 pairs of dice, each die showing
 * the chosen zone lost, any other adding zone d6 + 2; a standard
 * deployment's three zones), summed zone by zone as §6.3 adds them. The
 * simulation, on stream 2 (die by die) and stream 5 (dice read as digits),
 * is held to it value by value.
 */
import { describe, expect, it } from 'vitest';
import { simulateRunInThread } from '../../src/analysis/run-in-thread.js';
import { Fraction } from '../../src/exact/fraction.js';
import { deployment } from '../../src/rules/deployment/deployment.js';
import { resolveParams } from '../../src/rules/params.js';
import { countPlausible } from '../support/bounds.js';
import { exactResult } from '../support/exact-result.js';
import { zoneOutcomes } from './deployment-brute-force.js';

/** P(total = t) over a strategy's equally likely zone sets, zero chances left out, as value → fraction text. */
function totals(strategy: string, compare: 'raw' | 'modified'): Map<number, string> {
  const outcomes = zoneOutcomes(strategy, compare);
  const counts = new Map<number, number>();
  for (const zones of outcomes) {
    const total = [...zones].reduce((sum, zone) => sum + zone, 0);
    counts.set(total, (counts.get(total) ?? 0) + 1);
  }
  return new Map([...counts].map(([total, count]) => [total, Fraction.of(count, outcomes.length).toString()]));
}

describe('deployment: each zone total, exactly the enumeration of §6.2', () => {
  for (const compare of ['raw', 'modified'] as const)
    for (const [a, b] of [
      ['forward:1', 'standard:1,2,3'],
      ['forward:5', 'forward:3'],
      ['standard:2,3,5', 'forward:6'],
    ]) {
      it(`${a} against ${b}, compare=${compare}: every P(total = t) and the mean`, () => {
        const params = resolveParams(deployment, [`a=${a}`, `b=${b}`, `compare=${compare}`]);
        const result = exactResult(deployment, params, 's');
        for (const [player, strategy] of [
          ['a', a],
          ['b', b],
        ] as const) {
          const d = result.distributions?.[`${player}.total.mean`];
          const listed = new Map(d?.values.filter((v) => v.fraction !== '0').map((v) => [v.value, v.fraction]));
          expect(listed, `${player} ${strategy}`).toEqual(totals(strategy, compare));
          expect(d?.values[0].atLeast.fraction).toBe('1');
          expect(d?.values.at(-1)?.atMost.fraction).toBe('1');
        }
      });
    }

  it('forward from zone 1 loses both dice on a double 1: a lone zone, total 1, with chance 1/36', () => {
    expect(totals('forward:1', 'raw').get(1)).toBe('1/36');
    const params = resolveParams(deployment, ['a=forward:1']);
    const d = exactResult(deployment, params, 's').distributions?.['a.total.mean'];
    expect(d?.values[0]).toMatchObject({ value: 1, fraction: '1/36' });
  });
});

describe('deployment: the simulated zone totals against the exact ones', () => {
  const trials = 100_000;
  for (const stream of [2, 5] as const) {
    it(`seed "totals", stream ${stream}, forward:4 against forward:2: every P(=t) and P(≥t) within 5σ`, async () => {
      const params = resolveParams(deployment, ['a=forward:4', 'b=forward:2']);
      const result = await simulateRunInThread(deployment, params, {
        seed: 'totals',
        stream,
        threads: 1,
        confidence: 0.95,
        trials,
      });
      let compared = 0;
      for (const name of ['a.total.mean', 'b.total.mean']) {
        const d = result.distributions?.[name];
        if (!d) throw new Error(`no distribution ${name}`);
        expect(d.values.reduce((sum, v) => sum + (v.count as number), 0)).toBe(trials);
        for (const v of d.values)
          for (const chance of [v, v.atLeast]) {
            // 5σ (countPlausible), about 60 comparisons: a correct build fails by chance about once in
            // 30,000 seeds (5.7e-7 each); a chance of 0 has no spread and must be met exactly.
            const count = Math.round((chance.estimate as number) * trials);
            expect(countPlausible(count, trials, chance.exact as number), `${name} ${v.value}: ${count}`).toBe(true);
            compared++;
          }
      }
      expect(compared).toBeGreaterThan(30);
    });
  }
});
