import { availableParallelism } from 'node:os';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { UsageError } from '../errors.js';
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

/**
 * A simulation thread failed: the rule threw, the thread exited, or it made
 * no progress within --timeout. A bug in muster or in a rule, not in what
 * the user typed, so the CLI reports it in one line with exit status 1.
 */
export class WorkerError extends Error {
  override readonly name = 'WorkerError';
}

/** The chunks of a task, as people count them. */
export function chunkText(first: number, end: number): string {
  return end - first === 1 ? `chunk ${first}` : `chunks ${first}–${end - 1}`;
}

export function defaultThreads(): number {
  return availableParallelism();
}

/** What a worker returns instead of a tally when the task meets a user's mistake (such as a rule file's trial throwing). */
export interface WorkerUsageError {
  usageError: string;
}

/** A fixed-size pool of simulation threads; one pool serves every run of a command. */
export class SimulationPool {
  readonly threads: number;
  #pool: Piscina;

  /** `filename` replaces the worker (tests use one that fails on purpose). */
  constructor(threads: number, filename: string = workerFile()) {
    if (!Number.isInteger(threads) || threads < 1) throw new RangeError('threads must be a positive integer');
    this.threads = threads;
    this.#pool = new Piscina({ filename, minThreads: threads, maxThreads: threads, idleTimeout: 60_000 });
  }

  /** Runs one task; a failure that is not an abort becomes a WorkerError naming the rule and chunks. */
  async run(task: ChunkTask, signal?: AbortSignal): Promise<Float64Array> {
    let answer: ArrayBuffer | WorkerUsageError;
    try {
      answer = await this.#pool.run(task, { signal });
    } catch (error) {
      if (signal?.aborted) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new WorkerError(`${task.ruleId}: the simulation failed in ${chunkText(task.firstChunk, task.endChunk)} (${reason.split('\n')[0]}); this is a bug, nothing was written`);
    }
    // A mistake in a rule file, found in a worker, comes back as data: one line for the user, no worker stack.
    if (!(answer instanceof ArrayBuffer)) throw new UsageError(answer.usageError);
    return new Float64Array(answer);
  }

  async close(): Promise<void> {
    await this.#pool.destroy();
  }
}
