/**
 * A comparison, apart from how it is shown: every metric of every variant,
 * the differences from the first with two-sample z-tests and Holm's
 * adjustment (significance.ts), exact differences where both are exact.
 *
 *   plan (--variant texts ─► each variant's rule, params, seed; settings; every refusal before any work)
 *     ─► evaluate (the variants at once on one pool, or solved; an interruption keeps the leading finished ones)
 *     ─► assemble (b − a per metric, tested, Holm-adjusted ─► the `muster compare` result JSON)
 *
 * The CLI, a shard's merge and the library call these; rendering is reports/compare.ts's.
 */

import type { MetricSpec, Params, Rule, RuleExact, StreamVersion } from '../contract/types.js';
import { DEFAULT_SEED, parseSimulationSettings, parseTimeout, type SimulationOptions } from '../engine/settings.js';
import { UsageError } from '../errors.js';
import type { Fraction } from '../exact/fraction.js';
import type { NotEnumerable } from '../exact/replay-dice.js';
import { parseSeed } from '../input/seed.js';
import { own } from '../keyed.js';
import { readableFraction } from '../output/format.js';
import { type Envelope, envelope, type MetricResult } from '../result.js';
import { isRulePath, loadRule } from '../rule-files/load.js';
import { fullExact, lookUpExact } from '../rules/exact-of.js';
import { getRule } from '../rules/index.js';
import { resolveParams } from '../rules/params.js';
import type { Tallied } from '../stats/estimate.js';
import { twoSidedZ } from '../stats/wilson-interval.js';
import { type DistributionDifference, distributionDifference } from './distribution-differences.js';
import { type Evaluated, type EvaluateOptions, evaluateUntilInterrupted, type GridSettings } from './evaluate.js';
import { type GridAnalysis, type GridArgs, hasExactly, texts } from './grid.js';
import { chooseMetrics, type MetricChoice } from './metrics.js';
import { holm, twoSampleZ } from './significance.js';
import { withTails } from './tails.js';
import { parseVariants, type Variant, variantAssignments, variantRuleRef } from './variant.js';
import { unionMetrics } from './vary.js';

/** What a comparison is asked for, as typed (the CLI's flags; merge replays a shard's recorded text). */
interface CompareRequest extends SimulationOptions {
  variant?: string[];
  set?: string[];
  metric?: string[];
  all?: boolean;
  exact?: boolean;
  simulate?: boolean;
  seedPerVariant?: boolean;
}

interface Difference {
  metric: string;
  variant: string;
  baseline: string;
  /** variant − baseline, simulated (null when nothing was simulated). */
  difference: number | null;
  lo: number | null;
  hi: number | null;
  z: number | null;
  p: number | null;
  /** Holm-adjusted p over every test of the comparison. */
  pAdjusted: number | null;
  significant: boolean | null;
  /** variant − baseline exactly, where both are exact. */
  exactDifference: number | null;
  exactFraction: string | null;
}

/** The result JSON of `muster compare` (docs/json.md). */
export interface CompareResult extends Envelope {
  source: string;
  method: 'simulation' | 'exact';
  /** 'shared': every variant ran on the same seed; 'per variant': each on `<seed>/variant <n>`. */
  seeds: 'shared' | 'per variant';
  seed: string;
  /** The random stream of every variant; null when solved exactly. */
  stream: StreamVersion | null;
  trials: number;
  threads: number;
  confidence: number;
  /** Family-wise error rate: 1 − confidence. */
  alpha: number;
  correction: 'holm';
  tests: number;
  variants: Array<{
    label: string /** The rule the variant ran (a variant may name its own with rule=). */;
    rule?: string;
    assignments: string[];
    params: Params;
    seed: string;
    metrics: Record<string, MetricResult>;
  }>;
  differences: Difference[];
  /**
   * Where each variant's distribution differs from the baseline's, value by value, for every distribution metric
   * compared (docs/json.md, "compare: distributions"); present only when a compared metric is a distribution.
   */
  distributions?: DistributionDifference[];
  /**
   * True when Ctrl-C stopped the comparison: only the variants listed finished (absent when every variant finished).
   */
  partial?: boolean;
}

interface ComputedVariant {
  variant: Variant;
  params: Params;
  seed: string;
  metrics: Record<string, MetricResult>;
  tallied: Record<string, Tallied> | null;
  exact: Record<string, Fraction> | null;
}

/** Differences from the first variant, tested and Holm-adjusted. */
function compareVariants(
  metrics: readonly MetricSpec[],
  computed: readonly ComputedVariant[],
  confidence: number,
): { differences: Difference[]; tests: number } {
  const [baseline, ...others] = computed;
  const z = twoSidedZ(confidence);
  const differences: Difference[] = [];
  for (const other of others) {
    for (const metric of metrics) {
      // Own entries only: a metric named `constructor` that one side lacks is absent there, not Object's.
      const exactA = own(baseline.exact, metric.name);
      const exactB = own(other.exact, metric.name);
      const exactDifference = exactA && exactB ? exactB.sub(exactA) : null;
      // A metric only one side has (e.g. a round the other does not play) has no difference.
      const a = own(baseline.tallied, metric.name);
      const b = own(other.tallied, metric.name);
      const test = a && b ? twoSampleZ(a, b) : null;
      differences.push({
        metric: metric.name,
        variant: other.variant.label,
        baseline: baseline.variant.label,
        difference: test ? test.difference : null,
        lo: test ? test.difference - z * test.standardError : null,
        hi: test ? test.difference + z * test.standardError : null,
        z: test ? test.z : null,
        p: test ? test.p : null,
        pAdjusted: null,
        significant: null,
        exactDifference: exactDifference ? exactDifference.toNumber() : null,
        exactFraction: readableFraction(exactDifference ?? undefined),
      });
    }
  }
  const tested = differences.filter((d) => d.p !== null);
  const adjusted = holm(tested.map((d) => d.p as number));
  tested.forEach((d, i) => {
    d.pAdjusted = adjusted[i];
    d.significant = adjusted[i] <= 1 - confidence;
  });
  return { differences, tests: tested.length };
}

/** A comparison's variants and settings, checked and ready to run (on one machine, or shared among shards). */
export interface ComparePlan {
  rule: Rule;
  /** Each variant's rule, in order: the command's rule, or the one its rule=… names. */
  rules: Rule[];
  variants: Variant[];
  paramsList: Params[];
  /** Each variant's seed, in order. */
  seeds: string[];
  base: GridSettings;
  seedPerVariant: boolean;
  choice: MetricChoice;
  /**
   * Where the comparison is simulated only because a variant's rule file could not be enumerated (within the
   * budget --exact has), which variant and why, for the one line the command prints; null otherwise.
   */
  notExact: { label: string; refused: NotEnumerable } | null;
  /** Each variant's exact values, where choosing the method solved them already (solved again otherwise). */
  known?: Array<Record<string, Fraction>>;
}

/**
 * Whether a comparison names a rule file, as its rule or a variant's. Built-in rules are found without an
 * await, so nothing (such as the Ctrl-C listener) waits on a tick.
 */
export function loadsFiles(ruleId: string, options: CompareRequest): boolean {
  return isRulePath(ruleId) || (options.variant ?? []).some((text) => isRulePath(variantRuleRef(text) ?? ''));
}

/**
 * The command's rule and each variant's (a variant may name its own with rule=<id or file>), loaded before anything is
 * planned.
 */
export async function compareRules(ruleId: string, options: CompareRequest): Promise<{ rule: Rule; rules: Rule[] }> {
  const load = (ref: string) => (isRulePath(ref) ? loadRule(ref) : getRule(ref));
  const rule = await load(ruleId);
  const rules: Rule[] = [];
  for (const text of options.variant ?? []) {
    const ref = variantRuleRef(text);
    rules.push(ref === undefined ? rule : await load(ref));
  }
  return { rule, rules };
}

/** The same for built-in rules only, without an await (so nothing, such as the Ctrl-C listener, waits on a tick). */
export function builtInCompareRules(ruleId: string, variants: readonly string[]): { rule: Rule; rules: Rule[] } {
  const rule = getRule(ruleId);
  return {
    rule,
    rules: variants.map((text) => (variantRuleRef(text) === undefined ? rule : getRule(variantRuleRef(text)!))),
  };
}

/**
 * Whether the comparison is exact: --exact says so (refused where a variant has no exact solution, or beside a
 * simulation setting); without --simulate or a simulation setting it is exact wherever every variant's exact values
 * are known to the whole budget, and otherwise names the first variant past it (notExact). And --timeout, checked
 * first and kept for an exact comparison (a rule file's points then stay on the thread the CLI watches).
 */
function chooseMethod(
  rulesOf: readonly Rule[],
  variants: readonly Variant[],
  paramsList: readonly Params[],
  options: CompareRequest,
  tailed: boolean,
): {
  exact: boolean;
  notExact: ComparePlan['notExact'];
  timeout: number | undefined;
  known?: Array<Record<string, Fraction>>;
} {
  const flag = (option: string) => `--${option.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
  // Not --timeout: it stops a rule file's call that runs past it (the CLI's supervisor), exact or simulated.
  const timeout = options.timeout === undefined ? undefined : parseTimeout(options.timeout);
  const simulationOnly = (['trials', 'stream', 'threads', 'confidence', 'seedPerVariant'] as const).filter(
    (option) => options[option] !== undefined,
  );
  if (options.exact && options.simulate)
    throw new UsageError('--exact: cannot be combined with --simulate; allowed: one of the two');
  if (options.exact) {
    const unsolved = rulesOf.find((r) => !r.exact);
    if (unsolved)
      throw new UsageError(`--exact: ${unsolved.id} has no exact solution; allowed: leave out --exact to simulate`);
    if (simulationOnly.length > 0)
      throw new UsageError(
        `--exact: cannot be combined with ${flag(simulationOnly[0])}; allowed: --exact alone, or a simulation`,
      );
  }
  // Exact differences wherever every variant has exact values: no p-values on noise. --simulate, or a
  // simulation setting such as --trials or --stream, asks for the simulation. A rule file's dice are enumerated to the
  // whole budget, as --exact enumerates them, and a variant past it is named (notExact).
  // A built-in's exact solution gives values for every variant, so none is solved here: the comparison solves them
  // where it hears Ctrl-C. A rule file's may refuse (its dice past the budget), and so may a distribution's tail (a
  // value past those listed exactly), so then every variant is solved here, and the values kept for the
  // comparison, which would otherwise solve each a second time.
  if (!options.exact && !options.simulate && simulationOnly.length === 0 && rulesOf.every((r) => r.exact)) {
    if (!tailed && rulesOf.every((r) => r.file === undefined)) return { exact: true, notExact: null, timeout };
    const known: Array<Record<string, Fraction>> = [];
    for (const [index, params] of paramsList.entries()) {
      const solved = fullExact(rulesOf[index], params);
      if (solved !== null && 'refused' in solved)
        return { exact: false, notExact: { label: variants[index].label, refused: solved.refused }, timeout };
      if (solved !== null) known.push(solved.values);
    }
    return { exact: true, notExact: null, timeout, known };
  }
  return { exact: options.exact === true, notExact: null, timeout };
}

/** Checks a comparison's options and resolves every variant, before any output path is looked at or any work starts. */
export function planCompare(
  { rule: loaded, rules: loadedRules }: { rule: Rule; rules: Rule[] },
  options: CompareRequest,
): ComparePlan {
  // A distribution's tail named by --metric (`arrived.by.2>=3`) is a probability metric like any other; a variant
  // of the same rule stays the same rule (a comparison across rules is told by identity).
  const rule = withTails(loaded, options.metric ?? []);
  const rulesOf = loadedRules.map((r) => (r === loaded ? rule : withTails(r, options.metric ?? [])));
  const variants = parseVariants(rulesOf, options.variant ?? []);
  const set = options.set ?? [];
  const paramsList: Params[] = variants.map((variant, index) => {
    try {
      return resolveParams(rulesOf[index], variantAssignments(set, variant));
    } catch (error) {
      if (error instanceof UsageError)
        throw new UsageError(`--variant ${JSON.stringify(variant.label)}: ${error.message}`);
      throw error;
    }
  });
  if (options.precision !== undefined)
    throw new UsageError(
      '--precision: not available in a comparison; allowed: --trials N (the same for every variant)',
    );
  const everyMetric = unionMetrics(paramsList.map((params, index) => rulesOf[index].metrics(params)));
  const everyHeadline = () => [
    ...new Set(paramsList.flatMap((params, index) => rulesOf[index].presentation?.headline?.(params) ?? [])),
  ];
  // Variants of several rules lead with the metrics they all have: those are the ones compared.
  const shared = everyMetric
    .filter((metric) =>
      paramsList.every((params, index) => rulesOf[index].metrics(params).some((m) => m.name === metric.name)),
    )
    .map((m) => m.name);
  const mixed = rulesOf.some((r) => r !== rule);
  const some = rulesOf.some((r) => r.presentation?.headline) ? everyHeadline : undefined;
  const headline = mixed && shared.length > 0 ? () => shared : some;
  const led: Rule = { ...rule, presentation: { ...rule.presentation, headline } };
  const choice = chooseMetrics(led, everyMetric, options.metric, { all: options.all });
  const tailed = rule !== loaded || rulesOf.some((r, index) => r !== loadedRules[index]);
  const { exact, notExact, timeout, known } = chooseMethod(rulesOf, variants, paramsList, options, tailed);
  const base: GridSettings = exact
    ? {
        method: 'exact',
        seed: parseSeed(options.seed ?? DEFAULT_SEED),
        stream: null,
        confidence: 0.95,
        trials: 0,
        threads: 0,
        // Kept so that a rule file's points, watched by the CLI's supervisor (--timeout), stay on its thread.
        ...(timeout !== undefined ? { timeout } : {}),
      }
    : { method: 'simulation', ...parseSimulationSettings(options) };
  const seedOf = (index: number) => (options.seedPerVariant ? `${base.seed}/variant ${index + 1}` : base.seed);

  return {
    rule,
    rules: rulesOf,
    variants,
    paramsList,
    seeds: paramsList.map((_, index) => seedOf(index)),
    base,
    seedPerVariant: options.seedPerVariant ?? false,
    choice,
    notExact,
    ...(known !== undefined && known.length === paramsList.length ? { known } : {}),
  };
}

/**
 * Every variant computed (on `options.pool` when simulated) and compared; after an interruption
 * (`options.signal`), the baseline and the variants after it that all finished, and `partial: true`.
 */
export async function evaluateCompare(
  plan: ComparePlan,
  options: Omit<EvaluateOptions, 'seeds' | 'rules'> = {},
): Promise<CompareResult> {
  const { evaluated, indices } = await evaluateUntilInterrupted(plan.rules[0], plan.paramsList, plan.base, {
    ...options,
    seeds: plan.seeds,
    rules: plan.rules,
    known: plan.known,
  });
  const finished = plan.paramsList.findIndex((_, index) => indices[index] !== index);
  const computed = finished < 0 ? evaluated : evaluated.slice(0, finished);
  return assembleCompare(plan, computed, plan.base.threads, finished >= 0);
}

/** The comparison from the finished variants' results and tallied counts, in order. */
function assembleCompare(
  plan: ComparePlan,
  evaluated: readonly Evaluated[],
  threads: number,
  interrupted = false,
): CompareResult {
  const { rule, variants, paramsList, base } = plan;
  const computed: ComputedVariant[] = evaluated.map(({ result, tallied, exact }, index) => {
    const params = paramsList[index];
    const variantRule = plan.rules[index];
    // Solved already where the variant was computed (evaluateAll); a merged shard's variants are solved here.
    const solved =
      exact !== undefined
        ? exact
        : base.method === 'exact'
          ? (variantRule.exact as RuleExact).values(params)
          : lookUpExact(variantRule, params).values;
    return {
      variant: variants[index],
      params,
      seed: plan.seeds[index],
      metrics: result.metrics,
      tallied,
      exact: solved,
    };
  });
  // Asked-for metrics are the family Holm adjusts over; otherwise every metric is tested and the table shows the
  // headline ones.
  const tested = testedMetrics(
    plan,
    computed.map((c) => c.params),
  );
  const compared =
    computed.length < 2 ? { differences: [], tests: 0 } : compareVariants(tested, computed, base.confidence);
  // Across rules, only the metrics both sides have are compared (the others are listed below the table).
  const metricLists = variantMetricLists(
    plan,
    computed.map((c) => c.params),
  );
  const has = (label: string, metric: string) =>
    metricLists[computed.findIndex((c) => c.variant.label === label)].some((m) => m.name === metric);
  const differences = compared.differences.filter((d) => has(d.baseline, d.metric) && has(d.variant, d.metric));
  const tests = compared.tests;
  const distributions =
    computed.length < 2 ? [] : distributionDifferences(tested, evaluated, computed, base.confidence);
  const result: CompareResult = {
    ...envelope('compare', rule),
    source: rule.source,
    method: base.method,
    seeds: plan.seedPerVariant ? 'per variant' : 'shared',
    seed: base.seed,
    stream: base.stream,
    trials: base.trials,
    threads,
    confidence: base.confidence,
    alpha: 1 - base.confidence,
    correction: 'holm',
    tests,
    variants: computed.map((c) => ({
      label: c.variant.label,
      assignments: c.variant.assignments,
      params: c.params,
      seed: c.seed,
      metrics: c.metrics,
    })),
    differences,
    ...(distributions.length > 0 ? { distributions } : {}),
    ...(interrupted ? { partial: true } : {}),
  };
  return result;
}

/**
 * Each variant's distributions against the baseline's, value by value; the chi-square tests of simulated ones are
 * Holm-adjusted among themselves (a family apart from the metrics' z-tests, whose count they leave as it was).
 */
function distributionDifferences(
  metrics: readonly MetricSpec[],
  evaluated: readonly Evaluated[],
  computed: readonly ComputedVariant[],
  confidence: number,
): DistributionDifference[] {
  const found: DistributionDifference[] = [];
  const [baseline, ...others] = evaluated.map((e) => e.result);
  const trialsOf = (result: (typeof evaluated)[number]['result']) =>
    result.method === 'simulation' ? result.trials : 0;
  others.forEach((other, index) => {
    for (const metric of metrics) {
      if (!metric.distribution) continue;
      const a = baseline.distributions ? own(baseline.distributions, metric.name) : undefined;
      const b = other.distributions ? own(other.distributions, metric.name) : undefined;
      if (!a || !b) continue;
      found.push(
        distributionDifference(
          metric.name,
          { baseline: computed[0].variant.label, variant: computed[index + 1].variant.label },
          a,
          b,
          { baseline: trialsOf(baseline), variant: trialsOf(other) },
        ),
      );
    }
  });
  const tested = found.flatMap((d) => (d.test ? [d.test] : []));
  const adjusted = holm(tested.map((t) => t.p));
  tested.forEach((t, i) => {
    t.pAdjusted = adjusted[i];
    t.significant = adjusted[i] <= 1 - confidence;
  });
  return found;
}

/** The metrics a comparison tests and reports: the asked-for ones, or every metric of the finished variants. */
export function testedMetrics(plan: ComparePlan, params: readonly Params[]): MetricSpec[] {
  return plan.choice.how === 'asked' ? plan.choice.shown : unionMetrics(variantMetricLists(plan, params));
}

/** Each variant's metrics under its own rule. */
export function variantMetricLists(plan: ComparePlan, params: readonly Params[]): MetricSpec[][] {
  return params.map((p, index) => plan.rules[index].metrics(p));
}

/** A comparison as a grid (grid.ts): a point per variant, each with its own rule and seed. */
export const compareGrid: GridAnalysis<ComparePlan, CompareResult> = {
  command: 'compare',
  noun: 'variants',
  what: 'a comparison',
  metricOnMerge: false,
  isArgs(args: unknown): args is GridArgs {
    return (
      hasExactly(args, ['set', 'variant', 'seedPerVariant']) &&
      texts(args.set) &&
      texts(args.variant) &&
      typeof args.seedPerVariant === 'boolean'
    );
  },
  ruleRefs: (args) => ('variant' in args ? args.variant.map((text) => variantRuleRef(text)) : []),
  replan(args, settings, rules) {
    const { set, variant, seedPerVariant } = args as Extract<GridArgs, { variant: string[] }>;
    const rule = rules.own();
    return planCompare(
      { rule, rules: variant.map((text) => rules.named(variantRuleRef(text), rule)) },
      { ...settings, metric: undefined, set, variant, seedPerVariant: seedPerVariant || undefined },
    );
  },
  job: (plan, args, ruleFiles) => ({
    command: 'compare',
    rule: plan.rule,
    rules: plan.rules,
    ruleFiles,
    points: plan.paramsList,
    seeds: plan.seeds,
    settings: plan.base,
    args,
  }),
  assemble: (plan, evaluated, threads) => assembleCompare(plan, evaluated, threads),
};
