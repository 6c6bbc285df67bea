/**
 * How far a simulated estimate lies from its exact value, in standard
 * errors. The standard error is read from the estimate's own interval
 * (half its width over the interval's z), so it is the one the table
 * prints: Wilson's for a probability, the sample standard deviation's for a
 * mean. Beyond 5 standard errors a correct rule is wrong by chance about
 * once in 1.7 million metrics, so that is where `run` warns and `check`
 * fails: the exact solution and the trial describe different rules.
 */
import type { MetricResult } from '../result.js';
import { twoSidedZ } from '../stats/wilson-interval.js';

export const FAR_SIGMAS = 5;

/** Standard errors between estimate and exact value: null where one is missing, Infinity for a gap with no spread. */
export function sigmasFromExact(value: MetricResult, confidence: number): number | null {
  if (value.estimate === null || value.exact === null || value.lo === null || value.hi === null) return null;
  const difference = Math.abs(value.estimate - value.exact);
  const standardError = (value.hi - value.lo) / (2 * twoSidedZ(confidence));
  if (standardError > 0) return difference / standardError;
  // No spread (every trial the same): any difference beyond rounding is a disagreement.
  return difference <= 1e-12 * Math.max(1, Math.abs(value.exact)) ? 0 : Number.POSITIVE_INFINITY;
}

/** The metrics whose estimate lies more than FAR_SIGMAS standard errors from the exact value. */
export interface FarMetric {
  metric: string;
  value: MetricResult;
  sigmas: number;
}

export function farFromExact(metrics: Record<string, MetricResult>, confidence: number): FarMetric[] {
  const far: FarMetric[] = [];
  for (const [metric, value] of Object.entries(metrics)) {
    const sigmas = sigmasFromExact(value, confidence);
    if (sigmas !== null && sigmas > FAR_SIGMAS) far.push({ metric, value, sigmas });
  }
  return far;
}

/** z as a message shows it. */
export const formatSigmas = (sigmas: number): string => (Number.isFinite(sigmas) ? sigmas.toFixed(1) : '∞');
