import { setMaxListeners } from 'node:events';
import type { Params, Rule, StreamVersion } from '../contract/types.js';
import { estimate } from '../stats/estimate.js';
import type { ChunkLedger } from './checkpoint.js';
import { CHUNK_TRIALS, type ChunkRange, chunkCount, chunkTrials, planTasks, trialsInChunks } from './chunks.js';
import { chunkText, type SimulationPool, Watchdog } from './pool.js';
import { type ChunkTask, mergeTally } from './run-chunks.js';

export interface SimulationRequest {
  rule: Rule;
  params: Params;
  seed: string;
  /** The random stream the run draws from. */
  stream: StreamVersion;
  confidence: number;
  /** A fixed number of trials, or … */
  trials?: number;
  /** … keep adding batches until every probability's interval half-width is at most this, */
  precision?: number;
  /** … but never beyond this many trials. */
  maxTrials?: number;
  /** With `trials`: run only these chunks of the run (one shard of it); the default is all of them. */
  chunks?: { first: number; end: number };
  signal?: AbortSignal;
  /** Watchdog, in seconds: fail with a WorkerError when no task finishes for this long (a hung rule). */
  timeout?: number;
  /**
   * A checkpoint's record of this run: its finished ranges are added, not run again, and every range that finishes is
   * recorded.
   */
  ledger?: ChunkLedger;
  /** Called as tasks finish: trials done so far and the current target. */
  onProgress?: (done: number, target: number) => void;
}

export interface SimulationOutcome {
  tally: Float64Array;
  trials: number;
  /** Stopped early (Ctrl-C): only the chunks that finished are counted. */
  partial: boolean;
  /** With --precision: whether every probability reached it before --max-trials. */
  precisionReached?: boolean;
}

/** First batch of an adaptive run: 16 chunks, about a million trials. */
const FIRST_BATCH = 16 * CHUNK_TRIALS;

/**
 * Runs a rule on the pool. A fixed run is one batch; an adaptive run grows
 * in whole chunks, and every decision to go on is taken from the merged
 * tally alone, so it too is the same for a seed whatever the thread count.
 */
export async function simulate(pool: SimulationPool, request: SimulationRequest): Promise<SimulationOutcome> {
  const run = new RunInBatches(pool, request);
  const { tally } = run;
  if (request.precision === undefined) {
    const target = request.trials ?? 0;
    const complete = await run.batch(target, request.chunks?.first, request.chunks?.end);
    return { tally, trials: run.done, partial: !complete };
  }

  const { rule, params } = request;
  const cap = request.maxTrials ?? Number.MAX_SAFE_INTEGER;
  let target = Math.min(cap, FIRST_BATCH);
  for (;;) {
    if (!(await run.batch(target))) return { tally, trials: run.done, partial: true };
    const { done } = run;
    const needed = trialsForPrecision(rule, params, tally, done, request.confidence, request.precision);
    if (needed <= done) return { tally, trials: done, partial: false, precisionReached: true };
    if (done >= cap) return { tally, trials: done, partial: false, precisionReached: false };
    // Aim 10% past the projection, growing at least 1.5× and at most 8× a batch, in whole chunks.
    const aim = Math.min(Math.max(needed * 1.1, done * 1.5), done * 8);
    target = Math.min(cap, Math.ceil(aim / CHUNK_TRIALS) * CHUNK_TRIALS);
  }
}

/** One run's tally, grown a batch of chunks at a time: in this thread when small, else on the pool. */
class RunInBatches {
  readonly tally: Float64Array;
  /** Trials merged into the tally so far. */
  done = 0;

  constructor(
    private readonly pool: SimulationPool,
    private readonly request: SimulationRequest,
  ) {
    this.tally = new Float64Array(request.rule.tally.length(request.params));
  }

  /** Runs chunks [first, end) of a run of `target` trials; false when interrupted before they all finished. */
  async batch(target: number, first = Math.ceil(this.done / CHUNK_TRIALS), end = chunkCount(target)): Promise<boolean> {
    const { pool, request } = this;
    // A small run with no checkpoint to keep, and no watchdog to honour, needs no workers.
    if (request.ledger === undefined && pool.runsHere(end - first, request.timeout !== undefined)) {
      if (request.signal?.aborted) return false;
      this.merge(pool.runHere(this.task(target, first, end), request.rule), trialsInChunks(first, end, target), target);
      return true;
    }
    const ranges: ChunkRange[] = [];
    let next = first;
    for (const saved of request.ledger?.finished(target, first, end) ?? []) {
      mergeTally(this.tally, saved.tally);
      for (let k = saved.first; k < saved.end; k++) this.done += chunkTrials(k, target);
      ranges.push(...planTasks(next, target, pool.threads, saved.first));
      next = saved.end;
    }
    ranges.push(...planTasks(next, target, pool.threads, end));
    if (this.done > 0) request.onProgress?.(this.done, target);
    return this.onPool(ranges, target);
  }

  private task(target: number, first: number, end: number): ChunkTask {
    const { rule, params, seed, stream } = this.request;
    return { ruleId: rule.id, params, seed, stream, firstChunk: first, endChunk: end, totalTrials: target };
  }

  private merge(part: Float64Array, trials: number, target: number): void {
    mergeTally(this.tally, part);
    this.done += trials;
    this.request.onProgress?.(this.done, target);
  }

  /**
   * The ranges on the pool at once, each recorded in the checkpoint as it finishes. One failure stops the rest
   * (nothing of a failed run is kept); Ctrl-C stops them and returns false; the watchdog stops them and throws.
   */
  private async onPool(ranges: readonly ChunkRange[], target: number): Promise<boolean> {
    const { pool, request } = this;
    const { rule } = request;
    let interrupted = false;
    // The batch's own signal: aborted by the caller's (Ctrl-C), or by the watchdog.
    const batch = new AbortController();
    setMaxListeners(0, batch.signal);
    const onAbort = () => batch.abort();
    request.signal?.addEventListener('abort', onAbort, { once: true });
    if (request.signal?.aborted) batch.abort();
    const running = new Set(ranges);
    const watchdog = new Watchdog(request.timeout, () => batch.abort());
    watchdog.arm();
    try {
      await Promise.all(
        ranges.map(async (range) => {
          try {
            const task = {
              ...this.task(target, range.first, range.end),
              ...(rule.file ? { ruleFile: rule.file } : {}),
            };
            const part = await pool.run(task, batch.signal);
            mergeTally(this.tally, part);
            request.ledger?.record(target, range.first, range.end, part);
            this.done += range.trials;
            running.delete(range);
            watchdog.arm();
            request.onProgress?.(this.done, target);
          } catch (error) {
            if (!batch.signal.aborted) {
              // One failure stops the rest: nothing of a failed run is kept.
              batch.abort();
              throw error;
            }
            if (!watchdog.fired) interrupted = true;
          }
        }),
      );
    } finally {
      watchdog.stop();
      request.signal?.removeEventListener('abort', onAbort);
    }
    if (watchdog.fired) {
      const stuck = [...running][0];
      throw watchdog.stalled(rule.id, stuck ? chunkText(stuck.first, stuck.end) : 'the run');
    }
    return !interrupted;
  }
}

/**
 * Trials projected to bring the widest probability interval down to
 * `precision`, from the half-width now: it shrinks as 1/√n.
 */
function trialsForPrecision(
  rule: Rule,
  params: Params,
  tally: Float64Array,
  trials: number,
  confidence: number,
  precision: number,
): number {
  const tallied = rule.tally.summarize(params, tally, trials);
  let worst = 0;
  for (const metric of rule.metrics(params)) {
    if (!metric.probability) continue;
    const { lo, hi } = estimate(tallied[metric.name], confidence);
    worst = Math.max(worst, (hi - lo) / 2);
  }
  return worst <= precision ? trials : Math.ceil(trials * (worst / precision) ** 2);
}
