/**
 * The check phase of a rule file (file-rule.ts): its default export read
 * field by field, every mistake a UsageError of one line naming the file,
 * the rule and what is wrong. What comes out is a CheckedRuleFile: the
 * fields as types, and the file's functions of params wrapped so that what
 * they return is checked where it is used (a metrics list that depends on
 * the params can only be checked at those params).
 */
import { UsageError } from '../errors.js';
import { Fraction } from '../exact/fraction.js';
import { ruleCall } from '../guard/rule-calls.js';
import { describeError, describeValue, isA, oneLine } from '../guard/rule-text.js';
import { keyedRecord, own } from '../keyed.js';
import { checkMatrix } from './file-rule-matrix.js';
import { guarded, plainData, readMembers } from './file-rule-read.js';
import { DECISION_FIELDS, STEP_FIELDS, type StepForm, stepFormOf } from './file-rule-steps.js';
import { DISTRIBUTION_DEPTH, DISTRIBUTION_LIMIT, MAX_DISTRIBUTION_VALUES } from './file-rule-tally.js';
import type { Presentation } from './presentation.js';
import { checkPresentation } from './presentation-check.js';
import type { DistributionSpec, MatrixSpec, MetricSpec, ParamSpec, Params, Reading } from './types.js';

/** The fields a rule file's default export may have: one list, so that a new field is one entry here. */
const FIELDS = [
  'id',
  'title',
  'summary',
  'source',
  'params',
  'metrics',
  'headline',
  'readings',
  'validate',
  'setup',
  'trial',
  ...STEP_FIELDS,
  ...DECISION_FIELDS,
  'objective',
  'label',
  'outcomes',
  'read',
  'exact',
  'matrix',
  'presentation',
] as const;
const PARAM_TYPES = ['integer', 'number', 'boolean', 'choice'] as const;

type Spec = Record<string, unknown>;

/** A rule file, checked: what the tally, loop and adapt phases are built from. */
export interface CheckedRuleFile {
  id: string;
  title: string;
  summary: string;
  source: string;
  /** How messages name the rule: "<file> (rule <id>)". */
  where: string;
  params: ParamSpec[];
  /** The trial form's trial, or null for the step form. */
  trial: Function | null;
  /** The step form's four functions, or null for the trial form. */
  form: StepForm | null;
  setup: Function | undefined;
  /** Counting outcomes: both, or neither. */
  outcomes: Function | undefined;
  read: Function | undefined;
  /** The metrics at a parameter set, checked. */
  metrics(params: Params): MetricSpec[];
  /** Throws a UsageError (naming the rule) when the file's validate says the params are wrong. */
  validate?: (params: Params) => void;
  /** The headline metrics at a parameter set, checked against `metrics`, its metrics there. */
  headline?: (params: Params, metrics: readonly MetricSpec[]) => string[];
  readings?: (params: Params) => Reading[];
  /** The file's own exact values, checked against `metrics`. */
  exact?: (params: Params, metrics: readonly MetricSpec[]) => Record<string, Fraction>;
  matrix?: MatrixSpec;
  /** A rule with choices: the metric side a plays for, as the file names it (checked against the metrics later). */
  objective?: string;
  /** label(state, params): a decision state in words, for the policy table. */
  label?: Function;
  /** The file's declared presentation, checked (presentation-check.ts). */
  presentation?: Presentation;
  /** Throws the UsageError `<where>: <what>`. */
  fail(what: string): never;
  /**
   * Calls the file's code as `field`, marked (rule-calls.ts) so that a watcher can name the one that hangs; what
   * it throws becomes one line naming the call.
   */
  call<T>(field: string, fn: () => T): T;
}

/**
 * Checks a rule file's default export. `origin` is how messages name the
 * file (the path as the user gave it).
 */
export function checkRuleFile(moduleDefault: unknown, origin: string): CheckedRuleFile {
  const failFile = (what: string): never => {
    throw new UsageError(`${origin}: ${what}`);
  };
  if (
    moduleDefault === null ||
    typeof moduleDefault !== 'object' ||
    guarded('default export', () => Array.isArray(moduleDefault), failFile)
  ) {
    throw new UsageError(
      `${origin}: default export: got ${describeValue(moduleDefault)}; allowed: export default { id, title, ` +
        `params, metrics, trial }`,
    );
  }
  // Every member read once, guarded, and its data copied: nothing below runs a getter or a Proxy's trap.
  const spec = readMembers(moduleDefault, failFile) as Spec;
  const id = spec.id;
  if (typeof id !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9-]{0,63}$/.test(id)) {
    throw new UsageError(
      `${origin}: id: got ${describeValue(id)}; allowed: letters, digits and '-' (at most 64, not starting with '-')`,
    );
  }
  const where = `${origin} (rule ${id})`;
  const fail = (what: string): never => {
    throw new UsageError(`${where}: ${what}`);
  };
  for (const key of Object.keys(spec)) {
    if (!(FIELDS as readonly string[]).includes(key))
      fail(`unknown field ${JSON.stringify(key)}; allowed: ${FIELDS.join(', ')}`);
  }
  const text = (field: string, required: boolean): string | undefined => {
    const value = spec[field];
    if (value === undefined && !required) return undefined;
    if (typeof value !== 'string' || value.trim() === '' || value.length > 500)
      fail(
        `${field}: got ${describeValue(value)}; allowed: ${required ? '' : 'absent, or '}text of 1 to 500 characters`,
      );
    return oneLine(value as string);
  };
  const title = text('title', true) as string;
  const summary = text('summary', false) ?? title;
  const source = text('source', false) ?? `rule file ${origin}`;
  const form = stepFormOf(spec, fail, describeValue);
  if (!form && typeof spec.trial !== 'function')
    fail(
      `trial: got ${describeValue(spec.trial)}; allowed: a function trial(dice, params, out), or the step form: ` +
        `start, step, done and report`,
    );
  for (const field of ['exact', 'validate', 'setup', 'readings'] as const) {
    if (spec[field] !== undefined && typeof spec[field] !== 'function')
      fail(`${field}: got ${describeValue(spec[field])}; allowed: absent, or a function of params`);
  }
  // Counting outcomes takes both: outcomes(params) says how many, read(outcome, …) what each reports.
  if (spec.outcomes !== undefined || spec.read !== undefined) {
    if (typeof spec.outcomes !== 'function')
      fail(
        `outcomes: got ${describeValue(spec.outcomes)}; allowed: with read, a function outcomes(params, ` +
          `prepared) returning how many outcomes a trial can end in`,
      );
    if (typeof spec.read !== 'function')
      fail(
        `read: got ${describeValue(spec.read)}; allowed: with outcomes, a function read(outcome, params, out, ` +
          `prepared) writing that outcome's metrics`,
      );
  }
  const params = checkParams(spec.params, fail);
  if (form?.choices === undefined) {
    for (const field of ['objective', 'label'] as const)
      if (spec[field] !== undefined)
        fail(`${field}: only a rule with decisions has one; allowed: absent, or choices and choose beside it`);
  } else {
    if (spec.objective !== undefined && (typeof spec.objective !== 'string' || spec.objective === ''))
      fail(`objective: got ${describeValue(spec.objective)}; allowed: absent, or the name of a metric`);
    if (spec.label !== undefined && typeof spec.label !== 'function')
      fail(`label: got ${describeValue(spec.label)}; allowed: absent, or a function label(state, params) → text`);
    if (params.some((p) => p.name === 'objective'))
      fail(
        'parameter objective: a rule with decisions has the parameter objective (the metric side a plays for); ' +
          'allowed: another name',
      );
  }
  // Every call of the file's code is marked (rule-calls.ts), so a watcher can name the one that hangs.
  const call = <T>(field: string, fn: () => T): T => {
    try {
      return ruleCall(where, field, fn);
    } catch (error) {
      if (isA(error, UsageError)) throw error;
      return fail(`${field} threw ${describeError(error)}`);
    }
  };
  /** A call whose result is data: copied as it returns, still inside the marked call (file-rule-read.ts). */
  const callForData = (field: string, fn: () => unknown): unknown =>
    call(field, () => plainData(fn(), `${field} returned`, fail));

  const metricsSource = spec.metrics;
  if (typeof metricsSource !== 'function' && !Array.isArray(metricsSource))
    fail(
      `metrics: got ${describeValue(metricsSource)}; allowed: an array of { name, probability, doc }, or a ` +
        `function of params returning one`,
    );
  const metrics = (p: Params): MetricSpec[] => {
    const list =
      typeof metricsSource === 'function'
        ? callForData('metrics(params)', () => metricsSource(Object.freeze({ ...p })))
        : metricsSource;
    return checkMetrics(list, fail);
  };
  // A list that does not depend on the params is checked now, so that every command (app too) refuses a bad name.
  if (Array.isArray(metricsSource)) checkMetrics(metricsSource, fail);
  const checked: CheckedRuleFile = {
    id,
    title,
    summary,
    source,
    where,
    params,
    trial: form ? null : (spec.trial as Function),
    form,
    setup: spec.setup as Function | undefined,
    outcomes: spec.outcomes as Function | undefined,
    read: spec.read as Function | undefined,
    metrics,
    fail,
    call,
  };
  if (typeof spec.objective === 'string') checked.objective = spec.objective;
  if (typeof spec.label === 'function') checked.label = spec.label;
  if (typeof spec.validate === 'function') {
    const validate = spec.validate as Function;
    checked.validate = (p) => {
      const problem = callForData('validate(params)', () => validate(Object.freeze({ ...p })));
      if (problem === undefined || problem === null || problem === true) return;
      if (typeof problem !== 'string')
        fail(
          `validate(params): returned ${describeValue(problem)}; allowed: nothing when the params are fine, or a ` +
            `string saying what is wrong`,
        );
      throw new UsageError(`${id}: ${oneLine(problem as string)}`);
    };
  }
  if (typeof spec.exact === 'function') {
    const exact = spec.exact as Function;
    // Read and reduced inside the marked call: a watchdog stops the arithmetic on what it returned too.
    checked.exact = (p, known) =>
      call('exact(params)', () =>
        checkExact(plainData(exact(Object.freeze({ ...p })), 'exact(params) returned', fail), known, fail),
      );
  }
  if (spec.headline !== undefined) {
    const headline = spec.headline;
    if (typeof headline !== 'function' && !Array.isArray(headline))
      fail(
        `headline: got ${describeValue(headline)}; allowed: an array of metric names, or a function of params ` +
          `returning one`,
      );
    checked.headline = (p, list) => {
      const names =
        typeof headline === 'function'
          ? callForData('headline(params)', () => headline(Object.freeze({ ...p })))
          : headline;
      const known = new Set(list.map((m) => m.name));
      if (!Array.isArray(names) || names.some((name) => typeof name !== 'string' || !known.has(name)))
        fail(`headline: got ${describeValue(names)}; allowed: names of metrics, from ${[...known].join(', ')}`);
      return [...(names as string[])];
    };
  }
  if (typeof spec.readings === 'function') {
    const readings = spec.readings as Function;
    const names = new Set(params.map((p) => p.name));
    checked.readings = (p) => {
      const list = callForData('readings(params)', () => readings(Object.freeze({ ...p })));
      const valid =
        Array.isArray(list) &&
        list.every((r) => r !== null && typeof r === 'object' && names.has(r.param) && typeof r.text === 'string');
      if (!valid)
        fail(
          `readings(params): returned ${describeValue(list)}; allowed: an array of { param, text } with param ` +
            `one of ${[...names].join(', ')}`,
        );
      return (list as Array<{ param: string; text: string }>).map((r) => ({ param: r.param, text: oneLine(r.text) }));
    };
  }
  if (spec.matrix !== undefined) checked.matrix = checkMatrix(spec.matrix, params, fail, where);
  if (spec.presentation !== undefined)
    checked.presentation = checkPresentation(spec.presentation, params, checked.matrix, fail);
  return checked;
}

function checkParams(value: unknown, fail: (what: string) => never): ParamSpec[] {
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

function checkMetrics(value: unknown, fail: (what: string) => never): MetricSpec[] {
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

function checkExact(
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
