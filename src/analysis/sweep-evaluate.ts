/**
 * A sweep's and a balance's points computed: on a pool when simulated, or solved exactly, the finished ones kept
 * after an interruption. Apart from sweep.ts and balance.ts because this is the part that reaches the pool (and so
 * Node's modules); the calculator page plans and assembles with those two and computes its points itself.
 */
import { assembleBalance, type BalancePlan, type BalanceResult } from './balance.js';
import { type EvaluateOptions, evaluateUntilInterrupted } from './evaluate.js';
import { assembleSweep, type SweepPlan, type SweepResult } from './sweep.js';

/**
 * Every point of the plan computed (on `options.pool` when simulated) and assembled; after an interruption
 * (`options.signal`), the points finished, in grid order, and `partial: true`.
 */
export async function evaluateSweep(plan: SweepPlan, options: EvaluateOptions = {}): Promise<SweepResult> {
  const { evaluated, interrupted } = await evaluateUntilInterrupted(plan.rule, plan.grid, plan.settings, {
    ...options,
    resultsOnly: true,
    // A sweep keeps each point's metrics, never its distributions (assembleSweep): they are not worked out.
    withoutDistributions: true,
    known: plan.known,
  });
  return assembleSweep(
    plan,
    evaluated.map(({ result }) => result),
    plan.settings.threads,
    interrupted,
  );
}

/** Every point computed (on `options.pool` when simulated) and the question answered; partial after an interruption. */
export async function evaluateBalance(plan: BalancePlan, options: EvaluateOptions = {}): Promise<BalanceResult> {
  return assembleBalance(plan, await evaluateSweep(plan.sweep, options));
}
