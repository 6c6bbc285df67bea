import type { Params } from '../../src/rules/types.js';

/** What the page asks a simulation worker for: chunks [firstChunk, endChunk) of a run of totalTrials. */
export interface WorkerTask {
  id: number;
  ruleId: string;
  params: Params;
  seed: string;
  firstChunk: number;
  endChunk: number;
  totalTrials: number;
}

/** What a worker sends back: trials finished (after every chunk), the task's tally, or an error as data. */
export type WorkerReply =
  | { kind: 'progress'; task: number; trials: number }
  | { kind: 'done'; task: number; tally: Float64Array }
  | { kind: 'error'; task: number; message: string };
