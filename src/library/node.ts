/**
 * muster as a library: `import { run, exact, sweep, compare, loadRule } from 'muster-odds'`.
 * The same analyses as `muster run`, `run --exact`, `sweep` and `compare`, returning the
 * `muster.result/1` objects the CLI writes as JSON (docs/json.md), with the
 * CLI's validation: a mistake is a UsageError (one line, naming the option
 * or parameter), never a printed message or an exit. Nothing here prints,
 * exits, or listens for signals; cancellation is the caller's AbortSignal.
 *
 *   loadRule(id or path) ─► run(rule, { set, trials, seed, … }) ─► RunResult
 *                       ├─► exact(rule, { set })                ─► RunResult
 *                       ├─► sweep(rule, { vary, … })            ─► SweepResult (grid.ts)
 *                       ├─► balance(rule, { vary, metric, target, … }) ─► SweepResult with its balance block
 *                       └─► compare(rule, { variants, … })      ─► CompareResult
 *
 * Simulation runs on a worker pool: pass one (`new Pool(threads)`, closed by
 * the caller with `close()`) to share it between calls, or leave it out and
 * each call starts and closes its own. docs/library.md is the guide.
 */

import { simulateRun, solveRun } from '../analysis/run.js';
import type { ParamValue, Rule, RuleExact, RulePresentation, RuleTally, StreamVersion } from '../contract/types.js';
import { defaultThreads, WorkerError } from '../engine/pool.js';
import { UsageError } from '../errors.js';
import type { MetricResult, RunResult } from '../result.js';
import { loadRule as loadRuleRef } from '../rule-files/load.js';
import {
  checkCallOptions,
  EXACT_OPTIONS,
  type ExactOptions,
  handedOutRule,
  handOut,
  IN_THREAD_RUN_OPTIONS,
  kindOf,
  paramsOf,
  type SimulationCallOptions,
  simulationSettings,
} from './core.js';
import { Pool } from './pool.js';

export { defineRule, type ExactOptions, listRules, type ParamSettings, type RuleFileSpec } from './core.js';
export {
  type BalanceOptions,
  type BalanceResult,
  balance,
  type CompareOptions,
  type CompareResult,
  compare,
  type SweepOptions,
  type SweepResult,
  sweep,
  type VariantSpec,
} from './grid.js';
export type { MetricResult, ParamValue, Rule, RuleExact, RulePresentation, RuleTally, RunResult, StreamVersion };
export { Pool, UsageError, WorkerError };

/** A built-in rule by id, or a rule file by path (a reference with a slash or a script extension is a path). */
export async function loadRule(ref: string): Promise<Rule> {
  if (typeof ref !== 'string')
    throw new UsageError(`rule: got ${kindOf(ref)}; allowed: a built-in rule id or the path of a rule file`);
  if (ref === '')
    throw new UsageError('rule: got an empty reference; allowed: a built-in rule id or the path of a rule file');
  return handOut(await loadRuleRef(ref));
}

/** A call's `rule`: an id or path loaded, or a rule the library handed out (never one made or changed elsewhere). */
async function resolveRule(rule: unknown): Promise<Rule> {
  return typeof rule === 'string' ? loadRule(rule) : handedOutRule(rule);
}

const RUN_OPTIONS = [...IN_THREAD_RUN_OPTIONS, 'pool', 'threads'] as const;

export interface RunOptions extends SimulationCallOptions {
  /** A pool to run on; without one the call starts its own, of `threads` threads (default: every core). */
  pool?: Pool;
  threads?: number;
}

/** The exact value of every metric, with no simulation (the rule's exact solution). */
export async function exact(rule: string | Rule, options: ExactOptions = {}): Promise<RunResult> {
  checkCallOptions(options, EXACT_OPTIONS, 'exact');
  const resolved = await resolveRule(rule);
  if (!resolved.exact)
    throw new UsageError(`exact: ${resolved.id} has no exact solution; allowed: run(…) to simulate it`);
  const params = paramsOf(resolved, options.set);
  return solveRun(resolved, params, 'muster');
}

/** Simulates a rule: every metric's estimate and interval, with its exact value beside it where the rule has one. */
export async function run(rule: string | Rule, options: RunOptions = {}): Promise<RunResult> {
  checkCallOptions(options, RUN_OPTIONS, 'run');
  const resolved = await resolveRule(rule);
  const params = paramsOf(resolved, options.set);
  const settings = simulationSettings(options, 0);
  if (options.pool !== undefined && options.threads !== undefined)
    throw new UsageError('threads: given with pool; allowed: one of the two');
  const own = options.pool === undefined ? new Pool(options.threads ?? defaultThreads()) : undefined;
  const pool = (options.pool ?? own) as Pool;
  settings.threads = pool.threads;
  try {
    return await simulateRun(pool.simulationPool, resolved, params, settings, {
      signal: options.signal,
      onProgress: options.onProgress,
    });
  } finally {
    await own?.close();
  }
}
