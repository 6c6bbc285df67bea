/**
 * The parts of the library that need no Node, shared by its two entries
 * (node.ts for Node, browser.ts for a browser bundle): the
 * built-in rules listed, `set` read as `--set` reads it, a run's options
 * checked, and defineRule. Both entries then check alike, in the same words.
 */

import type { Params, ParamValue, Rule, StreamVersion } from '../contract/types.js';
import { DEFAULT_STREAM, STREAM_VERSIONS } from '../engine/random.js';
import type { SimulationSettings } from '../engine/settings.js';
import { UsageError } from '../errors.js';
import { DEFAULT_TRIALS, MAX_CONFIDENCE, MAX_TRIALS } from '../input/limits.js';
import { isData, Schema } from '../input/schema.js';
import { parseSeed } from '../input/seed.js';
import { rules as builtInRules } from '../rules/index.js';
import { resolveParams } from '../rules/params.js';
import { didYouMean } from '../text/suggest.js';

/** Parameter values by name; numbers, booleans, or text as `--set` takes it ("0.15", "forward:3"). */
export type ParamSettings = Readonly<Record<string, ParamValue>> | ReadonlyMap<string, ParamValue>;

/** The built-in rules: id, title and one line on what each answers. */
export function listRules(): Array<{ id: string; title: string; summary: string }> {
  return builtInRules.map(({ id, title, summary }) => ({ id, title, summary }));
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

/** The options of a simulation wherever it runs. */
export interface SimulationCallOptions extends ExactOptions {
  /** Trials, 1 to 4e9 (default 1,000,000). */
  trials?: number;
  /** The seed (default "muster"): the same seed gives the same numbers on any thread count. */
  seed?: string;
  /** The random stream, 1 to 4 (default 3; docs/streams.md). */
  stream?: StreamVersion;
  /** Interval confidence, greater than 0 and at most 0.999999 (default 0.95). */
  confidence?: number;
  /** Stops the run; the promise then resolves to the result of the chunks that finished, with `partial: true`. */
  signal?: AbortSignal;
  /** Called as chunks finish: trials done and trials asked for. */
  onProgress?: (done: number, target: number) => void;
}

/** What each option of a call allows, as its UsageError says it. */
const OPTION_ALLOWS: Readonly<Record<string, string>> = {
  set: 'parameter values by name, such as { squads: 4 }',
  trials: `a whole number from 1 to ${MAX_TRIALS}`,
  seed: 'text',
  stream: `one of ${STREAM_VERSIONS.join(', ')}`,
  confidence: `a number greater than 0 and at most ${MAX_CONFIDENCE}, such as 0.95`,
  signal: 'an AbortSignal (new AbortController().signal)',
  onProgress: 'a function (done, target) => …',
  pool: 'a Pool (new Pool(threads))',
  threads: 'a whole number from 1 to 1024',
  exact: 'true or false',
  simulate: 'true or false',
  seedPerVariant: 'true or false',
  vary: '{ name: [values] } or { name: "a..b" }',
  best: 'a metric name, such as "all.by.4" or "all.by.4:min"',
  variants: 'a list of at least two { label, set } or "label: name=value"',
};

function usage(what: string): never {
  throw new UsageError(what);
}

/**
 * The library's refusals, through the one schema checker: a call's options name the kind of value they got
 * (`signal: got a number`), a run's settings the value (`trials: got 0`), a parameter value its type
 * (`squads: got object`), as each has always said it.
 */
const optionsSchema = new Schema(usage, kindOf);
const settingsSchema = new Schema(usage, String);
const valuesSchema = new Schema(usage, (value) => typeof value);

/**
 * A call's options object checked before anything runs: an object (or
 * nothing), holding only the options `allowed` (a misspelling is named with
 * the nearest allowed name: `{ trails: 100 }` was silently a run of the
 * default million), none of them null, `signal` an AbortSignal and
 * `onProgress` a function. Each mistake is a UsageError naming the option.
 */
export function checkCallOptions(options: unknown, allowed: readonly string[], call: string): void {
  if (options === undefined) return;
  const s: Schema = optionsSchema;
  if (!isData(options))
    s.refuse(
      `options: got ${options === null ? 'null' : Array.isArray(options) ? 'an array' : typeof options}; ` +
        `allowed: an object of options (${allowed.join(', ')}), or nothing`,
    );
  for (const name of Object.keys(options)) {
    if (!allowed.includes(name))
      s.refuse(
        `${/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name)}: not an option of ${call}()` +
          `${didYouMean(name, allowed)}; allowed: ${allowed.join(', ')}`,
      );
    if (options[name] === null) s.bad(name, null, `${OPTION_ALLOWS[name] ?? 'a value'}, or leave it out`);
  }
  const { signal, onProgress } = options;
  if (signal !== undefined && !(typeof AbortSignal === 'function' && signal instanceof AbortSignal))
    s.bad('signal', signal, OPTION_ALLOWS.signal);
  if (onProgress !== undefined && typeof onProgress !== 'function')
    s.bad('onProgress', onProgress, OPTION_ALLOWS.onProgress);
  for (const name of ['exact', 'simulate', 'seedPerVariant'])
    if (name in options && options[name] !== undefined) s.flag(name, options[name]);
}

/** A value as a message names its kind: "a number", "an object", "a function". */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  const type = typeof value;
  return `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
}

/**
 * The rules the library has handed out (the built-ins, and each rule a
 * load returned): a call takes a rule by reference only when it is one of
 * them, so a number, null, or an object dressed as a rule is a UsageError,
 * and what the library computes comes from rules it made (each frozen:
 * rules/deep-freeze.ts).
 */
const handedOut = new WeakSet<object>(builtInRules);

/** Notes `rule` as one the library handed out, and returns it. */
export function handOut(rule: Rule): Rule {
  handedOut.add(rule);
  return rule;
}

/** `rule` when the library handed it out; a UsageError naming the argument otherwise. */
export function handedOutRule(
  rule: unknown,
  allowed = 'a built-in rule id, the path of a rule file, or a rule loadRule() returned',
): Rule {
  if (rule !== null && typeof rule === 'object' && handedOut.has(rule)) return rule as Rule;
  throw new UsageError(
    `rule: got ${kindOf(rule)}${rule !== null && typeof rule === 'object' ? ' that is not a rule the library made' : ''}; ` +
      `allowed: ${allowed}`,
  );
}

/** The options each call of the library takes (its own and the simulation's). */
export const EXACT_OPTIONS = ['set'] as const;
export const IN_THREAD_RUN_OPTIONS = ['set', 'trials', 'seed', 'stream', 'confidence', 'signal', 'onProgress'] as const;

/** A run's options checked, as the settings a run takes; `threads` is only recorded in the result. */
export function simulationSettings(options: SimulationCallOptions, threads: number): SimulationSettings {
  const s: Schema = settingsSchema;
  const trials = s.integer('trials', options.trials ?? DEFAULT_TRIALS, 1, MAX_TRIALS, OPTION_ALLOWS.trials);
  if (options.seed !== undefined && typeof options.seed !== 'string') valuesSchema.bad('seed', options.seed, 'text');
  // The CLI's own check and bound (src/input/seed.ts), the option named as the library names it.
  const seed = parseSeed(options.seed ?? 'muster', 'seed');
  const stream = options.stream ?? DEFAULT_STREAM;
  if (!(STREAM_VERSIONS as readonly number[]).includes(stream)) s.bad('stream', stream, STREAM_VERSIONS.join(', '));
  const confidence = options.confidence ?? 0.95;
  if (!(typeof confidence === 'number' && confidence > 0 && confidence <= MAX_CONFIDENCE))
    s.bad('confidence', confidence, OPTION_ALLOWS.confidence);
  return { seed, stream, confidence, trials, threads };
}

/** The rule's parameters: its defaults, with `set` applied as `--set name=value` would be. */
export function paramsOf(rule: Rule, set: ParamSettings | undefined): Params {
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
      valuesSchema.bad(name, value, 'a number, a boolean or text');
    return `${name}=${String(value)}`;
  });
  return resolveParams(rule, assignments);
}

/** `set` as --set assignments. */
export function assignments(set: ParamSettings | undefined): string[] {
  if (set === undefined) return [];
  if (set === null || typeof set !== 'object')
    throw new UsageError('set: not an object; allowed: parameter values by name, such as { squads: 4 }');
  const entries = set instanceof Map ? [...set.entries()] : Object.entries(set);
  return entries.map(([name, value]) => {
    if (typeof name !== 'string' || name.includes('=') || name.trim() === '')
      throw new UsageError(`set: ${JSON.stringify(String(name))} is not a parameter name; allowed: a parameter's name`);
    return `${name}=${valueText(name, value)}`;
  });
}

function valueText(name: string, value: unknown): string {
  if (!['number', 'boolean', 'string'].includes(typeof value))
    valuesSchema.bad(name, value, 'a number, a boolean or text');
  return String(value);
}

/** A varied parameter's values as `--vary name=` takes them: a JSON array, so a value may hold commas. */
export function varyText(name: string, values: unknown): string {
  if (typeof values === 'string') return values;
  if (!Array.isArray(values) || values.length === 0)
    throw new UsageError(`vary: ${name}: not a list of values or a range; allowed: [v1, v2, …] or "a..b"`);
  return JSON.stringify(values.map((value) => valueText(name, value)));
}
