import { SimulationPool } from '../engine/pool.js';
import { UsageError } from '../errors.js';

/** A worker pool shared between calls; `close()` it when done (the process cannot exit while its threads run). */
export class Pool {
  readonly #pool: SimulationPool;
  constructor(threads: number) {
    if (!Number.isInteger(threads) || threads < 1 || threads > 1024)
      throw new UsageError(`threads: got ${String(threads)}; allowed: a whole number from 1 to 1024`);
    this.#pool = new SimulationPool(threads);
  }
  get threads(): number {
    return this.#pool.threads;
  }
  /** @internal */
  get simulationPool(): SimulationPool {
    return this.#pool;
  }
  close(): Promise<void> {
    return this.#pool.close();
  }
}
