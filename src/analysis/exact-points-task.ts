/**
 * A grid's exact points solved on the pool's threads: the task a worker is sent (a few points of one grid), the
 * answer it sends back, and both ends of the trip.
 *
 *   solve-points.ts ─► exactPointsTask ─► pool.runOther ─► worker: solveExactPoints (solvePoint each)
 *                   ◄─ readExactPoints ◄──────────────────────── answer: results, fractions as bigint pairs, or why not
 *
 * A point's result (src/result.ts) is plain data and crosses as it is; its exact values are Fractions, sent as
 * numerator and denominator. A user's mistake met on the worker (a refusal to enumerate, a rule file's fault)
 * comes back as data and is thrown here as the same error, word for word, that solving the point on the
 * command's thread throws.
 */

import type { Params, Rule, RuleFile } from '../contract/types.js';
import { UsageError } from '../errors.js';
import { Fraction } from '../exact/fraction.js';
import { NotEnumerable } from '../exact/replay-dice.js';
import { escapedRuleFault, RuleFault } from '../guard/rule-faults.js';
import type { RunResult } from '../result.js';
import type { Evaluated } from './evaluate-types.js';
import { type PointShape, solvePoint } from './solve-point.js';

/** One point as a worker is asked to solve it. */
interface ExactPoint {
  ruleId: string;
  /** A rule file's rule: the file the worker imports (and checks by hash) instead of looking up ruleId. */
  ruleFile?: RuleFile;
  params: Params;
  seed: string;
}

/** A worker's task: consecutive points of one grid (`first` is the grid index of the first). */
export interface ExactPointsTask {
  exactPoints: ExactPoint[];
  first: number;
  shape: PointShape;
}

/** A point solved, as it travels: the result as it is, each exact value as [metric, numerator, denominator]. */
interface SolvedPoint {
  result: RunResult;
  exact?: Array<[string, bigint, bigint]> | null;
}

/** Why a point could not be solved, as it travels. */
type Refusal =
  | {
      kind: 'not-enumerable';
      reason: string;
      remedy: string;
      where: string;
      simulable: boolean;
      simulateBy: string;
      pastPaths: number | null;
    }
  | { kind: 'rule-fault' | 'usage'; message: string };

/** The worker's answer: every point solved, or the points before the first that failed and why it failed. */
export interface ExactPointsAnswer {
  solved: SolvedPoint[];
  refused?: Refusal;
}

/** The task for `points` (grid indices first…), each with its rule and seed. */
export function exactPointsTask(
  points: ReadonlyArray<{ rule: Rule; params: Params; seed: string }>,
  first: number,
  shape: PointShape,
): ExactPointsTask {
  return {
    first,
    shape,
    exactPoints: points.map(({ rule, params, seed }) => ({
      ruleId: rule.id,
      ...(rule.file ? { ruleFile: rule.file } : {}),
      params,
      seed,
    })),
  };
}

/** The worker's side: each point solved in turn with its rule (`ruleOf`), until one fails with a user's mistake. */
export async function solveExactPoints(
  task: ExactPointsTask,
  ruleOf: (point: ExactPoint) => Rule | Promise<Rule>,
): Promise<ExactPointsAnswer> {
  const solved: SolvedPoint[] = [];
  for (const point of task.exactPoints) {
    try {
      const { result, exact } = solvePoint(await ruleOf(point), point.params, point.seed, task.shape);
      solved.push(task.shape.resultsOnly ? { result } : { result, exact: exact && sendFractions(exact) });
    } catch (error) {
      // What the rule's own code threw past the adapter's checks is the rule's fault, as on the command's thread.
      const fault = error instanceof UsageError ? error : escapedRuleFault(error);
      if (!fault) throw error;
      return { solved, refused: refusalOf(fault) };
    }
  }
  return { solved };
}

/**
 * The command's side: the points solved, in order, then the error of the point that failed (if one did). `sent` are
 * the params the task was made of, in its order.
 */
export function readExactPoints(
  answer: ExactPointsAnswer,
  sent: readonly Params[],
): { evaluated: Evaluated[]; error?: UsageError } {
  const evaluated = answer.solved.map(({ result: copy, exact }, at): Evaluated => {
    const result = asSolvedHere(copy, sent[at]);
    if (exact === undefined) return { result, tallied: null };
    return { result, tallied: null, exact: exact && readFractions(exact) };
  });
  return answer.refused ? { evaluated, error: errorOf(answer.refused) } : { evaluated };
}

/**
 * The result as solved on this thread, where a message's copy differs: its records by metric name have no prototype
 * (a metric may be named `constructor`), and it holds its point's params as given (a matrix's cells have no
 * prototype either), that object, not a copy.
 */
function asSolvedHere(result: RunResult, params: Params): RunResult {
  const bare = <T extends object>(record: T): T => Object.assign(Object.create(null) as T, record);
  return {
    ...result,
    params,
    metrics: bare(result.metrics),
    ...(result.distributions ? { distributions: bare(result.distributions) } : {}),
  };
}

function sendFractions(exact: Record<string, Fraction>): Array<[string, bigint, bigint]> {
  return Object.entries(exact).map(([name, value]) => [name, value.numerator, value.denominator]);
}

function readFractions(pairs: ReadonlyArray<[string, bigint, bigint]>): Record<string, Fraction> {
  // fromEntries defines each name as its own field: a metric named __proto__ stays a metric, not a prototype.
  return Object.fromEntries(pairs.map(([name, numerator, denominator]) => [name, Fraction.of(numerator, denominator)]));
}

function refusalOf(error: UsageError): Refusal {
  if (error instanceof NotEnumerable) {
    const { reason, remedy, where, simulable, simulateBy, pastPaths } = error;
    return { kind: 'not-enumerable', reason, remedy, where, simulable, simulateBy, pastPaths };
  }
  return { kind: error instanceof RuleFault ? 'rule-fault' : 'usage', message: error.message };
}

function errorOf(refusal: Refusal): UsageError {
  switch (refusal.kind) {
    case 'not-enumerable':
      return new NotEnumerable(
        refusal.reason,
        refusal.remedy,
        refusal.where,
        refusal.simulable,
        refusal.simulateBy,
        refusal.pastPaths,
      );
    case 'rule-fault':
      return new RuleFault(refusal.message);
    case 'usage':
      return new UsageError(refusal.message);
  }
}
