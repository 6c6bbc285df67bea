/**
 * Exact values of a procedure given as a chain of states (the step form of
 * a rule file, docs/custom-rules.md): every state reachable from the start
 * is found, each once — states are the same when their canonical texts are
 * (canonical-state.ts), so reserves with 20 squads over 12 rounds is a few
 * hundred states rather than 6^240 paths — and each state's step is
 * enumerated with replay dice (replay-dice.ts). The chain of states is then
 * solved exactly (absorbing-chain.ts), loops and all.
 *
 *   start ─► worklist: state ─step on every path─► next states, merged by text
 *                       └─ done(state) ─► final
 *   chain ─► solveChain ─► chance of each final state, expected step rewards
 */

import { UsageError } from '../errors.js';
import { formatCount } from '../text/count.js';
import { type Chain, shorten, solveChain } from './absorbing-chain.js';
import {
  canonicalState,
  type FlatShape,
  flatShape,
  frozenState,
  NotPlainJson,
  sameState,
  stateText,
} from './canonical-state.js';
import type { Fraction } from './fraction.js';
import { type ByValue, NextStates, type StateIndex } from './next-states.js';
import {
  type EnumeratingDice,
  forEachPath,
  leastPaths,
  NotEnumerable,
  type PathBudget,
  pastBudget,
  type Replay,
} from './replay-dice.js';
import { WeightSum } from './weight-sum.js';

const DEFAULT_STATES = 100_000;

/** A step's result: the next state, and what the step adds to each reward slot (null: nothing). */
interface StepResult {
  state: unknown;
  rewards: ReadonlyArray<readonly [bigint, bigint]> | null;
}

export interface StepProcedure {
  start: unknown;
  done(state: unknown): boolean;
  /**
   * The step on one path. With `into`, the result is written there and `into` returned: the enumerator keeps one
   * such object for each of a path's two runs rather than a new one a run (a fifth of the bytes a walk allocated).
   */
  step(state: unknown, dice: EnumeratingDice, into?: StepResult): StepResult;
  rewardSlots: number;
  /** At a decision point, whose decision and its options (checked); null where step rolls. */
  decide?(state: unknown): StepDecision | null;
  /** The state an option leads to (no dice). */
  choose?(state: unknown, option: string): unknown;
  /** Called once a state's step has been enumerated on every path: checks made once a state, not once a path. */
  explored?(): void;
}

export interface StepDecision {
  side: 'a' | 'b';
  options: readonly string[];
}

/** Every state reachable from the start, each once, with its step's successors or its decision's options. */
export interface StepGraph {
  /** Each state's canonical text; 0 is the start. */
  keys: string[];
  /** Each state as a step receives it (frozen). */
  frozen: unknown[];
  absorbing: boolean[];
  /** A chance state's successors, or a decision's target of each option, in the order of its options. */
  to: Int32Array[];
  /** A chance state's chance of each successor; empty at a decision and an ended state. */
  chances: WeightSum[][];
  /**
   * A chance state's expected reward of one step, per slot (a hole for a slot no path wrote); empty at a decision
   * and an ended state.
   */
  rewards: WeightSum[][];
  /** The decision at each state, or null. */
  decisions: Array<StepDecision | null>;
}

interface StepSolution {
  /**
   * Each final state (as a step receives it, frozen) with its chance of being where the procedure ends, integer over
   * integer, not reduced (the caller adds them up).
   */
  finals: Array<{ state: unknown; chance: WeightSum }>;
  rewards: Fraction[];
  steps: Fraction;
  states: number;
}

/** Thrown for a state that is not plain JSON: says which call returned it. */
export class BadState extends Error {
  constructor(
    readonly call: string,
    readonly problem: NotPlainJson,
    readonly from: string | null,
  ) {
    super(problem.message);
  }
}

/** One path of a step: the state it returned and what it wrote to each reward slot. */
interface Stepped {
  state: unknown;
  rewards: StepResult['rewards'];
}

/**
 * A step's two runs of a path must reach the same state and write the same rewards. They are compared by value:
 * first by `bothAt`, which finds both among the states the step reached last by their fields alone (matchFlat), then,
 * where it cannot tell, by sameState; no text is written for either. Where they differ, or the comparison cannot read
 * the second state, its text is written in full (`strictText`, which refuses a state that is not plain JSON by name)
 * and the texts compared.
 */
function stepReplay(
  textOf: (state: unknown) => string,
  strictText: (state: unknown) => string,
  bothAt: (first: unknown, second: unknown) => boolean,
): Replay<Stepped> {
  return {
    procedure: 'step',
    differ(first, second) {
      let same: boolean;
      try {
        same = bothAt(first.state, second.state) || sameState(first.state, second.state);
      } catch {
        same = false;
      }
      if (!same) {
        const kept = strictText(second.state);
        const other = textOf(first.state);
        if (other !== kept) return `went to ${shorten(other)}, then to ${shorten(kept)},`;
      }
      const a = first.rewards;
      const b = second.rewards;
      if (a === b) return null;
      const slots = Math.max(a?.length ?? 0, b?.length ?? 0);
      for (let slot = 0; slot < slots; slot++) {
        const mine = a?.[slot];
        const theirs = b?.[slot];
        // The same pair (the common case: both runs wrote one value, whose pair sums.ts keeps) is the same fraction.
        if (mine === theirs) continue;
        const [n, d] = mine ?? NO_REWARD;
        const [m, e] = theirs ?? NO_REWARD;
        if ((n !== m || d !== e) && n * e !== m * d)
          return `wrote ${n}/${d}, then ${m}/${e}, to metric ${slot} (out[${slot}]),`;
      }
      return null;
    },
  };
}

export function enumerateSteps(procedure: StepProcedure, budget: PathBudget, maxStates = DEFAULT_STATES): StepSolution {
  const graph = exploreSteps(procedure, budget, maxStates);
  const { keys, absorbing, to, chances, rewards, frozen } = graph;
  const { rewardSlots } = procedure;
  const name = (state: number) => keys[state];
  const chain: Chain = { size: keys.length, absorbing, to, chances, rewards, rewardSlots, name };
  const solved = solveChain(chain);
  const finals: StepSolution['finals'] = [];
  solved.endingWeights.forEach((chance, state) => {
    if (absorbing[state] && chance.numerator !== 0n) finals.push({ state: frozen[state], chance });
  });
  return { finals, rewards: solved.rewards, steps: solved.steps, states: keys.length };
}

/** The chain of states, found from the start: each state's step enumerated, or its decision's options chosen. */
export function exploreSteps(procedure: StepProcedure, budget: PathBudget, maxStates = DEFAULT_STATES): StepGraph {
  const keys: string[] = [];
  const frozen: unknown[] = [];
  // Each state's fields in the order its step wrote them, where all hold a plain value (matchFlat).
  const shapes: Array<FlatShape | null> = [];
  const indexOf = new Map<string, number>();
  const STRICT = 'step(state, dice, params)';
  // A step's next state as text by value (stateText); `kept`, the state itself, is checked in full (canonicalState)
  // the first time its text is seen, so every state of the chain has been checked once as plain JSON.
  const add = (text: string, kept?: { state: unknown; from: string }): number => {
    let index = indexOf.get(text);
    if (index === undefined) {
      if (kept !== undefined && textOf(kept.state, STRICT, kept.from) !== text) {
        throw new BadState(STRICT, new NotPlainJson('', 'read differently field by field'), kept.from);
      }
      if (keys.length >= maxStates) {
        const most = formatCount(maxStates);
        throw new NotEnumerable(
          `enumeration reaches more than ${most} states (the state ${shorten(text)} is one past it)`,
          'a state that keeps less (merge what no later step reads)',
        );
      }
      index = keys.length;
      keys.push(text);
      frozen.push(frozenState(text));
      shapes.push(flatShape(kept === undefined ? frozen[index] : kept.state, shapes[index - 1]));
      indexOf.set(text, index);
      if (kept !== undefined) ahead.found(index);
    }
    return index;
  };
  const ahead = new PathsAhead(procedure, frozen, budget);
  add(textOf(procedure.start, 'start(params)', null));

  const byValue: ByValue = { tries: 0, hits: 0, skipped: 0 };
  const absorbing: boolean[] = [];
  const to: Int32Array[] = [];
  const chances: WeightSum[][] = [];
  const rewards: WeightSum[][] = [];
  const decisions: Array<StepDecision | null> = [];
  for (let state = 0; state < keys.length; state++) {
    const current = frozen[state];
    const final = ended(procedure, current, keys[state], ahead.explore(state));
    absorbing.push(final);
    const decision = final || !procedure.decide ? null : procedure.decide(current);
    decisions.push(decision);
    if (final) {
      to.push(new Int32Array(0));
      chances.push([]);
      rewards.push([]);
      continue;
    }
    if (decision !== null) {
      to.push(Int32Array.from(decision.options, (option) => add(chosen(procedure, current, option, keys[state]))));
      chances.push([]);
      rewards.push([]);
      continue;
    }
    const from = keys[state];
    const [targets, inChances, expected] = stepOutcomes(procedure, current, budget, {
      add,
      frozen,
      shapes,
      from,
      byValue,
      textOf: (next) => {
        try {
          return stateText(next);
        } catch (error) {
          if (error instanceof NotPlainJson) throw new BadState(STRICT, error, from);
          throw error;
        }
      },
      strictText: (next) => textOf(next, STRICT, from),
      fatal: (error) => error instanceof BadState,
    });
    procedure.explored?.();
    to.push(targets);
    chances.push(inChances);
    rewards.push(expected);
  }
  return { keys, frozen, absorbing, to, chances, rewards, decisions };
}

/** A state's text (canonicalState), or, where it is not plain JSON, the refusal naming `call` and the state before. */
function textOf(state: unknown, call: string, from: string | null): string {
  try {
    return canonicalState(state);
  } catch (error) {
    if (error instanceof NotPlainJson) throw new BadState(call, error, from);
    throw error;
  }
}

/** The state an option leads to, as text: asked twice, as a step's paths are, so choose is a function of state. */
function chosen(proc: StepProcedure, current: unknown, option: string, from: string): string {
  const call = `choose(state, ${JSON.stringify(option)}, params)`;
  const first = textOf((proc.choose as Function)(current, option), call, from);
  const second = textOf((proc.choose as Function)(current, option), call, from);
  if (first !== second) {
    throw new UsageError(
      `the rule is not a function of its state: ${call} went to ${shorten(first)}, then to ${shorten(second)}, ` +
        `from the state ${shorten(from)}; best play needs a choose that depends only on state, option and params`,
    );
  }
  return first;
}

/**
 * A reward slot nothing was written to, 0/1: one pair, shared by the step form's reader (rule-files/sums.ts), since
 * a slot's pair is replaced, never changed.
 */
export const NO_REWARD = [0n, 1n] as const;

/**
 * The weight a step's paths carry to one next state. Paths in a row mostly carry the same weight (each path under
 * a die's faces weighs 1 of 6, and so on): those are counted with a number and added to the sum once, as one
 * product, rather than a sum of bigints a path (a tenth of a per-squad step's time, with its garbage).
 */
class Inflow {
  readonly sum = new WeightSum();
  numerator = 0n;
  denominator = 1n;
  times = 0;

  add(numerator: bigint, denominator: bigint): void {
    if (this.times > 0) {
      if (numerator === this.numerator && denominator === this.denominator) {
        this.times++;
        return;
      }
      this.flush();
    }
    this.numerator = numerator;
    this.denominator = denominator;
    this.times = 1;
  }

  flush(): WeightSum {
    if (this.times > 0)
      this.sum.add(this.times === 1 ? this.numerator : this.numerator * BigInt(this.times), this.denominator);
    this.times = 0;
    return this.sum;
  }
}

/**
 * One state's step on every path: each next state (by index, found as next-states.ts finds it) with its chance,
 * and the expected reward of the step per slot.
 */
function stepOutcomes(
  procedure: StepProcedure,
  current: unknown,
  budget: PathBudget,
  index: StateIndex,
): [Int32Array, WeightSum[], WeightSum[]] {
  const inflows = new Map<number, Inflow>();
  // A slot's sum made when the step first writes to it: a slot no path writes stays a hole, which solveChain's
  // forEach and decision-play's `list[slot]?.` pass over, rather than a zero sum a slot a state kept to the end.
  const expected: WeightSum[] = [];
  const states = new NextStates(index);
  // The state the last path reached, and where its weight went: the next path mostly reaches it too.
  let last = -1;
  let lastInflow: Inflow | undefined;
  // Each run's result in an object of its own (the replay compares the two), reused on every path.
  const firstRun: Stepped = { state: null, rewards: null };
  const secondRun: Stepped = { state: null, rewards: null };
  forEachPath(
    (dice, again): Stepped => procedure.step(current, dice, again ? secondRun : firstRun),
    (result, numerator, denominator) => {
      const next = states.find(result.state);
      if (next !== last) {
        last = next;
        lastInflow = inflows.get(next);
        if (!lastInflow) inflows.set(next, (lastInflow = new Inflow()));
      }
      (lastInflow as Inflow).add(numerator, denominator);
      const written = result.rewards;
      if (written) {
        for (let slot = 0; slot < written.length; slot++) {
          const reward = written[slot];
          if (reward[0] !== 0n)
            (expected[slot] ??= new WeightSum()).add(numerator * reward[0], denominator * reward[1]);
        }
      }
    },
    budget,
    stepReplay(index.textOf, index.strictText, (first, second) => states.bothAt(first, second)),
  );
  // Each next state and its chance, in the order first reached, as arrays (no iterator a state: Int32Array.from of
  // a map's keys was a few percent of a walk of small steps).
  const targets = new Int32Array(inflows.size);
  const chances: WeightSum[] = [];
  for (const [next, inflow] of inflows) {
    targets[chances.length] = next;
    chances.push(inflow.flush());
  }
  return [targets, chances, expected];
}

/**
 * Whether a state has ended: asked twice (the first answer may have been asked when the state was found), as each
 * path of a step is run twice, so done is a function of the state.
 */
function ended(procedure: StepProcedure, current: unknown, text: string, asked: boolean | undefined): boolean {
  const final = asked ?? procedure.done(current);
  if (procedure.done(current) !== final) {
    throw new UsageError(
      `the rule is not a function of its state: done(state) returned ${final}, then ${!final}, for the state ` +
        `${shorten(text)}; exact values need a rule whose done depends only on params and state`,
    );
  }
  return final;
}

/**
 * Refuses, before the walk, an enumeration that is sure to need more paths than its budget: each state a step
 * reaches is asked done when found and, if it has not ended, its step run once down its first branches
 * (leastPaths, replay-dice.ts), a lower bound on its paths. When the paths walked and the bounds of the states
 * found but not yet walked pass the budget, the budget is refused at once (2d6 reserves at 1,000 squads a round a
 * step: the 1,001 round-two states each bound n + 1 paths). The bounds are never more than the paths the states
 * will take, so what finishes within the budget is never refused. Not for a rule with decisions (a decision
 * state has no step to run).
 */
class PathsAhead {
  private readonly bound: number[] = [];
  private readonly answer: Array<boolean | undefined> = [];
  private sum = 0;
  constructor(
    readonly procedure: StepProcedure,
    readonly frozen: readonly unknown[],
    readonly budget: PathBudget,
  ) {}

  /** A state a step reached, found now. */
  found(index: number): void {
    const { procedure } = this;
    if (procedure.decide) return;
    const state = this.frozen[index];
    const final = procedure.done(state);
    this.answer[index] = final;
    if (final) return;
    const least = leastPaths((dice) => procedure.step(state, dice), this.budget);
    this.bound[index] = least;
    this.sum += least;
    if (this.budget.used + this.sum > this.budget.paths) throw pastBudget(this.budget);
  }

  /** The state about to be walked: its bound leaves the sum; done's answer when it was found, if asked. */
  explore(index: number): boolean | undefined {
    this.sum -= this.bound[index] ?? 0;
    return this.answer[index];
  }
}
