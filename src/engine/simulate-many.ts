import type { Params, Rule, StreamVersion } from '../contract/types.js';
import type { ChunkLedger } from './checkpoint.js';
import { type ChunkRange, chunkCount, chunksPerTask, trialsInChunks } from './chunks.js';
import { addTallyMessage, isPacked, type TallyMessage, unpackTally } from './packed-tally.js';
import { chunkText, type SimulationPool, Watchdog } from './pool.js';
import { type ChunkTask, mergeTally } from './run-chunks.js';
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

interface ManyOptions {
  /** Ctrl-C: no new task starts; the runs that finished keep their outcomes. */
  signal?: AbortSignal;
  /** Watchdog, in seconds: fail with a WorkerError when no task finishes for this long (a hung rule). */
  timeout?: number;
  /** Called as each run finishes (in roughly, not strictly, the order given), with its outcome. */
  onOutcome?: (index: number, outcome: SimulationOutcome) => void;
  /** Called as tasks finish, with the trials done so far over every run. */
  onProgress?: (done: number) => void;
  /**
   * Called whenever the number of tallies the call holds changes: those of
   * runs begun and not yet finished (a finished run's is handed over, and
   * kept by simulateMany only). How a test sees that memory stays bounded.
   */
  onHeld?: (held: number) => void;
}

/**
 * Tasks kept in flight per thread: one running and one waiting, so a thread
 * never waits for the main thread, and runs finish near the order given.
 */
const IN_FLIGHT_PER_THREAD = 2;

/**
 * Most tally entries (8 bytes each) one task sends back, unless a single
 * part is larger: a sweep's one-chunk points of a large tally (reserves at
 * 11 squads: 248,832 entries) then travel one to a message. A tally sent as
 * it is (not packed: engine/packed-tally.ts) is a buffer its worker keeps
 * and a copy the main thread receives and drops; four of them a task (at
 * 2^20) made such a sweep's peak a third above one run's of the same
 * trials. At 2^18 a task's tallies are at most the 2 MB one run's task
 * sends, packed or not.
 */
export const TASK_TALLY_ENTRIES = 1 << 18;

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
export async function simulateMany(
  pool: SimulationPool,
  requests: readonly ManyRequest[],
  options: ManyOptions = {},
): Promise<SimulationOutcome[]> {
  const outcomes: SimulationOutcome[] = new Array(requests.length);
  const unfinished = await simulateRuns(pool, requests, {
    ...options,
    onOutcome: (index, outcome) => {
      outcomes[index] = outcome;
      options.onOutcome?.(index, outcome);
    },
  });
  for (const [index, outcome] of unfinished) outcomes[index] = outcome;
  return outcomes;
}

/**
 * simulateMany without keeping the outcomes: each run's outcome goes to
 * `onOutcome` as it finishes and is then let go, so a sweep of a thousand
 * points holds the tallies of the few runs under way, not a thousand (a
 * run's tally exists from its first finished task to its last). The tally
 * `onOutcome` is given is lent: it is valid until onOutcome returns, then
 * zeroed and reused for a later run of the same length (copy it to keep
 * it), so the runs of a sweep add into a few buffers instead of each
 * allocating its own. Returns the runs left unfinished by an interruption,
 * `partial`, with what they had merged (those are the caller's).
 */
export async function simulateEach(
  pool: SimulationPool,
  requests: readonly ManyRequest[],
  options: ManyOptions = {},
): Promise<Map<number, SimulationOutcome>> {
  return simulateRuns(pool, requests, options, new SpareTallies());
}

/** Most entries (8 bytes each) of finished runs' tallies kept for reuse by one simulateEach call. */
export const SPARE_TALLY_ENTRIES = 1 << 19;

/**
 * Finished runs' tallies, by length, for the next runs to add into: a
 * sweep's point of a large tally then reuses the buffer of one finished
 * before it instead of allocating megabytes the collector frees only at
 * its leisure. Past SPARE_TALLY_ENTRIES the oldest lengths are let go.
 */
class SpareTallies {
  readonly #byLength = new Map<number, Float64Array[]>();
  #entries = 0;

  /** A zeroed tally of `length` entries: a spare one, or a new one. */
  take(length: number): Float64Array {
    const spare = this.#byLength.get(length)?.pop();
    if (spare === undefined) return new Float64Array(length);
    this.#entries -= length;
    return spare.fill(0);
  }

  /** Keeps a tally no one holds any more. */
  give(tally: Float64Array): void {
    if (tally.length > SPARE_TALLY_ENTRIES) return;
    for (const [length, list] of this.#byLength) {
      if (this.#entries + tally.length <= SPARE_TALLY_ENTRIES) break;
      this.#entries -= length * list.length;
      this.#byLength.delete(length);
    }
    const list = this.#byLength.get(tally.length) ?? [];
    // Deleted and set again, so that the Map's order is the order of last use.
    this.#byLength.delete(tally.length);
    this.#byLength.set(tally.length, list);
    list.push(tally);
    this.#entries += tally.length;
  }
}

/** simulateEach's work; with `spare`, each finished run's tally is reused once onOutcome has returned. */
async function simulateRuns(
  pool: SimulationPool,
  requests: readonly ManyRequest[],
  options: ManyOptions,
  spare?: SpareTallies,
): Promise<Map<number, SimulationOutcome>> {
  const runs = new RunsInFlight(requests, options, spare);
  const { queue, totalChunks } = runs.plan(pool.threads);
  const recorded = requests.some((request) => request.ledger !== undefined);
  if (!recorded && pool.runsHere(totalChunks, options.timeout !== undefined)) {
    for (const task of queue) {
      for (const part of task) {
        if (options.signal?.aborted) return runs.unfinished();
        runs.done(part, pool.runHere(runs.taskOf(part), requests[part.index].rule));
      }
    }
    return runs.unfinished();
  }
  await runOnPool(pool, queue, runs, options);
  return runs.unfinished();
}

/**
 * Sends the queue's tasks to the pool, a few in flight per thread, and hands each answer to `runs`. A task that
 * fails, or the watchdog firing, stops the tasks in flight and fails the call. Ctrl-C does not stop them: the few
 * tasks in flight then finish and are dropped, rather than piscina stopping (and restarting) threads.
 */
async function runOnPool(
  pool: SimulationPool,
  queue: readonly Part[][],
  runs: RunsInFlight,
  options: ManyOptions,
): Promise<void> {
  const stop = new AbortController();
  const running = new Set<Part[]>();
  const watchdog = new Watchdog(options.timeout, () => stop.abort());
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < queue.length && !options.signal?.aborted && !stop.signal.aborted) {
      const task = queue[next++];
      running.add(task);
      let tallies: TallyMessage[];
      try {
        tallies = await pool.runBatch(
          task.map((part) => runs.taskOf(part)),
          stop.signal,
        );
      } catch (error) {
        if (stop.signal.aborted) return; // another task failed, or the watchdog fired
        stop.abort();
        throw error;
      }
      running.delete(task);
      watchdog.arm();
      // Once interrupted, no further run counts as finished, even one whose last task was already on its way.
      if (options.signal?.aborted) return;
      try {
        task.forEach((part, i) => runs.done(part, tallies[i]));
      } catch (error) {
        // onOutcome threw (a point's summary or exact solution): the other lanes stop too.
        stop.abort();
        throw error;
      }
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
    throw watchdog.stalled(runs.ruleId, stuck ? chunkText(stuck.range.first, stuck.range.end) : 'the runs');
  }
}

/** The state of many runs while their tasks are out: what each has merged, and what is left of it to run. */
class RunsInFlight {
  /** The tallies of runs begun and not finished, by request index: the only place the call keeps one. */
  private readonly open = new Map<number, Float64Array>();
  private readonly trialsOf: number[];
  private readonly partsLeft: number[];
  /** A checkpoint's saved tallies of each run, added when its first new task is back (or at once, when none is). */
  private readonly saved: Float64Array[][];
  private trialsDone = 0;
  private readonly lengths: number[];
  private readonly tallyRoom: number;

  constructor(
    private readonly requests: readonly ManyRequest[],
    private readonly options: ManyOptions,
    private readonly spare: SpareTallies | undefined,
  ) {
    this.trialsOf = requests.map(() => 0);
    this.partsLeft = requests.map(() => 0);
    this.saved = requests.map(() => []);
    this.lengths = requests.map((request) => request.rule.tally.length(request.params));
    this.tallyRoom = this.lengths.reduce((most, length) => Math.max(most, length), 0);
  }

  get ruleId(): string {
    return this.requests[0].rule.id;
  }

  /**
   * What is left to run of each request (its chunks, less those a checkpoint already holds), cut into tasks; a
   * run with nothing left to run is finished at once.
   */
  plan(threads: number): { queue: Part[][]; totalChunks: number } {
    const segments: Array<{ index: number; first: number; end: number }> = [];
    this.requests.forEach((request, index) => {
      const end = request.chunks?.end ?? chunkCount(request.trials);
      let next = request.chunks?.first ?? 0;
      for (const range of request.ledger?.finished(request.trials, next, end) ?? []) {
        this.saved[index].push(range.tally);
        this.count(index, trialsInChunks(range.first, range.end, request.trials));
        if (range.first > next) segments.push({ index, first: next, end: range.first });
        next = range.end;
      }
      if (end > next) segments.push({ index, first: next, end });
    });
    const queue = planParts(
      segments,
      this.requests.map((request, index) => ({ trials: request.trials, tallyLength: this.lengths[index] })),
      threads,
    );
    for (const task of queue) for (const part of task) this.partsLeft[part.index]++;
    this.requests.forEach((_, index) => {
      if (this.partsLeft[index] === 0) this.finish(index); // nothing (left) to run
    });
    return { queue, totalChunks: segments.reduce((sum, { first, end }) => sum + end - first, 0) };
  }

  taskOf({ index, range }: Part): ChunkTask {
    const request = this.requests[index];
    return {
      ruleId: request.rule.id,
      params: request.params,
      seed: request.seed,
      stream: request.stream,
      firstChunk: range.first,
      endChunk: range.end,
      totalTrials: request.trials,
      tallyRoom: this.tallyRoom,
      ...(request.rule.file ? { ruleFile: request.rule.file } : {}),
    };
  }

  /** A part's tally is back: merged into its run's, and the run finished when it was the last. */
  done(part: Part, message: TallyMessage): void {
    const { index } = part;
    const ledger = this.requests[index].ledger;
    if (ledger !== undefined) {
      // A checkpoint keeps the very tally it records, a whole one.
      const tally = unpackTally(message);
      mergeTally(this.tallyOf(index), tally);
      ledger.record(this.requests[index].trials, part.range.first, part.range.end, tally);
    } else if (!this.open.has(index) && !isPacked(message) && message.length === this.lengths[index]) {
      // A run's first tally back, sent as it is, is taken as its tally, not added into zeros: a sweep's
      // one-chunk points of small tallies then copy nothing. A packed one is added into a spare tally.
      this.open.set(index, message);
      this.held();
    } else {
      addTallyMessage(this.tallyOf(index), message);
    }
    this.count(index, part.range.trials);
    if (--this.partsLeft[index] === 0) this.finish(index);
  }

  /** The runs not finished when the call stops: what they had merged (saved ranges included), partial. */
  unfinished(): Map<number, SimulationOutcome> {
    const left = new Map<number, SimulationOutcome>();
    this.requests.forEach((_, index) => {
      if (this.partsLeft[index] === 0) return;
      const tally = this.open.get(index) ?? this.zeros(index);
      for (const part of this.saved[index]) mergeTally(tally, part);
      left.set(index, { tally, trials: this.trialsOf[index], partial: true });
    });
    return left;
  }

  private held(): void {
    this.options.onHeld?.(this.open.size);
  }

  private count(index: number, trials: number): void {
    this.trialsOf[index] += trials;
    this.trialsDone += trials;
    this.options.onProgress?.(this.trialsDone);
  }

  private zeros(index: number): Float64Array {
    return this.spare?.take(this.lengths[index]) ?? new Float64Array(this.lengths[index]);
  }

  /** The run's tally to add into, made on first use. */
  private tallyOf(index: number): Float64Array {
    let tally = this.open.get(index);
    if (tally === undefined) {
      tally = this.zeros(index);
      this.open.set(index, tally);
      this.held();
    }
    return tally;
  }

  private finish(index: number): void {
    const tally = this.tallyOf(index);
    for (const part of this.saved[index]) mergeTally(tally, part);
    this.saved[index] = [];
    this.open.delete(index);
    this.held();
    this.options.onOutcome?.(index, { tally, trials: this.trialsOf[index], partial: false });
    this.spare?.give(tally);
  }
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
 * hundred chunks. A lone run is cut exactly as planTasks cuts it. A task
 * also ends before its tallies (`tallyLength` entries a part) would pass
 * TASK_TALLY_ENTRIES, so large tallies travel a few at a time.
 */
export function planParts(
  segments: ReadonlyArray<{ index: number; first: number; end: number }>,
  requests: readonly { trials: number; tallyLength?: number }[],
  threads: number,
): Part[][] {
  const chunks = segments.reduce((sum, { first, end }) => sum + end - first, 0);
  if (chunks === 0) return [];
  const perTask = chunksPerTask(chunks, threads);
  const tasks: Part[][] = [];
  let open: Part[] = [];
  let openChunks = 0;
  let openEntries = 0;
  const close = () => {
    tasks.push(open);
    open = [];
    openChunks = 0;
    openEntries = 0;
  };
  for (const { index, first, end } of segments) {
    const entries = requests[index].tallyLength ?? 0;
    for (let from = first; from < end; from += perTask) {
      const to = Math.min(end, from + perTask);
      if (openChunks + to - from > perTask || (open.length > 0 && openEntries + entries > TASK_TALLY_ENTRIES)) close();
      open.push({ index, range: { first: from, end: to, trials: trialsInChunks(from, to, requests[index].trials) } });
      openChunks += to - from;
      openEntries += entries;
      if (openChunks === perTask) close();
    }
  }
  if (open.length > 0) tasks.push(open);
  return tasks;
}
