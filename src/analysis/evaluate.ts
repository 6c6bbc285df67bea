import { Interrupted, UsageError } from '../errors.js';
import type { SimulationPool } from '../engine/pool.js';
import type { ChunkLedger } from '../engine/checkpoint.js';
import { simulateEach } from '../engine/simulate-many.js';
import { buildResult, type RunResult } from '../result.js';
import type { Fraction } from '../exact/fraction.js';
import { knownExact } from '../rules/exact-of.js';
import type { Params, Rule, StreamVersion } from '../rules/types.js';
import type { Tallied } from '../stats/estimate.js';

/** How every point of a sweep, a comparison or a card is computed. */
interface GridBase {
  seed: string;
  confidence: number;
  /** Trials per point (simulation only). */
  trials: number;
  threads: number;
  /** Watchdog in seconds (--timeout), for simulation. */
  timeout?: number;
}

/**
 * How a sweep's or comparison's points are computed: 'exact' solves with rule.exact and simulates nothing; 'simulation'
 * draws from `stream`.
 */
export type GridSettings =
  | (GridBase & { method: 'exact'; stream: null })
  | (GridBase & { method: 'simulation'; stream: StreamVersion });

/**
 * One computed point: the result as `muster run` reports it, and (when simulated) the tallied counts behind every
 * interval.
 */
export interface Evaluated {
  result: RunResult;
  tallied: Record<string, Tallied> | null;
  /** The rule's exact values at the point (null: it has none), when computed with it. */
  exact?: Record<string, Fraction> | null;
}

export interface EvaluateOptions {
  /** Required for simulation; one pool serves every point. */
  pool?: SimulationPool;
  signal?: AbortSignal;
  /** A checkpoint's ledger for the point at this index of the list, so finished chunks are not run again. */
  ledgerFor?: (index: number) => ChunkLedger;
  /** Called as each point finishes: solved, or its simulation done (its result is built once all are). */
  onPoint?: (done: number, total: number) => void;
  /** Called as the simulations go, with the trials done so far over every point (they run at once). */
  onTrials?: (done: number) => void;
  /** A seed per point (a comparison's --seed-per-variant); settings.seed for every point when absent. */
  seeds?: readonly string[];
  /** A rule per point (a comparison of rule files); the `rule` argument for every point when absent. */
  rules?: readonly Rule[];
  /**
   * Keep each point's result only (tallied null, exact left out): a sweep
   * reads nothing else, and a point's tallied counts and exact fractions are
   * as large again as its result (about 12 kB of 29 at reserves' 11 squads).
   */
  resultsOnly?: boolean;
}

/**
 * Computes a rule at each parameter set: exactly, or by simulation on the
 * shared pool with the same seed for every point (so a parameter that
 * cannot affect a metric leaves it unchanged between points). The points'
 * simulations run at once, their tasks interleaved on the pool; each point
 * is still exactly what `muster run` gives for it.
 */
export async function evaluateAll(
  rule: Rule,
  paramsList: readonly Params[],
  settings: GridSettings,
  options: EvaluateOptions = {},
): Promise<Evaluated[]> {
  const { evaluated, interrupted } = await evaluateUntilInterrupted(rule, paramsList, settings, options);
  if (interrupted) throw new Interrupted('interrupted: the runs were not finished and nothing was written');
  return evaluated;
}

/** How long an exact sweep or comparison solves before it pauses to hear a signal. */
const EXACT_PAUSE_MS = 50;

/**
 * Like evaluateAll, but an interruption (Ctrl-C) keeps the points already
 * finished instead of discarding them: they are returned with
 * `interrupted: true`, in grid order, the unfinished points left out
 * (`indices` says which points of the grid they are).
 */
export async function evaluateUntilInterrupted(
  rule: Rule,
  paramsList: readonly Params[],
  settings: GridSettings,
  options: EvaluateOptions = {},
): Promise<{ evaluated: Evaluated[]; interrupted: boolean; indices: number[] }> {
  if (settings.method === 'exact') {
    const evaluated: Evaluated[] = [];
    let paused = performance.now();
    for (const params of paramsList) {
      // Every 50 ms of solving, a pause in which a signal (Ctrl-C, SIGTERM, the caller's abort) is heard: the
      // points solved so far are the result, as a simulation's finished chunks are.
      if (options.signal && performance.now() - paused >= EXACT_PAUSE_MS) {
        await new Promise((resolve) => setTimeout(resolve, 0));
        paused = performance.now();
      }
      if (options.signal?.aborted) break;
      const pointRule = options.rules?.[evaluated.length] ?? rule;
      if (!pointRule.exact)
        throw new UsageError(
          `--exact: ${pointRule.id} has no exact solution; allowed: simulate it (leave out --exact)`,
        );
      const exact = pointRule.exact(params);
      evaluated.push({
        result: buildResult({
          rule: pointRule,
          params,
          seed: options.seeds?.[evaluated.length] ?? settings.seed,
          stream: settings.stream,
          threads: 0,
          confidence: 1,
          trials: 0,
          tally: null,
          exact,
        }),
        tallied: null,
        ...(options.resultsOnly ? {} : { exact }),
      });
      options.onPoint?.(evaluated.length, paramsList.length);
    }
    const interrupted = evaluated.length < paramsList.length;
    return { evaluated, interrupted, indices: evaluated.map((_, index) => index) };
  }
  if (!options.pool) throw new Error('evaluateAll: a simulation needs a pool');
  const seedOf = (index: number) => options.seeds?.[index] ?? settings.seed;
  const ruleOf = (index: number) => options.rules?.[index] ?? rule;
  const points: Array<Evaluated | undefined> = paramsList.map(() => undefined);
  let finished = 0;
  // Each point is summarised, solved exactly and built as it finishes, while the threads simulate the
  // next, and its tally is let go: a sweep's memory is then that of the few points under way, not of
  // every point, and no serial tail of summaries and exact solutions follows the simulation.
  await simulateEach(
    options.pool,
    paramsList.map((params, index) => ({
      rule: ruleOf(index),
      params,
      seed: seedOf(index),
      stream: settings.stream,
      trials: settings.trials,
      ledger: options.ledgerFor?.(index),
    })),
    {
      signal: options.signal,
      timeout: settings.timeout,
      onProgress: (done) => options.onTrials?.(done),
      onOutcome: (index, outcome) => {
        const params = paramsList[index];
        const pointRule = ruleOf(index);
        const tallied = pointRule.summarize(params, outcome.tally, outcome.trials);
        // Beside a simulation, an enumeration past its quick budget is no exact value (rules/exact-of.ts).
        const exact = knownExact(pointRule, params);
        const result = buildResult({
          rule: pointRule,
          params,
          seed: seedOf(index),
          stream: settings.stream,
          threads: settings.threads,
          confidence: settings.confidence,
          trials: outcome.trials,
          tally: outcome.tally,
          tallied,
          exact,
        });
        points[index] = options.resultsOnly ? { result, tallied: null } : { result, tallied, exact };
        options.onPoint?.(++finished, paramsList.length);
      },
    },
  );
  const indices = points.flatMap((point, index) => (point ? [index] : []));
  return {
    evaluated: indices.map((index) => points[index]!),
    interrupted: indices.length < paramsList.length,
    indices,
  };
}
