import type { Params, Rule } from '../rules/types.js';
import type { ChunkLedger } from './checkpoint.js';
import { chunkCount, planTasks, trialsInChunks, type ChunkRange } from './chunks.js';
import { chunkText, WorkerError, type SimulationPool } from './pool.js';
import { mergeTally } from './run-chunks.js';
import type { SimulationOutcome } from './simulate.js';

/** One fixed-size run among many: a point of a sweep, a variant of a comparison, a cell of a table. */
export interface ManyRequest {
  rule: Rule;
  params: Params;
  seed: string;
  trials: number;
  /** A checkpoint's record of this run: its finished chunks are merged, not run again, and new ones are recorded. */
  ledger?: ChunkLedger;
}

export interface ManyOptions {
  /** Ctrl-C: no new task starts; the runs that finished keep their outcomes. */
  signal?: AbortSignal;
  /** Watchdog, in seconds: fail with a WorkerError when no task finishes for this long (a hung rule). */
  timeout?: number;
  /** Called as each run finishes (in roughly, not strictly, the order given), with its outcome. */
  onOutcome?: (index: number, outcome: SimulationOutcome) => void;
  /** Called as tasks finish, with the trials done so far over every run. */
  onProgress?: (done: number) => void;
}

/**
 * Tasks kept in flight per thread: one running and one waiting, so a thread
 * never waits for the main thread, and runs finish near the order given.
 */
const IN_FLIGHT_PER_THREAD = 2;

/**
 * Runs many fixed-size simulations on one pool at once: their tasks are
 * queued in the order given, interleaved across runs, so small runs keep
 * every thread busy instead of running one after another with a thread
 * idle between them. Each run's tally is merged from its own chunks only,
 * so every outcome is bit for bit what `simulate` gives for that request.
 *
 * Interrupted (the signal aborts), the runs that finished keep their
 * outcomes; the others come back `partial` with what they had merged. A
 * task that fails, or a watchdog that fires, fails the whole call.
 */
export async function simulateMany(pool: SimulationPool, requests: readonly ManyRequest[], options: ManyOptions = {}): Promise<SimulationOutcome[]> {
  const outcomes: SimulationOutcome[] = requests.map(({ rule, params }) => ({ tally: new Float64Array(rule.tallyLength(params)), trials: 0, partial: true }));
  const queue: Array<{ index: number; range: ChunkRange }> = [];
  const tasksLeft = requests.map(() => 0);
  const plan = (index: number, first: number, end: number) => {
    for (const range of planTasks(first, requests[index].trials, pool.threads, end)) {
      queue.push({ index, range });
      tasksLeft[index]++;
    }
  };
  let trialsDone = 0;
  const count = (index: number, trials: number) => {
    outcomes[index].trials += trials;
    trialsDone += trials;
    options.onProgress?.(trialsDone);
  };
  const finish = (index: number) => {
    outcomes[index].partial = false;
    options.onOutcome?.(index, outcomes[index]);
  };
  requests.forEach((request, index) => {
    const end = chunkCount(request.trials);
    let next = 0;
    for (const saved of request.ledger?.finished(request.trials, 0, end) ?? []) {
      mergeTally(outcomes[index].tally, saved.tally);
      count(index, trialsInChunks(saved.first, saved.end, request.trials));
      plan(index, next, saved.first);
      next = saved.end;
    }
    plan(index, next, end);
    if (tasksLeft[index] === 0) finish(index); // nothing (left) to run
  });
  const taskOf = ({ index, range }: { index: number; range: ChunkRange }) => {
    const request = requests[index];
    return { ruleId: request.rule.id, params: request.params, seed: request.seed, firstChunk: range.first, endChunk: range.end, totalTrials: request.trials, ...(request.rule.file ? { ruleFile: request.rule.file } : {}) };
  };

  const totalChunks = queue.reduce((sum, { range }) => sum + range.end - range.first, 0);
  const recorded = requests.some((request) => request.ledger !== undefined);
  if (!recorded && pool.runsHere(totalChunks, options.timeout !== undefined)) {
    for (const entry of queue) {
      if (options.signal?.aborted) break;
      mergeTally(outcomes[entry.index].tally, pool.runHere(taskOf(entry), requests[entry.index].rule));
      count(entry.index, entry.range.trials);
      if (--tasksLeft[entry.index] === 0) finish(entry.index);
    }
    return outcomes;
  }

  // Stops the tasks in flight when one fails or the watchdog fires. Ctrl-C does not use it: the few
  // tasks in flight then finish and are dropped, rather than piscina stopping (and restarting) threads.
  const stop = new AbortController();
  const running = new Set<(typeof queue)[number]>();
  let timedOut = false;
  let watchdog: NodeJS.Timeout | undefined;
  const arm = () => {
    if (options.timeout === undefined) return;
    clearTimeout(watchdog);
    watchdog = setTimeout(() => {
      timedOut = true;
      stop.abort();
    }, options.timeout * 1000);
  };

  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < queue.length && !options.signal?.aborted && !stop.signal.aborted) {
      const entry = queue[next++];
      running.add(entry);
      let part: Float64Array;
      try {
        part = await pool.run(taskOf(entry), stop.signal);
      } catch (error) {
        if (stop.signal.aborted) return; // another task failed, or the watchdog fired
        stop.abort();
        throw error;
      }
      running.delete(entry);
      arm();
      // Once interrupted, no further run counts as finished, even one whose last task was already on its way.
      if (options.signal?.aborted) return;
      mergeTally(outcomes[entry.index].tally, part);
      requests[entry.index].ledger?.record(requests[entry.index].trials, entry.range.first, entry.range.end, part);
      count(entry.index, entry.range.trials);
      if (--tasksLeft[entry.index] === 0) finish(entry.index);
    }
  };
  arm();
  try {
    await Promise.all(Array.from({ length: Math.min(queue.length, pool.threads * IN_FLIGHT_PER_THREAD) }, lane));
  } finally {
    clearTimeout(watchdog);
  }
  if (timedOut) {
    const stuck = [...running][0];
    const where = stuck ? chunkText(stuck.range.first, stuck.range.end) : 'the runs';
    throw new WorkerError(`${requests[0].rule.id}: no chunk finished within --timeout ${options.timeout} s (${where} still running); nothing was written`);
  }
  return outcomes;
}
