import type { Params, Rule, StreamVersion } from '../rules/types.js';
import type { ChunkLedger } from './checkpoint.js';
import { chunkCount, chunksPerTask, trialsInChunks, type ChunkRange } from './chunks.js';
import { chunkText, Watchdog, type SimulationPool } from './pool.js';
import { mergeTally, type ChunkTask } from './run-chunks.js';
import type { SimulationOutcome } from './simulate.js';

/** One fixed-size run among many: a point of a sweep, a variant of a comparison, a cell of a table. */
export interface ManyRequest {
  rule: Rule;
  params: Params;
  seed: string;
  /** The random stream the run draws from. */
  stream: StreamVersion;
  trials: number;
  /** A checkpoint's record of this run: its finished chunks are merged, not run again, and new ones are recorded. */
  ledger?: ChunkLedger;
  /** Only chunks [first, end) of the run (a shard's piece): the outcome counts those trials alone. */
  chunks?: { first: number; end: number };
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
  const partsLeft = requests.map(() => 0);
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
  // What is left to run of each request: its chunks, less those a checkpoint already holds.
  const segments: Array<{ index: number; first: number; end: number }> = [];
  requests.forEach((request, index) => {
    const end = request.chunks?.end ?? chunkCount(request.trials);
    let next = request.chunks?.first ?? 0;
    for (const saved of request.ledger?.finished(request.trials, next, end) ?? []) {
      mergeTally(outcomes[index].tally, saved.tally);
      count(index, trialsInChunks(saved.first, saved.end, request.trials));
      if (saved.first > next) segments.push({ index, first: next, end: saved.first });
      next = saved.end;
    }
    if (end > next) segments.push({ index, first: next, end });
  });
  const queue = planParts(segments, requests, pool.threads);
  for (const task of queue) for (const part of task) partsLeft[part.index]++;
  requests.forEach((_, index) => {
    if (partsLeft[index] === 0) finish(index); // nothing (left) to run
  });
  const taskOf = ({ index, range }: Part): ChunkTask => {
    const request = requests[index];
    return {
      ruleId: request.rule.id,
      params: request.params,
      seed: request.seed,
      stream: request.stream,
      firstChunk: range.first,
      endChunk: range.end,
      totalTrials: request.trials,
      ...(request.rule.file ? { ruleFile: request.rule.file } : {}),
    };
  };
  // A run's first tally back is taken as its tally, not added into zeros: a sweep's one-chunk points
  // then copy nothing (a checkpoint keeps the tallies it records, so those are always added).
  const untouched = requests.map((request, index) => request.ledger === undefined && outcomes[index].trials === 0);
  const done = (part: Part, tally: Float64Array) => {
    if (untouched[part.index] && tally.length === outcomes[part.index].tally.length) outcomes[part.index].tally = tally;
    else mergeTally(outcomes[part.index].tally, tally);
    untouched[part.index] = false;
    requests[part.index].ledger?.record(requests[part.index].trials, part.range.first, part.range.end, tally);
    count(part.index, part.range.trials);
    if (--partsLeft[part.index] === 0) finish(part.index);
  };

  const totalChunks = segments.reduce((sum, { first, end }) => sum + end - first, 0);
  const recorded = requests.some((request) => request.ledger !== undefined);
  if (!recorded && pool.runsHere(totalChunks, options.timeout !== undefined)) {
    for (const task of queue) {
      for (const part of task) {
        if (options.signal?.aborted) return outcomes;
        done(part, pool.runHere(taskOf(part), requests[part.index].rule));
      }
    }
    return outcomes;
  }

  // Stops the tasks in flight when one fails or the watchdog fires. Ctrl-C does not use it: the few
  // tasks in flight then finish and are dropped, rather than piscina stopping (and restarting) threads.
  const stop = new AbortController();
  const running = new Set<Part[]>();
  const watchdog = new Watchdog(options.timeout, () => stop.abort());

  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < queue.length && !options.signal?.aborted && !stop.signal.aborted) {
      const task = queue[next++];
      running.add(task);
      let tallies: Float64Array[];
      try {
        tallies = await pool.runBatch(task.map(taskOf), stop.signal);
      } catch (error) {
        if (stop.signal.aborted) return; // another task failed, or the watchdog fired
        stop.abort();
        throw error;
      }
      running.delete(task);
      watchdog.arm();
      // Once interrupted, no further run counts as finished, even one whose last task was already on its way.
      if (options.signal?.aborted) return;
      task.forEach((part, i) => done(part, tallies[i]));
    }
  };
  watchdog.arm();
  try {
    await Promise.all(Array.from({ length: Math.min(queue.length, pool.threads * IN_FLIGHT_PER_THREAD) }, lane));
  } finally {
    watchdog.stop();
  }
  if (watchdog.fired) {
    const stuck = [...running][0]?.[0];
    throw watchdog.stalled(requests[0].rule.id, stuck ? chunkText(stuck.range.first, stuck.range.end) : 'the runs');
  }
  return outcomes;
}

/** A range of chunks of one run (request `index`), sent as part of a task. */
interface Part {
  index: number;
  range: ChunkRange;
}

/**
 * Cuts what is left of every run into tasks of about the same number of
 * chunks, as planTasks cuts one run: enough tasks to keep every thread busy
 * and report progress, few enough that messages cost nothing against the
 * work. A run is cut at that size, and the pieces smaller than it (a run of
 * one chunk, a run's last piece) are packed together into one task, so a
 * sweep of a hundred one-chunk points sends as few messages as one run of a
 * hundred chunks. A lone run is cut exactly as planTasks cuts it.
 */
export function planParts(segments: ReadonlyArray<{ index: number; first: number; end: number }>, requests: readonly { trials: number }[], threads: number): Part[][] {
  const chunks = segments.reduce((sum, { first, end }) => sum + end - first, 0);
  if (chunks === 0) return [];
  const perTask = chunksPerTask(chunks, threads);
  const tasks: Part[][] = [];
  let open: Part[] = [];
  let openChunks = 0;
  for (const { index, first, end } of segments) {
    for (let from = first; from < end; from += perTask) {
      const to = Math.min(end, from + perTask);
      if (openChunks + to - from > perTask) {
        tasks.push(open);
        open = [];
        openChunks = 0;
      }
      open.push({ index, range: { first: from, end: to, trials: trialsInChunks(from, to, requests[index].trials) } });
      openChunks += to - from;
      if (openChunks === perTask) {
        tasks.push(open);
        open = [];
        openChunks = 0;
      }
    }
  }
  if (open.length > 0) tasks.push(open);
  return tasks;
}
