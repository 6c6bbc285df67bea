/**
 * One point of a grid solved exactly: its exact values, distributions and best play, as `muster run --exact` gives
 * them. The same function on the command's thread (analysis/solve-points.ts) and on a pool worker
 * (analysis/exact-points-task.ts), so a point is the same wherever it was solved.
 */

import type { Params, Rule } from '../contract/types.js';
import { UsageError } from '../errors.js';
import type { Fraction } from '../exact/fraction.js';
import type { Evaluated } from './evaluate-types.js';
import { buildResult, withDecisions } from './result-of.js';

/** What a solved point keeps: its exact fractions beside its result or not, its best play or not (a matrix's cell). */
export interface PointShape {
  resultsOnly: boolean;
  bestPlay: boolean;
  /** No distributions in the result (analysis/evaluate-types.ts, EvaluateOptions). */
  withoutDistributions?: boolean;
}

/** The point at `params` solved with the rule's exact() (its values `known` already, where given), kept as `shape` says. */
export function solvePoint(
  rule: Rule,
  params: Params,
  seed: string,
  shape: PointShape,
  known?: Record<string, Fraction>,
): Evaluated {
  if (!rule.exact)
    throw new UsageError(`--exact: ${rule.id} has no exact solution; allowed: simulate it (leave out --exact)`);
  const exact = known ?? rule.exact.values(params);
  const solved = buildResult({
    rule,
    params,
    seed,
    stream: null,
    threads: 0,
    confidence: 1,
    trials: 0,
    tally: null,
    exact,
    withoutDistributions: shape.withoutDistributions,
  });
  // A rule with decisions: the objective and policy under best play beside its metrics (result.ts).
  const result = shape.bestPlay ? withDecisions(rule, params, solved) : solved;
  return shape.resultsOnly ? { result, tallied: null } : { result, tallied: null, exact };
}
