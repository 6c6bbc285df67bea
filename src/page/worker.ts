/// <reference lib="dom" />
/**
 * The calculator's simulation worker (bundled on its own and started from a
 * Blob URL, so it runs from file://). The page starts a few once and keeps
 * them: each task is a range of chunks run with the CLI workers' own loop
 * (src/engine/run-chunks.ts), chunk k drawing from the stream keyed by
 * (seed, rule, k) and holding the same trials, so the merged tally — and
 * every figure — equals `muster run` for the same seed and trials.
 *
 *   page ─► task { rule, params, seed, chunks } ─► one chunk, its tally (copied) ─► yield ─► the next …
 *   page ─► cancel ─► seen at the next yield: the task dropped, `stopped`
 *
 * The worker yields to its event loop between chunks (a message to itself),
 * so a cancel waits for one chunk at most, never for the whole task.
 */

import type { Rule } from '../contract/types.js';
import { chunkTrials } from '../engine/chunks.js';
import { runChunks } from '../engine/run-chunks.js';
import { appRules } from './app-rules.js';
import type { WorkerReply, WorkerRequest, WorkerTask } from './worker-messages.js';

/** The worker global, typed by hand: the build's lib is DOM, not WebWorker, and the two clash. */
const scope = self as unknown as {
  onmessage: ((event: { data: WorkerRequest }) => void) | null;
  postMessage(message: WorkerReply, transfer?: Transferable[]): void;
};

/** The task being run and its next chunk; null when idle. */
let current: { task: WorkerTask; rule: Rule; next: number } | null = null;
const wake = new MessageChannel();
wake.port1.onmessage = () => runNextChunk();

scope.onmessage = ({ data }) => {
  if (data.kind === 'cancel') {
    // A cancel for a task already finished needs no reply: its last chunk was its end.
    if (current?.task.id !== data.id) return;
    current = null;
    scope.postMessage({ kind: 'stopped', task: data.id });
    return;
  }
  const { kind: _kind, ...task } = data;
  const rule = appRules.find((candidate) => candidate.id === task.ruleId);
  if (!rule) {
    fail(task.id, new Error(`no rule ${task.ruleId} in this page`));
    return;
  }
  current = { task, rule, next: task.firstChunk };
  wake.port2.postMessage(null);
};

function runNextChunk(): void {
  const running = current;
  if (!running) return;
  const { task, rule } = running;
  const chunk = running.next++;
  let tally: Float64Array;
  try {
    tally = runChunks({ ...task, firstChunk: chunk, endChunk: chunk + 1 }, rule);
  } catch (error) {
    current = null;
    fail(task.id, error);
    return;
  }
  const last = running.next >= task.endChunk;
  if (last) current = null;
  const trials = chunkTrials(chunk, task.totalTrials);
  // Copied, not transferred: detaching an ArrayBuffer disarms V8's guard that no typed array is ever detached, and
  // from then on every typed-array access in this worker checks again (the CLI's workers measured 1.05–1.30×).
  scope.postMessage({ kind: 'chunk', task: task.id, chunk, trials, tally });
  if (!last) wake.port2.postMessage(null);
}

function fail(task: number, error: unknown): void {
  const usage = error instanceof Error && error.name === 'UsageError';
  scope.postMessage({ kind: 'error', task, message: error instanceof Error ? error.message : String(error), usage });
}
