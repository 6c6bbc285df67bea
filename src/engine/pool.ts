import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Piscina } from 'piscina';
import type { Rule } from '../contract/types.js';
import { UsageError } from '../errors.js';
import { type CallMarker, newCallMarker, type RuleCallSeen, readRuleCall } from '../guard/rule-calls.js';
import { calledExit, outOfMemory, overTime, RuleFault, thrownByRuleFile, thrownOutside } from '../guard/rule-faults.js';
import { type TallyMessage, unpackTally } from './packed-tally.js';
import { type ChunkTask, type PartFailure, runChunks } from './run-chunks.js';
import { useNodeCores } from './threads.js';

/**
 * The compiled worker's CommonJS door (scripts/write-entry.mjs says why piscina must meet CommonJS, not an ES
 * module). Under the TypeScript test runner this file is not in dist/, so it points at the build that `npm test`
 * makes first.
 */
function workerFile(): string {
  const here = fileURLToPath(import.meta.url);
  const compiled = here.endsWith('.ts')
    ? fileURLToPath(new URL('../../dist/workers/simulate.cjs', import.meta.url))
    : fileURLToPath(new URL('../../workers/simulate.cjs', import.meta.url));
  if (!existsSync(compiled)) throw new Error(`worker not built: ${compiled} (run npm run build)`);
  return compiled;
}

/**
 * A simulation thread failed: the rule threw, the thread exited, or it made
 * no progress within --timeout. A bug in muster or in a rule, not in what
 * the user typed, so the CLI reports it in one line with exit status 1.
 */
export class WorkerError extends Error {
  override readonly name = 'WorkerError';
}

/** The chunks of a task, as people count them. */
export function chunkText(first: number, end: number): string {
  return end - first === 1 ? `chunk ${first}` : `chunks ${first}–${end - 1}`;
}

/**
 * Runs of at most this many chunks (262,144 trials) are computed on the
 * calling thread when the pool has not started: starting the workers
 * (threads, then each one loading the rules) takes longer than the slowest
 * rule takes for these chunks on one thread.
 */
export const IN_PROCESS_CHUNKS = 4;

export function defaultThreads(): number {
  return availableParallelism();
}
// The option parsers' default (engine/threads.ts) is this count wherever the pool is loaded, on every Node 20.
useNodeCores(availableParallelism);

/**
 * The --timeout watchdog of a simulation: `onFire` runs when no task has
 * finished for `seconds` (each finished task re-arms it); with no timeout it
 * never fires. A hung rule is then reported by `stalled`, not waited for.
 */
export class Watchdog {
  /** Whether it fired. */
  fired = false;
  /** The rule file's function a task was running when it fired, if any (the fault is then the rule's). */
  #stuck: RuleCallSeen | null = null;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    readonly seconds: number | undefined,
    readonly onFire: () => void,
  ) {}

  /** (Re)starts the countdown. */
  arm(): void {
    if (this.seconds === undefined) return;
    this.#countDown(performance.now());
  }

  #countDown(since: number): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(
      () => {
        // Threads still starting on a busy machine have run none of the rule's code: that is not the rule
        // hanging, so the countdown waits for them (within BOOT_GRACE_MS) rather than failing as muster's own bug.
        if (ruleNotStarted() && performance.now() - since < BOOT_GRACE_MS) return this.#countDown(since);
        this.fired = true;
        this.#stuck = runningRuleCall();
        this.onFire();
      },
      (this.seconds as number) * 1000,
    );
  }

  stop(): void {
    clearTimeout(this.#timer);
  }

  /** The error once it fired: which rule, and what was still running (chunks, as chunkText names them). */
  stalled(ruleId: string, running: string): WorkerError | RuleFault {
    if (this.#stuck) return new RuleFault(overTime(this.#stuck, this.seconds as number, running));
    return new WorkerError(
      `${ruleId}: no chunk finished within --timeout ${this.seconds} s (${running} still running); nothing was written`,
    );
  }
}

/** The markers of the rule-file tasks on the threads now (see guard/rule-calls.ts). */
const inFlight = new Set<CallMarker>();

/** How long the watchdog waits, at most, for threads that have not yet begun any of the rule's code. */
const BOOT_GRACE_MS = 30_000;

/** Whether rule-file tasks are in flight and none of them has entered the rule's code yet (threads still starting). */
function ruleNotStarted(): boolean {
  if (inFlight.size === 0) return false;
  for (const marker of inFlight) if (readRuleCall(marker) !== null) return false;
  return true;
}

/** The first rule file's function some task is running now, if any. */
function runningRuleCall(): RuleCallSeen | null {
  for (const marker of inFlight) {
    const seen = readRuleCall(marker);
    if (seen?.running) return seen;
  }
  return null;
}

/**
 * A failed rule-file task, when the rule's code is to blame: it called
 * process.exit (which ends the worker), exhausted the heap, or threw from a
 * timer or promise of its own. A fault of the user's rule, so a RuleFault
 * (one line, exit 2), not muster's WorkerError.
 */
function ruleFileFault(error: unknown, marker: CallMarker, chunks: string): RuleFault | undefined {
  const seen = readRuleCall(marker);
  if (seen?.exitCode !== undefined) return new RuleFault(calledExit(seen, chunks));
  const code = (error as { code?: string } | null)?.code;
  if (code === 'ERR_WORKER_OUT_OF_MEMORY') return new RuleFault(outOfMemory(seen, chunks));
  if (error instanceof Error && thrownByRuleFile(error.stack ?? '')) {
    return new RuleFault(thrownOutside(seen?.rule, `${error.name}: ${error.message.split('\n')[0]}`, chunks));
  }
  return undefined;
}

/**
 * What a worker returns instead of a tally when the task meets a user's mistake (such as a rule file's trial throwing).
 */
export interface WorkerUsageError {
  usageError: string;
}

/**
 * A task that failed (a bug): the rule, its chunks (and how many other runs shared its message), the first line of why.
 */
function simulationFailed(task: ChunkTask, reason: string, others = 0): WorkerError {
  const also = others > 0 ? ` or in one of the ${others} runs sent with it` : '';
  return new WorkerError(
    `${task.ruleId}: the simulation failed in ${chunkText(task.firstChunk, task.endChunk)}${also} ` +
      `(${reason.split('\n')[0]}); this is a bug, nothing was written`,
  );
}

/**
 * Each worker's young generation, in MB: V8 makes it three semispaces, so
 * 6 MB holds the objects it has not yet collected in 2 MB, the size a
 * worker reaches as it starts. Left free, a worker doubles it as soon as
 * enough objects have survived its collections (its start-up's modules are
 * most of that): a sweep's workers, sent a hundred small parts, always did
 * and a single run's sometimes, each then about 3 MB more resident for as
 * long as the process lives. The rules' loops allocate nothing per trial,
 * and a rule file's step form, which allocates states every step, measured
 * no slower: its short-lived states die in the smaller space as well.
 */
const WORKER_YOUNG_GENERATION_MB = 6;

/** How long close() waits for workers still loading before it stops them anyway (a worker that never loads). */
const BOOT_WAIT_MS = 3000;

/** A pool started ahead of its command (SimulationPool.prestart), until the command takes it. */
let waiting: SimulationPool | undefined;

/**
 * A fixed-size pool of simulation threads; one pool serves every run of a
 * command. The threads start with the first task sent to them, not before,
 * so a command that ends up simulating little (or nothing) never pays for
 * them, nor for loading piscina — unless the CLI, sure from the options
 * that the command will simulate, started them already (prestart).
 */
/**
 * What piscina reports on the pool itself, for a thread with no task of ours in flight (a task's own failure goes to
 * its promise): thrown, as a bug, but for two cases where nothing is lost.
 * - A task aborted just as it finished: piscina has already rejected its promise and stopped its worker, then
 *   receives the result and reports it as unexpected.
 * - A thread out of memory once its task was aborted (a grid stopped at a failing point ends the threads still in
 *   points past it; one deep in a rule's allocation may run out as it is ended): the thread is gone, and its task
 *   was already settled. Thrown, it was an internal error in place of the failing point's one line.
 */
export function poolError(error: unknown): void {
  if (error instanceof Error && error.message.startsWith('Unexpected message from Worker')) return;
  if (error instanceof Error && (error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY') return;
  throw error;
}

export class SimulationPool {
  readonly threads: number;
  readonly #filename: string | undefined;
  #pool: Promise<Piscina> | undefined;

  /** `filename` replaces the worker (tests use one that fails on purpose); every task then goes to it. */
  constructor(threads: number, filename?: string) {
    if (!Number.isInteger(threads) || threads < 1) throw new RangeError('threads must be a positive integer');
    this.threads = threads;
    this.#filename = filename;
  }

  /**
   * Starts a pool of `threads` workers now, for a command that will surely
   * simulate (the CLI calls this as soon as it has parsed the options): the
   * workers boot — about 65 ms here — while the main thread loads the
   * command and plans its work. The command then claims it with `take`;
   * one left unclaimed (the command failed first, or took another size) is
   * closed by `dropPrestarted`.
   */
  static prestart(threads: number): void {
    if (waiting !== undefined || !Number.isInteger(threads) || threads < 1) return;
    waiting = new this(threads);
    void waiting.#start();
  }

  /**
   * The prestarted pool if it has `threads` workers, else a new (unstarted) pool; a prestarted one of another size is
   * closed.
   */
  static take(threads: number): SimulationPool {
    const pool = waiting;
    waiting = undefined;
    if (pool !== undefined && pool.threads === threads) return pool;
    void pool?.close();
    return new this(threads);
  }

  /** Closes a prestarted pool no command claimed, so the process can exit. */
  static async dropPrestarted(): Promise<void> {
    const pool = waiting;
    waiting = undefined;
    await pool?.close();
  }

  /** Whether the worker threads have been started (by a task sent to them). */
  get started(): boolean {
    return this.#pool !== undefined;
  }

  #start(): Promise<Piscina> {
    this.#pool ??= import('piscina').then(({ Piscina }) => {
      const pool = new Piscina({
        filename: this.#filename ?? workerFile(),
        minThreads: this.threads,
        maxThreads: this.threads,
        idleTimeout: 60_000,
        resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
      });
      pool.on('error', poolError);
      return pool;
    });
    return this.#pool;
  }

  /**
   * Whether work of `chunks` chunks is better done on the calling thread
   * (runHere) than by starting the workers. Never with a replaced worker,
   * nor under a watchdog (`watched`): a rule that hangs the calling thread
   * could not be stopped.
   */
  runsHere(chunks: number, watched = false): boolean {
    return !this.started && !watched && this.#filename === undefined && chunks <= IN_PROCESS_CHUNKS;
  }

  /**
   * Runs one task on a worker thread; a failure that is not an abort becomes a WorkerError naming the rule and chunks.
   */
  async run(task: ChunkTask, signal?: AbortSignal): Promise<Float64Array> {
    return unpackTally(await this.#runOne(task, signal));
  }

  /** As run, the tally as the worker sent it: packed when mostly zeros (engine/packed-tally.ts). */
  async #runOne(task: ChunkTask, signal?: AbortSignal): Promise<TallyMessage> {
    let answer: TallyMessage | ArrayBuffer | WorkerUsageError;
    const calls = task.ruleFile ? newCallMarker() : undefined;
    try {
      signal?.throwIfAborted();
      const pool = await this.#start();
      if (calls) inFlight.add(calls);
      answer = await pool.run(calls ? { ...task, calls } : task, { signal });
    } catch (error) {
      if (signal?.aborted) throw error;
      const fault = calls && ruleFileFault(error, calls, chunkText(task.firstChunk, task.endChunk));
      if (fault) throw fault;
      const reason = error instanceof Error ? error.message : String(error);
      throw simulationFailed(task, reason);
    } finally {
      if (calls) inFlight.delete(calls);
    }
    if (answer instanceof ArrayBuffer) return new Float64Array(answer);
    // A mistake in a rule file, found in a worker, comes back as data: one line for the user, no worker stack.
    if ('usageError' in answer) throw new UsageError(answer.usageError);
    return answer;
  }

  /**
   * Runs several tasks in one message, each exactly as `run` would (its own
   * tally, bit for bit): small tasks, such as a sweep's points of one chunk,
   * then cost one round trip between the threads, not one each. A part that
   * throws is named in the WorkerError; a thread that dies names the first.
   * Each tally comes as the worker sent it: packed when mostly zeros.
   */
  async runBatch(parts: readonly ChunkTask[], signal?: AbortSignal): Promise<TallyMessage[]> {
    if (parts.length === 1) return [await this.#runOne(parts[0], signal)];
    let answer: TallyMessage[] | WorkerUsageError | PartFailure;
    const calls = parts.some((part) => part.ruleFile) ? newCallMarker() : undefined;
    try {
      signal?.throwIfAborted();
      const pool = await this.#start();
      if (calls) inFlight.add(calls);
      answer = await pool.run(calls ? { parts, calls } : { parts }, { signal });
    } catch (error) {
      if (signal?.aborted) throw error;
      const first = chunkText(parts[0].firstChunk, parts[0].endChunk);
      const fault = calls && ruleFileFault(error, calls, `${first} or one of the ${parts.length - 1} runs with it`);
      if (fault) throw fault;
      throw simulationFailed(parts[0], error instanceof Error ? error.message : String(error), parts.length - 1);
    } finally {
      if (calls) inFlight.delete(calls);
    }
    if (Array.isArray(answer)) return answer;
    if ('failedPart' in answer) throw simulationFailed(parts[answer.failedPart], answer.reason);
    throw new UsageError(answer.usageError);
  }

  /**
   * Runs a task that is not chunks on a worker (a grid's exact points: analysis/exact-points-task.ts) and returns
   * the worker's answer as it is, for the caller to read. `what` names the work in a failure's line ("points 3–5");
   * `ruleFile` says the task runs a rule file's code, which then marks its calls for a fault's line.
   */
  async runOther(task: object, what: { rule: string; work: string; ruleFile: boolean }, signal?: AbortSignal) {
    const calls = what.ruleFile ? newCallMarker() : undefined;
    try {
      signal?.throwIfAborted();
      const pool = await this.#start();
      if (calls) inFlight.add(calls);
      return (await pool.run(calls ? { ...task, calls } : task, { signal })) as unknown;
    } catch (error) {
      if (signal?.aborted) throw error;
      const fault = calls && ruleFileFault(error, calls, what.work);
      if (fault) throw fault;
      const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0];
      throw new WorkerError(
        `${what.rule}: ${what.work} failed on a worker (${reason}); this is a bug, nothing was written`,
      );
    } finally {
      if (calls) inFlight.delete(calls);
    }
  }

  /**
   * Runs a task on this thread, blocking it: for work too small to be worth
   * starting the workers. runChunks is the function the workers run, given
   * the rule this thread already holds (a rule file's too), so the tally is
   * the same bit for bit.
   */
  runHere(task: ChunkTask, rule: Rule): Float64Array {
    return runChunks(task, rule);
  }

  async close(): Promise<void> {
    const started = this.#pool;
    this.#pool = undefined;
    if (!started) return;
    const pool = await started;
    // A worker is "ready" once it has loaded its module. Stopping one while it still loads (Node 20
    // requiring an ES module) can abort the whole process, which a pool closed soon after it started
    // (bad input found after prestart, a Ctrl-C at once) would risk: wait for them, within reason.
    const deadline = performance.now() + BOOT_WAIT_MS;
    while (pool.idleThreads < this.threads && performance.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 5));
    await pool.destroy();
  }
}
