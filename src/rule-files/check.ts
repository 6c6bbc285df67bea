/**
 * The check phase of a rule file (rule.ts): its default export read
 * field by field, every mistake a UsageError of one line naming the file,
 * the rule and what is wrong. What comes out is a CheckedRuleFile: the
 * fields as types, and the file's functions of params wrapped so that what
 * they return is checked where it is used (a metrics list that depends on
 * the params can only be checked at those params).
 */

import type { Presentation } from '../contract/presentation.js';
import type { MatrixSpec, MetricSpec, ParamSpec, Params, Reading } from '../contract/types.js';
import { UsageError } from '../errors.js';
import type { Fraction } from '../exact/fraction.js';
import { ruleCall } from '../guard/rule-calls.js';
import { describeError, describeValue, isA, oneLine } from '../guard/rule-text.js';
import { Schema } from '../input/schema.js';
import { checkPresentation } from '../presentation/check.js';
import { didYouMean } from '../text/suggest.js';
import { checkExact, checkMetrics, checkParams } from './fields.js';
import { checkMatrix } from './matrix.js';
import { guarded, plainData, readMembers } from './read.js';
import { DECISION_FIELDS, STEP_FIELDS, type StepForm, stepFormOf } from './steps.js';

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
  /** The file's declared presentation, checked (presentation/check.ts). */
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
  const { spec, id } = readSpec(moduleDefault, origin);
  const where = `${origin} (rule ${id})`;
  const fail = (what: string): never => {
    throw new UsageError(`${where}: ${what}`);
  };
  const s: Schema = new Schema(fail);
  s.only(spec, FIELDS, (key) => fail(`unknown field ${JSON.stringify(key)}; allowed: ${FIELDS.join(', ')}`));
  const text = (field: string, required: boolean): string | undefined => {
    const value = spec[field];
    if (value === undefined && !required) return undefined;
    if (typeof value !== 'string' || value.trim() === '' || value.length > 500)
      s.bad(field, value, `${required ? '' : 'absent, or '}text of 1 to 500 characters`);
    return oneLine(value as string);
  };
  const title = text('title', true) as string;
  const summary = text('summary', false) ?? title;
  const source = text('source', false) ?? `rule file ${origin}`;
  const form = checkFunctionFields(spec, fail);
  const params = checkParams(spec.params, fail);
  checkDecisionFields(spec, form, params, fail);
  // Every call of the file's code is marked (rule-calls.ts), so a watcher can name the one that hangs.
  const call = <T>(field: string, fn: () => T): T => {
    try {
      return ruleCall(where, field, fn);
    } catch (error) {
      if (isA(error, UsageError)) throw error;
      return fail(`${field} threw ${describeError(error)}`);
    }
  };
  /** A call whose result is data: copied as it returns, still inside the marked call (read.ts). */
  const callForData = (field: string, fn: () => unknown): unknown =>
    call(field, () => plainData(fn(), `${field} returned`, fail));

  const metricsSource = spec.metrics;
  if (typeof metricsSource !== 'function' && !Array.isArray(metricsSource))
    s.bad('metrics', metricsSource, 'an array of { name, probability, doc }, or a function of params returning one');
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
  wrapFunctions(spec, checked, params, call, callForData);
  if (spec.matrix !== undefined) {
    checked.matrix = checkMatrix(spec.matrix, params, fail, where);
    // Against a fixed list of metrics now, so every command refuses the name (a function of params: when planned).
    if (Array.isArray(metricsSource)) {
      const known = checkMetrics(metricsSource, fail).map((metric) => metric.name);
      const stray = checked.matrix.metrics.find((name) => !known.includes(name));
      if (stray !== undefined)
        fail(
          `matrix.metrics: got ${describeValue(stray)}, which is not a metric${didYouMean(stray, known)}; allowed: ` +
            known.join(', '),
        );
    }
  }
  if (spec.presentation !== undefined)
    checked.presentation = checkPresentation(spec.presentation, params, checked.matrix, fail);
  return checked;
}

/** The default export, its members read once and copied, and the rule's id: what names the rule in every message. */
function readSpec(moduleDefault: unknown, origin: string): { spec: Spec; id: string } {
  const failFile = (what: string): never => {
    throw new UsageError(`${origin}: ${what}`);
  };
  const s: Schema = new Schema(failFile);
  if (
    moduleDefault === null ||
    typeof moduleDefault !== 'object' ||
    guarded('default export', () => Array.isArray(moduleDefault), failFile)
  )
    s.bad('default export', moduleDefault, 'export default { id, title, params, metrics, trial }');
  // Every member read once, guarded, and its data copied: nothing below runs a getter or a Proxy's trap.
  const spec = readMembers(moduleDefault, failFile) as Spec;
  const id = spec.id;
  if (typeof id !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9-]{0,63}$/.test(id))
    s.bad('id', id, "letters, digits and '-' (at most 64, not starting with '-')");
  return { spec, id };
}

/** The procedure (a trial, or the step form) and the other members that must be functions when given. */
function checkFunctionFields(spec: Spec, fail: (what: string) => never): StepForm | null {
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
  return form;
}

/** objective and label belong to a rule with decisions, which may not name a parameter objective. */
function checkDecisionFields(
  spec: Spec,
  form: StepForm | null,
  params: readonly ParamSpec[],
  fail: (what: string) => never,
): void {
  if (form?.choices === undefined) {
    for (const field of ['objective', 'label'] as const)
      if (spec[field] !== undefined)
        fail(`${field}: only a rule with decisions has one; allowed: absent, or choices and choose beside it`);
  } else {
    if (spec.objective !== undefined && (typeof spec.objective !== 'string' || spec.objective === ''))
      fail(
        `objective: got ${describeValue(spec.objective)}; allowed: absent, the name of a metric, or a weighted sum of metrics`,
      );
    if (spec.label !== undefined && typeof spec.label !== 'function')
      fail(`label: got ${describeValue(spec.label)}; allowed: absent, or a function label(state, params) → text`);
    if (params.some((p) => p.name === 'objective'))
      fail(
        'parameter objective: a rule with decisions has the parameter objective (the metric side a plays for); ' +
          'allowed: another name',
      );
  }
}

/**
 * The file's functions of params that return data (validate, exact, headline, readings), wrapped so that what they
 * return is checked where it is used, each call marked for the watchdog.
 */
function wrapFunctions(
  spec: Spec,
  checked: CheckedRuleFile,
  params: readonly ParamSpec[],
  call: CheckedRuleFile['call'],
  callForData: (field: string, fn: () => unknown) => unknown,
): void {
  const { fail, id } = checked;
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
}
