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
 *                       ├─► sweep(rule, { vary, … })            ─► SweepResult (library-grid.ts)
 *                       └─► compare(rule, { variants, … })      ─► CompareResult
 *
 * Simulation runs on a worker pool: pass one (`new Pool(threads)`, closed by
 * the caller with `close()`) to share it between calls, or leave it out and
 * each call starts and closes its own. docs/library.md is the guide.
 */
import { parseSeed } from './input/seed.js';
import { UsageError } from './errors.js';
import { defaultThreads, WorkerError } from './engine/pool.js';
import type { ParamSettings } from './library-grid.js';
import { Pool } from './library-pool.js';
import { simulateRun, solveRun } from './analysis/run.js';
import { STREAM_VERSIONS } from './engine/random.js';
import type { MetricResult, RunResult } from './result.js';
import { rules as builtInRules } from './rules/index.js';
import { loadRule as loadRuleRef } from './rules/load-rule.js';
import { resolveParams } from './rules/params.js';
import type { ParamValue, Rule, StreamVersion } from './rules/types.js';

export { UsageError, WorkerError };
export { Pool };
export {
  compare,
  sweep,
  type CompareOptions,
  type CompareResult,
  type ParamSettings,
  type SweepOptions,
  type SweepResult,
  type VariantSpec,
} from './library-grid.js';
export type { MetricResult, ParamValue, Rule, RunResult, StreamVersion };

/** The built-in rules: id, title and one line on what each answers. */
export function listRules(): Array<{ id: string; title: string; summary: string }> {
  return builtInRules.map(({ id, title, summary }) => ({ id, title, summary }));
}

/** A built-in rule by id, or a rule file by path (a reference with a slash or a script extension is a path). */
export async function loadRule(ref: string): Promise<Rule> {
  if (typeof ref !== 'string' || ref === '')
    throw new UsageError('rule: got an empty reference; allowed: a built-in rule id or the path of a rule file');
  return loadRuleRef(ref);
}

/**
 * A rule file's default export, typed: `export default defineRule({ … })`.
 * It returns its argument unchanged, so a file that uses it runs under
 * `muster run` as it would without it (docs/custom-rules.md is the contract).
 */
export function defineRule<const T extends RuleFileSpec>(spec: T): T {
  return spec;
}

/** The fields of a rule file (docs/custom-rules.md): the ones every rule has, the rest left open. */
export interface RuleFileSpec {
  id: string;
  title: string;
  params: ReadonlyArray<{
    name: string;
    type: 'integer' | 'number' | 'boolean' | 'choice';
    default: ParamValue;
    doc?: string;
    [field: string]: unknown;
  }>;
  metrics:
    | ReadonlyArray<{ name: string; probability: boolean; doc?: string; [field: string]: unknown }>
    | ((params: Record<string, ParamValue>) => unknown);
  [field: string]: unknown;
}

export interface ExactOptions {
  set?: ParamSettings;
}

export interface RunOptions extends ExactOptions {
  /** Trials (default 1,000,000). */
  trials?: number;
  /** The seed (default "muster"): the same seed gives the same numbers on any thread count. */
  seed?: string;
  /** The random stream, 1 to 4 (default 3; docs/streams.md). */
  stream?: StreamVersion;
  /** Interval confidence, between 0 and 1 (default 0.95). */
  confidence?: number;
  /** A pool to run on; without one the call starts its own, of `threads` threads (default: every core). */
  pool?: Pool;
  threads?: number;
  /** Stops the run; the promise then resolves to the result of the chunks that finished, with `partial: true`. */
  signal?: AbortSignal;
  /** Called as chunks finish: trials done and trials asked for. */
  onProgress?: (done: number, target: number) => void;
}

const DEFAULT_TRIALS = 1_000_000;
const MAX_TRIALS = 1e12;

/** The exact value of every metric, with no simulation (the rule's exact solution). */
export async function exact(rule: string | Rule, options: ExactOptions = {}): Promise<RunResult> {
  const resolved = typeof rule === 'string' ? await loadRule(rule) : rule;
  if (!resolved.exact)
    throw new UsageError(`exact: ${resolved.id} has no exact solution; allowed: run(…) to simulate it`);
  const params = paramsOf(resolved, options.set);
  return solveRun(resolved, params, 'muster');
}

/** Simulates a rule: every metric's estimate and interval, with its exact value beside it where the rule has one. */
export async function run(rule: string | Rule, options: RunOptions = {}): Promise<RunResult> {
  const resolved = typeof rule === 'string' ? await loadRule(rule) : rule;
  const params = paramsOf(resolved, options.set);
  const trials = options.trials ?? DEFAULT_TRIALS;
  if (!Number.isSafeInteger(trials) || trials < 1 || trials > MAX_TRIALS)
    throw new UsageError(`trials: got ${String(trials)}; allowed: a whole number from 1 to ${MAX_TRIALS}`);
  if (options.seed !== undefined && typeof options.seed !== 'string')
    throw new UsageError(`seed: got ${typeof options.seed}; allowed: text`);
  // The CLI's own check and bound (src/input/seed.ts), the option named as the library names it.
  const seed = parseSeed(options.seed ?? 'muster', 'seed');
  const stream = options.stream ?? 3;
  if (!(STREAM_VERSIONS as readonly number[]).includes(stream))
    throw new UsageError(`stream: got ${String(stream)}; allowed: ${STREAM_VERSIONS.join(', ')}`);
  const confidence = options.confidence ?? 0.95;
  if (!(typeof confidence === 'number' && confidence > 0 && confidence < 1))
    throw new UsageError(`confidence: got ${String(confidence)}; allowed: a number between 0 and 1, such as 0.95`);
  if (options.pool !== undefined && options.threads !== undefined)
    throw new UsageError('threads: given with pool; allowed: one of the two');
  const own = options.pool === undefined ? new Pool(options.threads ?? defaultThreads()) : undefined;
  const pool = (options.pool ?? own) as Pool;
  try {
    return await simulateRun(
      pool.simulationPool,
      resolved,
      params,
      { seed, stream, confidence, trials, threads: pool.threads },
      { signal: options.signal, onProgress: options.onProgress },
    );
  } finally {
    await own?.close();
  }
}

/** The rule's parameters: its defaults, with `set` applied as `--set name=value` would be. */
function paramsOf(rule: Rule, set: ParamSettings | undefined): Record<string, ParamValue> {
  if (set === undefined) return resolveParams(rule, []);
  if (set === null || typeof set !== 'object')
    throw new UsageError('set: not an object; allowed: parameter values by name, such as { squads: 4 }');
  const entries = set instanceof Map ? [...set.entries()] : Object.entries(set);
  const assignments = entries.map(([name, value]) => {
    if (typeof name !== 'string' || name.includes('='))
      throw new UsageError(
        `set: ${JSON.stringify(String(name))} is not a parameter name; ` +
          `allowed: ${rule.params.map((p) => p.name).join(', ')}`,
      );
    if (!['number', 'boolean', 'string'].includes(typeof value))
      throw new UsageError(`${name}: got ${typeof value}; allowed: a number, a boolean or text`);
    return `${name}=${String(value)}`;
  });
  return resolveParams(rule, assignments);
}
