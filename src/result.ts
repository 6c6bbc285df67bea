import type { Params, Rule } from './rules/types.js';
import { estimate } from './stats/estimate.js';

export interface MetricResult {
  estimate: number;
  lo: number;
  hi: number;
  exact: number | null;
}

/** The result JSON of `muster run` (../shared/DESIGN.md, "Contracts"). */
export interface RunResult {
  rule: string;
  title: string;
  source: string;
  params: Params;
  seed: string;
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
  threads: number;
  confidence: number;
  trials: number;
  tally: Float64Array | null;
  partial?: boolean;
  precision?: { target: number; reached: boolean };
}

/** Every metric's estimate, interval and exact value (null where the rule has no exact solution). */
export function buildResult(input: ResultInput): RunResult {
  const { rule, params, tally, trials, confidence } = input;
  const exact = rule.exact ? rule.exact(params) : null;
  const tallied = tally ? rule.summarize(params, tally, trials) : null;
  const metrics: Record<string, MetricResult> = {};
  for (const metric of rule.metrics(params)) {
    const exactValue = exact?.[metric.name]?.toNumber() ?? null;
    if (tallied) {
      metrics[metric.name] = { ...estimate(tallied[metric.name], confidence), exact: exactValue };
    } else {
      if (exactValue === null) throw new Error(`${rule.id} has no exact value for ${metric.name}`);
      metrics[metric.name] = { estimate: exactValue, lo: exactValue, hi: exactValue, exact: exactValue };
    }
  }
  return {
    rule: rule.id,
    title: rule.title,
    source: rule.source,
    params,
    seed: input.seed,
    trials,
    threads: input.threads,
    confidence,
    method: tally ? 'simulation' : 'exact',
    partial: input.partial ?? false,
    ...(input.precision ? { precision: input.precision } : {}),
    metrics,
  };
}
