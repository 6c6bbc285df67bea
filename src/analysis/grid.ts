/**
 * A sweep, a balance and a comparison are each a grid: points in order, each a rule, its
 * parameters and a seed, computed alike. Sharding splits the points' chunks
 * among machines and merge adds their tallies back; neither needs to know
 * which analysis made the grid, only what this interface tells it.
 *
 *   analysis.replan (the flags, or a shard's text) ─► GridJob ─► shards ─► merge ─► analysis.assemble
 */

import type { Params, Rule } from '../contract/types.js';
import type { SimulationOptions } from '../engine/settings.js';
import type { Evaluated, GridSettings } from './evaluate.js';

export type GridCommand = 'sweep' | 'compare' | 'balance';

/** The command's own options as typed, recorded in every shard, from which merge plans it again. */
export type GridArgs =
  | { set: string[]; vary: string[] }
  | { set: string[]; variant: string[]; seedPerVariant: boolean }
  | BalanceArgs;

/** A balance's question as typed: a sweep's grid, and what is asked of it (null: the option not given). */
export interface BalanceArgs {
  set: string[];
  vary: string[];
  metric: string;
  target: string;
  keep: string[];
  cliff: string | null;
  within: string | null;
}

/** A rule file the command named: `ref` as typed ("" for the command's own rule), where it was, its sha256. */
export interface RecordedFile {
  ref: string;
  path: string;
  sha256: string;
}

/** A sweep or comparison, planned: its points in order, each with its seed (and, in a comparison, its rule). */
export interface GridJob {
  command: GridCommand;
  rule: Rule;
  /** Each point's rule, where a comparison's variants name rules of their own; `rule` for every point when absent. */
  rules?: readonly Rule[];
  /** The rule files among them, as the shard records them. */
  ruleFiles: RecordedFile[];
  points: Params[];
  seeds: string[];
  settings: GridSettings;
  args: GridArgs;
}

/** How merge finds the rules a shard's args name: the command's own, and the one a reference names. */
interface GridRules {
  own(): Rule;
  /** The rule `ref` names (a built-in id or a rule file); `own` when the args name none. */
  named(ref: string | undefined, own: Rule): Rule;
}

/** What shard, merge and checkpoint need of an analysis whose points form a grid. */
export interface GridAnalysis<Plan, Result> {
  readonly command: GridCommand;
  /** What the points are called in a shard's report: a sweep's points, a comparison's variants. */
  readonly noun: string;
  /** The analysis in a sentence: 'a sweep', 'a comparison'. */
  readonly what: string;
  /** Whether merge takes --metric (the table's metrics): a sweep's does; a comparison tests every metric. */
  readonly metricOnMerge: boolean;
  /** Whether a shard's recorded args are exactly this analysis's (a file is data: every field checked). */
  isArgs(args: unknown): args is GridArgs;
  /** The rule references the args name besides the command's own rule (a comparison's rule=…). */
  ruleRefs(args: GridArgs): Array<string | undefined>;
  /** Plans again from a shard's text, exactly as the CLI plans from its flags (so refuses what it refuses). */
  replan(args: GridArgs, settings: SimulationOptions & { metric?: string[] }, rules: GridRules): Plan;
  /** The plan's points, seeds, rules and settings, with the args to record. */
  job(plan: Plan, args: GridArgs, ruleFiles: RecordedFile[]): GridJob;
  /** The result from every point computed (in order), as on one machine. */
  assemble(plan: Plan, evaluated: readonly Evaluated[], threads: number): Result;
}

/** Whether `value` is a plain object with exactly these own keys: the schema checker's (src/input/schema.ts). */
export { hasExactly } from '../input/schema.js';

/** Whether `value` is a list of strings. */
export const texts = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');
