/**
 * A designer's own rule, written as a plain object in one file (see
 * docs/custom-rules.md for the contract), adapted to the engine's Rule
 * interface so that the pool, streams, sweeps, comparisons, shards and
 * reports treat it like a built-in rule.
 *
 *   default export ─► checked field by field (UsageError naming the file) ─► Rule
 *   Rule.simulate, once per chunk: dice on the chunk's stream, one `out`
 *   object with a field per metric, a loop compiled for these metric names
 *   that reads and resets each field after every trial and counts it
 *
 * No node: imports here: the offline calculator page bundles this module
 * (the file system and import() live in load-rule.ts).
 *
 * The tally: a probability metric takes one entry (trials where it was 1);
 * a mean takes four — the whole and fractional parts of Σ value and of
 * Σ value². Each chunk sums its trials in doubles, in a fixed order, then
 * adds floor(sum) and round(fraction · 2^32) into the tally: every entry is
 * an integer, so adding chunks is exact and in any order gives the same
 * bits, on any thread count or shard, as for the built-in rules.
 */
import { MAX_BOUND, TycheStream } from '../engine/random.js';
import { UsageError } from '../errors.js';
import { Fraction } from '../exact/fraction.js';
import { keyedRecord, own } from '../keyed.js';
import { mean, proportion, type Tallied } from '../stats/estimate.js';
import { drawChance } from './chance-draw.js';
import { enumeratedExact } from './file-rule-exact.js';
import { checkMatrix } from './file-rule-matrix.js';
import { checkPresentation } from './presentation-check.js';
import { STEP_FIELDS, stepFormOf, stepTrial } from './file-rule-steps.js';
import { describeError, describeValue, oneLine } from './file-rule-text.js';
import { enterRuleCall, leaveRuleCall, ruleCall } from './rule-calls.js';
import type { MetricSpec, ParamSpec, Params, Rng, Rule } from './types.js';

export { describeValue };

/** The fields a rule file's default export may have. */
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
  'outcomes',
  'read',
  'exact',
  'matrix',
  'presentation',
] as const;
/** Most outcomes a trial may end in when the rule counts outcomes: a chunk's histogram is this long at most. */
export const MAX_OUTCOMES = 2 ** 20;
/** Outcome counts a thread keeps across parameter sets at most (int32 each: 64 MB). */
const HELD_OUTCOMES = 2 ** 24;
const PARAM_TYPES = ['integer', 'number', 'boolean', 'choice'] as const;
const FRACTION_UNITS = 2 ** 32;

/**
 * What a rule file's trial receives as `dice`: the chunk's stream (stream 3 by default), as the built-in rules get it.
 */
export interface Dice {
  /** An integer from 1 to sides. */
  d(sides: number): number;
  /**
   * Rolls n dice of `sides` faces and returns how many show `atLeast` or more: on streams 2 and 3 exactly fair, up to
   * four d6 from one draw.
   */
  count(n: number, sides: number, atLeast: number): number;
  /** A whole number uniform on [0, bound): several dice from one draw, read as digits (`below(6 ** 4)`: four d6). */
  below(bound: number): number;
  /** A uniform number in [0, 1). */
  random(): number;
  /** True with chance p, read as the decimal it prints as (0.15 is 3/20), exactly (chance-draw.ts). */
  chance(p: number): boolean;
}

/** Thrown by the dice for a bad argument; the trial's caller turns it into a UsageError naming the call. */
class BadDice extends Error {
  constructor(
    readonly call: string,
    readonly what: string,
    readonly value: unknown,
    readonly allowed: string,
  ) {
    super('bad dice');
  }
}

const isWhole = (value: number, min: number, max: number) =>
  typeof value === 'number' && (value | 0) === value && value >= min && value <= max;

/**
 * A die's faces or `below`'s bound, up to the engine's limit (MAX_BOUND, engine/random.ts); `call` and `what` name the
 * argument in the message.
 */
function faces(call: string, what: string, value: number): number {
  if (!isWhole(value, 1, MAX_BOUND)) throw new BadDice(call, what, value, `a whole number from 1 to ${MAX_BOUND}`);
  return value;
}

class ChunkDice implements Dice {
  /** The current chunk's stream (one Dice serves every chunk, so the trial always meets the same object). */
  rng: Rng;
  constructor(rng: Rng) {
    this.rng = rng;
  }
  d(sides: number): number {
    return this.rng.roll(faces('dice.d', 'sides', sides));
  }
  count(n: number, sides: number, atLeast: number): number {
    if (!isWhole(n, 0, 1 << 30)) throw new BadDice('dice.count', 'n', n, 'a whole number of dice from 0');
    faces('dice.count', 'sides', sides);
    if (typeof atLeast !== 'number' || Number.isNaN(atLeast))
      throw new BadDice('dice.count', 'atLeast', atLeast, 'a number');
    return this.rng.count(n, sides, Math.max(0, Math.min(sides + 1, Math.ceil(atLeast))));
  }
  below(bound: number): number {
    return this.rng.below(faces('dice.below', 'bound', bound));
  }
  random(): number {
    return this.rng();
  }
  chance(p: number): boolean {
    if (typeof p !== 'number' || !(p >= 0 && p <= 1)) throw new BadDice('dice.chance', 'p', p, 'a number from 0 to 1');
    return drawChance(this.rng, p);
  }
}

type Spec = Record<string, unknown>;

/** One metric's place in the tally. */
interface Slot {
  name: string;
  probability: boolean;
  /** First tally entry. */
  offset: number;
  /** For a mean: its pair in the chunk's running sums. */
  sum: number;
}

interface Layout {
  metrics: MetricSpec[];
  slots: Slot[];
  length: number;
  means: number;
}

type ChunkLoop = (
  trial: Function,
  dice: Dice,
  params: Params,
  out: Record<string, unknown>,
  prepared: unknown,
  trials: number,
  tally: Float64Array,
  sums: Float64Array,
  bad: (slot: number, value: unknown, trialIndex: number) => never,
  failed: (error: unknown, trialIndex: number) => never,
) => void;

/**
 * Checks a rule file's default export and returns it as a Rule. `origin` is
 * how messages name the file (the path as the user gave it). Every mistake
 * is a UsageError: one line naming the file, the rule and what is wrong.
 */
export function adaptRuleFile(moduleDefault: unknown, origin: string): Rule {
  if (moduleDefault === null || typeof moduleDefault !== 'object' || Array.isArray(moduleDefault)) {
    throw new UsageError(
      `${origin}: default export: got ${describeValue(moduleDefault)}; allowed: export default { id, title, params, metrics, trial }`,
    );
  }
  const spec = moduleDefault as Spec;
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
      `trial: got ${describeValue(spec.trial)}; allowed: a function trial(dice, params, out), or the step form: start, step, done and report`,
    );
  for (const field of ['exact', 'validate', 'setup', 'readings'] as const) {
    if (spec[field] !== undefined && typeof spec[field] !== 'function')
      fail(`${field}: got ${describeValue(spec[field])}; allowed: absent, or a function of params`);
  }
  // Counting outcomes takes both: outcomes(params) says how many, read(outcome, …) what each reports.
  if (spec.outcomes !== undefined || spec.read !== undefined) {
    if (typeof spec.outcomes !== 'function')
      fail(
        `outcomes: got ${describeValue(spec.outcomes)}; allowed: with read, a function outcomes(params, prepared) returning how many outcomes a trial can end in`,
      );
    if (typeof spec.read !== 'function')
      fail(
        `read: got ${describeValue(spec.read)}; allowed: with outcomes, a function read(outcome, params, out, prepared) writing that outcome's metrics`,
      );
  }
  const outcomesOf = spec.outcomes as Function | undefined;
  const read = spec.read as Function | undefined;
  const params = checkParams(spec.params, fail);
  const trial = form ? stepTrial(form, (p: Params) => metrics(p), fail, describeValue) : (spec.trial as Function);
  const setup = spec.setup as Function | undefined;
  // Every call of the file's code is marked (rule-calls.ts), so a watcher can name the one that hangs.
  const call = <T>(field: string, fn: () => T): T => {
    try {
      return ruleCall(where, field, fn);
    } catch (error) {
      if (error instanceof UsageError) throw error;
      return fail(`${field} threw ${describeError(error)}`);
    }
  };

  const metricsSource = spec.metrics;
  if (typeof metricsSource !== 'function' && !Array.isArray(metricsSource))
    fail(
      `metrics: got ${describeValue(metricsSource)}; allowed: an array of { name, probability, doc }, or a function of params returning one`,
    );
  const metrics = (p: Params): MetricSpec[] => {
    const list =
      typeof metricsSource === 'function'
        ? call('metrics(params)', () => metricsSource(Object.freeze({ ...p })))
        : metricsSource;
    return checkMetrics(list, fail);
  };
  // A list that does not depend on the params is checked now, so that every command (app too) refuses a bad name.
  if (Array.isArray(metricsSource)) checkMetrics(metricsSource, fail);

  const layouts = new Map<string, Layout>();
  const layoutOf = (p: Params): Layout => {
    const key = JSON.stringify(p);
    let layout = layouts.get(key);
    if (!layout) {
      layout = buildLayout(metrics(p));
      if (layouts.size > 1000) layouts.clear();
      layouts.set(key, layout);
    }
    return layout;
  };

  /**
   * What the chunks of one parameter set share, kept from chunk to chunk in
   * this thread: one `out` (all zero between trials), the frozen params and
   * setup's result, so the compiled loop always meets the same objects.
   */
  interface ChunkState {
    loop: CompiledLoop;
    out: Record<string, unknown>;
    sums: Float64Array;
    params: Params;
    prepared: unknown;
    /** When the rule counts outcomes at these params: a chunk's count of each (else null). */
    counts: Int32Array | null;
  }
  const states = new Map<string, ChunkState>();
  const heldOutcomes = () => [...states.values()].reduce((sum, kept) => sum + (kept.counts?.length ?? 0), 0);
  const dice = new ChunkDice(new TycheStream().random);
  const chunkState = (p: Params, layout: Layout): ChunkState => {
    const key = JSON.stringify(p);
    let state = states.get(key);
    if (!state) {
      const frozen = Object.freeze({ ...p });
      const loop = chunkLoop(layout);
      const prepared = setup ? call('setup(params)', () => setup(frozen)) : undefined;
      let counts: Int32Array | null = null;
      if (outcomesOf) {
        const many = call('outcomes(params)', () => outcomesOf(frozen, prepared));
        if (!isWhole(many as number, 0, MAX_OUTCOMES)) {
          fail(
            `outcomes(params): returned ${describeValue(many)}; allowed: a whole number of outcomes from 1 to ${MAX_OUTCOMES}, or 0 to write each trial's metrics into out at these params`,
          );
        }
        if ((many as number) > 0) counts = new Int32Array(many as number);
      }
      state = { loop, out: loop.makeOut(), sums: new Float64Array(2 * layout.means), params: frozen, prepared, counts };
      // Kept for a hundred parameter sets, and for fewer when their outcome counts would hold more than 64 MB
      // (a sweep of a rule with a million outcomes a point would otherwise keep 4 MB a point).
      if (states.size > 100 || heldOutcomes() + (counts?.length ?? 0) > HELD_OUTCOMES) states.clear();
      states.set(key, state);
    }
    return state;
  };

  /** The trials of a chunk when the rule counts outcomes: each trial returns its outcome, counted. */
  const countOutcomes = (
    state: ChunkState,
    layout: Layout,
    trials: number,
    failed: (error: unknown, trialIndex: number) => never,
  ): void => {
    const counts = state.counts as Int32Array;
    const { params: frozen, out, prepared } = state;
    const outcomes = counts.length;
    counts.fill(0);
    let t = 0;
    let outcome: unknown;
    try {
      for (; t < trials; t++) {
        outcome = trial(dice, frozen, out, prepared);
        // A whole number in range, as an int32 compare: (x >>> 0) === x rejects fractions, negatives, NaN and
        // non-numbers.
        if ((outcome as number) >>> 0 !== outcome || (outcome as number) >= outcomes) break;
        counts[outcome as number]++;
      }
    } catch (error) {
      failed(error, t);
    }
    if (t < trials) {
      states.delete(JSON.stringify(frozen));
      fail(
        `trial returned ${describeValue(outcome)} in trial ${t + 1} of a chunk; allowed: its outcome, a whole number from 0 to ${outcomes - 1} (outcomes(params) is ${outcomes})`,
      );
    }
    // Checked once a chunk: a trial that wrote a metric would otherwise have it read as the first outcome's.
    layout.slots.forEach((slot, index) => {
      for (const field of [slot.name, index]) {
        if (out[field] === 0) continue;
        states.delete(JSON.stringify(frozen));
        fail(
          `trial wrote out[${JSON.stringify(field)}] while the rule counts outcomes; allowed: return the outcome, and write its metrics in read(outcome, params, out)`,
        );
      }
    });
  };

  /** Each outcome that happened, read once and counted as often as it happened, in outcome order. */
  const readOutcomes = (state: ChunkState, layout: Layout, tally: Float64Array): void => {
    const counts = state.counts as Int32Array;
    const { params: frozen, out, prepared, sums } = state;
    const slots = layout.slots;
    for (let outcome = 0; outcome < counts.length; outcome++) {
      const times = counts[outcome];
      if (times === 0) continue;
      try {
        (read as Function)(outcome, frozen, out, prepared);
      } catch (error) {
        states.delete(JSON.stringify(frozen));
        if (error instanceof UsageError) throw error;
        fail(`read threw ${describeError(error)} (outcome ${outcome})`);
      }
      for (let i = 0; i < slots.length; i++) {
        const slot = slots[i];
        for (const field of [slot.name, i]) {
          const v = out[field];
          if (v === 0) continue;
          out[field] = 0;
          if (!countValue(slot, v, times, tally, sums)) badRead(slot, v, outcome, frozen);
        }
      }
    }
  };
  const badRead = (slot: Slot, value: unknown, outcome: number, frozen: Params): never => {
    states.delete(JSON.stringify(frozen));
    return fail(
      `metric ${JSON.stringify(slot.name)}: got ${describeValue(value)} from read(outcome ${outcome}); allowed: ${metricAllows(slot)}`,
    );
  };

  const rule: Rule = {
    id,
    title,
    summary,
    source,
    params,
    metrics: (p) => layoutOf(p).metrics,
    tallyLength: (p) => layoutOf(p).length,
    simulate(p, rng, trials, tally) {
      const layout = layoutOf(p);
      const state = chunkState(p, layout);
      const { out, sums } = state;
      sums.fill(0);
      dice.rng = rng;
      const bad = (slot: number, value: unknown, trialIndex: number): never => {
        const metric = layout.slots[slot];
        return fail(
          `metric ${JSON.stringify(metric.name)}: got ${describeValue(value)} in trial ${trialIndex + 1} of a chunk; allowed: ${metricAllows(metric)}`,
        );
      };
      const failed = (error: unknown, trialIndex: number): never => {
        states.delete(JSON.stringify(p)); // its out object may hold a half-read trial
        if (error instanceof UsageError) throw error;
        if (error instanceof BadDice)
          return fail(`${error.call}: ${error.what}: got ${describeValue(error.value)}; allowed: ${error.allowed}`);
        return fail(`trial threw ${describeError(error)} (trial ${trialIndex + 1} of a chunk)`);
      };
      // Marked once a chunk, not once a trial: the loop stays as fast as it was.
      const marked = enterRuleCall(where, 'trial(dice, params, out)');
      try {
        if (state.counts === null) {
          state.loop.run(trial, dice, state.params, out, state.prepared, trials, tally, sums, bad, failed);
        } else {
          countOutcomes(state, layout, trials, failed);
          leaveRuleCall(marked);
          ruleCall(where, 'read(outcome, params, out, prepared)', () => readOutcomes(state, layout, tally));
        }
      } finally {
        leaveRuleCall(marked);
      }
      // A trial that wrote a name that is not a metric has added a field; caught here, once a chunk.
      const written = Object.keys(out);
      if (written.length !== 2 * layout.slots.length) {
        states.delete(JSON.stringify(p));
        const known = new Set([...layout.slots.map((s) => s.name), ...layout.slots.map((_, index) => String(index))]);
        const stray = written.find((name) => !known.has(name)) ?? '';
        fail(
          `trial wrote out[${JSON.stringify(stray)}], which is not a metric; allowed: ${layout.slots.map((s) => s.name).join(', ')} (or their positions 0 to ${layout.slots.length - 1})`,
        );
      }
      for (const slot of layout.slots) {
        if (slot.probability) continue;
        addExactly(tally, slot.offset, sums[slot.sum]);
        addExactly(tally, slot.offset + 2, sums[slot.sum + 1]);
      }
    },
    checkTally(p, tally) {
      // Only the whole part of a mean's Σ value (a chunk's floor, addExactly) may be below zero: d6 − d6 sums so.
      for (const slot of layoutOf(p).slots) {
        for (let at = slot.offset; at < slot.offset + (slot.probability ? 1 : 4); at++) {
          if (tally[at] < 0 && (slot.probability || at !== slot.offset))
            return `${slot.name}: tally entry ${at} is ${tally[at]}, and only a mean's sum may be below zero`;
        }
      }
      return null;
    },
    summarize(p, tally, trials) {
      const result = keyedRecord<Tallied>();
      for (const slot of layoutOf(p).slots) {
        const at = slot.offset;
        result[slot.name] = slot.probability
          ? proportion(tally[at], trials)
          : mean(tally[at] + tally[at + 1] / FRACTION_UNITS, tally[at + 2] + tally[at + 3] / FRACTION_UNITS, trials);
      }
      return result;
    },
  };

  if (typeof spec.validate === 'function') {
    const validate = spec.validate as Function;
    rule.validate = (p) => {
      const problem = call('validate(params)', () => validate(Object.freeze({ ...p })));
      if (problem === undefined || problem === null || problem === true) return;
      if (typeof problem !== 'string')
        fail(
          `validate(params): returned ${describeValue(problem)}; allowed: nothing when the params are fine, or a string saying what is wrong`,
        );
      throw new UsageError(`${id}: ${oneLine(problem as string)}`);
    };
  }
  // The rule's own dice enumerated (file-rule-exact.ts), within a budget: its exact values where it has no exact().
  const base = {
    where,
    setup,
    outcomes: outcomesOf,
    read,
    metrics: (p: Params) => layoutOf(p).metrics,
    fail,
    describe: describeValue,
    maxOutcomes: MAX_OUTCOMES,
  };
  const enumerated = enumeratedExact({ ...base, trial: form ? null : trial, form });
  // Marked as one call (rule-calls.ts): a trial or step that loops while it is enumerated is named and stopped.
  const walked = form ? 'start, step, done and report, enumerated' : 'trial(dice, params, out), enumerated';
  rule.enumerate = (p, budget) => ruleCall(where, walked, () => enumerated(p, budget));
  if (typeof spec.exact === 'function') {
    const exact = spec.exact as Function;
    rule.exact = (p) =>
      checkExact(
        call('exact(params)', () => exact(Object.freeze({ ...p }))),
        layoutOf(p).metrics,
        fail,
      );
  } else {
    rule.exact = (p) => (rule.enumerate as NonNullable<Rule['enumerate']>)(p);
    rule.exactBy = 'enumeration';
  }
  if (spec.headline !== undefined) {
    const headline = spec.headline;
    if (typeof headline !== 'function' && !Array.isArray(headline))
      fail(
        `headline: got ${describeValue(headline)}; allowed: an array of metric names, or a function of params returning one`,
      );
    rule.headline = (p) => {
      const names =
        typeof headline === 'function' ? call('headline(params)', () => headline(Object.freeze({ ...p }))) : headline;
      const known = new Set(layoutOf(p).metrics.map((m) => m.name));
      if (!Array.isArray(names) || names.some((name) => typeof name !== 'string' || !known.has(name)))
        fail(`headline: got ${describeValue(names)}; allowed: names of metrics, from ${[...known].join(', ')}`);
      return [...(names as string[])];
    };
  }
  if (typeof spec.readings === 'function') {
    const readings = spec.readings as Function;
    const names = new Set(params.map((p) => p.name));
    rule.readings = (p) => {
      const list = call('readings(params)', () => readings(Object.freeze({ ...p })));
      const valid =
        Array.isArray(list) &&
        list.every((r) => r !== null && typeof r === 'object' && names.has(r.param) && typeof r.text === 'string');
      if (!valid)
        fail(
          `readings(params): returned ${describeValue(list)}; allowed: an array of { param, text } with param one of ${[...names].join(', ')}`,
        );
      return (list as Array<{ param: string; text: string }>).map((r) => ({ param: r.param, text: oneLine(r.text) }));
    };
  }
  if (spec.matrix !== undefined) rule.matrix = checkMatrix(spec.matrix, params, fail, where);
  if (spec.presentation !== undefined)
    rule.presentation = checkPresentation(spec.presentation, params, rule.matrix, fail);
  return rule;
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
        `${at}.name: got ${describeValue(name)}; allowed: letters, digits and '_', not starting with a digit (and not "rule", which compare uses, or "__proto__")`,
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
            `${named}: ${bound}: got ${describeValue(p[bound])}; allowed: ${type === 'integer' ? 'an integer' : 'a finite number'}`,
          );
      const [min, max] = [p.min as number, p.max as number];
      if (min > max) fail(`${named}: min ${min} is above max ${max}; allowed: min ≤ max`);
      if (!isKind(p.default) || (p.default as number) < min || (p.default as number) > max)
        fail(
          `${named}: default: got ${describeValue(p.default)}; allowed: ${type === 'integer' ? 'an integer' : 'a number'} from ${min} to ${max}`,
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
        `${named}: choices: got ${describeValue(choices)}; allowed: an array of distinct non-empty strings without surrounding spaces`,
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
        `metrics[${index}].name: got ${describeValue(m.name)}; allowed: text of 1 to 100 characters without control characters or line breaks, not a whole number (out[k] is the k-th metric) nor "__proto__"`,
      );
    }
    const name = m.name as string;
    if (seen.has(name)) fail(`metric ${JSON.stringify(name)}: declared twice; allowed: each name once`);
    seen.add(name);
    if (typeof m.probability !== 'boolean')
      fail(
        `metric ${JSON.stringify(name)}: probability: got ${describeValue(m.probability)}; allowed: true (counted 0/1 per trial) or false (a mean)`,
      );
    for (const field of ['doc', 'label'] as const)
      if (m[field] !== undefined && typeof m[field] !== 'string')
        fail(`metric ${JSON.stringify(name)}: ${field}: got ${describeValue(m[field])}; allowed: text`);
    return {
      name,
      doc: typeof m.doc === 'string' ? oneLine(m.doc) : '',
      probability: m.probability as boolean,
      ...(typeof m.label === 'string' ? { label: oneLine(m.label) } : {}),
    };
  });
}

/** An exact value as written in a rule file: a number, a bigint, or a fraction string 'n/d' of any size. */
export function parseExactValue(value: unknown): Fraction | null {
  // A number is the decimal it prints as (0.1 is 1/10), as parameters are read.
  if (typeof value === 'number') return Number.isFinite(value) ? Fraction.fromParameter(value) : null;
  if (typeof value === 'bigint') return Fraction.of(value);
  if (typeof value !== 'string') return null;
  const match = /^\s*(-?\d+)\s*(?:\/\s*(\d+)\s*)?$/.exec(value);
  if (!match || (match[2] !== undefined && /^0+$/.test(match[2]))) return null;
  return Fraction.of(BigInt(match[1]), BigInt(match[2] ?? '1'));
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
        `exact(params): no value for metric ${JSON.stringify(metric.name)}; allowed: a value for every metric (leave exact out if you cannot solve them all)`,
      );
    const fraction = parseExactValue(raw);
    if (!fraction)
      fail(
        `exact(params): metric ${JSON.stringify(metric.name)}: got ${describeValue(raw)}; allowed: a finite number, or a fraction string 'n/d'`,
      );
    if (
      metric.probability &&
      ((fraction as Fraction).compare(Fraction.ZERO) < 0 || (fraction as Fraction).compare(Fraction.ONE) > 0)
    ) {
      fail(
        `exact(params): metric ${JSON.stringify(metric.name)}: got ${describeValue(raw)}; allowed: a probability from 0 to 1`,
      );
    }
    result[metric.name] = fraction as Fraction;
  }
  return result;
}

function buildLayout(metrics: MetricSpec[]): Layout {
  let offset = 0;
  let means = 0;
  const slots = metrics.map((metric) => {
    const slot: Slot = {
      name: metric.name,
      probability: metric.probability,
      offset,
      sum: metric.probability ? -1 : 2 * means,
    };
    offset += metric.probability ? 1 : 4;
    if (!metric.probability) means++;
    return slot;
  });
  return { metrics, slots, length: offset, means };
}

/** What a metric's value may be, as a message says it. */
const metricAllows = (slot: Slot): string =>
  slot.probability ? '0, 1, false or true (a probability)' : 'a finite number (a mean)';

/**
 * Counts one nonzero value of a metric `times` over: a probability's 1 (or
 * true) into its tally entry, a mean's value and square into the chunk's
 * sums. False, counting nothing, when the value is not one the metric may
 * hold. The interpreted per-trial loop counts a trial's value once with
 * it, and a rule that counts outcomes each outcome's as often as it
 * happened; the compiled loop writes the same steps out as code.
 */
function countValue(slot: Slot, value: unknown, times: number, tally: Float64Array, sums: Float64Array): boolean {
  if (slot.probability) {
    if (value === 1 || value === true) tally[slot.offset] += times;
    return value === 1 || value === true || value === false;
  }
  if (typeof value !== 'number' || value - value !== 0) return false;
  sums[slot.sum] += times * value;
  sums[slot.sum + 1] += times * value * value;
  return true;
}

/** Adds a chunk's sum into two integer entries: its floor, and its fraction in units of 2^-32. */
function addExactly(tally: Float64Array, at: number, sum: number): void {
  const whole = Math.floor(sum);
  tally[at] += whole;
  tally[at + 1] += Math.round((sum - whole) * FRACTION_UNITS);
}

interface CompiledLoop {
  makeOut: () => Record<string, unknown>;
  run: ChunkLoop;
}

const compiled = new Map<string, CompiledLoop>();

/**
 * The per-chunk loop for one list of metrics. It is compiled with
 * `new Function` so that each metric is read as `out["name"]`, a constant
 * property on an object of one fixed shape — the fast path in every JS
 * engine — instead of a lookup by a name held in a variable. Metric names
 * enter the code only as JSON string literals. Where code generation is
 * forbidden (a page whose policy allows no eval) an equivalent loop over
 * the names runs instead.
 */
function chunkLoop(layout: Layout): CompiledLoop {
  const key = JSON.stringify(layout.slots.map((s) => [s.name, s.probability]));
  let loop = compiled.get(key);
  if (loop) return loop;
  try {
    loop = generatedLoop(layout);
  } catch {
    loop = interpretedLoop(layout);
  }
  if (compiled.size > 200) compiled.clear();
  compiled.set(key, loop);
  return loop;
}

/**
 * A trial's `out`: a field per metric by name, and by position (out[k]), all
 * 0. It is an array of doubles with the names added as properties: a number
 * written by position is then stored as it is, where a plain object's
 * numbered fields hold tagged values and each fraction written becomes a new
 * heap number (measured: the reserves port's trial 1.7× as fast). A metric
 * named "length" would be the array's length, so such a list of metrics gets
 * a plain object.
 */
function newOut(slots: readonly Slot[]): Record<string, unknown> {
  if (slots.some((slot) => slot.name === 'length')) {
    const out: Record<string, unknown> = {};
    for (const slot of slots) out[slot.name] = 0;
    slots.forEach((_, index) => (out[index] = 0));
    return out;
  }
  // Filled with a fraction first, so the array holds unboxed doubles from the start.
  const out = new Array<number>(slots.length).fill(0.5).fill(0) as unknown as Record<string, unknown>;
  for (const slot of slots) out[slot.name] = 0;
  return out;
}

function generatedLoop(layout: Layout): CompiledLoop {
  // Each metric is read twice: by its name and by its position (the fast form for computed names).
  const checks = layout.slots.flatMap((slot, index) =>
    [`out[${JSON.stringify(slot.name)}]`, `out[${index}]`].map((field) =>
      slot.probability
        ? `v = ${field}; if (v !== 0) { if (v === 1 || v === true) tally[${slot.offset}]++; else if (v !== false) bad(${index}, v, t); ${field} = 0; }`
        : `v = ${field}; if (v !== 0) { if (typeof v !== 'number' || v - v !== 0) bad(${index}, v, t); sums[${slot.sum}] += v; sums[${slot.sum + 1}] += v * v; ${field} = 0; }`,
    ),
  );
  const run = new Function(
    'trial',
    'dice',
    'params',
    'out',
    'prepared',
    'trials',
    'tally',
    'sums',
    'bad',
    'failed',
    `'use strict';\nlet t = 0, v;\ntry {\n  for (; t < trials; t++) {\n    trial(dice, params, out, prepared);\n    ${checks.join('\n    ')}\n  }\n} catch (error) { failed(error, t); }`,
  ) as ChunkLoop;
  return { run, makeOut: () => newOut(layout.slots) };
}

function interpretedLoop(layout: Layout): CompiledLoop {
  const slots = layout.slots;
  return {
    makeOut: () => newOut(slots),
    run(trial, dice, params, out, prepared, trials, tally, sums, bad, failed) {
      let t = 0;
      const count = (i: number, v: unknown) => {
        if (!countValue(slots[i], v, 1, tally, sums)) bad(i, v, t);
      };
      try {
        for (; t < trials; t++) {
          trial(dice, params, out, prepared);
          for (let i = 0; i < slots.length; i++) {
            const name = slots[i].name;
            if (out[name] !== 0) {
              count(i, out[name]);
              out[name] = 0;
            }
            if (out[i] !== 0) {
              count(i, out[i]);
              out[i] = 0;
            }
          }
        }
      } catch (error) {
        failed(error, t);
      }
    },
  };
}
