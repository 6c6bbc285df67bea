/**
 * The words every grid's evaluation shares (how its points are computed, what one computed point holds, the hooks
 * a caller passes): types only, so that a module which names them (the page's plans, analysis/solve-points.ts)
 * reaches neither the pool nor evaluate.ts.
 */

import type { Rule, StreamVersion } from '../contract/types.js';
import type { ChunkLedger } from '../engine/checkpoint.js';
import type { SimulationPool } from '../engine/pool.js';
import type { Fraction } from '../exact/fraction.js';
import type { RunResult } from '../result.js';
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
  /** Solved exactly, each point's best play beside its metrics (a rule with decisions); false for a matrix's cells. */
  bestPlay?: boolean;
  /**
   * Leave each point's distributions out of its result: a sweep or balance printed as a table, with no --json, shows
   * none, and a point's distributions (each value's chance, tails and intervals, exact and simulated) were a quarter
   * of a simulated reserves point's own cost.
   */
  withoutDistributions?: boolean;
  /** Solved exactly, each point's exact values where the caller has them already (SweepPlan.known). */
  known?: ReadonlyArray<Record<string, Fraction>>;
}
