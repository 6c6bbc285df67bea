/**
 * `muster balance`, apart from how it is shown: a sweep's grid (sweep.ts),
 * every point computed as `muster sweep` computes it, and the question asked
 * of it: which settings bring a metric nearest a target (balance-solve.ts).
 *
 *   plan (a sweep's plan, the metric, --target, --keep, --cliff, --within; every refusal before any work)
 *     ─► evaluate (sweep-evaluate.ts: the sweep's points, exactly where the rule has exact values everywhere, else
 *        simulated)
 *     ─► solve (the sweep's result with its `balance` block)
 *
 * The CLI and the library call these; the words are reports/balance-words.ts's, the page reports/balance.ts's.
 * Plan and assemble import no Node module: the calculator page runs them (library/browser.ts).
 */

import type { MetricSpec, Params, Rule } from '../contract/types.js';
import type { SimulationOptions } from '../engine/settings.js';
import { UsageError } from '../errors.js';
import type { Fraction } from '../exact/fraction.js';
import { lookUpExact } from '../rules/exact-of.js';
import { resolveParams } from '../rules/params.js';
import { didYouMean, ruleWord } from '../text/suggest.js';
import { type BalanceBlock, solveBalance } from './balance-solve.js';
import {
  defaultCliff,
  type Keep,
  keepNames,
  parseDistance,
  parseKeep,
  parseTarget,
  type Quantity,
} from './balance-terms.js';
import { planSweep, type SweepPlan } from './sweep.js';
import type { SweepResult } from './sweep-result.js';
import { withTails } from './tails.js';

export type { BalanceBlock } from './balance-solve.js';

/** What a balance question is asked as (the CLI's flags as typed). */
export interface BalanceRequest extends SimulationOptions {
  vary?: string[];
  set?: string[];
  metric?: string;
  target?: string;
  keep?: string[];
  cliff?: string;
  within?: string;
  /** Solve every point exactly (the default where the rule has exact values at every point). */
  exact?: boolean;
  /** Simulate even where the rule has exact values. */
  simulate?: boolean;
}

/** The result JSON of `muster balance`: the sweep's, with its `balance` block (docs/json.md). */
export interface BalanceResult extends SweepResult {
  balance: BalanceBlock;
}

export interface BalancePlan {
  sweep: SweepPlan;
  metric: MetricSpec;
  target: Quantity;
  keep: Keep[];
  cliff: Quantity;
  within: Quantity | null;
}

/** The options that only a simulation takes: any of them asks for one, as in `muster compare`. */
const SIMULATION_ONLY = ['trials', 'seed', 'stream', 'threads', 'confidence', 'timeout'] as const;

/** Checks the question and builds its grid, before any output path is looked at or any work starts. */
export function planBalance(loaded: Rule, options: BalanceRequest): BalancePlan {
  // A distribution's tail named by --metric or in a --keep (`arrived.by.2>=3`) is a probability metric like any other.
  const rule = withTails(
    withTails(loaded, [options.metric?.trim()]),
    (options.keep ?? []).flatMap((raw) => keepNames(raw)),
    '--keep',
  );
  if (options.metric === undefined || options.metric.trim() === '')
    throw new UsageError(
      `--metric: missing; allowed: the one metric to balance, such as ${rule.metrics(resolveParams(rule, []))[0]?.name} ` +
        `(muster describe ${ruleWord(rule)} lists them)`,
    );
  if (options.target === undefined)
    throw new UsageError('--target: missing; allowed: the value to come nearest to, such as 50%, 1/2 or 2.5');
  if (options.exact && options.simulate)
    throw new UsageError('--exact: cannot be combined with --simulate; allowed: one of the two');
  if (options.precision !== undefined || options.maxTrials !== undefined)
    throw new UsageError('--precision: not available in a balance; allowed: --trials N (the same for every point)');
  const asked = SIMULATION_ONLY.filter((option) => options[option] !== undefined);
  const common = { vary: options.vary, set: options.set, metric: [options.metric.trim()] };
  // First planned as a simulation, which refuses nothing a simulation takes, to learn the grid.
  const simulated = planSweep(rule, { vary: options.vary, set: options.set });
  const name = options.metric.trim();
  const metric = simulated.gridMetrics.find((m) => m.name === name);
  if (!metric) {
    const names = simulated.gridMetrics.map((m) => m.name);
    throw new UsageError(
      `--metric: got ${JSON.stringify(options.metric)}${didYouMean(name, names)}; allowed: one metric name ` +
        `(no glob) of ${rule.id}, such as ${names.slice(0, 4).join(', ')} (muster describe ${ruleWord(rule)})`,
    );
  }
  // Exact wherever the rule has exact values at every point, unless a simulation is asked for. A rule's own exact()
  // gives them at every point, so nothing is solved here: the sweep solves its points where it hears Ctrl-C and the
  // page's time limit. An enumeration may refuse a point, so each is enumerated here (within the quick budget), and
  // the values found are kept for the sweep, which would otherwise solve every point a second time.
  const byDefault = options.exact !== true && !options.simulate && asked.length === 0 && rule.exact !== undefined;
  const enumerated = rule.exact?.by === 'enumeration';
  const known = byDefault && enumerated ? exactAtEvery(rule, simulated.grid) : null;
  const exact = options.exact === true || (byDefault && (!enumerated || known !== null));
  if (exact && options.stream !== undefined)
    throw new UsageError('--exact: cannot be combined with --stream; allowed: --exact alone, or a simulation');
  const given = Object.fromEntries(asked.map((option) => [option, options[option]]));
  // Solved exactly, the sweep's own check refuses --trials, --threads, --confidence and --timeout.
  const sweep = exact
    ? planSweep(rule, { ...common, ...given, exact: true })
    : planSweep(rule, { ...common, ...given });
  // Only for the same rule (not one with a tail as a metric) and the same points, in the same order.
  if (known !== null && sweep.rule === rule && sameGrid(sweep.grid, simulated.grid)) sweep.known = known;
  const keep = (options.keep ?? []).map((raw) => parseKeep(raw, sweep.gridMetrics));
  return {
    sweep,
    metric,
    target: parseTarget(options.target, metric),
    keep,
    cliff: options.cliff === undefined ? defaultCliff(metric) : parseDistance('--cliff', options.cliff, metric),
    within: options.within === undefined ? null : parseDistance('--within', options.within, metric),
  };
}

/** Each point's exact values (within the quick budget beside a simulation), or null at the first point without. */
function exactAtEvery(rule: Rule, grid: readonly Params[]): Array<Record<string, Fraction>> | null {
  const found: Array<Record<string, Fraction>> = [];
  for (const params of grid) {
    const { values } = lookUpExact(rule, params);
    if (values === null) return null;
    found.push(values);
  }
  return found;
}

const sameGrid = (a: readonly Params[], b: readonly Params[]) =>
  a.length === b.length && a.every((params, index) => JSON.stringify(params) === JSON.stringify(b[index]));

/** The question's answer from the grid's points (already computed): the sweep's result with its balance block. */
export function assembleBalance(plan: BalancePlan, sweep: SweepResult): BalanceResult {
  return {
    ...sweep,
    balance: solveBalance(sweep, {
      metric: plan.metric,
      target: plan.target,
      keep: plan.keep,
      cliff: plan.cliff,
      within: plan.within,
    }),
  };
}
