/**
 * A balance as a grid (grid.ts), so that shard, merge and checkpoint serve it as they serve a sweep: its points and
 * seeds are its sweep's (sweepGrid's job), its recorded args add the question (metric, target, keep, cliff, within),
 * and the merged points are answered as on one machine (assembleBalance).
 */
import { assembleBalance, type BalancePlan, type BalanceResult, planBalance } from './balance.js';
import { type BalanceArgs, type GridAnalysis, type GridArgs, hasExactly, texts } from './grid.js';
import { sweepGrid } from './sweep.js';

const ARGS = ['set', 'vary', 'metric', 'target', 'keep', 'cliff', 'within'];

const textOrNull = (value: unknown) => value === null || typeof value === 'string';

/** The args recorded for a balance asked with these options. */
export function balanceArgs(options: {
  set?: string[];
  vary?: string[];
  metric?: string;
  target?: string;
  keep?: string[];
  cliff?: string;
  within?: string;
}): BalanceArgs {
  return {
    set: options.set ?? [],
    vary: options.vary ?? [],
    metric: options.metric ?? '',
    target: options.target ?? '',
    keep: options.keep ?? [],
    cliff: options.cliff ?? null,
    within: options.within ?? null,
  };
}

export const balanceGrid: GridAnalysis<BalancePlan, BalanceResult> = {
  command: 'balance',
  noun: 'settings',
  what: 'a balance',
  metricOnMerge: false,
  isArgs(args: unknown): args is GridArgs {
    return (
      hasExactly(args, ARGS) &&
      texts(args.set) &&
      texts(args.vary) &&
      typeof args.metric === 'string' &&
      typeof args.target === 'string' &&
      texts(args.keep) &&
      textOrNull(args.cliff) &&
      textOrNull(args.within)
    );
  },
  ruleRefs: () => [],
  replan(args, settings, rules) {
    const { set, vary, metric, target, keep, cliff, within } = args as BalanceArgs;
    // A shard simulates (an exact balance is never split): its seed, stream, trials and confidence say so again.
    const { metric: _table, ...simulation } = settings;
    return planBalance(rules.own(), {
      ...simulation,
      set,
      vary,
      metric,
      target,
      keep,
      cliff: cliff ?? undefined,
      within: within ?? undefined,
      simulate: true,
    });
  },
  job: (plan, args, ruleFiles) => ({ ...sweepGrid.job(plan.sweep, args, ruleFiles), command: 'balance' }),
  assemble: (plan, evaluated, threads) => assembleBalance(plan, sweepGrid.assemble(plan.sweep, evaluated, threads)),
};
