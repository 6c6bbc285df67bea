import { availableParallelism } from 'node:os';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { ChunkTask } from './run-chunks.js';

/**
 * The compiled worker. Under the TypeScript test runner this file is not in
 * dist/, so it points at the build that `npm test` makes first.
 */
function workerFile(): string {
  const here = fileURLToPath(import.meta.url);
  const compiled = here.endsWith('.ts')
    ? fileURLToPath(new URL('../../dist/workers/simulate.js', import.meta.url))
    : fileURLToPath(new URL('../../workers/simulate.js', import.meta.url));
  if (!existsSync(compiled)) throw new Error(`worker not built: ${compiled} (run npm run build)`);
  return compiled;
}

export function defaultThreads(): number {
  return availableParallelism();
}

/** A fixed-size pool of simulation threads; one pool serves every run of a command. */
export class SimulationPool {
  readonly threads: number;
  #pool: Piscina;

  constructor(threads: number) {
    if (!Number.isInteger(threads) || threads < 1) throw new RangeError('threads must be a positive integer');
    this.threads = threads;
    this.#pool = new Piscina({ filename: workerFile(), minThreads: threads, maxThreads: threads, idleTimeout: 60_000 });
  }

  async run(task: ChunkTask, signal?: AbortSignal): Promise<Float64Array> {
    const buffer: ArrayBuffer = await this.#pool.run(task, { signal });
    return new Float64Array(buffer);
  }

  async close(): Promise<void> {
    await this.#pool.destroy();
  }
}
