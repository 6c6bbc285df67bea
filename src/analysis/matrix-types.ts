/**
 * The shapes of a matrix (./matrix.ts): what it is asked for, its plan, and
 * the `muster matrix` result JSON with its ranking and equilibrium; apart,
 * so the module that computes it reads as its steps.
 */

import type { MatrixSpec, MetricSpec, Params, ParamValue, Rule, StreamVersion } from '../contract/types.js';
import type { SimulationOptions } from '../engine/settings.js';
import type { Envelope, RunResult } from '../result.js';

/** What a matrix is asked for, as typed. */
export interface MatrixRequest extends SimulationOptions {
  set?: string[];
  range?: string;
  simulate?: boolean;
  against?: string;
  metric?: string[];
  equilibrium?: boolean;
  objective?: string;
}

export interface MatrixTable {
  metric: string;
  /**
   * values[i][j]: the metric with the row parameter at rows[i] and the column parameter at cols[j]; null for a cell an
   * interruption left unfinished.
   */
  values: (number | null)[][];
  lo: (number | null)[][] | null;
  hi: (number | null)[][] | null;
}

/** The result JSON of `muster matrix` (docs/json.md). */
export interface MatrixResult extends Envelope {
  source: string;
  params: Params;
  method: 'exact' | 'simulation';
  seed: string | null;
  /** The random stream of every cell; null when solved exactly. */
  stream: StreamVersion | null;
  trials: number | null;
  confidence: number | null;
  /** True when Ctrl-C stopped the matrix: unfinished cells are null. */
  partial: boolean;
  matrix: { row: string; col: string; rows: ParamValue[]; cols: ParamValue[]; tables: MatrixTable[] };
  /** Every metric at the base parameters, as `muster run` reports them. */
  metrics: RunResult['metrics'];
  /**
   * With --against: every row value against the given column value, best first, and which are on the trade-off
   * frontier.
   */
  against?: { opponent: ParamValue; ranking: AgainstRow[] };
  /** With --equilibrium: the zero-sum game on the objective, rows side A's options and columns side B's. */
  equilibrium?: MatrixEquilibrium;
}

export interface AgainstRow {
  strategy: ParamValue;
  label: string;
  /** The trade-off metrics (and the matrix's own) at this row against the opponent. */
  metrics: Record<string, number>;
  /** No other row is at least as good on every trade-off metric and better on one. */
  pareto: boolean;
}

/** A matrix's cells, checked and ready to compute. */
export interface MatrixPlan {
  rule: Rule;
  spec: MatrixSpec;
  base: Params;
  /** The row values (and, without --against, the column values). */
  values: ParamValue[];
  cols: ParamValue[];
  everyMetric: MetricSpec[];
  tableMetrics: string[];
  cellParams: Params[][];
}

/**
 * With --equilibrium: the matrix read as a game both sides play at once, the
 * rows side A's options and the columns side B's, A maximising the objective
 * and B minimising it (zero-sum), solved exactly (src/exact/zero-sum-game.ts).
 */
export interface MatrixEquilibrium {
  /** The objective as typed; `weights` and `constant` are what it was read as. */
  objective: string;
  weights: { metric: string; weight: string }[];
  constant: string;
  /** What A is assured of and B concedes at most, when both play their optimal mix. */
  value: { exact: number; fraction: string };
  /** A's optimal mix: every row with its chance (0 for rows it never plays). */
  rows: EquilibriumOption[];
  /** B's optimal mix over the columns. */
  cols: EquilibriumOption[];
  /** Both pure: the row and column neither side gains by leaving alone; null when some side must mix. */
  saddlePoint: { row: ParamValue; col: ParamValue } | null;
  /** A row at least as good for A as every other against every column, or null. */
  dominantRow: ParamValue | null;
  /** A column at least as good for B as every other against every row, or null. */
  dominantCol: ParamValue | null;
  /** The answer in words, one sentence a line. */
  summary: string[];
}

export interface EquilibriumOption {
  strategy: ParamValue;
  label: string;
  chance: number;
  fraction: string;
}
