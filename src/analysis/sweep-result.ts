/** The result of a sweep, as `muster sweep --json` writes it: a contract (docs/json.md, docs/result.schema.json). */

import type { Params, StreamVersion } from '../contract/types.js';
import type { Envelope, MetricResult, NoExact, ObjectiveResult } from '../result.js';
import type { Vary } from './vary.js';

/** The result JSON of `muster sweep` (docs/json.md). */
export interface SweepResult extends Envelope {
  source: string;
  /** Parameters held fixed (after --set and defaults): the same at every point. */
  params: Params;
  vary: Vary[];
  /**
   * Parameters not varied whose value still differs between points, because their default depends on a varied one
   * (fow's reserves, half the platoons): not in `params`, but in each point's `params` beside the varied ones.
   * Every sweep writes it; a result written before it existed reads as [].
   */
  perPoint?: string[];
  method: 'simulation' | 'exact';
  seed: string;
  /** The random stream of every point; null when solved exactly. */
  stream: StreamVersion | null;
  trials: number;
  threads: number;
  confidence: number;
  /** Each point's `params` holds the varied values and the `perPoint` ones: with `params`, every parameter it used. */
  /** `objective`: a rule with decisions, the objective under best play at the point (docs/json.md). */
  /** `noExact`: beside a simulation, why a rule file's dice gave the point no exact values (docs/json.md). */
  points: Array<{
    params: Params;
    metrics: Record<string, MetricResult>;
    objective?: ObjectiveResult;
    noExact?: NoExact;
  }>;
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
