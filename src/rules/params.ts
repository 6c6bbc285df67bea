import type { ParamSpec, Params, ParamValue, Rule } from '../contract/types.js';
import { holdsAsTyped, parseDecimal } from '../decimal.js';
import { badValue, UsageError } from '../errors.js';
import { keyedRecord } from '../keyed.js';
import { didYouMean } from '../text/suggest.js';

/** What a parameter accepts, in words, for `describe` and for error messages. */
export function allowedText(spec: ParamSpec): string {
  switch (spec.type) {
    case 'integer':
      return `an integer from ${spec.min} to ${spec.max}`;
    case 'number':
      return `a number from ${spec.min} to ${spec.max}`;
    case 'boolean':
      return 'true or false';
    case 'choice':
      return `one of ${spec.choices.join(', ')}`;
    case 'text':
      return spec.allowed;
  }
}

/** Parses one raw string against its spec, or throws a UsageError naming the parameter. */
export function parseParam(spec: ParamSpec, raw: string): ParamValue {
  const text = raw.trim();
  switch (spec.type) {
    case 'integer':
    case 'number': {
      const value = parseDecimal(text);
      const wrongKind = spec.type === 'integer' ? !Number.isInteger(value) : !Number.isFinite(value);
      if (wrongKind || value < spec.min || value > spec.max) throw badValue(spec.name, raw, allowedText(spec));
      // The solvers read a parameter as the decimal its double prints (docs/readings.md): a decimal with more
      // digits than a double keeps would be solved as another number, so it is refused, not rounded unseen.
      if (!holdsAsTyped(text, value))
        throw badValue(
          spec.name,
          raw,
          `${allowedText(spec)} that a double holds as typed (up to 15 significant digits; this one would be read ` +
            `as ${value})`,
        );
      return value;
    }
    case 'boolean':
      if (text === 'true') return true;
      if (text === 'false') return false;
      throw badValue(spec.name, raw, allowedText(spec));
    case 'choice':
      if (!spec.choices.includes(text)) throw badValue(spec.name, raw, allowedText(spec));
      return text;
    case 'text':
      return spec.parse(text);
  }
}

/**
 * Like parseParam, but also accepts the short label the rule's matrix
 * prints for a value of its row or column parameter (deployment's `S123`
 * for standard:1,2,3, `F1` for forward:1): inputs accept what outputs print.
 */
export function parseParamOrLabel(rule: Rule, spec: ParamSpec, raw: string): ParamValue {
  try {
    return parseParam(spec, raw);
  } catch (error) {
    const matrix = rule.presentation?.matrix;
    if (!(error instanceof UsageError) || !matrix?.label || (spec.name !== matrix.row && spec.name !== matrix.col))
      throw error;
    const defaults: Params = keyedRecord(rule.params.map((p) => [p.name, p.default]));
    const values = matrix.defaultValues(defaults);
    const text = raw.trim().toUpperCase();
    const found = values.find((value) => matrix.label!(value).toUpperCase() === text);
    if (found !== undefined) return found;
    const examples = values.slice(0, 2).map((value) => matrix.label!(value));
    throw new UsageError(
      `${error.message}, or a short label as the matrix prints it (${examples.join(', ')}, …)${didYouMean(
        raw.trim(),
        values.map((value) => matrix.label!(value)),
      )}`,
    );
  }
}

/**
 * Every parameter of the rule after defaults, from `name=value` assignments.
 * Unknown names, repeated names and bad values are UsageErrors; then the
 * rule fills any defaults that depend on other parameters and runs its own
 * cross-parameter checks.
 */
export function resolveParams(rule: Rule, assignments: readonly string[] = [], overrides: Params = {}): Params {
  // Keyed by the rule's parameter names: a rule file may name one `constructor` or `toString`.
  const params: Params = keyedRecord(rule.params.map((spec) => [spec.name, spec.default]));
  const seen = new Set<string>();
  for (const assignment of assignments) {
    const equals = assignment.indexOf('=');
    if (equals <= 0)
      throw new UsageError(
        `--set: got ${JSON.stringify(assignment)}; allowed: name=value, with name one of ` +
          `${rule.params.map((p) => p.name).join(', ')}`,
      );
    const name = assignment.slice(0, equals).trim();
    const spec = findParam(rule, name);
    if (seen.has(name)) throw new UsageError(`${name}: set twice; allowed: one value per parameter`);
    seen.add(name);
    params[name] = parseParamOrLabel(rule, spec, assignment.slice(equals + 1));
  }
  Object.assign(params, overrides);
  const resolved = rule.resolve ? rule.resolve(params) : params;
  rule.validate?.(resolved);
  return resolved;
}

export function findParam(rule: Rule, name: string): ParamSpec {
  const spec = rule.params.find((p) => p.name === name);
  const names = rule.params.map((p) => p.name);
  if (!spec)
    throw new UsageError(
      `${name}: not a parameter of ${rule.id}${didYouMean(name, names)}; allowed: ${names.join(', ')}`,
    );
  return spec;
}
