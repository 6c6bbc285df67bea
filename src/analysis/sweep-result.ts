/** The result of a sweep, as `muster sweep --json` writes it: a contract (docs/json.md, docs/result.schema.json). */
import type { Envelope, MetricResult } from '../result.js';
import type { Params, StreamVersion } from '../rules/types.js';
import type { Vary } from './vary.js';

/** The result JSON of `muster sweep` (docs/json.md). */
export interface SweepResult extends Envelope {
  source: string;
  /** Parameters held fixed (after --set and defaults). */
  params: Params;
  vary: Vary[];
  method: 'simulation' | 'exact';
  seed: string;
  /** The random stream of every point; null when solved exactly. */
  stream: StreamVersion | null;
  trials: number;
  threads: number;
  confidence: number;
  points: Array<{ params: Params; metrics: Record<string, MetricResult> }>;
  /** Combinations the rule rejects (e.g. chosenRound above rounds), with its reason. */
  skipped: Array<{ params: Params; reason: string }>;
  /** Interrupted (Ctrl-C): `points` holds only the combinations finished, in order. */
  partial: boolean;
  /** With --best: the best point for one metric and whether it beats the runner-up beyond noise. */
  best?: SweepBest;
}

export interface SweepBest {
  metric: string;
  goal: 'max' | 'min';
  params: Params;
  value: number;
  runnerUp: { params: Params; value: number } | null;
  /**
   * 'exactly': exact values differ; 'beyond noise': the intervals do not overlap; 'within noise': they do; 'tied':
   * equal exact values; 'alone': one point.
   */
  decided: 'exactly' | 'beyond noise' | 'within noise' | 'tied' | 'alone';
}
