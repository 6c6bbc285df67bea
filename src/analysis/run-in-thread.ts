/**
 * `muster run` on the calling thread: solved, or simulated chunk after
 * chunk with the loop the pool's workers and the page's run
 * (engine/run-chunks.ts). Chunk k draws from the stream of (seed, rule, k)
 * whoever runs it and tallies are integer counts, so the result is
 * `muster run --json`'s for the same seed, stream and trials. No pool and
 * no Node here: the library's browser entry (library/browser.ts) is this.
 *
 *   plan (params, settings) ─► solveRun │ simulateRunInThread ─► runResult ─► RunResult
 */

import type { Params, Rule } from '../contract/types.js';
import { chunkCount, chunkTrials } from '../engine/chunks.js';
import { mergeTally, runChunks } from '../engine/run-chunks.js';
import type { SimulationSettings } from '../engine/settings.js';
import type { RunResult } from '../result.js';
import { buildResult, withDecisions } from './result-of.js';

/** Every metric's exact value (the rule's exact solution), nothing simulated. */
export function solveRun(rule: Rule, params: Params, seed: string): RunResult {
  // Best play first, for a rule with decisions: its metrics are those under that play.
  rule.exact?.decisions?.(params);
  const result = buildResult({ rule, params, seed, stream: null, threads: 0, confidence: 1, trials: 0, tally: null });
  return withDecisions(rule, params, result);
}

/** What a simulation counted: the merged tally of the trials that ran. */
interface SimulatedTally {
  tally: Float64Array;
  trials: number;
  partial: boolean;
  precisionReached?: boolean;
}

/** A simulation's result, however its chunks were run (a pool, or this thread). */
export function runResult(
  rule: Rule,
  params: Params,
  settings: SimulationSettings,
  outcome: SimulatedTally,
): RunResult {
  // A rule with decisions had its best play solved before its trials played it: the solution is kept.
  rule.exact?.decisions?.(params);
  const result = buildResult({
    rule,
    params,
    seed: settings.seed,
    stream: settings.stream,
    threads: settings.threads,
    confidence: settings.confidence,
    trials: outcome.trials,
    tally: outcome.tally,
    partial: outcome.partial,
    ...(settings.precision !== undefined
      ? { precision: { target: settings.precision, reached: outcome.precisionReached ?? false } }
      : {}),
  });
  return withDecisions(rule, params, result);
}

interface InThreadOptions {
  /** Stops the run between chunks: the result is then the chunks that finished, `partial: true`. */
  signal?: AbortSignal;
  onProgress?: (done: number, target: number) => void;
}

/**
 * The longest stretch of chunks run without giving the event loop a turn, in milliseconds: long enough that the
 * turns cost little (a timer of up to 4 ms every 100 ms), short enough for a page to repaint and an abort to land.
 */
const SLICE_MS = 100;

/** Simulates `settings.trials` trials here, chunk by chunk (a trial count only: no precision target). */
export async function simulateRunInThread(
  rule: Rule,
  params: Params,
  settings: SimulationSettings,
  options: InThreadOptions = {},
): Promise<RunResult> {
  const { trials } = settings;
  const tally = new Float64Array(rule.tally.length(params));
  const scratch = new Float64Array(tally.length);
  const task = { ruleId: rule.id, params, seed: settings.seed, stream: settings.stream, totalTrials: trials };
  let done = 0;
  let sliceStart = Date.now();
  for (let chunk = 0; chunk < chunkCount(trials); chunk++) {
    if (options.signal?.aborted) return runResult(rule, params, settings, { tally, trials: done, partial: true });
    mergeTally(tally, runChunks({ ...task, firstChunk: chunk, endChunk: chunk + 1 }, rule, undefined, scratch));
    done += chunkTrials(chunk, trials);
    options.onProgress?.(done, trials);
    if (Date.now() - sliceStart >= SLICE_MS) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      sliceStart = Date.now();
    }
  }
  return runResult(rule, params, settings, { tally, trials, partial: false });
}
