import { describe, expect, it } from 'vitest';
import { evaluateUntilInterrupted } from '../../src/analysis/evaluate.js';
import { planSweep } from '../../src/analysis/sweep.js';
import { evaluateSweep } from '../../src/analysis/sweep-evaluate.js';
import type { SimulationPool } from '../../src/engine/pool.js';
import { getRule } from '../../src/rules/index.js';
import { poolForSuite } from '../support/pool.js';

/**
 * What a sweep holds until its end: each point's result, nothing else. A
 * point's tallied counts and exact fractions (about 12 kB of its 29 at 11
 * squads) are dropped as it finishes. Counted, not measured: which
 * objects the points keep.
 */
describe('a sweep keeps only its points’ results', () => {
  let pool: SimulationPool;
  poolForSuite(2, (made) => {
    pool = made;
  });

  const rule = getRule('reserves');
  const plan = planSweep(rule, { set: ['squads=11'], vary: ['command=0..2'], trials: '65536', seed: 'kept' });

  it('seed "kept": resultsOnly keeps each point’s result, with no tallied counts and no exact values', async () => {
    const kept = await evaluateUntilInterrupted(rule, plan.grid, plan.settings, { pool, resultsOnly: true });
    const full = await evaluateUntilInterrupted(rule, plan.grid, plan.settings, { pool });
    expect(kept.evaluated.map((point) => Object.keys(point).sort())).toEqual(
      plan.grid.map(() => ['result', 'tallied']),
    );
    expect(kept.evaluated.every((point) => point.tallied === null)).toBe(true);
    // The results themselves are the same, number for number.
    expect(kept.evaluated.map((point) => point.result)).toEqual(full.evaluated.map((point) => point.result));
    expect(full.evaluated.every((point) => point.tallied !== null && point.exact !== undefined)).toBe(true);
  });

  it.each([
    ['simulated', plan],
    ['exact', planSweep(rule, { set: ['squads=11'], vary: ['command=0..2'], exact: true })],
  ])('%s: withoutDistributions leaves out each result’s distributions and nothing else', async (_, swept) => {
    const bare = await evaluateUntilInterrupted(rule, swept.grid, swept.settings, { pool, withoutDistributions: true });
    const full = await evaluateUntilInterrupted(rule, swept.grid, swept.settings, { pool });
    expect(full.evaluated.every((point) => Object.keys(point.result.distributions ?? {}).length > 0)).toBe(true);
    expect(bare.evaluated.every((point) => !('distributions' in point.result))).toBe(true);
    const { distributions: _left, ...rest } = full.evaluated[0].result;
    expect(bare.evaluated.map((point) => point.result)).toEqual(
      full.evaluated.map(({ result: { distributions: _, ...others } }) => others),
    );
    expect(Object.keys(bare.evaluated[0].result).sort()).toEqual(Object.keys(rest).sort());
  });

  it('seed "kept": evaluateSweep (which asks for it) gives every point the metrics a full evaluation gives', async () => {
    const sweep = await evaluateSweep(plan, { pool });
    const full = await evaluateUntilInterrupted(rule, plan.grid, plan.settings, { pool });
    expect(sweep.points.map((point) => point.metrics)).toEqual(full.evaluated.map((point) => point.result.metrics));
  });
});
