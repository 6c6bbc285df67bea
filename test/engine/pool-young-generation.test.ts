import { afterAll, describe, expect, it } from 'vitest';
import { SimulationPool } from '../../src/engine/pool.js';

const FIXTURE = new URL('../fixtures/young-generation-worker.mjs', import.meta.url).pathname;

/**
 * A pool worker's young generation stays at the size a worker reaches as
 * it starts (two 2 MiB semispaces), however many objects survive its
 * collections. Left free, V8 doubles it as survivors accumulate, up to two
 * 16 MiB semispaces (32 MiB, which the fixture reaches unbounded): a
 * sweep's workers grew theirs to 8 MiB, some 3 MB more resident each than
 * one run's (issue 25).
 */
describe('the pool bounds its workers’ young generation', () => {
  const pool = new SimulationPool(1, FIXTURE);
  afterAll(async () => {
    await pool.close();
  });

  it('a worker keeping 400,000 objects alive: its new space stays at 4 MiB, two semispaces of 2', async () => {
    const [mostMiB, kept] = await pool.run({
      ruleId: 'reserves',
      params: {},
      seed: 'young',
      stream: 5,
      firstChunk: 0,
      endChunk: 1,
      totalTrials: 1,
    });
    expect(kept).toBe(400_000);
    expect(mostMiB).toBeLessThanOrEqual(4);
  });
});
