import type { Fraction } from './exact/fraction.js';
import { UsageError } from './errors.js';
import { keyedRecord, own } from './keyed.js';
import { knownExact } from './rules/exact-of.js';
import type { Params, Rule, StreamVersion } from './rules/types.js';
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
function checkFinite(rule: Rule, metric: string, counted: Tallied, value: number, lo: number, hi: number): void {
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
function ruleName(rule: Pick<Rule, 'id' | 'file'>): string {
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
}

interface ResultInput {
  rule: Rule;
  params: Params;
  seed: string;
  /** The stream of a simulation; null for an exact result. */
  stream: StreamVersion | null;
  threads: number;
  confidence: number;
  trials: number;
  tally: Float64Array | null;
  /** rule.summarize of the tally, when the caller already has it. */
  tallied?: Record<string, Tallied>;
  /** rule.exact of the params, when the caller already has it. */
  exact?: Record<string, Fraction> | null;
  partial?: boolean;
  precision?: { target: number; reached: boolean };
}

/** Every metric's estimate, interval and exact value (null where the rule has no exact solution). */
export function buildResult(input: ResultInput): RunResult {
  const { rule, params, tally, trials, confidence } = input;
  // Solved already where the caller has it (a sweep point solved while the workers simulate); beside a simulation,
  // an enumeration past its budget is no exact value; alone (--exact) it is the error.
  // An interrupted run is not held up by an enumeration (a trial that loops would loop there too): a rule file's
  // enumerated values are left out of a partial result; a hand-written exact() still answers.
  const enumerationSkipped = input.partial === true && rule.exactBy === 'enumeration';
  const exact =
    input.exact !== undefined
      ? input.exact
      : enumerationSkipped
        ? null
        : tally
          ? knownExact(rule, params)
          : rule.exact
            ? rule.exact(params)
            : null;
  const tallied = tally ? (input.tallied ?? rule.summarize(params, tally, trials)) : null;
  // Keyed by metric names, which a rule file chooses: `constructor` is a metric, not Object.prototype's.
  const metrics = keyedRecord<MetricResult>();
  for (const metric of rule.metrics(params)) {
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
  return {
    ...envelope('run', rule),
    source: rule.source,
    params,
    seed: input.seed,
    stream: tally ? input.stream : null,
    trials,
    threads: input.threads,
    confidence,
    method: tally ? 'simulation' : 'exact',
    partial: input.partial ?? false,
    ...(input.precision ? { precision: input.precision } : {}),
    metrics,
  };
}
