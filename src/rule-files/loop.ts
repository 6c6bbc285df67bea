/**
 * The loop phase of a rule file (rule.ts): a chunk's trials run on the
 * chunk's stream, each trial's `out` read and reset after it and counted
 * into the tally its layout gives (tally.ts); or, for a rule that
 * counts outcomes, each trial's outcome counted and each outcome that
 * happened read once (engine/outcome-histogram.ts).
 *
 *   ChunkLoops.simulate(params, layout, rng, trials, tally)
 *     ├─ once per parameter set: frozen params, setup, outcomes(params), one `out`, a compiled loop
 *     ├─ the trials: trial(dice, params, out, prepared), out read after each (or the outcome counted)
 *     └─ once a chunk: stray fields looked for, the means' running sums added into the tally
 */

import type { Params, Rng } from '../contract/types.js';
import { forEachOutcome, outcomeHistogram } from '../engine/outcome-histogram.js';
import { TycheStream } from '../engine/random.js';
import { UsageError } from '../errors.js';
import { enterRuleCall, leaveRuleCall, ruleCall } from '../guard/rule-calls.js';
import { describeError, describeValue, isA } from '../guard/rule-text.js';
import type { CheckedRuleFile } from './check.js';
import { BadDice, ChunkDice } from './dice.js';
import {
  addMeans,
  badValueText,
  DISTRIBUTION_LIMIT,
  newOut,
  readOut,
  type Slot,
  strayField,
  strayText,
  type TallyLayout,
  writtenField,
  writtenText,
} from './tally.js';

/** Most outcomes a trial may end in when the rule counts outcomes: a chunk's histogram is this long at most. */
export const MAX_OUTCOMES = 2 ** 20;
/** Outcome counts a thread keeps across parameter sets at most (int32 each: 64 MB). */
const HELD_OUTCOMES = 2 ** 24;

/** What the loop takes from the checked file: its trial (the step form's, built from its steps) and its calls. */
type LoopSource = Pick<CheckedRuleFile, 'where' | 'setup' | 'outcomes' | 'read' | 'fail' | 'call'> & {
  trial: Function;
};

type Bad = (slot: number, value: unknown, trialIndex: number, both: boolean) => never;
type Failed = (error: unknown, trialIndex: number) => never;

type ChunkLoop = (
  trial: Function,
  dice: ChunkDice,
  params: Params,
  out: Record<string, unknown>,
  prepared: unknown,
  trials: number,
  tally: Float64Array,
  sums: Float64Array,
  bad: Bad,
  failed: Failed,
) => void;

interface CompiledLoop {
  makeOut: () => Record<string, unknown>;
  run: ChunkLoop;
}

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

/** A rule file's chunks, simulated: one per rule file, its per-parameter-set state kept between chunks. */
export class ChunkLoops {
  readonly #source: LoopSource;
  readonly #states = new Map<string, ChunkState>();
  readonly #dice = new ChunkDice(new TycheStream().random);

  constructor(source: LoopSource) {
    this.#source = source;
  }

  simulate(p: Params, layout: TallyLayout, rng: Rng, trials: number, tally: Float64Array): void {
    const { where, fail, trial } = this.#source;
    const state = this.#state(p, layout);
    const { out, sums } = state;
    sums.fill(0);
    const dice = this.#dice;
    dice.rng = rng;
    const bad: Bad = (slot, value, trialIndex, both) => {
      // A trial that cut out's length short reads as metrics gone; it wrote a field that is not a metric.
      const stray = strayField(out, layout.metrics);
      if (stray !== null) fail(strayText('trial', stray, layout.metrics));
      return fail(badValueText(layout.metrics[slot], slot, value, `in trial ${trialIndex + 1} of a chunk`, both));
    };
    const failed: Failed = (error, trialIndex) => {
      this.#states.delete(JSON.stringify(p)); // its out object may hold a half-read trial
      if (isA(error, UsageError)) throw error;
      if (isA(error, BadDice))
        return fail(`${error.call}: ${error.what}: got ${describeValue(error.value)}; allowed: ${error.allowed}`);
      return fail(`trial threw ${describeError(error)} (trial ${trialIndex + 1} of a chunk)`);
    };
    // Marked once a chunk, not once a trial: the loop stays as fast as it was.
    const marked = enterRuleCall(where, 'trial(dice, params, out)');
    try {
      if (state.counts === null) {
        state.loop.run(trial, dice, state.params, out, state.prepared, trials, tally, sums, bad, failed);
        // A step-form trial looks for fields its steps added once a chunk too (steps.ts).
        (trial as { endChunk?: () => void }).endChunk?.();
      } else {
        this.#countOutcomes(state, layout, trials, failed);
        leaveRuleCall(marked);
        ruleCall(where, 'read(outcome, params, out, prepared)', () => this.#readOutcomes(state, layout, tally));
      }
    } finally {
      leaveRuleCall(marked);
    }
    // A trial that wrote a name that is not a metric has added a field; caught here, once a chunk.
    const stray = strayField(out, layout.metrics);
    if (stray !== null) {
      this.#states.delete(JSON.stringify(p));
      fail(strayText('trial', stray, layout.metrics));
    }
    addMeans(layout, sums, tally);
  }

  #state(p: Params, layout: TallyLayout): ChunkState {
    const { setup, outcomes: outcomesOf, call, fail } = this.#source;
    const states = this.#states;
    const key = JSON.stringify(p);
    let state = states.get(key);
    if (!state) {
      const frozen = Object.freeze({ ...p });
      const loop = chunkLoop(layout);
      const prepared = setup ? call('setup(params)', () => setup(frozen)) : undefined;
      let counts: Int32Array | null = null;
      if (outcomesOf) {
        const many = call('outcomes(params)', () => outcomesOf(frozen, prepared));
        // Past the cap is the file's mistake, not a fallback: its fallback is 0, a trial that writes its metrics.
        const histogram =
          Number.isSafeInteger(many) && (many as number) >= 0 ? outcomeHistogram(many as number, MAX_OUTCOMES) : null;
        if (histogram === null) {
          return fail(
            `outcomes(params): returned ${describeValue(many)}; allowed: a whole number of outcomes from 1 to ` +
              `${MAX_OUTCOMES}, or 0 to write each trial's metrics into out at these params`,
          );
        }
        if (histogram.outcomes > 0) counts = new Int32Array(histogram.outcomes);
      }
      state = { loop, out: loop.makeOut(), sums: new Float64Array(2 * layout.means), params: frozen, prepared, counts };
      // Kept for a hundred parameter sets, and for fewer when their outcome counts would hold more than 64 MB
      // (a sweep of a rule with a million outcomes a point would otherwise keep 4 MB a point).
      const held = [...states.values()].reduce((sum, kept) => sum + (kept.counts?.length ?? 0), 0);
      if (states.size > 100 || held + (counts?.length ?? 0) > HELD_OUTCOMES) states.clear();
      states.set(key, state);
    }
    return state;
  }

  /** The trials of a chunk when the rule counts outcomes: each trial returns its outcome, counted. */
  #countOutcomes(state: ChunkState, layout: TallyLayout, trials: number, failed: Failed): void {
    const { trial, fail } = this.#source;
    const dice = this.#dice;
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
      this.#states.delete(JSON.stringify(frozen));
      fail(
        `trial returned ${describeValue(outcome)} in trial ${t + 1} of a chunk; allowed: its outcome, a whole ` +
          `number from 0 to ${outcomes - 1} (outcomes(params) is ${outcomes})`,
      );
    }
    // Checked once a chunk: a trial that wrote a metric would otherwise have it read as the first outcome's.
    const written = writtenField(out, layout.metrics);
    if (written !== null) {
      this.#states.delete(JSON.stringify(frozen));
      fail(writtenText(written));
    }
  }

  /** Each outcome that happened, read once and counted as often as it happened, in outcome order. */
  #readOutcomes(state: ChunkState, layout: TallyLayout, tally: Float64Array): void {
    const { fail } = this.#source;
    const read = this.#source.read as Function;
    const counts = state.counts as Int32Array;
    const { params: frozen, out, prepared, sums } = state;
    const { slots, metrics } = layout;
    const forget = () => this.#states.delete(JSON.stringify(frozen));
    forEachOutcome({ outcomes: counts.length, at: 0 }, counts, (outcome, times) => {
      try {
        read(outcome, frozen, out, prepared);
      } catch (error) {
        forget();
        if (isA(error, UsageError)) throw error;
        fail(`read threw ${describeError(error)} (outcome ${outcome})`);
      }
      readOut(out, metrics, {
        count: (index, byName, byIndex) => count(slots[index], byName + byIndex, times, tally, sums),
        bad: (index, value, both) => {
          forget();
          return fail(badValueText(metrics[index], index, value, `from read(outcome ${outcome})`, both));
        },
      });
    });
  }
}

/**
 * Counts one trial's value of a metric (what out[name] and out[k] hold
 * together), `times` over: a probability's 1 into its tally entry, a mean's
 * value and square into the chunk's sums. The interpreted loop counts each
 * trial once with it, a rule that counts outcomes each outcome as often as
 * it happened; the compiled loop writes the same steps out as code.
 */
function count(slot: Slot, value: number, times: number, tally: Float64Array, sums: Float64Array): void {
  if (slot.probability) {
    if (value !== 0) tally[slot.offset] += times * value;
    return;
  }
  sums[slot.sum] += times * value;
  sums[slot.sum + 1] += times * value * value;
  const histogram = slot.histogram;
  // The value is a whole number in range (readOut checked it).
  if (histogram) tally[value > histogram.top ? histogram.beyond : histogram.at + value - histogram.min] += times;
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
function chunkLoop(layout: TallyLayout): CompiledLoop {
  const key = JSON.stringify(layout.slots.map((s) => [s.name, s.probability, s.offset, s.histogram]));
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
 * readOut (tally.ts) written out as code for one list of metrics:
 * each metric read by its name and by its position (the fast form for
 * computed names), checked, counted as their sum, and reset.
 */
function generatedLoop(layout: TallyLayout): CompiledLoop {
  const checks = layout.slots.map((slot, index) => {
    const [byName, byIndex] = [`out[${JSON.stringify(slot.name)}]`, `out[${index}]`];
    // Most trials write a metric one way: the second field costs a comparison unless it was written too.
    if (slot.probability) {
      const notProbability = (value: string) => `else if (${value} !== false) bad(${index}, ${value}, t, false);`;
      return (
        `a = ${byName}; b = ${byIndex}; ` +
        `if (a !== 0) { if (a === 1 || a === true) v = 1; else if (a === false) v = 0; else bad(${index}, a, t, ` +
        `false); ` +
        `${byName} = 0; ` +
        `if (b !== 0) { if (b === 1 || b === true) { if (v === 1) bad(${index}, 2, t, true); v = 1; } ` +
        `${notProbability('b')} ${byIndex} = 0; } ` +
        `tally[${slot.offset}] += v; } ` +
        `else if (b !== 0) { if (b === 1 || b === true) tally[${slot.offset}]++; ${notProbability('b')} ` +
        `${byIndex} = 0; }`
      );
    }
    const notMean = (value: string) =>
      `if (typeof ${value} !== 'number' || ${value} - ${value} !== 0) bad(${index}, ${value}, t, false);`;
    const add = (value: string) => `sums[${slot.sum}] += ${value}; sums[${slot.sum + 1}] += ${value} * ${value};`;
    const histogram = slot.histogram;
    if (histogram) {
      // Read as a mean, 0 when not written (w: both fields were), then checked whole and in range, and counted.
      const { min, max, top, at, beyond } = histogram;
      const above = max === null ? DISTRIBUTION_LIMIT : max;
      const counted =
        max === null
          ? `if (a > ${top}) tally[${beyond}]++; else tally[a + ${at - min}]++;`
          : `tally[a + ${at - min}]++;`;
      return (
        `a = ${byName}; b = ${byIndex}; w = false; ` +
        `if (a !== 0) { ${notMean('a')} ${byName} = 0; if (b !== 0) { ${notMean('b')} ${byIndex} = 0; a += b; ` +
        `w = true; } } ` +
        `else if (b !== 0) { ${notMean('b')} ${byIndex} = 0; a = b; } else a = 0; ` +
        `if (a < ${min} || a > ${above} || Math.floor(a) !== a) bad(${index}, a, t, w); ` +
        `${add('a')} ${counted}`
      );
    }
    return (
      `a = ${byName}; b = ${byIndex}; ` +
      `if (a !== 0) { ${notMean('a')} ${byName} = 0; if (b !== 0) { ${notMean('b')} ${byIndex} = 0; a += b; } ` +
      `${add('a')} } ` +
      `else if (b !== 0) { ${notMean('b')} ${byIndex} = 0; ${add('b')} }`
    );
  });
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
    `'use strict';\nlet t = 0, a, b, v, w;\ntry {\n  for (; t < trials; t++) {\n    trial(dice, params, out, ` +
      `prepared);\n    ${checks.join('\n    ')}\n  }\n} catch (error) { failed(error, t); }`,
  ) as ChunkLoop;
  return { run, makeOut: () => newOut(layout.metrics) };
}

function interpretedLoop(layout: TallyLayout): CompiledLoop {
  const { slots, metrics } = layout;
  return {
    makeOut: () => newOut(metrics),
    run(trial, dice, params, out, prepared, trials, tally, sums, bad, failed) {
      let t = 0;
      const reader = {
        count: (index: number, byName: number, byIndex: number) =>
          count(slots[index], byName + byIndex, 1, tally, sums),
        bad: (index: number, value: unknown, both: boolean) => bad(index, value, t, both),
      };
      try {
        for (; t < trials; t++) {
          trial(dice, params, out, prepared);
          readOut(out, metrics, reader);
        }
      } catch (error) {
        failed(error, t);
      }
    },
  };
}
