import { setMaxListeners } from 'node:events';
import type { Params, Rule, StreamVersion } from '../rules/types.js';
import { estimate } from '../stats/estimate.js';
import type { ChunkLedger } from './checkpoint.js';
import { CHUNK_TRIALS, chunkCount, chunkTrials, planTasks, trialsInChunks, type ChunkRange } from './chunks.js';
import { mergeTally } from './run-chunks.js';
import { chunkText, Watchdog, type SimulationPool } from './pool.js';

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
  const { rule, params } = request;
  const tally = new Float64Array(rule.tallyLength(params));
  let done = 0;

  const runBatch = async (
    target: number,
    first = Math.ceil(done / CHUNK_TRIALS),
    end = chunkCount(target),
  ): Promise<boolean> => {
    // A small run with no checkpoint to keep, and no watchdog to honour, needs no workers.
    if (request.ledger === undefined && pool.runsHere(end - first, request.timeout !== undefined)) {
      if (request.signal?.aborted) return false;
      const part = pool.runHere(
        {
          ruleId: rule.id,
          params,
          seed: request.seed,
          stream: request.stream,
          firstChunk: first,
          endChunk: end,
          totalTrials: target,
        },
        rule,
      );
      mergeTally(tally, part);
      done += trialsInChunks(first, end, target);
      request.onProgress?.(done, target);
      return true;
    }
    const ranges: ChunkRange[] = [];
    let next = first;
    for (const saved of request.ledger?.finished(target, first, end) ?? []) {
      mergeTally(tally, saved.tally);
      for (let k = saved.first; k < saved.end; k++) done += chunkTrials(k, target);
      ranges.push(...planTasks(next, target, pool.threads, saved.first));
      next = saved.end;
    }
    ranges.push(...planTasks(next, target, pool.threads, end));
    if (done > 0) request.onProgress?.(done, target);
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
            const part = await pool.run(
              {
                ruleId: rule.id,
                params,
                seed: request.seed,
                stream: request.stream,
                firstChunk: range.first,
                endChunk: range.end,
                totalTrials: target,
                ...(rule.file ? { ruleFile: rule.file } : {}),
              },
              batch.signal,
            );
            mergeTally(tally, part);
            request.ledger?.record(target, range.first, range.end, part);
            done += range.trials;
            running.delete(range);
            watchdog.arm();
            request.onProgress?.(done, target);
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
  };

  if (request.precision === undefined) {
    const target = request.trials ?? 0;
    const complete = await runBatch(target, request.chunks?.first, request.chunks?.end);
    return { tally, trials: done, partial: !complete };
  }

  const cap = request.maxTrials ?? Number.MAX_SAFE_INTEGER;
  let target = Math.min(cap, FIRST_BATCH);
  for (;;) {
    if (!(await runBatch(target))) return { tally, trials: done, partial: true };
    const needed = trialsForPrecision(rule, params, tally, done, request.confidence, request.precision);
    if (needed <= done) return { tally, trials: done, partial: false, precisionReached: true };
    if (done >= cap) return { tally, trials: done, partial: false, precisionReached: false };
    // Aim 10% past the projection, growing at least 1.5× and at most 8× a batch, in whole chunks.
    const aim = Math.min(Math.max(needed * 1.1, done * 1.5), done * 8);
    target = Math.min(cap, Math.ceil(aim / CHUNK_TRIALS) * CHUNK_TRIALS);
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
  const tallied = rule.summarize(params, tally, trials);
  let worst = 0;
  for (const metric of rule.metrics(params)) {
    if (!metric.probability) continue;
    const { lo, hi } = estimate(tallied[metric.name], confidence);
    worst = Math.max(worst, (hi - lo) / 2);
  }
  return worst <= precision ? trials : Math.ceil(trials * (worst / precision) ** 2);
}
