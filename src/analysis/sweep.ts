/**
 * A sweep, apart from how it is shown: every combination of the varied
 * parameters, each point computed as `muster run` computes it, on one seed.
 *
 *   plan (options as typed ─► grid, metrics, --best, settings; every refusal before any work)
 *     ─► evaluate (sweep-evaluate.ts: the points at once on one pool, or solved exactly; an interruption keeps the
 *        finished ones)
 *     ─► assemble (the points' results ─► the `muster sweep` result JSON, the best point)
 *
 * The CLI, a shard's merge and the library call these three; rendering is reports/sweep.ts's. Plan and assemble
 * import no Node module (the calculator page and the browser library run them); evaluating on a pool does.
 */

import type { MetricSpec, Params, ParamValue, Rule } from '../contract/types.js';
import { DEFAULT_SEED, parseSimulationSettings, parseTimeout, type SimulationOptions } from '../engine/settings.js';
import { UsageError } from '../errors.js';
import type { Fraction } from '../exact/fraction.js';
import { parseSeed } from '../input/seed.js';
import { keyedRecord, own } from '../keyed.js';
import { envelope, type RunResult } from '../result.js';
import { resolveParams } from '../rules/params.js';
import { findBest, parseBest } from './best.js';
import type { GridSettings } from './evaluate.js';
import { type GridAnalysis, type GridArgs, hasExactly, texts } from './grid.js';
import { chooseMetrics, type MetricChoice } from './metrics.js';
import type { SweepResult } from './sweep-result.js';
import { withTails } from './tails.js';
import { combinations, parseVary, unionMetrics, type Vary } from './vary.js';

export type { SweepBest, SweepResult } from './sweep-result.js';

/** What a sweep is asked for, as typed (the CLI's flags; merge replays a shard's recorded text). */
interface SweepRequest extends SimulationOptions {
  vary?: string[];
  set?: string[];
  metric?: string[];
  all?: boolean;
  best?: string;
  exact?: boolean;
}

/** A sweep's grid and settings, checked and ready to run (on one machine, or shared among shards). */
export interface SweepPlan {
  rule: Rule;
  varies: Vary[];
  varied: Set<string>;
  /** Parameters not varied whose resolved value differs between points (a default that depends on a varied one). */
  perPoint: string[];
  grid: Params[];
  skipped: SweepResult['skipped'];
  gridMetrics: MetricSpec[];
  choice: MetricChoice;
  metrics: MetricSpec[];
  bestSpec: ReturnType<typeof parseBest> | undefined;
  settings: GridSettings;
  /**
   * Each point's exact values, where planning solved them already (a balance learns so that every point has them):
   * the grid's solving reads them rather than solving the point again.
   */
  known?: ReadonlyArray<Record<string, Fraction>>;
}

/** Checks a sweep's options and builds its grid, before any output path is looked at or any work starts. */
export function planSweep(loaded: Rule, options: SweepRequest): SweepPlan {
  // A distribution's tail named by --metric or --best (`arrived.by.2>=3`) is a probability metric like any other.
  const rule = withTails(loaded, [...(options.metric ?? []), options.best]);
  if (!options.vary || options.vary.length === 0)
    throw new UsageError(
      `--vary: missing; ` +
        'allowed: one or more --vary name=a..b[:step] or name=v1,v2 ' +
        `with name one of ${rule.params.map((p) => p.name).join(', ')}`,
    );
  const varies: Vary[] = options.vary.map((raw) => parseVary(rule, raw));
  const varied = new Set<string>();
  for (const vary of varies) {
    if (varied.has(vary.name))
      throw new UsageError(`--vary: ${vary.name} varied twice; allowed: one --vary per parameter`);
    varied.add(vary.name);
  }
  const set = options.set ?? [];
  for (const assignment of set) {
    const name = assignment.slice(0, Math.max(0, assignment.indexOf('='))).trim();
    if (varied.has(name))
      throw new UsageError(`--set: ${name} is also varied; allowed: either --set or --vary for a parameter`);
  }
  // Check every --set value now, without the cross-parameter checks that only a full combination can pass.
  resolveParams({ ...rule, validate: undefined }, set);
  if (options.precision !== undefined)
    throw new UsageError('--precision: not available in a sweep; allowed: --trials N (the same for every point)');

  const grid: Params[] = [];
  const skipped: SweepResult['skipped'] = [];
  for (const combo of combinations(varies)) {
    try {
      grid.push(resolveParams(rule, set, combo));
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      skipped.push({ params: combo, reason: error.message });
    }
  }
  if (grid.length === 0) throw new UsageError(`--vary: the rule rejects every combination, e.g. ${skipped[0].reason}`);
  const perPoint = resolvedPerPoint(rule, varied, grid);
  // --metric is checked against every metric some point of the grid has (squad.round.6 exists where rounds=6).
  // One point's list at a time: a thousand lists held at once (20 kB each for reserves) outlived the young
  // generation and grew the heap by tens of megabytes.
  const gridMetrics = unionMetrics(
    (function* () {
      for (const params of grid) yield rule.metrics(params);
    })(),
  );
  const headline: Rule = {
    ...rule,
    presentation: {
      ...rule.presentation,
      headline: rule.presentation?.headline
        ? () => [...new Set(grid.flatMap((params) => rule.presentation!.headline!(params)))]
        : undefined,
    },
  };
  const bestSpec = options.best === undefined ? undefined : parseBest(rule, gridMetrics, options.best);
  const chosen = chooseMetrics(headline, gridMetrics, options.metric, { all: options.all });
  // --best names the question: unless --metric says otherwise, its metric leads the table, on the first screen.
  const choice: MetricChoice =
    bestSpec && chosen.how !== 'asked'
      ? {
          ...chosen,
          shown: [bestSpec.metric, ...chosen.shown.filter((m) => m.name !== bestSpec.metric.name)],
          hidden: chosen.hidden - (chosen.shown.some((m) => m.name === bestSpec.metric.name) ? 0 : 1),
        }
      : chosen;
  const metrics = choice.shown;

  const settings: GridSettings = options.exact
    ? {
        method: 'exact',
        seed: parseSeed(options.seed ?? DEFAULT_SEED),
        stream: null,
        confidence: 1,
        trials: 0,
        threads: 0,
      }
    : { method: 'simulation', ...parseSimulationSettings(options) };
  if (options.exact) {
    if (!rule.exact)
      throw new UsageError(`--exact: ${rule.id} has no exact solution; allowed: leave out --exact to simulate`);
    for (const option of ['trials', 'stream', 'threads', 'confidence'] as const) {
      if (options[option] !== undefined)
        throw new UsageError(`--exact: cannot be combined with --${option}; allowed: --exact alone, or a simulation`);
    }
    // --timeout stops a rule file's call that runs past it (the CLI's supervisor), exact or simulated: kept, so that
    // a rule file's points stay on the thread it watches (analysis/exact-grid.ts).
    if (options.timeout !== undefined) settings.timeout = parseTimeout(options.timeout);
  }

  return { rule, varies, varied, perPoint, grid, skipped, gridMetrics, choice, metrics, bestSpec, settings };
}

/**
 * The parameters that are not varied yet take more than one value over the grid: those the rule's `resolve` fills
 * from the varied ones (fow's `attackerReserves=0`, half the platoons rounded up). They are not fixed: each point
 * records the value it used.
 */
function resolvedPerPoint(rule: Rule, varied: ReadonlySet<string>, grid: readonly Params[]): string[] {
  return rule.params
    .map((spec) => spec.name)
    .filter((name) => !varied.has(name) && new Set(grid.map((params) => JSON.stringify(own(params, name)))).size > 1);
}

/** The sweep's result from each finished point's result, in grid order. */
export function assembleSweep(
  plan: SweepPlan,
  results: readonly RunResult[],
  threads: number,
  interrupted: boolean,
): SweepResult {
  const { rule, varies, varied, perPoint, grid, skipped, settings, bestSpec } = plan;
  // Keyed by parameter names, which a rule file chooses (`constructor` is a name like any other).
  const fixed: Params = keyedRecord(
    Object.entries(grid[0]).filter(([name]) => !varied.has(name) && !perPoint.includes(name)),
  );
  const pointNames = [...varies.map((vary) => vary.name), ...perPoint];
  const sweep: SweepResult = {
    ...envelope('sweep', rule),
    source: rule.source,
    params: fixed,
    vary: varies,
    perPoint,
    method: settings.method,
    seed: settings.seed,
    stream: settings.stream,
    trials: settings.trials,
    threads,
    confidence: settings.confidence,
    points: results.map((result) => ({
      params: keyedRecord(pointNames.map((name) => [name, own(result.params, name) as ParamValue])),
      metrics: result.metrics,
      // A rule with decisions: what side a played for at the point, and its value under best play there.
      ...(result.objective ? { objective: result.objective } : {}),
      // A rule file whose dice could not be enumerated beside the simulation: why the point has no exact values.
      ...(result.noExact ? { noExact: result.noExact } : {}),
    })),
    skipped,
    partial: interrupted,
  };
  if (bestSpec) sweep.best = findBest(sweep, bestSpec.metric.name, bestSpec.goal);
  return sweep;
}

/** A sweep as a grid (grid.ts): one seed for every point, the varied values recorded as typed. */
export const sweepGrid: GridAnalysis<SweepPlan, SweepResult> = {
  command: 'sweep',
  noun: 'points',
  what: 'a sweep',
  metricOnMerge: true,
  isArgs(args: unknown): args is GridArgs {
    return hasExactly(args, ['set', 'vary']) && texts(args.set) && texts(args.vary);
  },
  ruleRefs: () => [],
  replan(args, settings, rules) {
    const { set, vary } = args as Extract<GridArgs, { vary: string[] }>;
    return planSweep(rules.own(), { ...settings, set, vary });
  },
  job: (plan, args, ruleFiles) => ({
    command: 'sweep',
    rule: plan.rule,
    ruleFiles,
    points: plan.grid,
    seeds: plan.grid.map(() => plan.settings.seed),
    settings: plan.settings,
    args,
  }),
  assemble: (plan, evaluated, threads) =>
    assembleSweep(
      plan,
      evaluated.map(({ result }) => result),
      threads,
      false,
    ),
};
