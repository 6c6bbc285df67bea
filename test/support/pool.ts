/** The worker pool a describe block's tests share: made before them, closed after them. */
import { afterAll, beforeAll } from 'vitest';
import { SimulationPool } from '../../src/engine/pool.js';

/** Call in a describe body: a pool of `threads` made before its tests and handed to `made`, closed after them. */
export function poolForSuite(threads: number, made: (pool: SimulationPool) => void): void {
  let pool: SimulationPool | undefined;
  beforeAll(() => {
    pool = new SimulationPool(threads);
    made(pool);
  });
  afterAll(async () => {
    await pool?.close();
  });
}
