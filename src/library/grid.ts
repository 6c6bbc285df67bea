/**
 * `sweep` and `compare` for the library (node.ts re-exports them): the
 * analysis layer's plan → evaluate → assemble (src/analysis/), called with
 * values instead of flags. Each returns the object `muster sweep --json` or
 * `muster compare --json` writes, checks its input with the CLI's own
 * checks (a mistake is a UsageError naming the option as the CLI spells it),
 * and neither prints nor exits.
 */

import { assembleBalance, type BalanceResult, planBalance } from '../analysis/balance.js';
import { type CompareResult, evaluateCompare, planCompare } from '../analysis/compare.js';
import type { EvaluateOptions, GridSettings } from '../analysis/evaluate.js';
import { planSweep, type SweepResult } from '../analysis/sweep.js';
import { evaluateSweep } from '../analysis/sweep-evaluate.js';
import { variantRuleRef } from '../analysis/variant.js';
import type { ParamValue, Rule, StreamVersion } from '../contract/types.js';
import { defaultThreads } from '../engine/pool.js';
import type { SimulationOptions } from '../engine/settings.js';
import { UsageError } from '../errors.js';
import { isRulePath, loadRule } from '../rule-files/load.js';
import { getRule } from '../rules/index.js';
import type { BalanceQuestion } from './browser-balance.js';
import { assignments, checkCallOptions, handedOutRule, handOut, type ParamSettings, varyText } from './core.js';
import { Pool } from './pool.js';

export type { BalanceResult, CompareResult, ParamSettings, SweepResult };

/** The options every simulating call shares. */
export interface GridCallOptions {
  set?: ParamSettings;
  /** Trials a point (default 1,000,000). */
  trials?: number;
  /** The seed (default "muster"). */
  seed?: string;
  /** The random stream, 1 to 3 (default 3; docs/streams.md). */
  stream?: StreamVersion;
  /** Interval confidence, greater than 0 and at most 0.999999 (default 0.95). */
  confidence?: number;
  /** A pool to run on; without one the call starts its own, of `threads` threads (default: every core). */
  pool?: Pool;
  threads?: number;
  /** Solve every point exactly, simulating nothing (the rule must have an exact solution). */
  exact?: boolean;
  /** Stops the work; the promise then resolves to the points that finished, with `partial: true`. */
  signal?: AbortSignal;
  /** Called as the work goes: trials done and trials in all (when simulated), or points solved and points. */
  onProgress?: (done: number, target: number) => void;
}

export interface SweepOptions extends GridCallOptions {
  /** The varied parameters: a list of values, or the text `--vary name=` takes ("0..4", "1..9:2", "a,b"). */
  vary: Readonly<Record<string, string | readonly ParamValue[]>>;
  /** Metrics whose best point to find, as `--best` takes it ("all.by.4", "all.by.4:min"). */
  best?: string;
}

export interface BalanceOptions extends GridCallOptions, BalanceQuestion {}

/** One variant: its label, and the parameters (and, optionally, the rule) it changes. */
export interface VariantSpec {
  label: string;
  set?: ParamSettings;
  /** Another rule for this variant: a built-in id or a rule file's path. */
  rule?: string;
}

export interface CompareOptions extends GridCallOptions {
  /** At least two: each a VariantSpec, or the text `--variant` takes ("A: target=7"). */
  variants: ReadonlyArray<VariantSpec | string>;
  /** Simulate even where every variant has an exact solution (as `--simulate`). */
  simulate?: boolean;
  /** Each variant on its own stream, `<seed>/variant <n>` (as `--seed-per-variant`). */
  seedPerVariant?: boolean;
}

/** Every combination of the varied parameters, each point computed as `run` computes it, on one seed. */
export async function sweep(rule: string | Rule, options: SweepOptions): Promise<SweepResult> {
  checkCallOptions(options, [...GRID_OPTIONS, 'vary', 'best'], 'sweep');
  const resolved = await ruleOf(rule);
  if (options === undefined || typeof options.vary !== 'object')
    throw new UsageError('vary: missing; allowed: { name: [values] } or { name: "a..b" }, one entry per parameter');
  const vary = Object.entries(options.vary).map(([name, values]) => `${name}=${varyText(name, values)}`);
  const plan = planSweep(resolved, {
    ...simulationText(options),
    set: assignments(options.set),
    vary,
    best: options.best,
    exact: options.exact,
  });
  return onPool(plan.settings, plan.grid.length, options, (hooks) => evaluateSweep(plan, hooks));
}

/**
 * The settings of the varied parameters that bring a metric nearest a target, over the grid `sweep` computes with
 * the same `vary` (exactly where the rule has exact values at every setting): `sweep`'s result with its `balance`
 * block, as `muster balance --json` writes it.
 */
export async function balance(rule: string | Rule, options: BalanceOptions): Promise<BalanceResult> {
  const resolved = await ruleOf(rule);
  if (options === null || typeof options !== 'object' || options.vary === null || typeof options.vary !== 'object')
    throw new UsageError('vary: missing; allowed: { name: [values] } or { name: "a..b" }, one entry per parameter');
  for (const name of ['metric', 'target', 'within', 'cliff'] as const)
    if (options[name] !== undefined && typeof options[name] !== 'string')
      throw new UsageError(`${name}: got ${typeof options[name]}; allowed: text, as --${name} takes it`);
  if (options.keep !== undefined && !(Array.isArray(options.keep) && options.keep.every((k) => typeof k === 'string')))
    throw new UsageError('keep: not a list of text; allowed: ["all.by.4>=80%", …]');
  const vary = Object.entries(options.vary).map(([name, values]) => `${name}=${varyText(name, values)}`);
  const given = simulationText(options);
  // A pool is where to simulate, should it come to that: not, as threads would be, a request to simulate.
  if (options.pool !== undefined) given.threads = undefined;
  const plan = planBalance(resolved, {
    ...Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)),
    set: assignments(options.set),
    vary,
    metric: options.metric,
    target: options.target,
    keep: options.keep ? [...options.keep] : undefined,
    within: options.within,
    cliff: options.cliff,
    exact: options.exact,
    simulate: options.simulate,
  });
  const sweep = await onPool(plan.sweep.settings, plan.sweep.grid.length, options, (hooks) =>
    evaluateSweep(plan.sweep, hooks),
  );
  return assembleBalance(plan, sweep);
}

/** Every metric of every variant, the differences from the first, tested with Holm's adjustment. */
export async function compare(rule: string | Rule, options: CompareOptions): Promise<CompareResult> {
  checkCallOptions(options, [...GRID_OPTIONS, 'variants', 'simulate', 'seedPerVariant'], 'compare');
  const resolved = await ruleOf(rule);
  if (options === undefined || !Array.isArray(options.variants))
    throw new UsageError('variants: missing; allowed: a list of at least two { label, set } or "label: name=value"');
  const texts = options.variants.map(variantText);
  const rules: Rule[] = [];
  for (const text of texts) {
    const ref = variantRuleRef(text);
    rules.push(ref === undefined ? resolved : await ruleOf(ref));
  }
  const plan = planCompare(
    { rule: resolved, rules },
    {
      ...simulationText(options),
      set: assignments(options.set),
      variant: texts,
      exact: options.exact,
      simulate: options.simulate,
      seedPerVariant: options.seedPerVariant || undefined,
    },
  );
  return onPool(plan.base, plan.paramsList.length, options, (hooks) => evaluateCompare(plan, hooks));
}

/** The options every simulating call takes (GridCallOptions). */
const GRID_OPTIONS = [
  'set',
  'trials',
  'seed',
  'stream',
  'confidence',
  'pool',
  'threads',
  'exact',
  'signal',
  'onProgress',
] as const;

/** A call's rule, or a variant's (by reference only: an id or a path). */
async function ruleOf(rule: unknown): Promise<Rule> {
  if (typeof rule !== 'string') return handedOutRule(rule);
  if (rule === '')
    throw new UsageError('rule: got an empty reference; allowed: a built-in rule id or the path of a rule file');
  return handOut(isRulePath(rule) ? await loadRule(rule) : getRule(rule));
}

/** The numbers as the CLI's flags would carry them, so that the CLI's parsers check them. */
function simulationText(options: GridCallOptions): SimulationOptions {
  const text = (name: string, value: unknown, kind: 'number' | 'string') => {
    if (value === undefined) return undefined;
    if (typeof value !== kind) throw new UsageError(`${name}: got ${typeof value}; allowed: a ${kind}`);
    return String(value);
  };
  if (options.pool !== undefined && options.threads !== undefined)
    throw new UsageError('threads: given with pool; allowed: one of the two');
  if (options.pool !== undefined && !(options.pool instanceof Pool))
    throw new UsageError('pool: not a Pool; allowed: new Pool(threads)');
  return {
    trials: text('trials', options.trials, 'number'),
    seed: text('seed', options.seed, 'string'),
    stream: text('stream', options.stream, 'number'),
    confidence: text('confidence', options.confidence, 'number'),
    threads: options.pool ? String(options.pool.threads) : text('threads', options.threads, 'number'),
  };
}

/** A variant as `--variant` takes it: "label: name=value; …; rule=ref". */
function variantText(variant: VariantSpec | string): string {
  if (typeof variant === 'string') return variant;
  if (variant === null || typeof variant !== 'object' || typeof variant.label !== 'string')
    throw new UsageError('variants: an entry is not { label, set } nor text; allowed: { label: "A", set: { … } }');
  if (variant.label.includes(':'))
    throw new UsageError(`variants: label ${JSON.stringify(variant.label)}; allowed: a label without a colon`);
  const parts = assignments(variant.set);
  if (variant.rule !== undefined) {
    if (typeof variant.rule !== 'string' || variant.rule === '' || /[\s;,]/.test(variant.rule))
      throw new UsageError(
        `variants: ${JSON.stringify(variant.label)}: rule ${JSON.stringify(String(variant.rule))}; ` +
          'allowed: a rule id or a path without spaces, commas or semicolons',
      );
    parts.push(`rule=${variant.rule}`);
  }
  for (const part of parts)
    if (part.includes(';'))
      throw new UsageError(
        `variants: ${JSON.stringify(variant.label)}: ${JSON.stringify(part)}; allowed: no semicolon`,
      );
  return `${variant.label}: ${parts.join('; ')}`;
}

/** Runs the work on the caller's pool, or on one of its own that is closed before the promise settles. */
async function onPool<T>(
  settings: GridSettings,
  points: number,
  options: GridCallOptions,
  work: (hooks: Omit<EvaluateOptions, 'seeds' | 'rules'>) => Promise<T>,
): Promise<T> {
  const simulating = settings.method === 'simulation';
  // Exact too: a grid whose points take seconds solves its tail on the threads (analysis/exact-grid.ts); one that
  // does not never starts them.
  const own = options.pool === undefined ? new Pool(settings.threads || defaultThreads()) : undefined;
  const pool = options.pool ?? own;
  const progress = options.onProgress;
  try {
    return await work({
      pool: pool?.simulationPool,
      signal: options.signal,
      onTrials: progress && simulating ? (done) => progress(done, points * settings.trials) : undefined,
      onPoint: progress && !simulating ? (done, total) => progress(done, total) : undefined,
    });
  } finally {
    await own?.close();
  }
}
