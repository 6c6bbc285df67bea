/**
 * What the calculator's form and hash hold, turned into parameters the way
 * the CLI turns `--set` into them: each field through the rule's own parser
 * (src/rules/params.ts), then the rule's resolve and cross-parameter checks.
 * Every field takes what `--set` takes, the matrix's short labels too
 * (`a=F1`, `b=S123`). Every message is the CLI's own wording, shown next to the field it names.
 * No DOM here, so the logic is tested in Node.
 */

import type { ParamSpec, Params, Rule, StreamVersion } from '../contract/types.js';
import { DEFAULT_STREAM, STREAM_VERSIONS, STREAMS_ALLOWED } from '../engine/random.js';
import { UsageError } from '../errors.js';
import { parseSeed } from '../input/seed.js';
import { keyedRecord, own } from '../keyed.js';
import { findParam, parseParamOrLabel } from '../rules/params.js';
import { type HashState, PAGE_OPTIONS } from './hash.js';

/**
 * As `muster run`: a million trials, seed "muster", the default stream (a test checks these match the CLI's defaults).
 */
export const APP_DEFAULT_TRIALS = 1_000_000;
export const APP_DEFAULT_SEED = 'muster';
export const APP_DEFAULT_STREAM = String(DEFAULT_STREAM);
/** A browser tab simulating more than this would keep a phone busy for minutes. */
export const APP_MAX_TRIALS = 100_000_000;

/** The raw text of every field, as typed (checkboxes as 'true' / 'false'). */
export type RawValues = Record<string, string>;

export interface SimulationChoice {
  /** Simulate even where the rule has an exact solution (always, where it has none). */
  simulate: boolean;
  trials: string;
  seed: string;
  /** The random stream as typed: '3' (the default), '2' or '1', as `muster run --stream`. */
  stream: string;
}

export interface FormOutcome {
  /** Every parameter after defaults and the rule's resolve, or null while any field is wrong. */
  params: Params | null;
  /** Parameter name → the message to show beside its field. */
  fieldErrors: Map<string, string>;
  /** Messages that name no field of the form (such as an unknown parameter in the hash). */
  formErrors: string[];
}

/** The text a field starts with: the default as `--set` would write it. */
export function defaultText(spec: ParamSpec): string {
  return String(spec.default);
}

/** Parses every field, then resolves and validates across parameters, collecting every message. */
export function evaluateForm(rule: Rule, raw: Readonly<RawValues>): FormOutcome {
  const fieldErrors = new Map<string, string>();
  const formErrors: string[] = [];
  // Keyed records throughout, and only own entries read: a parameter may be named `constructor`.
  const params: Params = keyedRecord();
  for (const spec of rule.params) {
    const text = own(raw, spec.name) ?? defaultText(spec);
    try {
      params[spec.name] = parseParamOrLabel(rule, spec, text);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      fieldErrors.set(spec.name, error.message);
    }
  }
  if (fieldErrors.size > 0) return { params: null, fieldErrors, formErrors };
  try {
    const resolved = rule.resolve ? rule.resolve(params) : params;
    rule.validate?.(resolved);
    return { params: resolved, fieldErrors, formErrors };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    // A cross-parameter check names the parameter first ("chosenRound: got 5; …"): show it there.
    const named = rule.params.find((spec) => error.message.startsWith(`${spec.name}:`));
    if (named) fieldErrors.set(named.name, error.message);
    else formErrors.push(error.message);
    return { params: null, fieldErrors, formErrors };
  }
}

/** A trial count as `muster run --trials` reads it (1000000, 1e6, 1M, 250k), up to APP_MAX_TRIALS. */
export function parseTrials(raw: string): number {
  const text = raw.trim();
  const match = /^(\d+(?:\.\d+)?(?:e\d+)?)([kKmM]?)$/.exec(text);
  const value = match ? Number(match[1]) * ({ k: 1e3, K: 1e3, m: 1e6, M: 1e6 }[match[2]] ?? 1) : Number.NaN;
  if (!Number.isInteger(value) || value < 1 || value > APP_MAX_TRIALS) {
    throw new UsageError(
      `trials: got ${JSON.stringify(raw)}; allowed: a whole number of trials from 1 to 100M, such as 1000000, 1e6 ` +
        `or 1M`,
    );
  }
  return value;
}

/** A seed as `muster run --seed` takes it (the same check): any text of 1 to 200 characters. */
export function parseSeedText(raw: string): string {
  return parseSeed(raw, 'seed');
}

/** A stream as `muster run --stream` takes it: 1, 2 or 3. */
export function parseStreamText(raw: string): StreamVersion {
  const version = STREAM_VERSIONS.find((stream) => String(stream) === raw.trim());
  if (version === undefined) throw new UsageError(`stream: got ${JSON.stringify(raw)}; allowed: ${STREAMS_ALLOWED}`);
  return version;
}

export interface HashReading {
  rule: Rule;
  raw: RawValues;
  simulation: SimulationChoice;
  /** What the hash got wrong that no field shows (an unknown rule or parameter, a name given twice). */
  problems: string[];
}

/**
 * The form's contents from a hash. Values are kept as written, even wrong
 * ones, so the field shows them with the rule's message beside them.
 */
export function readHash(rules: readonly Rule[], state: HashState): HashReading {
  const problems: string[] = state.refused ? [state.refused] : [];
  let rule = rules[0];
  if (state.ruleId !== null) {
    const found = rules.find((candidate) => candidate.id === state.ruleId);
    if (found) rule = found;
    else
      problems.push(
        `rule: got ${JSON.stringify(state.ruleId)}; allowed: ${rules.map((candidate) => candidate.id).join(', ')}`,
      );
  }
  const raw: RawValues = keyedRecord();
  const simulation: SimulationChoice = {
    simulate: false,
    trials: String(APP_DEFAULT_TRIALS),
    seed: APP_DEFAULT_SEED,
    stream: APP_DEFAULT_STREAM,
  };
  const seen = new Set<string>();
  for (const [name, value] of state.entries) {
    if (seen.has(name)) {
      problems.push(`${name}: set twice; allowed: one value per parameter`);
      continue;
    }
    seen.add(name);
    if (rule.params.some((spec) => spec.name === name)) {
      raw[name] = value;
    } else if ((PAGE_OPTIONS as readonly string[]).includes(name)) {
      if (name === 'simulate') simulation.simulate = value === '' || value === '1' || value === 'true';
      else if (name === 'trials') simulation.trials = value;
      else if (name === 'stream') simulation.stream = value;
      else simulation.seed = value;
    } else {
      try {
        findParam(rule, name);
      } catch (error) {
        problems.push(error instanceof Error ? error.message : String(error));
      }
    }
  }
  return { rule, raw, simulation, problems };
}

/**
 * The hash entries for a form: every parameter (so a link keeps its meaning if a default changes), then the simulation
 * options in use.
 */
export function hashEntries(
  rule: Rule,
  raw: Readonly<RawValues>,
  simulation: SimulationChoice,
  simulating: boolean,
): Array<[string, string]> {
  const entries: Array<[string, string]> = rule.params.map((spec) => [
    spec.name,
    own(raw, spec.name) ?? defaultText(spec),
  ]);
  const taken = new Set(rule.params.map((spec) => spec.name));
  const option = (name: (typeof PAGE_OPTIONS)[number], value: string) => {
    if (!taken.has(name)) entries.push([name, value]);
  };
  if (simulation.simulate && rule.exact) option('simulate', '1');
  if (simulating) {
    if (simulation.trials !== String(APP_DEFAULT_TRIALS)) option('trials', simulation.trials);
    if (simulation.seed !== APP_DEFAULT_SEED) option('seed', simulation.seed);
    if (simulation.stream !== APP_DEFAULT_STREAM) option('stream', simulation.stream);
  }
  return entries;
}

/** One entry of a field's list: the value `--set` takes, and what the list shows for it. */
export interface FieldChoice {
  value: string;
  text: string;
}

/**
 * The values a field is chosen from, or null for a field typed freely: a
 * choice parameter's choices, and a text parameter the rule's matrix
 * enumerates (deployment's strategies), each shown with its short label
 * (`S123 — standard:1,2,3`), so a phone picks from a list instead of typing.
 */
export function fieldChoices(rule: Rule, spec: ParamSpec): FieldChoice[] | null {
  if (spec.type === 'choice') return spec.choices.map((choice) => ({ value: choice, text: choice }));
  const matrix = rule.presentation?.matrix;
  if (spec.type !== 'text' || !matrix || (spec.name !== matrix.row && spec.name !== matrix.col)) return null;
  const defaults: Params = Object.fromEntries(rule.params.map((p) => [p.name, p.default]));
  const values = matrix.defaultValues(defaults).map(String);
  if (!values.includes(spec.default)) values.unshift(spec.default);
  return values.map((value) => {
    const label = matrix.label ? matrix.label(value) : value;
    return { value, text: label === value ? value : `${label} — ${value}` };
  });
}

/**
 * A field's text in the form `--set` prints it (`F1` → `forward:1`), or null when the rule refuses it (the field then
 * keeps it as written).
 */
export function canonicalText(rule: Rule, spec: ParamSpec, raw: string): string | null {
  try {
    return String(parseParamOrLabel(rule, spec, raw));
  } catch (error) {
    if (error instanceof UsageError) return null;
    throw error;
  }
}

/** The longest message shown beside a field: a value pasted by the megabyte is quoted in part. */
export const MAX_MESSAGE_LENGTH = 400;

/** A message cut to MAX_MESSAGE_LENGTH characters (with "…"), so one wrong value cannot flood the page. */
export function clipMessage(message: string): string {
  return message.length <= MAX_MESSAGE_LENGTH ? message : `${message.slice(0, MAX_MESSAGE_LENGTH - 1)}…`;
}

/** The most hash problems listed one per line; the rest are counted in one more line. */
export const MAX_LISTED_PROBLEMS = 5;

/** The lines a list of problems shows: the first few, each clipped, then how many more. */
export function problemLines(problems: readonly string[]): string[] {
  const shown = problems.slice(0, MAX_LISTED_PROBLEMS).map(clipMessage);
  const more = problems.length - shown.length;
  return more > 0
    ? [...shown, `and ${more.toLocaleString('en-US')} more problem${more === 1 ? '' : 's'} in the link`]
    : shown;
}
