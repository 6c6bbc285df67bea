/**
 * Exact values for a rule file that has no `exact()`: its own procedure
 * enumerated (docs/custom-rules.md, "Exact without writing it").
 *
 *   trial form: the trial run on every sequence of dice results
 *               (replay-dice.ts), each metric summed with the path's weight;
 *               a rule that counts outcomes sums each outcome's weight, then
 *               reads each outcome once
 *   step form:  the chain of states enumerated and solved
 *               (enumerate-steps.ts); report read once per final state,
 *               what steps write summed as expected rewards
 *
 * A value a trial writes is checked as the simulation checks it; a mean's
 * double is read as the fraction it stands for (double-value.ts). Beyond
 * the budget, or at dice.random(), a NotEnumerable error (a UsageError: one
 * line, exit 2) says so — never a truncated value.
 */

import type { MetricSpec, Params, PolicyEntry, RuleDecisions } from '../contract/types.js';
import { UsageError } from '../errors.js';
import { valuesUnderPlay, weightedGame } from '../exact/decision-play.js';
import { solveDecisions, valueOfPlay } from '../exact/decisions.js';
import { enumerateSteps, exploreSteps, type StepGraph, type StepProcedure } from '../exact/enumerate-steps.js';
import type { ExactDistribution } from '../exact/exact-distribution.js';
import type { Fraction } from '../exact/fraction.js';
import { type ObjectiveTerms, objectiveTerms } from '../exact/objective.js';
import {
  DEFAULT_PATHS,
  type EnumeratingDice,
  forEachPath,
  NotEnumerable,
  pathBudget,
  type Replay,
} from '../exact/replay-dice.js';
import { WeightSum } from '../exact/weight-sum.js';
import { isA } from '../guard/rule-text.js';
import { decisionOf, type StepForm } from './steps.js';
import { type EnumerationContext, guarded, MetricSums, shortText, stepProcedure } from './sums.js';
import { newOut, strayField, strayText, writtenField, writtenText } from './tally.js';

/** What makes a trial enumerable past its budget: no flag here (NotEnumerable.simulatedBy adds the command's). */
const TRIAL_INSTEAD =
  'the step form, which merges paths that reach the same state (docs/custom-rules.md, "Exact without writing it")';
/** A step-form rule is in the step form already: what helps is a state that merges more, or fewer dice a step. */
const STEP_INSTEAD = 'a state that keeps less (merge what no later step reads), or fewer dice in one step';
/** A step that repeats a roll within itself: the loop belongs in the states, where it is solved exactly. */
const STEP_LOOPS = 'a roll repeated until something happens as steps of its own (a loop of states is solved exactly)';

/**
 * rule.exact.enumerate for a rule file: each parameter set enumerated once and kept (a few sets), within `paths`
 * paths; a set found past a budget is remembered too, so asking again with that budget or less costs nothing.
 */
type Enumerate = (params: Params, paths?: number) => Record<string, Fraction>;

/** What one enumeration gives: every metric's exact value, each distribution metric's whole distribution, best play. */
interface Enumerated {
  values: Record<string, Fraction>;
  distributions: Record<string, ExactDistribution>;
  decisions?: RuleDecisions;
}

export interface EnumeratedExact {
  values: Enumerate;
  /** The distribution metrics' exact distributions, from the same enumeration (kept: asked after values, free). */
  distributions(params: Params, paths?: number): Record<string, ExactDistribution>;
  /** A rule with choices: best play at params (enumerated within `paths`, as the values are). */
  decisions(params: Params, paths?: number): RuleDecisions;
}

export function enumeratedExact(context: EnumerationContext): EnumeratedExact {
  const kept = new Map<string, Enumerated | { failed: NotEnumerable; paths: number }>();
  const enumerated = (params: Params, paths = DEFAULT_PATHS): Enumerated => {
    const key = JSON.stringify(params);
    const known = kept.get(key);
    if (known && !('failed' in known)) return known;
    if (known && paths <= (known.paths as number)) throw known.failed;
    const frozen = Object.freeze({ ...params });
    if (kept.size >= 16) kept.clear();
    try {
      const { form } = context;
      let found: Enumerated;
      if (form?.choices) found = enumerateDecisions(context, form, frozen, paths);
      else {
        const sums = form ? enumerateStepForm(context, form, frozen, paths) : enumerateTrial(context, frozen, paths);
        found = { values: sums.result(), distributions: sums.distributions() };
      }
      kept.set(key, found);
      return found;
    } catch (error) {
      if (isA(error, NotEnumerable)) kept.set(key, { failed: error, paths });
      throw error;
    }
  };
  return {
    values: (params, paths) => enumerated(params, paths).values,
    distributions: (params, paths) => enumerated(params, paths).distributions,
    decisions: (params, paths) => {
      const found = enumerated(params, paths).decisions;
      if (!found) throw new Error('decisions asked of a rule without choices');
      return found;
    },
  };
}

function enumerateTrial(context: EnumerationContext, params: Params, paths: number): MetricSums {
  const trial = context.trial as Function;
  const metrics = context.metrics(params);
  const { setup } = context;
  const prepared = setup ? guarded(context, 'setup(params)', () => setup(params)) : undefined;
  let outcomes = 0;
  if (context.outcomes) {
    const many = guarded(context, 'outcomes(params)', () => (context.outcomes as Function)(params, prepared));
    if (!(Number.isInteger(many) && (many as number) >= 0 && (many as number) <= context.maxOutcomes)) {
      context.fail(
        `outcomes(params): returned ${context.describe(many)}; allowed: a whole number of outcomes from 1 ` +
          `to ${context.maxOutcomes}, or 0 to write each trial's metrics into out at these params`,
      );
    }
    outcomes = many as number;
  }
  const sums = new MetricSums(metrics, context, outcomes > 0 ? 'read' : 'trial');
  const budget = pathBudget(TRIAL_INSTEAD, paths);
  // Each path is run twice (replay-dice.ts): first into a scratch out, then into the one that is summed.
  const replay = new TrialReplay(metrics, sums.out, context.describe, outcomes > 0, (stray) =>
    context.fail(strayText('trial', stray, metrics)),
  );
  const run = (dice: EnumeratingDice) => trial(dice, params, replay.nextOut(), prepared);
  if (outcomes === 0) {
    guarded(context, 'trial', () =>
      forEachPath(run, (_, numerator, denominator) => sums.collect(numerator, denominator), budget, replay),
    );
    return sums;
  }
  // Counting outcomes: each outcome's weight summed over the paths, then read once.
  const weights = new Map<number, WeightSum>();
  guarded(context, 'trial', () =>
    forEachPath(
      run,
      (outcome, numerator, denominator) => {
        if (!(Number.isInteger(outcome) && (outcome as number) >= 0 && (outcome as number) < outcomes)) {
          context.fail(
            `trial returned ${context.describe(outcome)} (while enumerating); allowed: its outcome, a ` +
              `whole number from 0 to ${outcomes - 1} (outcomes(params) is ${outcomes})`,
          );
        }
        const written = writtenField(sums.out, metrics);
        if (written !== null) context.fail(writtenText(written));
        let sum = weights.get(outcome as number);
        if (!sum) weights.set(outcome as number, (sum = new WeightSum()));
        sum.add(numerator, denominator);
      },
      budget,
      replay,
    ),
  );
  sums.checkNames();
  for (const outcome of [...weights.keys()].sort((a, b) => a - b)) {
    const weight = weights.get(outcome) as WeightSum;
    guarded(context, `read(outcome ${outcome})`, () => (context.read as Function)(outcome, params, sums.out, prepared));
    sums.collect(weight.numerator, weight.denominator, `read(outcome ${outcome})`);
  }
  return sums;
}

/**
 * The two runs of a trial's path: the first writes into a scratch out, the
 * second into the out that is summed; they must write the same fields with
 * the same values (Object.is) and, when the trial counts outcomes, return
 * the same outcome. The scratch out is made anew for every path.
 */
class TrialReplay implements Replay<unknown> {
  readonly procedure = 'trial';
  private scratch: Record<string, unknown>;
  private first = true;
  constructor(
    readonly metrics: readonly MetricSpec[],
    readonly out: Record<string, unknown>,
    readonly describe: (value: unknown) => string,
    readonly returns: boolean,
    readonly onStray: (stray: string) => never,
  ) {
    this.scratch = newOut(metrics);
  }

  nextOut(): Record<string, unknown> {
    this.first = !this.first;
    return this.first ? this.out : this.scratch;
  }

  differ(first: unknown, second: unknown): string | null {
    const { scratch, out } = this;
    this.scratch = newOut(this.metrics);
    this.first = true;
    // A name that is no metric is the trial's own fault, said as such before any difference it makes on replay
    // (the summed out keeps what a stray write left, such as a length grown by push).
    const stray = strayField(scratch, this.metrics);
    if (stray !== null) this.onStray(stray);
    if (this.returns && !Object.is(first, second)) {
      return `returned ${this.describe(first)}, then ${this.describe(second)},`;
    }
    for (const key of new Set([...Object.keys(scratch), ...Object.keys(out)])) {
      if (!Object.is(scratch[key], out[key])) {
        const name = /^\d+$/.test(key) ? `out[${key}]` : `out${JSON.stringify([key])}`;
        return `wrote ${name} = ${this.describe(scratch[key])}, then ${this.describe(out[key])},`;
      }
    }
    return null;
  }
}

function enumerateStepForm(context: EnumerationContext, form: StepForm, params: Params, paths: number): MetricSums {
  const metrics = context.metrics(params);
  const { setup } = context;
  const prepared = setup ? guarded(context, 'setup(params)', () => setup(params)) : undefined;
  const procedure = stepProcedure(context, form, params, metrics, prepared);
  const budget = pathBudget(STEP_INSTEAD, paths, undefined, STEP_LOOPS);
  const solution = guarded(context, 'step', () => enumerateSteps(procedure, budget));
  const sums = new MetricSums(metrics, context, 'report');
  for (const { state, chance } of solution.finals) {
    guarded(context, 'report(state, params, out)', () => form.report(state, params, sums.out, prepared));
    sums.collect(chance.numerator, chance.denominator);
  }
  sums.extra = solution.rewards;
  return sums;
}

/**
 * A rule with choices (docs/custom-rules.md, "Decisions"): its chain of states explored with every option of every
 * decision, best play for the objective solved exactly (src/exact/decisions.ts), then every metric under that play
 * (the chain with each decision fixed, solved as an absorbing chain), and the objective under the two simple plays.
 */
function enumerateDecisions(context: EnumerationContext, form: StepForm, params: Params, paths: number): Enumerated {
  const metrics = context.metrics(params);
  const objective = String(params.objective);
  // A metric, or a weighted sum of them (src/exact/objective.ts): each metric's slot and exact weight.
  const weights = objectiveWeights(context, objective, metrics);
  const { setup } = context;
  const prepared = setup ? guarded(context, 'setup(params)', () => setup(params)) : undefined;
  const choices = form.choices as Function;
  const choose = form.choose as Function;
  const procedure: StepProcedure = {
    ...stepProcedure(context, form, params, metrics, prepared),
    decide: (state) => {
      const given = guarded(context, 'choices(state, params)', () => choices(state, params, prepared));
      return decisionOf(given, () => shortText(JSON.stringify(state)), context.fail, context.describe);
    },
    choose: (state, option) =>
      guarded(context, `choose(state, ${JSON.stringify(option)}, params)`, () =>
        choose(state, option, params, prepared),
      ),
  };
  const graph: StepGraph = guarded(context, 'step', () => exploreSteps(procedure, pathBudget(STEP_INSTEAD, paths)));
  // Each ended state's metrics, read once from report.
  const sums = new MetricSums(metrics, context, 'report');
  const ended: Fraction[][] = graph.absorbing.map((final, state) => {
    if (!final) return [];
    guarded(context, 'report(state, params, out)', () => form.report(graph.frozen[state], params, sums.out, prepared));
    sums.collect(1n, 1n);
    const values = sums.sums.map((sum) => sum.toFraction());
    for (const sum of sums.sums) {
      sum.numerator = 0n;
      sum.denominator = 1n;
    }
    return values;
  });
  sums.checkNames();
  const game = weightedGame(graph, ended, weights);
  const solution = guarded(context, 'step', () => solveDecisions(game));
  // The chain best play follows, solved: every metric under that play.
  const { order, values } = guarded(context, 'step', () =>
    valuesUnderPlay(
      graph,
      solution.choice,
      metrics.map((metric) => metric.name),
      ended,
    ),
  );
  const fixed = (pick: (options: number) => number) =>
    valueOfPlay(
      game,
      Int32Array.from(graph.decisions, (decision) => (decision === null ? -1 : pick(decision.options.length))),
    );
  const decisions: RuleDecisions = {
    objective,
    value: solution.value[0] as Fraction,
    alwaysFirst: fixed(() => 0),
    alwaysLast: fixed((options) => options - 1),
    ...policyOf(context, graph, order, solution, params),
  };
  return { values, distributions: {}, decisions };
}

/** The policy table and the play simulation follows: each decision best play reaches, the option it takes. */
function policyOf(
  context: EnumerationContext,
  graph: StepGraph,
  order: readonly number[],
  solution: { choice: ArrayLike<number>; optionValues: Array<Array<Fraction | null>> },
  params: Params,
): { policy: PolicyEntry[]; play: Map<string, string> } {
  const policy: PolicyEntry[] = [];
  const play = new Map<string, string>();
  for (const state of order) {
    const decision = graph.decisions[state];
    if (decision === null) continue;
    const choice = decision.options[solution.choice[state]];
    play.set(graph.keys[state], choice);
    policy.push({
      state: graph.frozen[state],
      label: labelOf(context, graph.frozen[state], graph.keys[state], params),
      side: decision.side,
      choice,
      options: decision.options.map((option, o) => ({ option, value: solution.optionValues[state][o] })),
    });
  }
  return { policy, play };
}

/** The objective read against the metrics (src/exact/objective.ts), its mistake one line naming the file. */
function objectiveWeights(context: EnumerationContext, text: string, metrics: readonly MetricSpec[]): ObjectiveTerms {
  try {
    return objectiveTerms(
      text,
      metrics.map((metric) => metric.name),
    );
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return context.fail(error.message);
  }
}

/** A decision state in words: the rule's label(state, params), else its compact JSON (at most 200 characters). */
function labelOf(context: EnumerationContext, state: unknown, text: string, params: Params): string {
  const label = context.label;
  if (!label) return text.length > 200 ? `${text.slice(0, 197)}...` : text;
  const words = guarded(context, 'label(state, params)', () => label(state, params));
  if (typeof words !== 'string' || words.trim() === '' || words.length > 200)
    context.fail(`label(state, params): returned ${context.describe(words)}; allowed: text of 1 to 200 characters`);
  return (words as string).replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();
}
