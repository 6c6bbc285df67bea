import type { Params, Rule } from '../contract/types.js';
import { simulateEach } from '../engine/simulate-many.js';
import { Interrupted } from '../errors.js';
import { lookUpExact } from '../rules/exact-of.js';
import type { Evaluated, EvaluateOptions, GridSettings } from './evaluate-types.js';
import { solveExactGrid } from './exact-grid.js';
import { buildResult, withDecisions } from './result-of.js';

export type { Evaluated, EvaluateOptions, GridSettings } from './evaluate-types.js';

/**
 * Computes a rule at each parameter set: exactly, or by simulation on the
 * shared pool with the same seed for every point (so a parameter that
 * cannot affect a metric leaves it unchanged between points). The points'
 * simulations run at once, their tasks interleaved on the pool; each point
 * is still exactly what `muster run` gives for it.
 */
export async function evaluateAll(
  rule: Rule,
  paramsList: readonly Params[],
  settings: GridSettings,
  options: EvaluateOptions = {},
): Promise<Evaluated[]> {
  const { evaluated, interrupted } = await evaluateUntilInterrupted(rule, paramsList, settings, options);
  if (interrupted) throw new Interrupted('interrupted: the runs were not finished and nothing was written');
  return evaluated;
}

/**
 * Like evaluateAll, but an interruption (Ctrl-C) keeps the points already
 * finished instead of discarding them: they are returned with
 * `interrupted: true`, in grid order, the unfinished points left out
 * (`indices` says which points of the grid they are).
 */
export async function evaluateUntilInterrupted(
  rule: Rule,
  paramsList: readonly Params[],
  settings: GridSettings,
  options: EvaluateOptions = {},
): Promise<{ evaluated: Evaluated[]; interrupted: boolean; indices: number[] }> {
  if (settings.method === 'exact') return solveExactGrid(rule, paramsList, settings, options);
  if (!options.pool) throw new Error('evaluateAll: a simulation needs a pool');
  const seedOf = (index: number) => options.seeds?.[index] ?? settings.seed;
  const ruleOf = (index: number) => options.rules?.[index] ?? rule;
  const points: Array<Evaluated | undefined> = paramsList.map(() => undefined);
  let finished = 0;
  // Each point is summarised, solved exactly and built as it finishes, while the threads simulate the
  // next, and its tally is let go: a sweep's memory is then that of the few points under way, not of
  // every point, and no serial tail of summaries and exact solutions follows the simulation.
  await simulateEach(
    options.pool,
    paramsList.map((params, index) => ({
      rule: ruleOf(index),
      params,
      seed: seedOf(index),
      stream: settings.stream,
      trials: settings.trials,
      ledger: options.ledgerFor?.(index),
    })),
    {
      signal: options.signal,
      timeout: settings.timeout,
      onProgress: (done) => options.onTrials?.(done),
      onOutcome: (index, outcome) => {
        const params = paramsList[index];
        const pointRule = ruleOf(index);
        const tallied = pointRule.tally.summarize(params, outcome.tally, outcome.trials);
        // Beside a simulation, an enumeration past its quick budget is no exact value (rules/exact-of.ts).
        const { values: exact, noExact } = lookUpExact(pointRule, params);
        // A rule with decisions: the objective and policy under best play beside its metrics (result.ts).
        const result = withDecisions(
          pointRule,
          params,
          buildResult({
            rule: pointRule,
            params,
            seed: seedOf(index),
            stream: settings.stream,
            threads: settings.threads,
            confidence: settings.confidence,
            trials: outcome.trials,
            tally: outcome.tally,
            tallied,
            exact,
            noExact,
            withoutDistributions: options.withoutDistributions,
          }),
        );
        points[index] = options.resultsOnly ? { result, tallied: null } : { result, tallied, exact };
        options.onPoint?.(++finished, paramsList.length);
      },
    },
  );
  const indices = points.flatMap((point, index) => (point ? [index] : []));
  return {
    evaluated: indices.map((index) => points[index]!),
    interrupted: indices.length < paramsList.length,
    indices,
  };
}
