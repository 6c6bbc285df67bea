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

/**
 * Standard errors between estimate and exact value; null where one is missing, or where `trials` that all
 * gave one value cannot tell (see below).
 */
export function sigmasFromExact(value: MetricResult, confidence: number, trials: number): number | null {
  if (value.estimate === null || value.exact === null || value.lo === null || value.hi === null) return null;
  const difference = Math.abs(value.estimate - value.exact);
  const standardError = (value.hi - value.lo) / (2 * twoSidedZ(confidence));
  if (standardError > 0) return difference / standardError;
  if (difference <= 1e-12 * Math.max(1, Math.abs(value.exact))) return 0;
  // Every trial gave the same value v (a mean with no spread: a rare event that never happened, or a
  // constant). Were the exact mean μ right, a trial would differ from v with chance q ≥ |μ − v| / D, where D
  // bounds how far a value strays (taken as max(1, |v|, |μ|)); all n trials alike then has chance at most
  // e^(−n·|μ − v| / D). Below e^(−14.4) ≈ 5.7e-7, the two-sided 5σ rate, that is a disagreement; above it the
  // simulation cannot tell.
  const scale = Math.max(1, Math.abs(value.estimate), Math.abs(value.exact));
  return (trials * difference) / scale > UNSEEN_EVIDENCE ? Number.POSITIVE_INFINITY : null;
}

/** −ln of the two-sided 5σ false-alarm rate (5.7e-7). */
const UNSEEN_EVIDENCE = 14.4;

/** The metrics whose estimate lies more than FAR_SIGMAS standard errors from the exact value. */
interface FarMetric {
  metric: string;
  value: MetricResult;
  sigmas: number;
}

export function farFromExact(metrics: Record<string, MetricResult>, confidence: number, trials: number): FarMetric[] {
  const far: FarMetric[] = [];
  for (const [metric, value] of Object.entries(metrics)) {
    const sigmas = sigmasFromExact(value, confidence, trials);
    if (sigmas !== null && sigmas > FAR_SIGMAS) far.push({ metric, value, sigmas });
  }
  return far;
}

/** z as a message shows it. */
export const formatSigmas = (sigmas: number): string => (Number.isFinite(sigmas) ? sigmas.toFixed(1) : '∞');
