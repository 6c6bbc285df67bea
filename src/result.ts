import type { DistributionSpec, MetricSpec, Params, Rule, RuleDecisions, StreamVersion } from './contract/types.js';
import { UsageError } from './errors.js';
import type { ExactDistribution } from './exact/exact-distribution.js';
import type { Fraction } from './exact/fraction.js';
import { keyedRecord, own } from './keyed.js';
import { type DistributionResult, distributionResult } from './result-distribution.js';
import { estimate, type Tallied } from './stats/estimate.js';
import { packageVersion } from './version.js';

/** The one shape of a metric in every result (docs/json.md). */
export interface MetricResult {
  /** The simulated estimate and its interval; null when nothing was simulated. */
  estimate: number | null;
  lo: number | null;
  hi: number | null;
  /** The exact value as a double, or null where the rule has no exact solution. */
  exact: number | null;
  /** The exact value as "n/d" in lowest terms (an integer as "n"), or null. */
  fraction: string | null;
}

/** Names the version of the JSON contract every command's result carries (docs/json.md, docs/result.schema.json). */
export const RESULT_FORMAT = 'muster.result/1';

type ResultKind = 'run' | 'sweep' | 'compare' | 'matrix' | 'shard';

/** The fields every JSON result starts with. */
export interface Envelope {
  format: typeof RESULT_FORMAT;
  kind: ResultKind;
  /** muster's version that wrote it. */
  version: string;
  rule: string;
  title: string;
}

export function envelope(kind: ResultKind, rule: Pick<Rule, 'id' | 'title'>): Envelope {
  return { format: RESULT_FORMAT, kind, version: packageVersion(), rule: rule.id, title: rule.title };
}

export { bestOf } from './best-of.js';

/**
 * A simulated figure that is not a finite double (a mean whose running sum, or sum of squares for its interval,
 * passed ±1.8e308) would print as "—" and be written as null: refused in one line, naming the metric, instead.
 * One observation (`count` 1) has an unbounded interval by nature, and none (an empty partial run) no estimate.
 */
function checkFinite(
  rule: Pick<Rule, 'id' | 'file'>,
  metric: string,
  counted: Tallied,
  value: number,
  lo: number,
  hi: number,
): void {
  const observations = counted.kind === 'mean' ? counted.count : counted.trials;
  if (observations === 0) return;
  const what = !Number.isFinite(value)
    ? 'the sum of its values'
    : observations > 1 && !(Number.isFinite(lo) && Number.isFinite(hi))
      ? 'the sum of its squared values (for its interval)'
      : null;
  if (what === null) return;
  throw new UsageError(
    `${ruleName(rule)}: metric "${metric}": ${what} over ${observations} trials passed the largest double (±1.8e308), so no ` +
      `estimate can be shown; allowed: per-trial values small enough that it stays within (scale the metric ` +
      `down, e.g. in thousands)`,
  );
}

/** A rule as its one-line faults name it: a rule file by its path as typed, as every fault of its own. */
export function ruleName(rule: Pick<Rule, 'id' | 'file'>): string {
  return rule.file ? `${rule.file.origin} (rule ${rule.id})` : rule.id;
}

/** A long numeral cut to its first and last digits, with the count of digits between. */
function abbreviated(text: string): string {
  return text.length <= 40 ? text : `${text.slice(0, 12)}…(${text.length - 24} digits)…${text.slice(-12)}`;
}

/** A metric that was only solved exactly. */
function exactMetric(value: Fraction | undefined): MetricResult {
  return { estimate: null, lo: null, hi: null, exact: value?.toNumber() ?? null, fraction: value?.toString() ?? null };
}

/** The result JSON of `muster run` (docs/json.md). */
export interface RunResult extends Envelope {
  source: string;
  params: Params;
  seed: string;
  /** The random stream the trials drew from; null when nothing was simulated. */
  stream: StreamVersion | null;
  trials: number;
  threads: number;
  confidence: number;
  /** 'simulation', or 'exact' when --exact computed every value without simulating. */
  method: 'simulation' | 'exact';
  /** True when the run was interrupted and holds only the chunks that finished. */
  partial: boolean;
  precision?: { target: number; reached: boolean };
  metrics: Record<string, MetricResult>;
  /**
   * Each distribution metric's whole distribution (docs/json.md, "A distribution"), by name; present only when the
   * rule has distribution metrics. Its mean is the metric's entry in `metrics`.
   */
  distributions?: Record<string, DistributionResult>;
  /** A rule with decisions: what side a played for, and its exact value under best play (docs/json.md). */
  objective?: ObjectiveResult;
  /** A rule with decisions: every decision state best play reaches, each option's value, the option taken. */
  policy?: PolicyResult[];
  /** Beside a simulation, where a rule file's dice could not be enumerated: why its exact figures are null. */
  noExact?: NoExact;
}

/** An exact value in the JSON: the fraction "n/d" and the nearest double. */
export interface ExactValue {
  fraction: string;
  value: number;
}

export interface ObjectiveResult extends ExactValue {
  metric: string;
  /** The objective when every decision takes its first option, or its last; null where that play may not end. */
  alwaysFirst: ExactValue | null;
  alwaysLast: ExactValue | null;
}

export interface PolicyResult {
  state: unknown;
  label: string;
  side: 'a' | 'b';
  choice: string;
  /** Each option in the order the rule lists them; fraction and value null where the play may then never end. */
  options: Array<{ option: string; fraction: string | null; value: number | null }>;
}

const exactValue = (value: Fraction): ExactValue => ({ fraction: value.toString(), value: value.toNumber() });

/** The objective and policy of a rule with decisions, as the result JSON holds them. */
export function decisionResult(decisions: RuleDecisions): { objective: ObjectiveResult; policy: PolicyResult[] } {
  return {
    objective: {
      metric: decisions.objective,
      ...exactValue(decisions.value),
      alwaysFirst: decisions.alwaysFirst ? exactValue(decisions.alwaysFirst) : null,
      alwaysLast: decisions.alwaysLast ? exactValue(decisions.alwaysLast) : null,
    },
    policy: decisions.policy.map((entry) => ({
      state: entry.state,
      label: entry.label,
      side: entry.side,
      choice: entry.choice,
      options: entry.options.map(({ option, value }) => ({
        option,
        fraction: value?.toString() ?? null,
        value: value?.toNumber() ?? null,
      })),
    })),
  };
}

/** Why a run or a point has no exact values beside its simulation (rules/exact-of.ts lookUpExact). */
export interface NoExact {
  /** The note: why, then what would give them (--exact first where only the quick budget stopped it). */
  why: string;
  /** Only the quick path budget stopped it: --exact, which enumerates further, may give them. */
  quickBudget: boolean;
}

/** How a run was made, as its result records it: the same for a result evaluated and one assembled. */
export interface RunSettings {
  params: Params;
  seed: string;
  /** The stream of a simulation; null for an exact result. */
  stream: StreamVersion | null;
  threads: number;
  confidence: number;
  trials: number;
  partial?: boolean;
  precision?: { target: number; reached: boolean };
  /** The percentiles of every distribution asked for (`--percentile 10,90`), each from 0 to 100. */
  percentiles?: readonly number[];
}

/**
 * What a run's result is assembled from, each figure already evaluated (src/analysis/result-of.ts evaluates):
 * nothing here solves, simulates or enumerates.
 */
export interface AssembledInput extends RunSettings {
  rule: Pick<Rule, 'id' | 'title' | 'source' | 'file'>;
  /** The rule's metrics at params, in its order. */
  metrics: readonly MetricSpec[];
  /** Each metric as counted (the rule's summary of the tally); null where nothing was simulated. */
  tallied: Record<string, Tallied> | null;
  /** The exact values, or null where there are none. */
  exact: Record<string, Fraction> | null;
  /** Each distribution metric's exact distribution, or null where there are none. */
  exactDistributions: Record<string, ExactDistribution> | null;
  /** Why enumeration gave no exact values beside the simulation, where it did not. */
  noExact?: NoExact | null;
  /** Leave the distributions out, as for a rule with none (a grid printed as a table shows none). */
  withoutDistributions?: boolean;
}

/** Every metric's estimate, interval and exact value (null where there is none), as docs/json.md gives them. */
export function assembleResult(input: AssembledInput): RunResult {
  const { rule, params, tallied, exact, trials, confidence } = input;
  // Keyed by metric names, which a rule file chooses: `constructor` is a metric, not Object.prototype's.
  const metrics = keyedRecord<MetricResult>();
  for (const metric of input.metrics) {
    const exactValue = own(exact, metric.name);
    if (tallied) {
      const counted = own(tallied, metric.name);
      if (counted === undefined) throw new Error(`${rule.id} counted nothing for ${metric.name}`);
      // Fields named one by one: spreading estimate()'s two shapes of object took a slow path, about a third of a sweep
      // point's cost.
      const { estimate: value, lo, hi } = estimate(counted, confidence);
      checkFinite(rule, metric.name, counted, value, lo, hi);
      metrics[metric.name] = {
        estimate: value,
        lo,
        hi,
        exact: exactValue?.toNumber() ?? null,
        fraction: exactValue?.toString() ?? null,
      };
    } else {
      if (exactValue === undefined) throw new Error(`${rule.id} has no exact value for ${metric.name}`);
      metrics[metric.name] = exactMetric(exactValue);
    }
    const shown = metrics[metric.name].exact;
    if (exactValue !== undefined && (shown === null || !Number.isFinite(shown)))
      throw new UsageError(
        `${ruleName(rule)}: metric "${metric.name}": its exact value ${abbreviated(exactValue.toString())} is beyond the largest ` +
          `double (±1.8e308), so no figure can show it; allowed: values within ±1.8e308 (scale the metric down)`,
      );
  }
  const distributions = input.withoutDistributions ? null : distributionsOf(input);
  return {
    ...envelope('run', rule),
    source: rule.source,
    params,
    seed: input.seed,
    stream: tallied ? input.stream : null,
    trials,
    threads: input.threads,
    confidence,
    method: tallied ? 'simulation' : 'exact',
    partial: input.partial ?? false,
    ...(input.precision ? { precision: input.precision } : {}),
    metrics,
    ...(distributions ? { distributions } : {}),
    ...(input.noExact ? { noExact: input.noExact } : {}),
  };
}

/**
 * Every distribution metric's distribution, or null when the rule has none: from the tally's histogram and the
 * exact distributions given.
 */
function distributionsOf(input: AssembledInput): Record<string, DistributionResult> | null {
  const metrics = input.metrics.filter((metric) => metric.distribution);
  if (metrics.length === 0) return null;
  const { tallied, exactDistributions, trials, confidence, percentiles = [] } = input;
  const found = keyedRecord<DistributionResult>();
  for (const metric of metrics) {
    const counted = tallied ? own(tallied, metric.name) : undefined;
    const histogram = counted?.kind === 'mean' ? (counted.histogram ?? null) : null;
    found[metric.name] = distributionResult(
      metric.distribution as DistributionSpec,
      histogram,
      counted?.kind === 'mean' ? counted : null,
      own(exactDistributions, metric.name) ?? null,
      tallied ? trials : 0,
      confidence,
      percentiles,
    );
  }
  return found;
}
