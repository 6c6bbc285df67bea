/**
 * What the enumeration of a rule file without `exact()` shares between its
 * forms (file-rule-exact.ts): the rule's calls guarded into one line each,
 * metric sums over weighted paths or final states, and the step form's
 * functions as the enumerator calls them.
 */

import type { MetricSpec, Params } from '../contract/types.js';
import { UsageError } from '../errors.js';
import { PLAIN_JSON } from '../exact/canonical-state.js';
import { rationalOf } from '../exact/double-value.js';
import { BadState, NO_REWARD, type StepProcedure } from '../exact/enumerate-steps.js';
import { distributionOf, type ExactDistribution } from '../exact/exact-distribution.js';
import type { Fraction } from '../exact/fraction.js';
import { NotEnumerable } from '../exact/replay-dice.js';
import { WeightSum } from '../exact/weight-sum.js';
import { describeError, isA } from '../guard/rule-text.js';
import { keyedRecord } from '../keyed.js';
import { type StepForm, stepOut, stepReader } from './steps.js';
import { badValueText, newOut, readOut, strayField, strayText } from './tally.js';

export interface EnumerationContext {
  /** How messages name the rule: "<file> (rule <id>)". */
  where: string;
  trial: Function | null;
  form: StepForm | null;
  setup: Function | undefined;
  outcomes: Function | undefined;
  read: Function | undefined;
  metrics(params: Params): MetricSpec[];
  fail(what: string): never;
  describe(value: unknown): string;
  maxOutcomes: number;
  /** A rule with choices: label(state, params), the policy table's words for a state. */
  label?: Function;
}

/** Calls a rule's function, turning what it throws into one line naming the call. */
export function guarded<T>(context: EnumerationContext, call: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (isA(error, NotEnumerable)) {
      throw error.where === context.where ? error : error.at(context.where);
    }
    if (isA(error, BadState)) {
      return context.fail(
        `${error.call} returned a state that is not plain JSON: ` +
          `${error.problem.message}${error.from ? ` (${error.call.startsWith('choose') ? 'a choice' : 'a step'} from ${shortText(error.from)})` : ''}; allowed: ${PLAIN_JSON}`,
      );
    }
    if (isA(error, UsageError)) {
      if (error.message.startsWith(context.where)) throw error;
      return context.fail(error.message);
    }
    return context.fail(`${call} threw ${describeError(error)} (while enumerating its dice)`);
  }
}

export const shortText = (text: string) => (text.length > 100 ? `${text.slice(0, 97)}...` : text);

/** Metric sums over paths (or outcomes, or final states), each term a weight times a value. */
export class MetricSums {
  readonly sums: WeightSum[];
  /** A distribution metric's chance of each value (null for the others). */
  readonly chances: Array<Map<number, WeightSum> | null>;
  readonly out: Record<string, unknown>;
  /** What steps add to the means (the step form's expected rewards), kept for result(). */
  extra: readonly Fraction[] | undefined;
  constructor(
    readonly metrics: readonly MetricSpec[],
    readonly context: EnumerationContext,
    readonly from: string,
  ) {
    this.sums = metrics.map(() => new WeightSum());
    this.chances = metrics.map((metric) => (metric.distribution ? new Map<number, WeightSum>() : null));
    this.out = newOut(metrics);
  }

  /**
   * Reads, checks and resets what was written into out (readOut), adding each value times numerator/denominator;
   * `from` names the call that wrote it, as the simulation names it.
   */
  collect(numerator: bigint, denominator: bigint, from = this.from): void {
    const { out, metrics, sums } = this;
    const chances = this.chances;
    readOut(out, metrics, {
      count(index, byName, byIndex) {
        if (metrics[index].probability) {
          if (byName + byIndex === 1) sums[index].add(numerator, denominator);
          return;
        }
        const ofValue = chances[index];
        if (ofValue) {
          const value = byName + byIndex;
          let chance = ofValue.get(value);
          if (!chance) ofValue.set(value, (chance = new WeightSum()));
          chance.add(numerator, denominator);
        }
        for (const value of [byName, byIndex]) {
          if (value === 0) continue;
          const [n, d] = rationalOf(value);
          sums[index].add(numerator * n, denominator * d);
        }
      },
      bad: (index, value, both) => {
        // As in simulation: a trial that cut out's length short reads as metrics gone.
        this.checkNames(from);
        return this.context.fail(badValueText(metrics[index], index, value, `from ${from} (while enumerating)`, both));
      },
    });
  }

  /** A name that is not a metric, once written, stays in out: looked for once, at the end. */
  checkNames(from = this.from): void {
    const stray = strayField(this.out, this.metrics);
    if (stray !== null) this.context.fail(strayText(from, stray, this.metrics));
  }

  result(): Record<string, Fraction> {
    this.checkNames();
    const { extra } = this;
    const values: Record<string, Fraction> = {};
    this.metrics.forEach((metric, index) => {
      const value = this.sums[index].toFraction();
      values[metric.name] = extra ? value.add(extra[index]) : value;
    });
    return values;
  }

  /** Each distribution metric's exact distribution (steps never write one: report's values are the whole of it). */
  distributions(): Record<string, ExactDistribution> {
    const found = keyedRecord<ExactDistribution>();
    this.metrics.forEach((metric, index) => {
      const ofValue = this.chances[index];
      if (!ofValue) return;
      const chances = new Map<number, Fraction>();
      for (const [value, chance] of ofValue) chances.set(value, chance.toFraction());
      found[metric.name] = distributionOf(chances);
    });
    return found;
  }
}

/** The step form's four functions as the enumerator calls them (enumerate-steps.ts), at params. */
export function stepProcedure(
  context: EnumerationContext,
  form: StepForm,
  params: Params,
  metrics: readonly MetricSpec[],
  prepared: unknown,
): StepProcedure {
  const start = guarded(context, 'start(params)', () => form.start(params, prepared));
  const out = stepOut(metrics);
  // What the step in progress wrote, as fractions (null while it wrote nothing).
  let rewards: Array<readonly [bigint, bigint]> | null = null;
  // The value last written and its fraction: a step mostly writes the same value on every path (1 a roll).
  let lastValue = Number.NaN;
  let lastRational: readonly [bigint, bigint] = NO_REWARD;
  const readStep = stepReader(
    metrics,
    (index, value) => {
      rewards ??= metrics.map(() => NO_REWARD);
      if (value !== lastValue) {
        lastValue = value;
        lastRational = rationalOf(value);
      }
      const [before, beforeDenominator] = rewards[index];
      // Nothing written before in this step (0/1): the sum is the value itself, without four bigint products, and
      // the pair itself, so that both runs of a path that wrote the same value hold the same pair (enumerate-steps.ts
      // compares them by identity first).
      if (before === 0n && beforeDenominator === 1n) {
        rewards[index] = lastRational;
        return;
      }
      const [n, d] = lastRational;
      rewards[index] = [before * d + n * beforeDenominator, beforeDenominator * d];
    },
    context.fail,
    false,
  );
  return {
    start,
    rewardSlots: metrics.length,
    done: (state) => {
      const ended = guarded(context, 'done(state, params)', () => form.done(state, params, prepared));
      if (typeof ended !== 'boolean')
        context.fail(`done(state, params): returned ${context.describe(ended)}; allowed: true or false`);
      return ended as boolean;
    },
    step: (state, dice, into) => {
      const next = form.step(state, dice, params, out, prepared);
      rewards = null;
      readStep(out);
      if (into === undefined) return { state: next, rewards };
      into.state = next;
      into.rewards = rewards;
      return into;
    },
    explored: () => strayCheck(context, out, metrics),
  };
}

/**
 * A field a step added to its out, named in one line: looked for once a state's step has run on every path (a
 * stray field, once written, stays in out), not on every path (Object.keys of out a path, measured 8% of a step).
 */
function strayCheck(context: EnumerationContext, out: Record<string, unknown>, metrics: readonly MetricSpec[]): void {
  const stray = strayField(out, metrics);
  if (stray !== null) {
    delete out[stray];
    context.fail(strayText('step', stray, metrics));
  }
}
