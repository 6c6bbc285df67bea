/// <reference lib="dom" />
/**
 * The calculator's simulation worker (bundled on its own and started from a
 * Blob URL, so it runs from file://). It runs a range of chunks with the
 * CLI workers' own loop (src/engine/run-chunks.ts): chunk k draws from the
 * stream keyed by (seed, rule, k) and holds the same trials, so the merged
 * tally — and every figure — equals `muster run` for the same seed and trials.
 *
 *   page ─► { rule, params, seed, chunks } ─► runChunks, progress per chunk … ─► tally (transferred)
 */
import { runChunks } from '../../src/engine/run-chunks.js';
import { appRules } from './app-rules.js';
import type { WorkerReply, WorkerTask } from './worker-messages.js';

/** The worker global, typed by hand: the build's lib is DOM, not WebWorker, and the two clash. */
const scope = self as unknown as {
  onmessage: ((event: { data: WorkerTask }) => void) | null;
  postMessage(message: WorkerReply, transfer?: Transferable[]): void;
};

scope.onmessage = ({ data: task }) => {
  try {
    const rule = appRules.find((candidate) => candidate.id === task.ruleId);
    if (!rule) throw new Error(`no rule ${task.ruleId} in this page`);
    const tally = runChunks(task, rule, (trials) => scope.postMessage({ kind: 'progress', task: task.id, trials }));
    scope.postMessage({ kind: 'done', task: task.id, tally }, [tally.buffer]);
  } catch (error) {
    const usage = error instanceof Error && error.name === 'UsageError';
    scope.postMessage({
      kind: 'error',
      task: task.id,
      message: error instanceof Error ? error.message : String(error),
      usage,
    });
  }
};
