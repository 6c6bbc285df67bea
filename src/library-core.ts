/**
 * The parts of the library that need no Node, shared by its two entries
 * (library.ts for Node, library-browser.ts for a browser bundle): the
 * built-in rules listed, `set` read as `--set` reads it, a run's options
 * checked, and defineRule. Both entries then check alike, in the same words.
 */
import { UsageError } from './errors.js';
import { DEFAULT_STREAM, STREAM_VERSIONS } from './engine/random.js';
import { DEFAULT_TRIALS, MAX_CONFIDENCE, MAX_TRIALS } from './input/limits.js';
import type { SimulationSettings } from './input/settings.js';
import { parseSeed } from './input/seed.js';
import { rules as builtInRules } from './rules/index.js';
import { resolveParams } from './rules/params.js';
import type { ParamValue, Params, Rule, StreamVersion } from './rules/types.js';

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

/** A run's options checked, as the settings a run takes; `threads` is only recorded in the result. */
export function simulationSettings(options: SimulationCallOptions, threads: number): SimulationSettings {
  const trials = options.trials ?? DEFAULT_TRIALS;
  if (!Number.isSafeInteger(trials) || trials < 1 || trials > MAX_TRIALS)
    throw new UsageError(`trials: got ${String(trials)}; allowed: a whole number from 1 to ${MAX_TRIALS}`);
  if (options.seed !== undefined && typeof options.seed !== 'string')
    throw new UsageError(`seed: got ${typeof options.seed}; allowed: text`);
  // The CLI's own check and bound (src/input/seed.ts), the option named as the library names it.
  const seed = parseSeed(options.seed ?? 'muster', 'seed');
  const stream = options.stream ?? DEFAULT_STREAM;
  if (!(STREAM_VERSIONS as readonly number[]).includes(stream))
    throw new UsageError(`stream: got ${String(stream)}; allowed: ${STREAM_VERSIONS.join(', ')}`);
  const confidence = options.confidence ?? 0.95;
  if (!(typeof confidence === 'number' && confidence > 0 && confidence <= MAX_CONFIDENCE))
    throw new UsageError(
      `confidence: got ${String(confidence)}; ` +
        `allowed: a number greater than 0 and at most ${MAX_CONFIDENCE}, such as 0.95`,
    );
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
      throw new UsageError(`${name}: got ${typeof value}; allowed: a number, a boolean or text`);
    return `${name}=${String(value)}`;
  });
  return resolveParams(rule, assignments);
}
