/**
 * The step form of a rule file (docs/custom-rules.md, "Exact without writing
 * it"): instead of `trial`, a chain of states —
 *
 *   start(params, prepared)                 → the first state, a plain JSON value
 *   step(state, dice, params, out, prepared) → the next state (a new value)
 *   done(state, params, prepared)           → true when the procedure has ended
 *   report(state, params, out, prepared)    → writes the metrics of a final state
 *
 * What a step writes into its `out` (means only) adds up over the steps, so
 * `out['rolls.mean'] = 1` in every step counts the steps. In simulation one
 * trial loops step from start until done, then reports: this module turns
 * the four functions into a trial for the adapter's ordinary loop. The
 * exact values come from enumerating the chain (exact.ts).
 */

import type { MetricSpec, Params } from '../contract/types.js';
import { UsageError } from '../errors.js';
import { canonicalState, PLAIN_JSON } from '../exact/canonical-state.js';
import { describeError, isA } from '../guard/rule-text.js';
import { BadDice } from './dice.js';
import { badValueText, readOut, strayField, strayText } from './tally.js';

export const STEP_FIELDS = ['start', 'step', 'done', 'report'] as const;
/** Decision points in the step form (docs/custom-rules.md, "Decisions"): both, or neither. */
export const DECISION_FIELDS = ['choices', 'choose'] as const;

/** Most steps one simulated trial may take before it is called endless. */
const MAX_TRIAL_STEPS = 1_000_000;

export interface StepForm {
  start: Function;
  step: Function;
  done: Function;
  report: Function;
  /** Decision points: choices(state, params) and choose(state, option, params), or neither. */
  choices?: Function;
  choose?: Function;
}

/** A decision point: whose decision, and the options in the order the rule lists them. */
export interface Decision {
  side: 'a' | 'b';
  options: string[];
}

/** The step form's functions, checked, or null for a rule with a trial. */
export function stepFormOf(
  spec: Record<string, unknown>,
  fail: (what: string) => never,
  describe: (value: unknown) => string,
): StepForm | null {
  const given = STEP_FIELDS.filter((field) => spec[field] !== undefined);
  const deciding = DECISION_FIELDS.filter((field) => spec[field] !== undefined);
  if (given.length === 0) {
    if (deciding.length > 0)
      fail(
        `${deciding[0]}: decisions belong to the step form; allowed: choices and choose beside start, step, done ` +
          'and report (docs/custom-rules.md, "Decisions"), not with trial',
      );
    return null;
  }
  for (const field of ['trial', 'outcomes', 'read'] as const) {
    if (spec[field] !== undefined)
      fail(
        `${field}: a rule in the step form (start, step, done, report) has no ` +
          `${field}; allowed: either trial, or start, step, done and report`,
      );
  }
  for (const field of STEP_FIELDS) {
    if (typeof spec[field] !== 'function')
      fail(
        `${field}: got ${describe(spec[field])}; allowed: with ` +
          `${given.join(', ')}, a function ${SIGNATURES[field]} (the step form)`,
      );
  }
  const [start, step, done, report] = STEP_FIELDS.map((field) => spec[field] as Function);
  if (deciding.length === 0) return { start, step, done, report };
  for (const field of DECISION_FIELDS) {
    if (typeof spec[field] !== 'function')
      fail(
        `${field}: got ${describe(spec[field])}; allowed: with ${deciding.join(', ')}, a function ` +
          `${DECISION_SIGNATURES[field]} (decisions need both)`,
      );
  }
  return { start, step, done, report, choices: spec.choices as Function, choose: spec.choose as Function };
}

const DECISION_SIGNATURES = {
  choices: 'choices(state, params) returning null or the options at a decision point',
  choose: 'choose(state, option, params) returning the state the option leads to',
} as const;

const MAX_OPTIONS = 64;

/**
 * What choices(state, params) returned, checked: null (or undefined) where step rolls; an array of options (side
 * a decides); or { side, options }. Options are distinct names of 1 to 100 characters on one line.
 */
export function decisionOf(
  value: unknown,
  state: () => string,
  fail: (what: string) => never,
  describe: (value: unknown) => string,
): Decision | null {
  if (value === null || value === undefined) return null;
  const refuse = (what: string): never =>
    fail(
      `choices(state, params): ${what} at the state ${state()}; allowed: null where step rolls, an array of ` +
        `distinct option names (1 to ${MAX_OPTIONS}, each 1 to 100 characters on one line), or { side: 'a' or 'b', ` +
        'options: [...] }',
    );
  let side: unknown = 'a';
  let options: unknown = value;
  if (!Array.isArray(value)) {
    if (typeof value !== 'object') return refuse(`returned ${describe(value)}`);
    const record = value as Record<string, unknown>;
    const extra = Object.keys(record).find((key) => key !== 'side' && key !== 'options');
    if (extra !== undefined) return refuse(`returned an object with the field ${JSON.stringify(extra)}`);
    side = record.side;
    options = record.options;
    if (side !== 'a' && side !== 'b') return refuse(`returned the side ${describe(side)}`);
    if (!Array.isArray(options)) return refuse(`returned the options ${describe(options)}`);
  }
  const list = options as unknown[];
  if (list.length === 0) return refuse('returned no options (an empty array)');
  if (list.length > MAX_OPTIONS) return refuse(`returned ${list.length} options`);
  const seen = new Set<string>();
  for (const option of list) {
    if (typeof option !== 'string') return refuse(`returned the option ${describe(option)}, not a string`);
    if (option === '' || option.length > 100 || /[\u0000-\u001f\u007f\u2028\u2029]/.test(option))
      return refuse(`returned the option ${describe(option)}`);
    if (seen.has(option)) return refuse(`returned the option ${JSON.stringify(option)} twice`);
    seen.add(option);
  }
  return { side: side as 'a' | 'b', options: [...(list as string[])] };
}

const SIGNATURES = {
  start: 'start(params) returning the first state',
  step: 'step(state, dice, params, out) returning the next state',
  done: 'done(state, params) saying whether the procedure has ended',
  report: 'report(state, params, out) writing the metrics of a final state',
} as const;

/** A step's `out`: each metric by name and by position, all 0 between steps. */
export function stepOut(metrics: readonly MetricSpec[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  metrics.forEach((metric, index) => {
    out[metric.name] = 0;
    out[index] = 0;
  });
  return out;
}

/**
 * A reader of what a step wrote (readOut, tally.ts), made once per
 * list of metrics so that a step allocates nothing: it resets out and hands
 * each nonzero value to `add(index, value)`, by name first, then by
 * position. A step may write means only; a probability belongs to the final
 * state (report). A field that is no metric's is looked for after each
 * step, or, with `eachStep` false, by the caller (Object.keys a step cost
 * half of a simple step-form trial in simulation).
 */
export function stepReader(
  metrics: readonly MetricSpec[],
  add: (index: number, value: number) => void,
  fail: (what: string) => never,
  eachStep = true,
): (out: Record<string, unknown>) => void {
  const reader = {
    count(index: number, byName: number, byIndex: number) {
      if (byName !== 0) add(index, byName);
      if (byIndex !== 0) add(index, byIndex);
    },
    bad: (index: number, value: unknown, both: boolean) =>
      fail(badValueText(metrics[index], index, value, 'from step', both)),
    refuse: (index: number) =>
      fail(
        `step wrote the ${metrics[index].distribution ? 'distribution' : 'probability'} ` +
          `${JSON.stringify(metrics[index].name)}; allowed: in a step, means only (what steps write adds up); ` +
          `write ${metrics[index].distribution ? 'distributions' : 'probabilities'} in report(state, params, out)`,
      ),
  };
  const unwritten = unwrittenCheck(metrics);
  if (!eachStep)
    return (out) => {
      if (!unwritten(out)) readOut(out, metrics, reader);
    };
  return (out) => {
    if (!unwritten(out)) readOut(out, metrics, reader);
    strayCheck(out, metrics, fail);
  };
}

/**
 * Whether a step's out holds 0 in every metric's two fields, so that readOut would read nothing (a step that
 * writes no metric, the most common kind): compiled with `new Function` so that each field is read as a constant
 * property (`out["name"]`, out[0]), as the simulation's loop reads it (loop.ts), where readOut reads each by a
 * name held in a variable (5% of a step-form walk, measured). Names enter the code only as JSON string literals.
 * Where code generation is forbidden, the same check over the names.
 */
function unwrittenCheck(metrics: readonly MetricSpec[]): Unwritten {
  const fields = metrics.map((metric, index) => `out[${JSON.stringify(metric.name)}] === 0 && out[${index}] === 0`);
  const code = `'use strict';\nreturn ${fields.join(' && ') || 'true'};`;
  // Made once per list of names: each exact solve of a rule asks for its reader anew.
  let check = unwrittenChecks.get(code);
  if (check) return check;
  try {
    check = new Function('out', code) as Unwritten;
  } catch {
    const names = metrics.map((metric) => metric.name);
    check = (out) => names.every((name, index) => out[name] === 0 && out[index] === 0);
  }
  if (unwrittenChecks.size >= 200) unwrittenChecks.clear();
  unwrittenChecks.set(code, check);
  return check;
}

type Unwritten = (out: Record<string, unknown>) => boolean;
const unwrittenChecks = new Map<string, Unwritten>();

/** A field a step added to its out, removed (the out is kept) and named in one line. */
function strayCheck(out: Record<string, unknown>, metrics: readonly MetricSpec[], fail: (what: string) => never) {
  const stray = strayField(out, metrics);
  if (stray !== null) {
    delete out[stray];
    fail(strayText('step', stray, metrics));
  }
}

interface Scratch {
  metrics: MetricSpec[];
  out: Record<string, unknown>;
  sums: Float64Array;
  /** Reads a step's out into sums. */
  read: (out: Record<string, unknown>) => void;
  /** Best play at these params (each decision state's canonical text → the option taken), for a rule with choices. */
  play: ReadonlyMap<string, string> | null;
}

/** A step-form rule's trial, and the look for stray fields its chunk's loop makes once a chunk (endChunk). */
export type SteppedTrial = ((
  dice: unknown,
  params: Params,
  out: Record<string, unknown>,
  prepared: unknown,
) => void) & {
  endChunk: () => void;
};

/**
 * The trial the adapter simulates for a step-form rule: step from start
 * until done, report, and add what the steps wrote to the means. Scratch
 * objects are kept per params object (the adapter passes the same frozen
 * params to every chunk of a parameter set).
 */
export function stepTrial(
  form: StepForm,
  metricsOf: (p: Params) => MetricSpec[],
  fail: (what: string) => never,
  describe: (value: unknown) => string,
  playOf?: (p: Params) => ReadonlyMap<string, string>,
): SteppedTrial {
  const scratches = new WeakMap<object, Scratch>();
  // The last params and their scratch: a chunk's trials share one params object, so the map is asked once a chunk.
  let lastParams: Params | null = null;
  let last: Scratch | null = null;
  const scratchOf = (params: Params): Scratch => {
    if (params === lastParams) return last as Scratch;
    let scratch = scratches.get(params);
    if (!scratch) {
      const metrics = metricsOf(params);
      const sums = new Float64Array(metrics.length);
      const read = stepReader(metrics, (index, value) => (sums[index] += value), fail, false);
      // A rule with choices plays its exact best play: solved once per parameter set (refused past the budget).
      const play = form.choices && playOf ? playOf(params) : null;
      scratch = { metrics, out: stepOut(metrics), sums, read, play };
      scratches.set(params, scratch);
    }
    lastParams = params;
    last = scratch;
    return scratch;
  };
  const steppedTrial = function steppedTrial(
    dice: unknown,
    params: Params,
    out: Record<string, unknown>,
    prepared: unknown,
  ): void {
    const scratch = scratchOf(params);
    const { sums, metrics } = scratch;
    sums.fill(0);
    // One try for the whole trial, the call in progress named in `call`: what a function throws is one line naming it.
    let call = 'start(params)';
    try {
      let state = form.start(params, prepared);
      let steps = 0;
      for (;;) {
        call = 'done(state, params)';
        const ended = form.done(state, params, prepared);
        if (ended === true) break;
        if (ended !== false) fail(`done(state, params): returned ${describe(ended)}; allowed: true or false`);
        if (++steps > MAX_TRIAL_STEPS) {
          fail(
            `a trial took more than ${MAX_TRIAL_STEPS.toLocaleString('en-US')} steps without done(state) (the ` +
              `state now: ${describe(state)}); allowed: a procedure that ends`,
          );
        }
        if (scratch.play !== null) {
          call = 'choices(state, params)';
          const decision = decisionOf(
            (form.choices as Function)(state, params, prepared),
            () => describe(state),
            fail,
            describe,
          );
          if (decision !== null) {
            const option = scratch.play.get(canonicalState(state));
            if (option === undefined || !decision.options.includes(option))
              fail(
                `the rule is not a function of its state: a simulated trial reached the decision at ${describe(state)}, ` +
                  'which best play, solved exactly, never reaches; allowed: choices, choose and step that depend ' +
                  'only on state and params',
              );
            call = `choose(state, ${JSON.stringify(option)}, params)`;
            state = form.choose?.(state, option, params, prepared);
            continue;
          }
        }
        call = 'step(state, dice, params, out)';
        const from = state;
        state = form.step(state, dice, params, scratch.out, prepared);
        // A step that forgot its return: named here, not as done's fault on the next turn (the full check of a
        // state as plain JSON is the enumeration's, once a state; a trial's every step would pay for it).
        if (state === undefined)
          fail(
            `step(state, dice, params) returned a state that is not plain JSON: the state is undefined (a step ` +
              `from ${describe(from)}, in a simulated trial); allowed: ${PLAIN_JSON}`,
          );
        scratch.read(scratch.out);
      }
      call = 'report(state, params, out)';
      form.report(state, params, out, prepared);
    } catch (error) {
      // A dice mistake (it names its call) or a UsageError already says what is wrong.
      if (isA(error, UsageError) || isA(error, BadDice)) throw error;
      fail(`${call} threw ${describeError(error)} (in a simulated trial)`);
    }
    for (let index = 0; index < metrics.length; index++) {
      if (sums[index] === 0) continue;
      const name = metrics[index].name;
      // A value report wrote that is not a number is left for the loop's check to name.
      if (typeof out[name] === 'number') out[name] = (out[name] as number) + sums[index];
    }
  };
  // A field a step added stays in its out (nothing resets it): looked for once a chunk, as the trial's out is.
  const endChunk = () => {
    if (last !== null) strayCheck(last.out, last.metrics, fail);
  };
  return Object.assign(steppedTrial, { endChunk });
}
