/**
 * muster in a browser bundle: `import { exact, run, ruleFile } from 'muster-odds/browser'`.
 * The parts of the library that need no Node (docs/library.md, "In the
 * browser"): the built-in rules, their exact solvers, a rule file's default
 * export passed in as a value (checked as `muster run` checks the file, and
 * enumerated where it has no exact()), and simulation on the calling thread
 * with the CLI's streams, so a seed, stream and trial count give
 * `muster run --threads 1 --json`'s result. No pool, no files, no paths.
 *
 *   a built-in id │ getRule(id) │ a rule file's default export ─► ruleFile ─► Rule
 *       ─► exact(rule, { set })                      ─► solveRun            ─► RunResult
 *       ─► run(rule, { set, trials, seed, stream })  ─► simulateRunInThread ─► RunResult
 *       ─► balance(rule, { vary, metric, target, … }) ─► browser-balance.ts ─► BalanceResult
 *
 * Nothing reachable from here imports a Node module: test/analysis/library-bundle.test.ts bundles it for the browser
 * platform and fails on one.
 */
import { simulateRunInThread, solveRun } from '../analysis/run-in-thread.js';
import type { ParamValue, Rule, RuleExact, RulePresentation, RuleTally, StreamVersion } from '../contract/types.js';
import { UsageError } from '../errors.js';
import type { MetricResult, RunResult } from '../result.js';
import { isRulePath } from '../rule-files/path.js';
import { adaptRuleFile } from '../rule-files/rule.js';
import { deepFreeze } from '../rules/deep-freeze.js';
import { getRule as builtInRule, rules as builtInRules } from '../rules/index.js';
import { type BalanceResult, type BrowserBalanceOptions, balanceOf } from './browser-balance.js';
import {
  checkCallOptions,
  EXACT_OPTIONS,
  type ExactOptions,
  IN_THREAD_RUN_OPTIONS,
  kindOf,
  paramsOf,
  type RuleFileSpec,
  type SimulationCallOptions,
  simulationSettings,
} from './core.js';

export { defineRule, type ExactOptions, listRules, type ParamSettings, type RuleFileSpec } from './core.js';
export type {
  BalanceResult,
  MetricResult,
  ParamValue,
  Rule,
  RuleExact,
  RulePresentation,
  RuleTally,
  RunResult,
  StreamVersion,
};
export { UsageError };
export type BalanceOptions = BrowserBalanceOptions;

/** The options of an in-thread run: a simulation's, without a pool or threads (it runs on the calling thread). */
export type RunOptions = SimulationCallOptions;

/** What `exact` and `run` take as their rule: a built-in id, a rule from getRule or ruleFile, or a default export. */
export type RuleInput = string | Rule | RuleFileSpec;

/** Rules that are rules already: the built-ins, and every rule ruleFile made. */
const made = new WeakSet<object>(builtInRules);

/** A built-in rule by id (a UsageError naming the ids there are, otherwise). */
export function getRule(id: string): Rule {
  if (typeof id !== 'string' || isRulePath(id))
    throw new UsageError(
      `rule: got ${typeof id === 'string' ? JSON.stringify(id) : kindOf(id)}; ` +
        `allowed: a built-in rule id (${builtInRules.map((r) => r.id).join(', ')}) ` +
        'or a rule file’s default export (a browser reads no paths)',
    );
  return builtInRule(id);
}

/**
 * A rule file's default export as a rule, checked field by field as `muster run FILE` checks the file (a
 * UsageError naming `name` and the rule otherwise). `name` stands where the CLI names the file. The rule keeps
 * its enumerations between calls; a default export passed straight to exact or run is checked afresh each time
 * (never a stale adaptation of an object edited since).
 */
export function ruleFile(spec: unknown, name = 'rule object'): Rule {
  if (typeof name !== 'string' || name === '')
    throw new UsageError('name: got an empty or non-text name; allowed: text naming the rule in messages');
  if (spec !== null && typeof spec === 'object' && made.has(spec)) return spec as Rule;
  // Frozen, as the built-ins are: a rule handed out cannot be changed under a later call (rules/deep-freeze.ts).
  const rule = deepFreeze(adaptRuleFile(spec, name));
  made.add(rule);
  return rule;
}

function ruleOf(rule: RuleInput): Rule {
  return typeof rule === 'string' ? getRule(rule) : ruleFile(rule);
}

/** The exact value of every metric, with no simulation: the rule's exact solution, or its dice enumerated. */
export async function exact(rule: RuleInput, options: ExactOptions = {}): Promise<RunResult> {
  checkCallOptions(options, EXACT_OPTIONS, 'exact');
  const resolved = ruleOf(rule);
  if (!resolved.exact)
    throw new UsageError(`exact: ${resolved.id} has no exact solution; allowed: run(…) to simulate it`);
  return solveRun(resolved, paramsOf(resolved, options.set), 'muster');
}

/**
 * Simulates a rule on this thread, chunk by chunk, giving the event loop a turn every tenth of a second (so
 * `signal` and `onProgress` work in a page; a long run belongs in a Web Worker). The result records 1 thread.
 */
export async function run(rule: RuleInput, options: RunOptions = {}): Promise<RunResult> {
  checkCallOptions(options, IN_THREAD_RUN_OPTIONS, 'run');
  const resolved = ruleOf(rule);
  const params = paramsOf(resolved, options.set);
  const settings = simulationSettings(options, 1);
  return simulateRunInThread(resolved, params, settings, {
    signal: options.signal,
    onProgress: options.onProgress,
  });
}

/**
 * The settings of the varied parameters that bring a metric nearest a target, on this thread: `muster balance
 * --json`'s object for the same question (exact wherever the rule has exact values at every setting, else each
 * point simulated in turn; the result then records 1 thread). A grid of many simulated points belongs in a Web Worker.
 */
export async function balance(rule: RuleInput, options: BalanceOptions): Promise<BalanceResult> {
  return balanceOf(ruleOf(rule), options);
}
