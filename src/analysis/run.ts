/**
 * One rule at one set of parameters (`muster run`), apart from how it is
 * shown: solved exactly, or simulated on a pool to a trial count or to a
 * precision. Either way the result is the `muster.result/1` object the CLI
 * writes with --json.
 *
 *   plan (the rule's parameters, the settings: src/engine/settings.ts) ─► solve │ simulate ─► RunResult
 */

import type { Params, Rule } from '../contract/types.js';
import type { ChunkLedger } from '../engine/checkpoint.js';
import type { SimulationPool } from '../engine/pool.js';
import type { SimulationSettings } from '../engine/settings.js';
import { simulate } from '../engine/simulate.js';
import type { RunResult } from '../result.js';
import { runResult } from './run-in-thread.js';

export { solveRun } from './run-in-thread.js';

interface SimulateRunOptions {
  /** A checkpoint's ledger, so that chunks finished before are not run again. */
  ledger?: ChunkLedger;
  /** Stops the run: the result is then the chunks that finished, `partial: true`. */
  signal?: AbortSignal;
  onProgress?: (done: number, target: number) => void;
}

/** Simulates the rule on `pool` with these settings: every metric's estimate and interval, exact beside it. */
export async function simulateRun(
  pool: SimulationPool,
  rule: Rule,
  params: Params,
  settings: SimulationSettings,
  options: SimulateRunOptions = {},
): Promise<RunResult> {
  // Trials play best play, solved exactly first: past the enumeration budget this refuses, in one line, before any
  // trial runs (never a heuristic policy).
  rule.exact?.decisions?.(params);
  const outcome = await simulate(pool, {
    rule,
    params,
    seed: settings.seed,
    stream: settings.stream,
    confidence: settings.confidence,
    trials: settings.trials,
    precision: settings.precision,
    maxTrials: settings.maxTrials,
    timeout: settings.timeout,
    ledger: options.ledger,
    signal: options.signal,
    onProgress: options.onProgress,
  });
  return runResult(rule, params, settings, outcome);
}
