import type { DistributionSpec, MetricSpec, ParamSpec } from '../contract/types.js';
import { Fraction } from '../exact/fraction.js';
import { describeValue, oneLine } from '../guard/rule-text.js';
import { keyedRecord, own } from '../keyed.js';
import { didYouMean } from '../text/suggest.js';
import { DISTRIBUTION_DEPTH, DISTRIBUTION_LIMIT, MAX_DISTRIBUTION_VALUES } from './tally.js';

const PARAM_TYPES = ['integer', 'number', 'boolean', 'choice'] as const;

/** The fields a parameter of each type takes (docs/custom-rules.md, "Parameters"); any other is refused. */
const PARAM_FIELDS: Readonly<Record<(typeof PARAM_TYPES)[number], readonly string[]>> = {
  integer: ['name', 'type', 'default', 'min', 'max', 'doc'],
  number: ['name', 'type', 'default', 'min', 'max', 'doc'],
  boolean: ['name', 'type', 'default', 'doc'],
  choice: ['name', 'type', 'default', 'choices', 'doc'],
};

/** The fields a metric takes ("Metrics"); any other is refused. */
const METRIC_FIELDS = ['name', 'probability', 'distribution', 'min', 'max', 'doc', 'label'] as const;

/**
 * Refuses a field `entry` does not take, so a misspelt `defualt` or `distrbution` is caught rather than left out
 * (a metric meant as a distribution would otherwise be reported as a mean). Only a short name is matched against
 * the allowed ones: the edit distance is quadratic in its length.
 */
function onlyFields(entry: Spec, allowed: readonly string[], named: string, fail: (what: string) => never): void {
  for (const key of Object.keys(entry)) {
    if (allowed.includes(key)) continue;
    const near = key.length <= 64 ? didYouMean(key, allowed) : '';
    fail(`${named}: unknown field ${describeValue(key)}${near}; allowed: ${allowed.join(', ')}`);
  }
}

type Spec = Record<string, unknown>;

export function checkParams(value: unknown, fail: (what: string) => never): ParamSpec[] {
  if (value === undefined) return [];
  if (!Array.isArray(value))
    fail(`params: got ${describeValue(value)}; allowed: an array of { name, type, default, … }`);
  const seen = new Set<string>();
  return (value as unknown[]).map((raw, index) => {
    const at = `params[${index}]`;
    if (raw === null || typeof raw !== 'object')
      fail(`${at}: got ${describeValue(raw)}; allowed: { name, type, default, doc, … }`);
    const p = raw as Spec;
    const name = p.name;
    // `__proto__` would change the prototype of the params object the trial reads instead of setting a key.
    if (
      typeof name !== 'string' ||
      !/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(name) ||
      name === 'rule' ||
      name === '__proto__'
    ) {
      fail(
        `${at}.name: got ${describeValue(name)}; allowed: letters, digits and '_', not starting with a digit ` +
          `(and not "rule", which compare uses, or "__proto__")`,
      );
    }
    const named = `parameter ${name as string}`;
    if (seen.has(name as string)) fail(`${named}: declared twice; allowed: each name once`);
    seen.add(name as string);
    if (!(PARAM_TYPES as readonly unknown[]).includes(p.type))
      fail(`${named}: type: got ${describeValue(p.type)}; allowed: ${PARAM_TYPES.join(', ')}`);
    if (p.doc !== undefined && typeof p.doc !== 'string')
      fail(`${named}: doc: got ${describeValue(p.doc)}; allowed: text`);
    const doc = typeof p.doc === 'string' ? oneLine(p.doc) : '';
    const type = p.type as (typeof PARAM_TYPES)[number];
    onlyFields(p, PARAM_FIELDS[type], named, fail);
    if (type === 'integer' || type === 'number') {
      const isKind = (x: unknown) =>
        type === 'integer' ? Number.isSafeInteger(x) : typeof x === 'number' && Number.isFinite(x);
      for (const bound of ['min', 'max'] as const)
        if (!isKind(p[bound]))
          fail(
            `${named}: ${bound}: got ${describeValue(p[bound])}; allowed: ` +
              `${type === 'integer' ? 'an integer' : 'a finite number'}`,
          );
      const [min, max] = [p.min as number, p.max as number];
      if (min > max) fail(`${named}: min ${min} is above max ${max}; allowed: min ≤ max`);
      if (!isKind(p.default) || (p.default as number) < min || (p.default as number) > max)
        fail(
          `${named}: default: got ${describeValue(p.default)}; allowed: ` +
            `${type === 'integer' ? 'an integer' : 'a number'} from ${min} to ${max}`,
        );
      return { name, type, default: p.default as number, min, max, doc } as ParamSpec;
    }
    if (type === 'boolean') {
      if (typeof p.default !== 'boolean')
        fail(`${named}: default: got ${describeValue(p.default)}; allowed: true or false`);
      return { name, type, default: p.default as boolean, doc } as ParamSpec;
    }
    const choices = p.choices;
    if (
      !Array.isArray(choices) ||
      choices.length === 0 ||
      choices.some((c) => typeof c !== 'string' || c.trim() !== c || c === '') ||
      new Set(choices).size !== choices.length
    ) {
      fail(
        `${named}: choices: got ${describeValue(choices)}; allowed: an array of distinct non-empty strings ` +
          `without surrounding spaces`,
      );
    }
    if (!(choices as string[]).includes(p.default as string))
      fail(`${named}: default: got ${describeValue(p.default)}; allowed: one of ${(choices as string[]).join(', ')}`);
    return { name, type, default: p.default as string, choices: [...(choices as string[])], doc } as ParamSpec;
  });
}

export function checkMetrics(value: unknown, fail: (what: string) => never): MetricSpec[] {
  if (!Array.isArray(value) || value.length === 0)
    fail(`metrics: got ${describeValue(value)}; allowed: a non-empty array of { name, probability, doc }`);
  const seen = new Set<string>();
  return (value as unknown[]).map((raw, index) => {
    if (raw === null || typeof raw !== 'object')
      fail(`metrics[${index}]: got ${describeValue(raw)}; allowed: { name, probability, doc }`);
    const m = raw as Spec;
    if (
      typeof m.name !== 'string' ||
      m.name === '' ||
      m.name.length > 100 ||
      m.name === '__proto__' ||
      /[\u0000-\u001f\u007f\u2028\u2029]/.test(m.name) ||
      /^(0|[1-9]\d*)$/.test(m.name)
    ) {
      fail(
        `metrics[${index}].name: got ${describeValue(m.name)}; allowed: text of 1 to 100 characters without ` +
          `control characters or line breaks, not a whole number (out[k] is the k-th metric) nor "__proto__"`,
      );
    }
    const name = m.name as string;
    if (seen.has(name)) fail(`metric ${JSON.stringify(name)}: declared twice; allowed: each name once`);
    seen.add(name);
    onlyFields(m, METRIC_FIELDS, `metric ${JSON.stringify(name)}`, fail);
    const distribution = checkDistribution(m, name, fail);
    if (!distribution && typeof m.probability !== 'boolean')
      fail(
        `metric ${JSON.stringify(name)}: probability: got ${describeValue(m.probability)}; allowed: true ` +
          `(counted 0/1 per trial) or false (a mean), or distribution: true (a whole number per trial)`,
      );
    for (const field of ['doc', 'label'] as const)
      if (m[field] !== undefined && typeof m[field] !== 'string')
        fail(`metric ${JSON.stringify(name)}: ${field}: got ${describeValue(m[field])}; allowed: text`);
    return {
      name,
      doc: typeof m.doc === 'string' ? oneLine(m.doc) : '',
      probability: distribution ? false : (m.probability as boolean),
      ...(distribution ? { distribution } : {}),
      ...(typeof m.label === 'string' ? { label: oneLine(m.label) } : {}),
    };
  });
}

/**
 * A metric's `distribution: true` with its optional `min` (default 0) and `max` (default: none, the histogram
 * listing DISTRIBUTION_DEPTH values and counting the rest as beyond), or null for a probability or a mean.
 */
function checkDistribution(m: Spec, name: string, fail: (what: string) => never): DistributionSpec | null {
  const metric = `metric ${JSON.stringify(name)}`;
  if (m.distribution === undefined || m.distribution === false) {
    for (const field of ['min', 'max'] as const)
      if (m[field] !== undefined)
        fail(`${metric}: ${field}: only a distribution has a range; allowed: add distribution: true, or leave it out`);
    return null;
  }
  if (m.distribution !== true)
    fail(`${metric}: distribution: got ${describeValue(m.distribution)}; allowed: true, false or absent`);
  if (m.probability !== undefined && m.probability !== false)
    fail(
      `${metric}: probability: got ${describeValue(m.probability)} beside distribution: true; allowed: absent ` +
        `(a distribution's probabilities are each value's)`,
    );
  const bound = (field: 'min' | 'max', absent: number | null): number | null => {
    const value = m[field];
    if (value === undefined) return absent;
    if (!Number.isInteger(value) || Math.abs(value as number) > DISTRIBUTION_LIMIT)
      fail(
        `${metric}: ${field}: got ${describeValue(value)}; allowed: a whole number from ${-DISTRIBUTION_LIMIT} to ` +
          `${DISTRIBUTION_LIMIT}${field === 'max' ? ', or absent for no end' : ''}`,
      );
    return value as number;
  };
  const min = bound('min', 0) as number;
  const max = bound('max', null);
  if (max !== null && max < min) fail(`${metric}: max ${max} is below min ${min}; allowed: min ≤ max`);
  if (max !== null && max - min + 1 > MAX_DISTRIBUTION_VALUES)
    fail(
      `${metric}: min ${min} to max ${max} is ${max - min + 1} values; allowed: at most ` +
        `${MAX_DISTRIBUTION_VALUES} (or leave max out: ${DISTRIBUTION_DEPTH} values listed, the rest counted as beyond)`,
    );
  return { min, max };
}

/**
 * Most digits the numerator or the denominator of a value a rule's exact()
 * returns may have. Reducing a fraction is quadratic in its digits: two of
 * 31,000 digits took seconds each, outside any call a watchdog could stop,
 * and every later sum and difference of them as long again. A probability
 * as small as 1/6^1000 has 779 digits.
 */
export const MAX_EXACT_DIGITS = 1000;
const BEYOND_DIGITS = 10n ** BigInt(MAX_EXACT_DIGITS);

/**
 * An exact value as written in a rule file: a number, a bigint, or a
 * fraction string 'n/d' whose parts have at most MAX_EXACT_DIGITS digits;
 * null for anything else, 'too long' for parts past that.
 */
export function parseExactValue(value: unknown): Fraction | null | 'too long' {
  // A number is the decimal it prints as (0.1 is 1/10), as parameters are read.
  if (typeof value === 'number') return Number.isFinite(value) ? Fraction.fromParameter(value) : null;
  if (typeof value === 'bigint')
    return (value < 0n ? -value : value) >= BEYOND_DIGITS ? 'too long' : Fraction.of(value);
  if (typeof value !== 'string') return null;
  // Looked at before the pattern runs on it: a string of millions of digits is refused by its length alone.
  if (value.length > 2 * MAX_EXACT_DIGITS + 100) return /^[\s\d/-]*$/.test(value) ? 'too long' : null;
  const match = /^\s*(-?)0*(\d+)\s*(?:\/\s*0*(\d+)\s*)?$/.exec(value);
  if (!match || match[3] === '0') return null;
  if (match[2].length > MAX_EXACT_DIGITS || (match[3] ?? '').length > MAX_EXACT_DIGITS) return 'too long';
  return Fraction.of(BigInt(`${match[1]}${match[2]}`), BigInt(match[3] ?? '1'));
}

export function checkExact(
  value: unknown,
  metrics: readonly MetricSpec[],
  fail: (what: string) => never,
): Record<string, Fraction> {
  if (value === null || typeof value !== 'object')
    fail(`exact(params): returned ${describeValue(value)}; allowed: an object of metric name → number or 'n/d'`);
  const given = value as Spec;
  const known = new Set(metrics.map((m) => m.name));
  for (const name of Object.keys(given))
    if (!known.has(name))
      fail(`exact(params): gives ${JSON.stringify(name)}, which is not a metric; allowed: ${[...known].join(', ')}`);
  const result = keyedRecord<Fraction>();
  for (const metric of metrics) {
    // Only the object's own entries: a missing `constructor` is missing, not Object.prototype's function.
    const raw = own(given, metric.name);
    if (raw === undefined)
      fail(
        `exact(params): no value for metric ${JSON.stringify(metric.name)}; allowed: a value for every metric ` +
          `(leave exact out if you cannot solve them all)`,
      );
    const fraction = parseExactValue(raw);
    if (fraction === 'too long')
      fail(
        `exact(params): metric ${JSON.stringify(metric.name)}: got a fraction with a part of more than ` +
          `${MAX_EXACT_DIGITS} digits; allowed: a numerator and a denominator of at most ${MAX_EXACT_DIGITS} digits each`,
      );
    if (!fraction)
      fail(
        `exact(params): metric ${JSON.stringify(metric.name)}: got ${describeValue(raw)}; allowed: a finite ` +
          `number, or a fraction string 'n/d'`,
      );
    if (
      metric.probability &&
      ((fraction as Fraction).compare(Fraction.ZERO) < 0 || (fraction as Fraction).compare(Fraction.ONE) > 0)
    ) {
      fail(
        `exact(params): metric ${JSON.stringify(metric.name)}: got ${describeValue(raw)}; allowed: a probability ` +
          `from 0 to 1`,
      );
    }
    result[metric.name] = fraction as Fraction;
  }
  return result;
}
