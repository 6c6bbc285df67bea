/**
 * `muster run reserves --set chosenRound=call [--objective EXPR]`: the chosen reserve round called in play
 * (src/rules/reserves/call.ts), solved exactly, with the policy in words and what calling in play is worth
 * against the best round declared before the game.
 *
 *   plan (the parameters with chosenRound=call, the objective read) ─► solve (best play, its metrics, every fixed
 *   round's objective) ─► assemble (a `run` result whose `decision` block holds the policy and the comparison)
 */

import type { Rule } from '../contract/types.js';
import type { SimulationSettings } from '../engine/settings.js';
import { UsageError } from '../errors.js';
import type { Fraction } from '../exact/fraction.js';
import { keyedRecord } from '../keyed.js';
import { envelope, type MetricResult, type ObjectiveResult, type PolicyResult, type RunResult } from '../result.js';
import { resolveParams } from '../rules/params.js';
import {
  type CallDecision,
  type CallSolution,
  callTable,
  simulateCall,
  solveReservesCall,
  summarizeCall,
} from '../rules/reserves/call.js';
import { reserves } from '../rules/reserves/reserves.js';
import type { Reserves } from '../rules/reserves/setup.js';
import { evaluateObjective, type Objective, parseObjective } from './objective.js';
import { simulateRunInThread } from './run-in-thread.js';

/** The value of chosenRound that asks for the round to be called in play. */
export const CALL = 'call';

const CALL_SETTING = /^\s*chosenRound\s*=\s*call\s*$/i;

/** Whether these --set assignments ask for the reserves call: `chosenRound=call`, on the reserves rule. */
export function asksForCall(rule: Rule, set: readonly string[]): boolean {
  return rule === (reserves as unknown as Rule) && set.some((assignment) => CALL_SETTING.test(assignment));
}

/** An exact value as the result JSON carries one. */
interface ExactValue {
  exact: number;
  fraction: string;
}

/** The `decision` block of a run with chosenRound=call (docs/json.md). */
export interface CallDecisionResult {
  param: 'chosenRound';
  value: typeof CALL;
  objective: string;
  weights: { metric: string; weight: string }[];
  constant: string;
  /** The objective under the best play. */
  best: ExactValue;
  /** Every decision state the best play reaches, in order of rounds. */
  policy: {
    round: number;
    out: number;
    commander: 'alive' | 'lost';
    reach: ExactValue;
    options: { option: 'wait' | 'call'; value: ExactValue }[];
    choice: 'wait' | 'call';
  }[];
  /** The objective with each round declared before the game (0: none). */
  fixed: { chosenRound: number; value: ExactValue }[];
  /** The best of those (the earliest among equals). */
  bestFixed: { chosenRound: number; value: ExactValue };
  /** best − bestFixed.value: what calling in play is worth. */
  worth: ExactValue;
  /** The answer in words, one sentence an entry. */
  summary: string[];
}

export interface CallResult extends RunResult {
  decision: CallDecisionResult;
}

const exactValue = (value: Fraction): ExactValue => ({ exact: value.toNumber(), fraction: value.toString() });

/** A call solved: the result, and what simulating its play needs. */
interface SolvedCall {
  result: CallResult;
  base: Reserves;
  names: string[];
  solution: CallSolution;
}

/** Solves the call at the parameters of `set` (chosenRound=call among them) for the objective (default all.by.R). */
export function solveCall(rule: Rule, set: readonly string[], objectiveText: string | undefined): CallResult {
  return solveCallParts(rule, set, objectiveText).result;
}

/** The call solved, with every metric's exact value under best play as a fraction (a comparison's differences). */
export function solveCallExact(
  rule: Rule,
  set: readonly string[],
  objectiveText: string | undefined,
): { result: CallResult; exact: Record<string, Fraction> } {
  const { result, names, solution } = solveCallParts(rule, set, objectiveText);
  return { result, exact: Object.fromEntries(names.map((name) => [name, solution.metrics.get(name) as Fraction])) };
}

function solveCallParts(rule: Rule, set: readonly string[], objectiveText: string | undefined): SolvedCall {
  const base = resolveParams(
    rule,
    set.map((assignment) => (CALL_SETTING.test(assignment) ? 'chosenRound=0' : assignment)),
  ) as unknown as Reserves;
  const names = reserves.metrics(base).map((metric) => metric.name);
  const objective = parseObjective(objectiveText ?? `all.by.${base.rounds}`, names);
  const solution = solveReservesCall(base, objective, names);
  const fixed = fixedRounds(base, objective);
  const bestFixed = fixed.reduce((best, next) => (next.value.compare(best.value) > 0 ? next : best));
  const worth = solution.value.sub(bestFixed.value);
  const metrics = keyedRecord<MetricResult>(
    names.map((name) => {
      const value = solution.metrics.get(name) as Fraction;
      return [name, { estimate: null, lo: null, hi: null, exact: value.toNumber(), fraction: value.toString() }];
    }),
  );
  const summary = [
    `Called in play, ${objective.text} is ${formatValue(solution.value)} under the best play.`,
    ...policyWords(solution.decisions, base),
    worth.numerator === 0n
      ? `Calling in play is worth exactly nothing over declaring ${roundWords(bestFixed.chosenRound)} before the ` +
        `game (${formatValue(bestFixed.value)})${whyNothing(base)}.`
      : `Calling in play is worth ${worth.numerator > 0n ? '+' : ''}${formatValue(worth)} over the best round ` +
        `declared before the game, ${roundWords(bestFixed.chosenRound)} (${formatValue(bestFixed.value)}).`,
  ];
  const result: CallResult = {
    ...envelope('run', rule),
    source: rule.source,
    params: { ...base, chosenRound: CALL },
    seed: '',
    stream: null,
    trials: 0,
    threads: 0,
    confidence: 1,
    method: 'exact',
    partial: false,
    metrics,
    ...genericDecisions(base, objective.text, solution, fixed),
    decision: {
      param: 'chosenRound',
      value: CALL,
      objective: objective.text,
      weights: [...objective.weights].map(([metric, weight]) => ({ metric, weight: weight.toString() })),
      constant: objective.constant.toString(),
      best: exactValue(solution.value),
      policy: solution.decisions.map((decision) => ({
        round: decision.round,
        out: decision.out,
        commander: decision.alive ? 'alive' : 'lost',
        reach: exactValue(decision.reach),
        options: [
          { option: 'wait', value: exactValue(decision.wait) },
          { option: 'call', value: exactValue(decision.call) },
        ],
        choice: decision.choice,
      })),
      fixed: fixed.map(({ chosenRound, value }) => ({ chosenRound, value: exactValue(value) })),
      bestFixed: { chosenRound: bestFixed.chosenRound, value: exactValue(bestFixed.value) },
      worth: exactValue(worth),
      summary,
    },
  };
  return { result, base, names, solution };
}

/** The objective with each round declared before the game (0: none), from reserves.ts's exact values. */
function fixedRounds(base: Reserves, objective: Objective): { chosenRound: number; value: Fraction }[] {
  const rounds = [0, ...Array.from({ length: base.rounds - base.firstRound + 1 }, (_, i) => base.firstRound + i)];
  const exactOf = reserves.exact?.values;
  if (exactOf === undefined) throw new Error('reserves has no exact solution');
  return rounds.map((chosenRound) => {
    const values = exactOf({ ...base, chosenRound });
    return { chosenRound, value: evaluateObjective(objective, (metric) => values[metric]) };
  });
}

/**
 * The same best play in the generic form every rule with decisions has (docs/json.md): the options in the order
 * the rule-file port examples/rules/reserves-call-steps.mjs lists them, call first (a tie calls), its states and
 * labels; always the first option is calling at the first round that rolls, always the last never calling.
 */
function genericDecisions(
  base: Reserves,
  objectiveText: string,
  solution: CallSolution,
  fixed: readonly { chosenRound: number; value: Fraction }[],
): { objective: ObjectiveResult; policy: PolicyResult[] } {
  const fateShown = base.leaderLoss > 0 && base.command !== base.fallbackCommand;
  const generic = (value: Fraction) => ({ fraction: value.toString(), value: value.toNumber() });
  const fixedAt = (chosenRound: number) =>
    (fixed.find((row) => row.chosenRound === chosenRound) as { value: Fraction }).value;
  const objective: ObjectiveResult = {
    metric: objectiveText,
    ...generic(solution.value),
    alwaysFirst: generic(fixedAt(base.firstRound)),
    alwaysLast: generic(fixedAt(0)),
  };
  const policy: PolicyResult[] = solution.decisions.map((decision) => ({
    state: { round: decision.round, out: decision.out, alive: decision.alive },
    label:
      `round ${decision.round}, ${decision.out} squad${decision.out === 1 ? '' : 's'} out` +
      (fateShown ? `, commander ${decision.alive ? 'alive' : 'lost'}` : ''),
    side: 'a',
    choice: decision.choice,
    options: [
      { option: 'call', ...generic(decision.call) },
      { option: 'wait', ...generic(decision.wait) },
    ],
  }));
  return { objective, policy };
}

/**
 * The call simulated: its best play solved exactly first, then `settings.trials` trials that play it
 * (src/rules/reserves/call.ts simulateCall), each metric's estimate beside its exact value under that play. Chunk k
 * draws from the stream of (seed, reserves, k), chunk after chunk on this thread (run-in-thread.ts: workers know
 * only the registry's rules), so the result is the same whatever --threads says.
 */
export async function simulateCallRun(
  rule: Rule,
  set: readonly string[],
  objectiveText: string | undefined,
  settings: SimulationSettings,
  options: { signal?: AbortSignal; onProgress?: (done: number, target: number) => void } = {},
): Promise<CallResult> {
  const { result, base, names, solution } = solveCallParts(rule, set, objectiveText);
  const calls = callTable(base, solution.decisions);
  const exact = Object.fromEntries(names.map((name) => [name, solution.metrics.get(name) as Fraction]));
  const read = (tally: Float64Array, trials: number) => rule.tally.summarize(base, tally, trials);
  // reserves, its trials playing the policy: its tally, its metrics, the exact values under the same play.
  const playing: Rule = {
    ...rule,
    tally: {
      ...rule.tally,
      simulate: (_, rng, trials, tally) => simulateCall(base, calls, rng, trials, tally),
      summarize: (_, tally, trials) => summarizeCall(base, tally, trials, read),
      check: undefined,
    },
    exact: { ...rule.exact, values: () => exact, distributions: undefined },
  };
  // The trials run here, chunk after chunk: the result names the one thread that ran them.
  const simulated = await simulateRunInThread(playing, base, { ...settings, threads: 1 }, options);
  const { objective, policy, decision } = result;
  return { ...simulated, params: { ...base, chosenRound: CALL }, objective, policy, decision };
}

/** What --exact refuses: every simulation setting. */
const SIMULATION_OPTIONS = ['trials', 'threads', 'confidence', 'stream'] as const;
/** What a call refuses either way: an adaptive run, a checkpoint, a watchdog, report files. */
const NEVER_OPTIONS = ['precision', 'maxTrials', 'timeout', 'checkpoint', 'html', 'svg', 'csv'] as const;

/**
 * Refuses what a call cannot honour, naming the option: solved (`exact`), any simulation setting; simulated, an
 * adaptive run, a checkpoint, a watchdog and report files (its trials are few and fast, its report is the terminal's
 * and --json's).
 */
export function checkCallOptions(options: Record<string, unknown>, exact: boolean): void {
  const flag = (option: string) => `--${option.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
  for (const option of exact ? [...NEVER_OPTIONS, ...SIMULATION_OPTIONS] : NEVER_OPTIONS) {
    if (options[option] !== undefined)
      throw new UsageError(
        exact
          ? `${flag(option)}: chosenRound=call with --exact is solved, with no simulation or report files; ` +
              'allowed: --objective, --json, --set'
          : `${flag(option)}: chosenRound=call simulates a fixed number of trials, with no report files; ` +
              'allowed: --trials, --seed, --stream, --threads, --confidence, --objective, --json, --set',
      );
  }
}

function formatValue(value: Fraction): string {
  const text = value.toString();
  const decimal = value.toNumber().toFixed(6);
  return text.includes('/') ? `${decimal} = ${text}` : text;
}

function roundWords(chosenRound: number): string {
  return chosenRound === 0 ? 'no chosen round' : `round ${chosenRound}`;
}

function whyNothing(p: Reserves): string {
  const fateFixed = p.leaderLoss === 0 || p.command === p.fallbackCommand;
  return fateFixed
    ? ': the squads roll independently and the bonus is certain, so what the player sees never changes which ' +
        'round is best'
    : '';
}

/**
 * The policy in words: for the commander alive (then lost, where that can happen), each round with a decision,
 * when the player calls. A threshold reads "call if 3 or more squads are still out".
 */
function policyWords(decisions: readonly CallDecision[], p: Reserves): string[] {
  const lines: string[] = [];
  const fates = p.leaderLoss > 0 && p.command !== p.fallbackCommand ? [true, false] : [true];
  for (const alive of fates) {
    const parts: string[] = [];
    const rounds = [...new Set(decisions.filter((d) => d.alive === alive).map((d) => d.round))];
    let waiting: number[] = [];
    const flush = () => {
      if (waiting.length > 0)
        parts.push(
          waiting.length === 1
            ? `round ${waiting[0]}: wait`
            : `rounds ${waiting[0]}–${waiting[waiting.length - 1]}: wait`,
        );
      waiting = [];
    };
    for (const round of rounds) {
      const here = decisions.filter((d) => d.alive === alive && d.round === round);
      const calls = here.filter((d) => d.choice === 'call').map((d) => d.out);
      const waits = here.filter((d) => d.choice === 'wait').map((d) => d.out);
      if (calls.length === 0) {
        waiting.push(round);
        continue;
      }
      flush();
      if (waits.length === 0) parts.push(`round ${round}: call, whatever is still out`);
      else if (Math.min(...calls) > Math.max(...waits))
        parts.push(`round ${round}: call if ${Math.min(...calls)} or more squads are still out, else wait`);
      else if (Math.max(...calls) < Math.min(...waits))
        parts.push(
          `round ${round}: call if at most ${Math.max(...calls)} ` +
            `${Math.max(...calls) === 1 ? 'squad is' : 'squads are'} still out, else wait`,
        );
      else
        parts.push(
          `round ${round}: call with ${calls.sort((x, y) => x - y).join(', ')} still out; wait with ` +
            `${waits.sort((x, y) => x - y).join(', ')}`,
        );
    }
    flush();
    const who = fates.length === 1 ? 'Best play' : alive ? 'With the commander alive' : 'Once the commander is lost';
    lines.push(`${who}: ${parts.length > 0 ? parts.join('; ') : 'no call to make'}.`);
  }
  return lines;
}
