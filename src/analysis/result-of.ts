/**
 * A run's result evaluated: the rule's summary of its tally, its exact values (or why there are none beside a
 * simulation), its exact distributions and its best play, handed to the result contract (src/result.ts), which
 * only assembles them. Every analysis and client that turns a tally or a point into a result comes through here.
 */

import type { Params, Rule } from '../contract/types.js';
import type { Fraction } from '../exact/fraction.js';
import { assembleResult, decisionResult, type NoExact, type RunResult, type RunSettings } from '../result.js';
import { lookUpExact } from '../rules/exact-of.js';
import type { Tallied } from '../stats/estimate.js';

export interface ResultInput extends RunSettings {
  rule: Rule;
  tally: Float64Array | null;
  /** rule.tally.summarize of the tally, when the caller already has it. */
  tallied?: Record<string, Tallied>;
  /** rule.exact.values of the params, when the caller already has it. */
  exact?: Record<string, Fraction> | null;
  /** Why there are no exact values beside the simulation, when the caller looked them up already. */
  noExact?: NoExact | null;
  /** No distributions in the result (nothing it goes to shows them): neither counted nor solved. */
  withoutDistributions?: boolean;
}

/** Every metric's estimate, interval and exact value (null where the rule has no exact solution). */
export function buildResult(input: ResultInput): RunResult {
  const { rule, params, tally, trials } = input;
  // Solved already where the caller has it (a sweep point solved while the workers simulate); beside a simulation,
  // an enumeration past its budget is no exact value; alone (--exact) it is the error.
  // An interrupted run is not held up by an enumeration (a trial that loops would loop there too): a rule file's
  // enumerated values are left out of a partial result; a hand-written exact() still answers.
  const enumerationSkipped = input.partial === true && rule.exact?.by === 'enumeration';
  const found =
    input.exact !== undefined
      ? { values: input.exact, noExact: input.noExact ?? null }
      : enumerationSkipped
        ? { values: null, noExact: null }
        : tally
          ? lookUpExact(rule, params)
          : { values: rule.exact ? rule.exact.values(params) : null, noExact: null };
  const tallied = tally ? (input.tallied ?? rule.tally.summarize(params, tally, trials)) : null;
  // The exact distributions are asked for only where the exact values are known.
  const metrics = rule.metrics(params);
  const hasDistributions =
    !input.withoutDistributions && rule.exact?.distributions && metrics.some((metric) => metric.distribution);
  const exactDistributions = found.values && hasDistributions ? (rule.exact?.distributions?.(params) ?? null) : null;
  // The run's settings as the caller gave them; the figures as evaluated here.
  return assembleResult({
    ...input,
    metrics,
    tallied,
    exact: found.values,
    exactDistributions,
    noExact: found.noExact,
  });
}

/** A run's result with the rule's best play beside its metrics, for a rule with decisions. */
export function withDecisions(rule: Rule, params: Params, result: RunResult): RunResult {
  return rule.exact?.decisions ? { ...result, ...decisionResult(rule.exact.decisions(params)) } : result;
}
