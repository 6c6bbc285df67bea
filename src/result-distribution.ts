/**
 * A distribution metric's whole distribution in a result (docs/json.md,
 * "A distribution"): each value's chance, simulated (with its Wilson
 * interval) and exact, its at-least and at-most tails, the chance of
 * everything past the last value listed, the mean, standard deviation,
 * median and the percentiles asked for, and the values never seen.
 *
 *   histogram (the tally's counts) ┐
 *   exact distribution (fractions) ┴─► the values listed: from the lowest with a count or an exact chance to the
 *                                      highest, every value between, so P(≥) and P(≤) read down one column
 */

import type { DistributionSpec } from './contract/types.js';
import type { ExactDistribution } from './exact/exact-distribution.js';
import { Fraction } from './exact/fraction.js';
import type { Histogram } from './stats/estimate.js';
import { wilsonInterval } from './stats/wilson-interval.js';

/** A chance: simulated with its interval (null when nothing was simulated) and exact (null where unknown). */
export interface Chance {
  estimate: number | null;
  lo: number | null;
  hi: number | null;
  exact: number | null;
  fraction: string | null;
}

/** One value of a distribution: its chance, and the chance of it or more, and of it or less. */
export interface DistributionValue extends Chance {
  value: number;
  /** Trials that gave this value; null when nothing was simulated. */
  count: number | null;
  atLeast: Chance;
  atMost: Chance;
}

/** A percentile: the least value v with P(X ≤ v) ≥ p/100, simulated and exact; null past the values listed. */
export interface Percentile {
  p: number;
  estimate: number | null;
  exact: number | null;
}

export interface DistributionResult {
  /** The declared range: values from min to max (max null: without end). */
  min: number;
  max: number | null;
  values: DistributionValue[];
  /** The chance of a value above the last one listed (`above`); null when the range ends there. */
  beyond: (Chance & { above: number }) | null;
  /** The variance: simulated (the sample variance) and exact, as a double and a fraction. */
  variance: { estimate: number | null; exact: number | null; fraction: string | null };
  /** The standard deviation: the square root of the variance, simulated and exact. */
  sd: { estimate: number | null; exact: number | null };
  median: Percentile;
  /** The percentiles asked for (`--percentile 10,90`), in the order asked. */
  percentiles: Percentile[];
  /** Values listed that no trial gave (null when nothing was simulated). */
  unseen: number[] | null;
}

/** The sums a mean keeps, for the sample variance. */
interface Sums {
  sum: number;
  sumOfSquares: number;
  count: number;
}

const chanceOf = (successes: number | null, trials: number, exact: Fraction | null, confidence: number): Chance => {
  const simulated = successes !== null && trials > 0;
  const interval = simulated ? wilsonInterval(successes, trials, confidence) : null;
  return {
    estimate: simulated ? successes / trials : null,
    lo: interval?.lo ?? null,
    hi: interval?.hi ?? null,
    exact: exact?.toNumber() ?? null,
    fraction: exact?.toString() ?? null,
  };
};

/** The values a distribution lists: from the lowest with a count or an exact chance to the highest (else its min). */
function listedSpan(
  range: DistributionSpec,
  histogram: Histogram | null,
  exact: ExactDistribution | null,
): { first: number; last: number } {
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  if (histogram) {
    for (let at = 0; at < histogram.counts.length; at++) {
      if (histogram.counts[at] === 0) continue;
      first = Math.min(first, histogram.min + at);
      last = Math.max(last, histogram.min + at);
    }
  }
  if (exact) {
    exact.probabilities.forEach((chance, at) => {
      if (chance.numerator === 0n) return;
      first = Math.min(first, exact.min + at);
      last = Math.max(last, exact.min + at);
    });
  }
  if (first > last) first = last = range.min;
  return { first, last };
}

/** The exact chance of everything above `last` (null where the exact listing is shorter, or nothing is exact). */
function exactAboveOf(exact: ExactDistribution | null, last: number): Fraction | null {
  if (!exact) return null;
  const listedEnd = exact.min + exact.probabilities.length - 1;
  if (last >= listedEnd)
    return last === listedEnd ? exact.beyond : exact.beyond.numerator === 0n ? Fraction.ZERO : null;
  let above = exact.beyond;
  for (let value = last + 1; value <= listedEnd; value++) above = above.add(exact.probabilities[value - exact.min]);
  return above;
}

/**
 * The distribution of one metric from its histogram (null when nothing was simulated) and its exact distribution
 * (null where unknown). `trials` is the simulated trials (0 when exact only).
 */
export function distributionResult(
  range: DistributionSpec,
  histogram: Histogram | null,
  sums: Sums | null,
  exact: ExactDistribution | null,
  trials: number,
  confidence: number,
  percentiles: readonly number[] = [],
): DistributionResult {
  const simulated = histogram !== null && trials > 0;
  const countAt = (value: number): number => {
    if (!histogram) return 0;
    const at = value - histogram.min;
    return at >= 0 && at < histogram.counts.length ? histogram.counts[at] : 0;
  };
  const exactAt = (value: number): Fraction | null => {
    if (!exact) return null;
    const at = value - exact.min;
    if (at < 0) return Fraction.ZERO;
    if (at < exact.probabilities.length) return exact.probabilities[at];
    return exact.beyond.numerator === 0n ? Fraction.ZERO : null;
  };
  const { first, last } = listedSpan(range, histogram, exact);
  const beyondCount = histogram?.beyond ?? 0;
  // Exact chances of the values listed (null where the exact listing is shorter).
  const exacts: Array<Fraction | null> = [];
  for (let value = first; value <= last; value++) exacts.push(exactAt(value));
  const exactAbove = exactAboveOf(exact, last);
  const counts: number[] = [];
  for (let value = first; value <= last; value++) counts.push(countAt(value));
  // Tails: at least summed from above (beyond included), at most from below.
  const values: DistributionValue[] = [];
  let above = beyondCount;
  let aboveExact: Fraction | null = exactAbove;
  const atLeastCounts: number[] = new Array(counts.length);
  const atLeastExact: Array<Fraction | null> = new Array(counts.length);
  for (let at = counts.length - 1; at >= 0; at--) {
    above += counts[at];
    aboveExact = aboveExact && exacts[at] ? aboveExact.add(exacts[at] as Fraction) : null;
    atLeastCounts[at] = above;
    atLeastExact[at] = aboveExact;
  }
  // Nothing lies below the first value listed, so where the exact chances at least it add up to 1, P(X ≤ v) is
  // 1 − P(X ≥ v + 1): a complement, in lowest terms with no reduction, where a sum costs one (most of an exact
  // distribution's cost, at a hundred values and more).
  const whole = atLeastExact.length > 0 && atLeastExact[0]?.equals(Fraction.ONE) === true;
  let below = 0;
  let belowExact: Fraction | null = exact ? Fraction.ZERO : null;
  const atMostCounts: number[] = [];
  const atMostExact: Array<Fraction | null> = [];
  for (let at = 0; at < counts.length; at++) {
    below += counts[at];
    const past = at + 1 < counts.length ? atLeastExact[at + 1] : exactAbove;
    belowExact =
      whole && past ? past.complement() : belowExact && exacts[at] ? belowExact.add(exacts[at] as Fraction) : null;
    atMostCounts.push(below);
    atMostExact.push(belowExact);
  }
  for (let at = 0; at < counts.length; at++) {
    const value = first + at;
    values.push({
      value,
      count: simulated ? counts[at] : null,
      ...chanceOf(simulated ? counts[at] : null, trials, exacts[at], confidence),
      atLeast: chanceOf(simulated ? atLeastCounts[at] : null, trials, atLeastExact[at], confidence),
      atMost: chanceOf(simulated ? atMostCounts[at] : null, trials, atMostExact[at], confidence),
    });
  }
  // A bounded range has nothing past its last value listed (no count, no exact chance); one without end always says
  // what lies past it.
  const beyond =
    range.max === null
      ? { above: last, ...chanceOf(simulated ? beyondCount : null, trials, exactAbove, confidence) }
      : null;
  const sampleVariance =
    simulated && sums && sums.count > 1
      ? Math.max(0, (sums.sumOfSquares - (sums.sum * sums.sum) / sums.count) / (sums.count - 1))
      : null;
  return {
    min: range.min,
    max: range.max,
    values,
    beyond,
    variance: {
      estimate: sampleVariance,
      exact: exact?.variance.toNumber() ?? null,
      fraction: exact?.variance.toString() ?? null,
    },
    sd: {
      estimate: sampleVariance === null ? null : Math.sqrt(sampleVariance),
      exact: exact ? Math.sqrt(exact.variance.toNumber()) : null,
    },
    median: percentileOf(values, trials, 50, atMostExact),
    percentiles: percentiles.map((p) => percentileOf(values, trials, p, atMostExact)),
    unseen: simulated ? values.filter((v) => v.count === 0).map((v) => v.value) : null,
  };
}

/**
 * The least value v listed with P(X ≤ v) ≥ p/100, from the counts (simulated) and from the exact at-most chances
 * (compared as fractions, so a chance of exactly one half gives the value it ends at); null when nothing was
 * simulated, the exact distribution is unknown, or the listed values never reach p (the rest lies beyond).
 * `atMost`, where the caller has them, are the values' exact at-most chances as fractions, read in place of their
 * text.
 *
 * @example percentileOf(values, trials, 50) // the median
 */
export function percentileOf(
  values: readonly DistributionValue[],
  trials: number,
  p: number,
  atMost?: ReadonlyArray<Fraction | null>,
): Percentile {
  const target = Fraction.fromParameter(p).div(Fraction.of(100));
  let estimate: number | null = null;
  let exact: number | null = null;
  let counted = 0;
  let countsKnown = true;
  let exactKnown = true;
  for (const [index, entry] of values.entries()) {
    if (estimate === null && countsKnown) {
      if (entry.count === null || trials === 0) countsKnown = false;
      else {
        counted += entry.count;
        if (counted * 100 >= p * trials) estimate = entry.value;
      }
    }
    if (exact === null && exactKnown) {
      const chance = atMost ? atMost[index] : entry.atMost.fraction;
      if (chance === null) exactKnown = false;
      else if (typeof chance === 'string' ? reaches(chance, target) : chance.compare(target) >= 0) exact = entry.value;
    }
  }
  return { p, estimate, exact };
}

/** Whether a fraction as a result writes it ("n/d" or "n") is at least `target`: compared across, not reduced. */
function reaches(text: string, target: Fraction): boolean {
  const [numerator, denominator = '1'] = text.split('/');
  return BigInt(numerator) * target.denominator >= target.numerator * BigInt(denominator);
}

/** The result's distributions with `percentiles` (each 0 < p ≤ 100) reported, in the order asked. */
export function withPercentiles(
  distributions: Record<string, DistributionResult>,
  trials: number,
  percentiles: readonly number[],
): void {
  for (const distribution of Object.values(distributions))
    distribution.percentiles = percentiles.map((p) => percentileOf(distribution.values, trials, p));
}
