import type { ChunkTask } from '../engine/run-chunks.js';

/**
 * What the page asks a simulation worker for: a CLI worker's task (chunks [firstChunk, endChunk) of a run of
 * totalTrials), numbered; or to stop a task it gave (a parameter changed). The page's rule files are bundled in, so
 * no file is named.
 */
export type WorkerRequest = ({ kind: 'task' } & WorkerTask) | { kind: 'cancel'; id: number };

export interface WorkerTask extends Omit<ChunkTask, 'ruleFile'> {
  id: number;
}

/**
 * What a worker sends back: each chunk's own tally as the chunk finishes (so the page merges them in chunk order and
 * shows the estimate so far), `stopped` when a task was cancelled before its last chunk, or an error as data (`usage`:
 * the rule refused or failed, in the CLI's words, as a UsageError). A task ends with its last chunk, `stopped` or
 * `error`, whichever comes first, and with nothing after it.
 */
export type WorkerReply =
  | { kind: 'chunk'; task: number; chunk: number; trials: number; tally: Float64Array }
  | { kind: 'stopped'; task: number }
  | { kind: 'error'; task: number; message: string; usage: boolean };
