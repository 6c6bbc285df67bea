import { UsageError } from '../src/errors.js';
import type { SimulationPool } from '../src/engine/pool.js';
import { simulate } from '../src/engine/simulate.js';
import type { ChunkLedger } from '../src/engine/checkpoint.js';
import { buildResult, type RunResult } from '../src/result.js';
import type { Params, Rule } from '../src/rules/types.js';
import type { Tallied } from '../src/stats/estimate.js';

/** How every point of a sweep, a comparison or a book chart is computed. */
export interface GridSettings {
  /** 'exact' solves with rule.exact and simulates nothing. */
  method: 'exact' | 'simulation';
  seed: string;
  confidence: number;
  /** Trials per point (simulation only). */
  trials: number;
  threads: number;
  /** Watchdog in seconds (--timeout), for simulation. */
  timeout?: number;
}

/** One computed point: the result as `muster run` reports it, and (when simulated) the tallied counts behind every interval. */
export interface Evaluated {
  result: RunResult;
  tallied: Record<string, Tallied> | null;
}

export interface EvaluateOptions {
  /** Required for simulation; one pool serves every point. */
  pool?: SimulationPool;
  signal?: AbortSignal;
  /** A checkpoint's ledger for the point at this index of the list, so finished chunks are not run again. */
  ledgerFor?: (index: number) => ChunkLedger;
  /** Called after each point. */
  onPoint?: (done: number, total: number) => void;
  /** Called as a point's simulation goes, with that point's trials done so far. */
  onTrials?: (done: number) => void;
}

/**
 * Computes a rule at each parameter set in turn: exactly, or by simulation
 * on the shared pool with the same seed for every point (so a parameter that
 * cannot affect a metric leaves it unchanged between points).
 */
export async function evaluateAll(rule: Rule, paramsList: readonly Params[], settings: GridSettings, options: EvaluateOptions = {}): Promise<Evaluated[]> {
  const evaluated: Evaluated[] = [];
  for (const params of paramsList) {
    evaluated.push(await evaluateOne(rule, params, settings, options));
    options.onPoint?.(evaluated.length, paramsList.length);
  }
  return evaluated;
}

/**
 * Like evaluateAll, but an interruption (Ctrl-C) keeps the points already
 * finished instead of discarding them: they are returned with
 * `interrupted: true`, in grid order, the unfinished point left out.
 */
export async function evaluateUntilInterrupted(
  rule: Rule,
  paramsList: readonly Params[],
  settings: GridSettings,
  options: EvaluateOptions = {},
): Promise<{ evaluated: Evaluated[]; interrupted: boolean }> {
  const evaluated: Evaluated[] = [];
  for (const [index, params] of paramsList.entries()) {
    if (options.signal?.aborted) return { evaluated, interrupted: true };
    try {
      evaluated.push(await evaluateOne(rule, params, settings, options, options.ledgerFor?.(index)));
    } catch (error) {
      if (options.signal?.aborted) return { evaluated, interrupted: true };
      throw error;
    }
    options.onPoint?.(evaluated.length, paramsList.length);
  }
  return { evaluated, interrupted: false };
}

async function evaluateOne(rule: Rule, params: Params, settings: GridSettings, options: EvaluateOptions, ledger?: ChunkLedger): Promise<Evaluated> {
  if (settings.method === 'exact') {
    if (!rule.exact) throw new UsageError(`--exact: ${rule.id} has no exact solution; allowed: simulate it (leave out --exact)`);
    return { result: buildResult({ rule, params, seed: settings.seed, threads: 0, confidence: 1, trials: 0, tally: null }), tallied: null };
  }
  if (!options.pool) throw new Error('evaluateAll: a simulation needs a pool');
  const outcome = await simulate(options.pool, {
    rule,
    params,
    seed: settings.seed,
    confidence: settings.confidence,
    trials: settings.trials,
    timeout: settings.timeout,
    ledger,
    signal: options.signal,
    onProgress: (done) => options.onTrials?.(done),
  });
  if (outcome.partial) throw new UsageError('interrupted: the runs were not finished and nothing was written');
  const result = buildResult({ rule, params, seed: settings.seed, threads: settings.threads, confidence: settings.confidence, trials: outcome.trials, tally: outcome.tally });
  return { result, tallied: rule.summarize(params, outcome.tally, outcome.trials) };
}
