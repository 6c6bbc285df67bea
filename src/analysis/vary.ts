/**
 * What `--vary` asks for, and every combination of it: in a module of its
 * own, so that a sweep reads its options without loading the page, its
 * charts and its CSV (reports/sweep.ts), which only --html and --csv need.
 */

import type { MetricSpec, ParamSpec, Params, ParamValue, Rule } from '../contract/types.js';
import { badValue, UsageError } from '../errors.js';
import { JsonInputError, parseJsonInput } from '../input/parse-json.js';
import { keyedRecord } from '../keyed.js';
import { formatCount } from '../output/format.js';
import { allowedText, parseParam, parseParamOrLabel } from '../rules/params.js';
import { didYouMean, didYouMeanRange } from '../text/suggest.js';

/** Most combinations one sweep may ask for: beyond this a chart is unreadable and a run takes too long. */
const MAX_SWEEP_POINTS = 1000;
/** Most values one varied parameter may take. */
const MAX_VALUES = 200;

export interface Vary {
  name: string;
  values: ParamValue[];
}

const VARY_SYNTAX =
  'name=a..b[:step] (numbers), name=v1,v2,…, name=v1;v2;… (values that hold commas) or ' +
  'name=["v1","v2",…] (a JSON array: any values)';

/**
 * One `--vary`: `name=a..b`, `name=a..b:step`, `name=v1,v2,…`,
 * `name=v1;v2;…` for values that themselves hold commas (warband lists
 * `152:9,148:11`, scatter maps, deployment strategies `standard:1,2,3`), or
 * a JSON array `name=["v1","v2"]` for any values at all (one value holding
 * commas, values holding `;`). A comma list of a parameter whose one value
 * may hold commas is refused where it reads two ways. Every value is checked
 * against the parameter's own range.
 */
export function parseVary(rule: Rule, raw: string): Vary {
  const equals = raw.indexOf('=');
  const names = rule.params.map((p) => p.name).join(', ');
  if (equals <= 0) throw badValue('--vary', raw, `${VARY_SYNTAX}, with name one of ${names}`);
  const name = raw.slice(0, equals).trim();
  const spec = rule.params.find((p) => p.name === name);
  if (!spec)
    throw new UsageError(
      `--vary: ${JSON.stringify(name)} is not a parameter of ${rule.id}${didYouMean(
        name,
        rule.params.map((p) => p.name),
      )}; allowed: ${names}`,
    );
  const text = raw.slice(equals + 1).trim();
  const range = /^(-?[\d.]+(?:e-?\d+)?)\s*\.\.\s*(-?[\d.]+(?:e-?\d+)?)(?::\s*([\d.]+(?:e-?\d+)?))?$/.exec(text);
  const numeric = spec.type === 'integer' || spec.type === 'number';
  // A range in another syntax (0-4, 0:4, 0 to 4) gets muster's own, and every form allowed.
  if (!range && numeric && didYouMeanRange(text) !== '') {
    throw new UsageError(
      `--vary: got ${JSON.stringify(raw)}${didYouMeanRange(text, `${name}=`)}; ` +
        `allowed: ${name}=a..b (two dots), ${name}=a..b:step, or a list ${name}=v1,v2,…, each ${allowedText(spec)}`,
    );
  }
  const values = range
    ? rangeValues(spec, raw, range)
    : text.startsWith('[')
      ? arrayValues(rule, spec, text)
      : listValues(rule, spec, text);
  const seen = new Set<string>();
  for (const value of values) {
    if (seen.has(String(value)))
      throw new UsageError(`--vary: ${name} lists ${JSON.stringify(String(value))} twice; allowed: each value once`);
    seen.add(String(value));
  }
  return { name, values };
}

function rangeValues(spec: ParamSpec, raw: string, match: RegExpExecArray): ParamValue[] {
  if (spec.type !== 'integer' && spec.type !== 'number')
    throw new UsageError(
      `--vary: ${spec.name} is a ${spec.type} parameter and takes no a..b range; ` +
        `allowed: a list v1,v2,… of ${allowedText(spec)}`,
    );
  const from = Number(match[1]);
  const to = Number(match[2]);
  const step = match[3] === undefined ? 1 : Number(match[3]);
  if (!Number.isFinite(from) || !Number.isFinite(to) || !Number.isFinite(step) || step <= 0 || from > to) {
    throw badValue(
      '--vary',
      raw,
      `a..b[:step] with a ≤ b and a step above 0, such as ${spec.name}=${spec.min}..${spec.max}`,
    );
  }
  const count = Math.floor((to - from) / step + 1e-9) + 1;
  if (count > MAX_VALUES) throw badValue('--vary', raw, `at most ${MAX_VALUES} values per parameter`);
  // Multiply rather than accumulate, and trim binary noise (0.1 × 3 = 0.30000000000000004).
  return Array.from({ length: count }, (_, i) => parseParam(spec, String(Number((from + i * step).toPrecision(12)))));
}

/** `name=["v1","v2",…]`: a JSON array of texts, numbers or booleans, each read as `--set` reads a value. */
function arrayValues(rule: Rule, spec: ParamSpec, text: string): ParamValue[] {
  let parsed: unknown;
  try {
    parsed = parseJsonInput(text);
  } catch (error) {
    if (!(error instanceof JsonInputError)) throw error;
    throw new UsageError(
      `--vary: ${spec.name}=${JSON.stringify(text)} is not a JSON array (${error.message}); ` +
        `allowed: ${spec.name}=["v1","v2",…], each value in double quotes`,
    );
  }
  const items = Array.isArray(parsed) ? parsed : [];
  if (items.length === 0 || items.some((item) => !['string', 'number', 'boolean'].includes(typeof item)))
    throw new UsageError(
      `--vary: ${spec.name}=${JSON.stringify(text)}; allowed: a JSON array of one or more texts, numbers ` +
        `or booleans, such as ${spec.name}=["v1","v2"]`,
    );
  if (items.length > MAX_VALUES)
    throw badValue('--vary', `${spec.name}=${text}`, `at most ${MAX_VALUES} values per parameter`);
  return items.map((item) => parseParamOrLabel(rule, spec, String(item)));
}

function listValues(rule: Rule, spec: ParamSpec, text: string): ParamValue[] {
  const semicolons = text.includes(';');
  const pieces = (semicolons ? text.split(';') : text.split(',')).map((piece) => piece.trim());
  if (pieces.length === 0 || pieces.some((piece) => piece === ''))
    throw badValue('--vary', `${spec.name}=${text}`, VARY_SYNTAX);
  if (pieces.length > MAX_VALUES)
    throw badValue('--vary', `${spec.name}=${text}`, `at most ${MAX_VALUES} values per parameter`);
  // A comma list of a parameter whose one value may hold commas (a warband list, a scatter map): the whole text
  // read as one value says whether the commas could be the value's own.
  const oneValue = !semicolons && pieces.length > 1 && readsAsOneValue(rule, spec, text);
  const values = pieces.map((piece) => {
    try {
      return parseParamOrLabel(rule, spec, piece);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      if (oneValue)
        throw new UsageError(
          `--vary: ${spec.name}=${text} is one value that holds commas, but a list splits at commas and ` +
            `${JSON.stringify(piece)} is not a ${spec.name} value; allowed: ${spec.name}=${JSON.stringify([text])} for ` +
            `this one value, or ; between values that hold commas (${spec.name}=${text};…)`,
        );
      // A number's bad value names every form --vary takes, so a mistyped range (0..4:2:1, 0..) is shown the
      // right ones.
      if (spec.type !== 'integer' && spec.type !== 'number') throw error;
      throw new UsageError(
        `--vary: ${error.message}, as ${spec.name}=a..b (two dots), ` +
          `${spec.name}=a..b:step or a list ${spec.name}=v1,v2,…`,
      );
    }
  });
  if (oneValue)
    throw new UsageError(
      `--vary: ${spec.name}=${text} reads two ways: one value, or a list of ${pieces.length} split at the commas; ` +
        `allowed: ${spec.name}=${pieces.join(';')} for the list, ${spec.name}=${JSON.stringify([text])} for the one value`,
    );
  return values;
}

/** Whether `text`, commas and all, is one value the parameter accepts. */
function readsAsOneValue(rule: Rule, spec: ParamSpec, text: string): boolean {
  try {
    parseParamOrLabel(rule, spec, text);
    return true;
  } catch (error) {
    if (error instanceof UsageError) return false;
    throw error;
  }
}

/**
 * A varied parameter's values as `--vary` takes them back: a comma list, a `;` list where a value holds a comma,
 * or a JSON array where one holds a `;` too (inputs accept what outputs print).
 */
export function varyValuesText(values: readonly ParamValue[]): string {
  const texts = values.map(String);
  if (!texts.some((text) => text.includes(','))) return texts.join(', ');
  if (!texts.some((text) => text.includes(';'))) return texts.join('; ');
  return JSON.stringify(texts);
}

/** Every combination of the varied values, the first parameter changing slowest. */
export function combinations(varies: readonly Vary[]): Params[] {
  const total = varies.reduce((product, vary) => product * vary.values.length, 1);
  if (total > MAX_SWEEP_POINTS) {
    throw new UsageError(
      `--vary: ${varies.map((vary) => vary.values.length).join(' × ')} = ${formatCount(total)} combinations; ` +
        `allowed: at most ${MAX_SWEEP_POINTS} (fewer values or a coarser step)`,
    );
  }
  let combos: Params[] = [keyedRecord()];
  // Keyed records: a parameter a rule file names `constructor` is a key like any other.
  for (const vary of varies)
    combos = combos.flatMap((combo) =>
      vary.values.map((value) => keyedRecord([...Object.entries(combo), [vary.name, value]])),
    );
  return combos;
}

/**
 * Every metric any variant reports, in the order they first appear (variants may differ, e.g. in the rounds they play).
 */
export function unionMetrics(lists: Iterable<readonly MetricSpec[]>): MetricSpec[] {
  const seen = new Map<string, MetricSpec>();
  for (const list of lists) for (const metric of list) if (!seen.has(metric.name)) seen.set(metric.name, metric);
  return [...seen.values()];
}
