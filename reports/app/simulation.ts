/// <reference lib="dom" />
/**
 * Simulation in the page: the run's chunks shared out to a few Web Workers
 * (./worker.ts), their tallies merged exactly as the CLI merges its pool's
 * (integer counts, any order), so the figures depend on the seed and the
 * trials only — never on the number of workers or which finishes first.
 */
import { planTasks } from '../../src/engine/chunks.js';
import { mergeTally } from '../../src/engine/run-chunks.js';
import { UsageError } from '../../src/errors.js';
import type { Params, Rule, StreamVersion } from '../../src/rules/types.js';
import type { WorkerReply, WorkerTask } from './worker-messages.js';

export interface SimulationRequest {
  rule: Rule;
  params: Params;
  seed: string;
  /** The random stream, as muster run's --stream. */
  stream: StreamVersion;
  trials: number;
  /** Workers to start (at most one per task). */
  threads: number;
  /** Trials finished so far, after every chunk. */
  onProgress(done: number, total: number): void;
}

export interface RunningSimulation {
  /**
   * The merged tally of every chunk; rejects if a worker fails (with a UsageError where the rule did), never settles
   * once cancelled.
   */
  finished: Promise<Float64Array>;
  /** Stops every worker at once (a parameter changed). */
  cancel(): void;
}

export function startSimulation(workerUrl: string, request: SimulationRequest): RunningSimulation {
  const { rule, params, seed, stream, trials } = request;
  const queue = planTasks(0, trials, request.threads);
  const workers: Worker[] = [];
  const tally = new Float64Array(rule.tallyLength(params));
  let done = 0;
  let remaining = queue.length;
  let cancelled = false;
  let nextId = 0;
  const stop = () => {
    cancelled = true;
    for (const worker of workers) worker.terminate();
  };
  const finished = new Promise<Float64Array>((resolve, reject) => {
    if (remaining === 0) return resolve(tally);
    const give = (worker: Worker) => {
      const range = queue.shift();
      if (!range) return;
      const task: WorkerTask = {
        id: nextId++,
        ruleId: rule.id,
        params,
        seed,
        stream,
        firstChunk: range.first,
        endChunk: range.end,
        totalTrials: trials,
      };
      worker.postMessage(task);
    };
    const count = Math.max(1, Math.min(request.threads, queue.length));
    for (let index = 0; index < count; index++) {
      const worker = new Worker(workerUrl);
      workers.push(worker);
      worker.onmessage = ({ data }: MessageEvent<WorkerReply>) => {
        if (cancelled) return;
        if (data.kind === 'progress') {
          done += data.trials;
          request.onProgress(done, trials);
        } else if (data.kind === 'done') {
          mergeTally(tally, data.tally);
          remaining -= 1;
          if (remaining === 0) {
            stop();
            resolve(tally);
          } else {
            give(worker);
          }
        } else {
          stop();
          // A rule file's fault (a trial that throws, a bad metric value) stays the rule's, in the CLI's words.
          reject(data.usage ? new UsageError(data.message) : new Error(data.message));
        }
      };
      worker.onerror = (event) => {
        if (cancelled) return;
        stop();
        reject(new Error(event.message || 'a simulation worker failed'));
      };
      give(worker);
    }
  });
  return { finished, cancel: stop };
}
