import type { ChunkTask } from '../../src/engine/run-chunks.js';

/**
 * What the page asks a simulation worker for: a CLI worker's task (chunks [firstChunk, endChunk) of a run of
 * totalTrials), numbered. The page's rule files are bundled in, so no file is named.
 */
export interface WorkerTask extends Omit<ChunkTask, 'ruleFile'> {
  id: number;
}

/**
 * What a worker sends back: trials finished (after every chunk), the task's tally, or an error as data (`usage`: the
 * rule refused or failed, in the CLI's words, as a UsageError).
 */
export type WorkerReply =
  | { kind: 'progress'; task: number; trials: number }
  | { kind: 'done'; task: number; tally: Float64Array }
  | { kind: 'error'; task: number; message: string; usage: boolean };
