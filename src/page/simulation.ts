/// <reference lib="dom" />
/**
 * Simulation in the page: a few Web Workers (./worker.ts) started once and
 * kept, each run's chunks shared out to them, their tallies merged in chunk
 * order as they come in (integer counts, so any order gives the same sums;
 * chunk order also makes every estimate shown on the way the same for a
 * seed). The figures depend on the seed and the trials only — never on the
 * number of workers or which finishes first.
 *
 *   start ─► the last run cancelled ─► ranges of chunks ─► idle workers … ─► chunk tallies ─► merged in order
 *   cancel ─► each busy worker told, stops at its next chunk; one silent past CANCEL_GRACE_MS is replaced
 */

import type { Params, Rule, StreamVersion } from '../contract/types.js';
import { type ChunkRange, chunkCount, planTasks } from '../engine/chunks.js';
import { mergeTally } from '../engine/run-chunks.js';
import { UsageError } from '../errors.js';
import type { WorkerReply, WorkerRequest } from './worker-messages.js';

/**
 * How long a worker told to stop may take to say so before it is replaced: a chunk of the heaviest settings runs
 * longer, and the next run should not wait for it.
 */
export const CANCEL_GRACE_MS = 150;

export interface SimulationRequest {
  rule: Rule;
  params: Params;
  seed: string;
  /** The random stream, as muster run's --stream. */
  stream: StreamVersion;
  trials: number;
  /**
   * After every chunk merged: the trials merged so far (chunks 0…k, in order) and their tally, live (read it now, or
   * copy it: later chunks are added into it).
   */
  onProgress(done: number, total: number, tally: Float64Array): void;
}

export interface RunningSimulation {
  /**
   * The merged tally of every chunk; rejects if a worker fails (with a UsageError where the rule did), never settles
   * once cancelled.
   */
  finished: Promise<Float64Array>;
  /** Stops the run at once (a parameter changed); its workers are free for the next. */
  cancel(): void;
}

/** One run: its chunks still to give out, those back early (waiting for an earlier one), and the merged tally. */
interface Run {
  request: SimulationRequest;
  queue: ChunkRange[];
  tally: Float64Array;
  early: Map<number, { trials: number; tally: Float64Array }>;
  nextChunk: number;
  chunks: number;
  done: number;
  resolve(tally: Float64Array): void;
  reject(error: Error): void;
}

/** A kept worker and the task it runs (null: idle), with that task's run and the chunks still to come back. */
interface Slot {
  worker: Worker;
  task: number | null;
  run: Run | null;
  left: number;
  /** Set while a cancelled task has not yet said it stopped. */
  grace: ReturnType<typeof setTimeout> | null;
}

export class SimulationPool {
  private readonly slots: Slot[] = [];
  private run: Run | null = null;
  private nextTask = 0;

  /** `url`: the worker bundle's Blob URL; `size`: how many workers to keep (started on the first run). */
  constructor(
    private readonly url: string,
    private readonly size: number,
  ) {
    if (!Number.isInteger(size) || size < 1) throw new Error(`size must be a positive integer, got ${size}`);
  }

  /** Starts a run; the run before it, if any, is cancelled first. */
  start(request: SimulationRequest): RunningSimulation {
    this.cancel();
    while (this.slots.length < this.size) this.slots.push(this.slot());
    let resolve: (tally: Float64Array) => void = () => undefined;
    let reject: (error: Error) => void = () => undefined;
    const finished = new Promise<Float64Array>((yes, no) => {
      resolve = yes;
      reject = no;
    });
    const chunks = chunkCount(request.trials);
    const run: Run = {
      request,
      queue: planTasks(0, request.trials, this.size),
      tally: new Float64Array(request.rule.tally.length(request.params)),
      early: new Map(),
      nextChunk: 0,
      chunks,
      done: 0,
      resolve,
      reject,
    };
    if (chunks === 0) {
      resolve(run.tally);
      return { finished, cancel: () => undefined };
    }
    this.run = run;
    this.dispatch();
    return {
      finished,
      cancel: () => {
        if (this.run === run) this.cancel();
      },
    };
  }

  /** Drops the current run: its queue emptied, every worker on it told to stop, and replaced if it stays silent. */
  private cancel(): void {
    const run = this.run;
    if (!run) return;
    this.run = null;
    for (const slot of this.slots) {
      if (slot.run !== run || slot.task === null) continue;
      const task = slot.task;
      slot.worker.postMessage({ kind: 'cancel', id: task } satisfies WorkerRequest);
      slot.grace = setTimeout(() => {
        slot.grace = null;
        if (slot.task === task) this.replace(slot);
      }, CANCEL_GRACE_MS);
    }
  }

  private slot(): Slot {
    const slot: Slot = { worker: this.spawn(), task: null, run: null, left: 0, grace: null };
    this.listen(slot);
    return slot;
  }

  private spawn(): Worker {
    return new Worker(this.url);
  }

  /** A worker that did not stop in time, or broke: a fresh one in its place (its bundle is compiled again). */
  private replace(slot: Slot): void {
    slot.worker.terminate();
    slot.worker = this.spawn();
    this.free(slot);
    this.listen(slot);
    this.dispatch();
  }

  private free(slot: Slot): void {
    slot.task = null;
    slot.run = null;
    slot.left = 0;
    if (slot.grace) clearTimeout(slot.grace);
    slot.grace = null;
  }

  /** Gives each idle worker the next range of chunks of the current run. */
  private dispatch(): void {
    const run = this.run;
    if (!run) return;
    for (const slot of this.slots) {
      if (slot.task !== null) continue;
      const range = run.queue.shift();
      if (!range) return;
      const { rule, params, seed, stream, trials } = run.request;
      slot.task = this.nextTask++;
      slot.run = run;
      slot.left = range.end - range.first;
      slot.worker.postMessage({
        kind: 'task',
        id: slot.task,
        ruleId: rule.id,
        params,
        seed,
        stream,
        firstChunk: range.first,
        endChunk: range.end,
        totalTrials: trials,
      } satisfies WorkerRequest);
    }
  }

  private listen(slot: Slot): void {
    const worker = slot.worker;
    worker.onmessage = ({ data }: MessageEvent<WorkerReply>) => {
      // A reply from a replaced worker, or about a task this slot no longer runs, is old news.
      if (slot.worker !== worker || data.task !== slot.task) return;
      const run = slot.run;
      if (data.kind === 'chunk') {
        slot.left -= 1;
        if (slot.left === 0) this.free(slot);
        if (run && run === this.run) this.merge(run, data.chunk, data.trials, data.tally);
      } else {
        this.free(slot);
        if (data.kind === 'error' && run && run === this.run) {
          this.cancel();
          // A rule file's fault (a trial that throws, a bad metric value) stays the rule's, in the CLI's words.
          run.reject(data.usage ? new UsageError(data.message) : new Error(data.message));
        }
      }
      this.dispatch();
    };
    worker.onerror = (event) => {
      if (slot.worker !== worker) return;
      const run = slot.run;
      if (run && run === this.run) {
        this.cancel();
        run.reject(new Error(event.message || 'a simulation worker failed'));
      }
      this.replace(slot);
    };
  }

  /** Adds a chunk's tally once every earlier chunk is in, so the tally after k chunks is always chunks 0…k-1. */
  private merge(run: Run, chunk: number, trials: number, tally: Float64Array): void {
    run.early.set(chunk, { trials, tally });
    let merged = false;
    for (let next = run.early.get(run.nextChunk); next; next = run.early.get(run.nextChunk)) {
      run.early.delete(run.nextChunk);
      mergeTally(run.tally, next.tally);
      run.done += next.trials;
      run.nextChunk += 1;
      merged = true;
    }
    if (!merged) return;
    run.request.onProgress(run.done, run.request.trials, run.tally);
    if (run.nextChunk === run.chunks) {
      this.run = null;
      run.resolve(run.tally);
    }
  }
}
