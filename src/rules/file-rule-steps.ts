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
 * exact values come from enumerating the chain (file-rule-exact.ts).
 */
import { UsageError } from '../errors.js';
import { describeError } from './file-rule-text.js';
import type { MetricSpec, Params } from './types.js';

export const STEP_FIELDS = ['start', 'step', 'done', 'report'] as const;

/** Most steps one simulated trial may take before it is called endless. */
export const MAX_TRIAL_STEPS = 1_000_000;

export interface StepForm {
  start: Function;
  step: Function;
  done: Function;
  report: Function;
}

/** The step form's functions, checked, or null for a rule with a trial. */
export function stepFormOf(
  spec: Record<string, unknown>,
  fail: (what: string) => never,
  describe: (value: unknown) => string,
): StepForm | null {
  const given = STEP_FIELDS.filter((field) => spec[field] !== undefined);
  if (given.length === 0) return null;
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
  return { start, step, done, report };
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
 * Reads what a step wrote, metric by metric (by name and by position), resets
 * it, and hands each nonzero value to `add(index, value)`. A step may write
 * means only; a probability belongs to the final state (report).
 */
export function readStepOut(
  out: Record<string, unknown>,
  metrics: readonly MetricSpec[],
  add: (index: number, value: number) => void,
  fail: (what: string) => never,
  describe: (value: unknown) => string,
): void {
  // Run once a path while enumerating: by name and then by position, with no array or key list made each time.
  const take = (metric: MetricSpec, index: number, field: string | number) => {
    const value = out[field];
    out[field] = 0;
    if (metric.probability) {
      fail(
        `step wrote the probability ${JSON.stringify(metric.name)}; allowed: in a step, means only (what steps ` +
          `write adds up); write probabilities in report(state, params, out)`,
      );
    }
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      fail(
        `metric ${JSON.stringify(metric.name)}: got ${describe(value)} from step; allowed: a finite number (a ` +
          `mean)`,
      );
    }
    add(index, value);
  };
  for (let index = 0; index < metrics.length; index++) {
    const metric = metrics[index];
    if (out[metric.name] !== 0) take(metric, index, metric.name);
    if (out[index] !== 0) take(metric, index, index);
  }
  let fields = 0;
  for (const _ in out) fields++;
  if (fields !== 2 * metrics.length) {
    const known = new Set([...metrics.map((m) => m.name), ...metrics.map((_, index) => String(index))]);
    const stray = Object.keys(out).find((name) => !known.has(name)) ?? '';
    delete out[stray];
    fail(
      `step wrote out[${JSON.stringify(stray)}], which is not a metric; allowed: ` +
        `${metrics.map((m) => m.name).join(', ')} (or their positions 0 to ${metrics.length - 1})`,
    );
  }
}

interface Scratch {
  metrics: MetricSpec[];
  out: Record<string, unknown>;
  sums: Float64Array;
}

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
): Function {
  const scratches = new WeakMap<object, Scratch>();
  const scratchOf = (params: Params): Scratch => {
    let scratch = scratches.get(params);
    if (!scratch) {
      const metrics = metricsOf(params);
      scratch = { metrics, out: stepOut(metrics), sums: new Float64Array(metrics.length) };
      scratches.set(params, scratch);
    }
    return scratch;
  };
  return function steppedTrial(dice: unknown, params: Params, out: Record<string, unknown>, prepared: unknown): void {
    const scratch = scratchOf(params);
    const { sums, metrics } = scratch;
    sums.fill(0);
    const add = (index: number, value: number) => {
      sums[index] += value;
    };
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
        call = 'step(state, dice, params, out)';
        state = form.step(state, dice, params, scratch.out, prepared);
        readStepOut(scratch.out, metrics, add, fail, describe);
      }
      call = 'report(state, params, out)';
      form.report(state, params, out, prepared);
    } catch (error) {
      // A dice mistake (it names its call) or a UsageError already says what is wrong.
      if (error instanceof UsageError || (error as { call?: unknown } | null)?.call !== undefined) throw error;
      fail(`${call} threw ${describeError(error)} (in a simulated trial)`);
    }
    for (let index = 0; index < metrics.length; index++) {
      if (sums[index] === 0) continue;
      const name = metrics[index].name;
      // A value report wrote that is not a number is left for the loop's check to name.
      if (typeof out[name] === 'number') out[name] = (out[name] as number) + sums[index];
    }
  };
}
