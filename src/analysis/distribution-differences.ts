/**
 * Where two variants' distributions differ (docs/json.md, "compare: distributions"): value by value, the chance
 * of each in the baseline and in the variant, the simulated difference, and the exact difference where both are
 * exact; for simulated ones, one chi-square test of homogeneity on the two histograms.
 *
 *   two DistributionResults ─► the values both can speak for (the lower listed end to the last value each side
 *   knows, every value between) and the chance past them ─► differences by value ─► a 2 × k table of counts,
 *   neighbouring values pooled until each expected count is 5 or more ─► X² and its p-value
 *
 * The test: if both variants draw from one distribution, the expected count of value j in a variant with n_i
 * trials is E_ij = n_i · c_j / N (c_j the count of j in both, N = n_1 + n_2), and X² = Σ (O_ij − E_ij)² / E_ij is
 * chi-square with k − 1 degrees of freedom as the counts grow (Pearson's test of homogeneity; Agresti, Categorical
 * Data Analysis, 3rd ed., §3.2). Pooling a tail until every E_ij ≥ 5 (Cochran's rule) keeps that approximation
 * good. Like the z-tests of a comparison, it treats the two samples as independent: on a shared seed, where the
 * variants share dice, the samples are positively correlated and the test is conservative.
 */
import { Fraction } from '../exact/fraction.js';
import type { DistributionResult, DistributionValue } from '../result-distribution.js';
import { chiSquareTails } from '../stats/incomplete-gamma.js';

/** One value in both variants: each side's chance (simulated and exact) and the variant's minus the baseline's. */
export interface ValueDifference {
  value: number;
  baseline: { estimate: number | null; exact: number | null };
  variant: { estimate: number | null; exact: number | null };
  /** variant − baseline, simulated (null when nothing was simulated). */
  difference: number | null;
  /** variant − baseline exactly (null unless both are exact), as a double and as a fraction. */
  exactDifference: number | null;
  exactFraction: string | null;
}

/** Pearson's chi-square test of homogeneity on the two histograms. */
export interface HomogeneityTest {
  test: 'chi-square';
  statistic: number;
  /** Degrees of freedom: the cells after pooling, less one. */
  df: number;
  /** The cells compared, after neighbouring values were pooled (each expected count at least 5). */
  cells: number;
  p: number;
  /** Holm-adjusted over every distribution test of the comparison. */
  pAdjusted: number | null;
  significant: boolean | null;
}

export interface DistributionDifference {
  metric: string;
  variant: string;
  baseline: string;
  values: ValueDifference[];
  /** The chance of a value above `above` (the last value listed), where either side has any; null otherwise. */
  beyond: (Omit<ValueDifference, 'value'> & { above: number }) | null;
  /** The values whose exact chances differ (null unless both are exact). */
  differAt: number[] | null;
  /** True when both are exact and no value's chance differs; null unless both are exact. */
  exactSame: boolean | null;
  /** The chi-square test on the two histograms (null unless both were simulated, or when one cell is all). */
  test: HomogeneityTest | null;
}

/** A fraction as a result writes it, "n/d" or "n". */
function fractionOf(text: string): Fraction {
  const [numerator, denominator = '1'] = text.split('/');
  return Fraction.of(BigInt(numerator), BigInt(denominator));
}

/** What one side says of a value: its count, and its exact chance (null where unknown). */
interface Side {
  distribution: DistributionResult;
  /** The last value this side knows the chance of: its last listed, or without end when nothing lies past it. */
  knownTo: number;
  simulated: boolean;
  exact: boolean;
}

function sideOf(distribution: DistributionResult, trials: number): Side {
  const listed = distribution.values;
  const last = listed.length > 0 ? listed[listed.length - 1].value : distribution.min;
  const beyond = distribution.beyond;
  // A range without end whose chance past the last value listed is not nothing (exactly, or as counted) leaves the
  // values there unknown one by one.
  const open = beyond !== null && (beyond.fraction !== null ? beyond.fraction !== '0' : (beyond.estimate ?? 1) > 0);
  return {
    distribution,
    knownTo: open ? last : Number.POSITIVE_INFINITY,
    simulated: trials > 0 && listed.every((v) => v.count !== null),
    exact: listed.length > 0 && listed.every((v) => v.fraction !== null),
  };
}

const entryAt = (side: Side, value: number): DistributionValue | undefined => {
  const listed = side.distribution.values;
  const at = listed.length > 0 ? value - listed[0].value : -1;
  return at >= 0 && at < listed.length ? listed[at] : undefined;
};

/** A value's count (0 outside the listing: nothing was seen there) and exact chance (0 outside it, where known). */
function countAt(side: Side, value: number): number {
  return entryAt(side, value)?.count ?? 0;
}

function exactAt(side: Side, value: number): Fraction | null {
  if (!side.exact) return null;
  const entry = entryAt(side, value);
  return entry ? fractionOf(entry.fraction as string) : Fraction.ZERO;
}

/**
 * Where a variant's distribution differs from the baseline's. `trials` are each side's simulated trials (0 when
 * exact only).
 */
export function distributionDifference(
  metric: string,
  labels: { baseline: string; variant: string },
  baseline: DistributionResult,
  variant: DistributionResult,
  trials: { baseline: number; variant: number },
): DistributionDifference {
  const a = sideOf(baseline, trials.baseline);
  const b = sideOf(variant, trials.variant);
  const firstOf = (d: DistributionResult) => (d.values.length > 0 ? d.values[0].value : d.min);
  const lastOf = (d: DistributionResult) => (d.values.length > 0 ? d.values[d.values.length - 1].value : d.min);
  const first = Math.min(firstOf(baseline), firstOf(variant));
  // Each value up to the last either side lists, but no further than one side with an open tail knows its values.
  const last = Math.min(Math.max(lastOf(baseline), lastOf(variant)), a.knownTo, b.knownTo);
  const simulated = a.simulated && b.simulated;
  const exact = a.exact && b.exact;
  const values: ValueDifference[] = [];
  let belowA = Fraction.ZERO;
  let belowB = Fraction.ZERO;
  let countedA = 0;
  let countedB = 0;
  const countsA: number[] = [];
  const countsB: number[] = [];
  for (let value = first; value <= last; value++) {
    const countA = countAt(a, value);
    const countB = countAt(b, value);
    countsA.push(countA);
    countsB.push(countB);
    countedA += countA;
    countedB += countB;
    const exactA = exactAt(a, value);
    const exactB = exactAt(b, value);
    if (exactA) belowA = belowA.add(exactA);
    if (exactB) belowB = belowB.add(exactB);
    values.push(
      row(
        simulated ? countA / trials.baseline : null,
        simulated ? countB / trials.variant : null,
        exact ? exactA : null,
        exact ? exactB : null,
        value,
      ),
    );
  }
  // Past the last value compared: what each side leaves, counted and exact.
  const pastA = trials.baseline - countedA;
  const pastB = trials.variant - countedB;
  const restA = Fraction.ONE.sub(belowA);
  const restB = Fraction.ONE.sub(belowB);
  const anyPast = (simulated && pastA + pastB > 0) || (exact && (restA.numerator !== 0n || restB.numerator !== 0n));
  const beyondRow = anyPast
    ? row(
        simulated ? pastA / trials.baseline : null,
        simulated ? pastB / trials.variant : null,
        exact ? restA : null,
        exact ? restB : null,
        last,
      )
    : null;
  const { value: above, ...beyondFigures } = beyondRow ?? { value: last };
  if (simulated && anyPast) {
    countsA.push(pastA);
    countsB.push(pastB);
  }
  const differ = exact ? [...values.filter((v) => v.exactFraction !== '0').map((v) => v.value)] : null;
  const beyondDiffers = exact && beyondRow !== null && beyondRow.exactFraction !== '0';
  return {
    metric,
    variant: labels.variant,
    baseline: labels.baseline,
    values,
    beyond: beyondRow ? { above, ...(beyondFigures as Omit<ValueDifference, 'value'>) } : null,
    differAt: differ,
    exactSame: exact ? (differ?.length ?? 0) === 0 && !beyondDiffers : null,
    test: simulated ? homogeneityTest(countsA, countsB) : null,
  };
}

function row(
  estimateA: number | null,
  estimateB: number | null,
  exactA: Fraction | null,
  exactB: Fraction | null,
  value: number,
): ValueDifference {
  const exactDifference = exactA && exactB ? exactB.sub(exactA) : null;
  return {
    value,
    baseline: { estimate: estimateA, exact: exactA?.toNumber() ?? null },
    variant: { estimate: estimateB, exact: exactB?.toNumber() ?? null },
    difference: estimateA !== null && estimateB !== null ? estimateB - estimateA : null,
    exactDifference: exactDifference?.toNumber() ?? null,
    exactFraction: exactDifference?.toString() ?? null,
  };
}

/**
 * Pearson's X² on a 2 × k table of counts, neighbouring cells pooled from the low end until each cell's smaller
 * expected count is at least 5 (a short last group joins the one before it); null when fewer than two cells remain
 * (every trial gave one value in both: nothing to tell apart) or a side has no trials.
 *
 * @example homogeneityTest([50, 50], [50, 50]) // { statistic: 0, df: 1, p: 1, … }
 */
export function homogeneityTest(countsA: readonly number[], countsB: readonly number[]): HomogeneityTest | null {
  const n1 = countsA.reduce((sum, c) => sum + c, 0);
  const n2 = countsB.reduce((sum, c) => sum + c, 0);
  if (n1 === 0 || n2 === 0) return null;
  const total = n1 + n2;
  const smaller = Math.min(n1, n2);
  const cells: Array<[number, number]> = [];
  let poolA = 0;
  let poolB = 0;
  for (let at = 0; at < countsA.length; at++) {
    poolA += countsA[at];
    poolB += countsB[at];
    if ((smaller * (poolA + poolB)) / total >= 5) {
      cells.push([poolA, poolB]);
      poolA = poolB = 0;
    }
  }
  if (poolA + poolB > 0) {
    if (cells.length > 0) {
      const lastCell = cells[cells.length - 1];
      lastCell[0] += poolA;
      lastCell[1] += poolB;
    } else cells.push([poolA, poolB]);
  }
  if (cells.length < 2) return null;
  let statistic = 0;
  for (const [countA, countB] of cells) {
    const column = countA + countB;
    const expectedA = (n1 * column) / total;
    const expectedB = (n2 * column) / total;
    statistic += (countA - expectedA) ** 2 / expectedA + (countB - expectedB) ** 2 / expectedB;
  }
  const df = cells.length - 1;
  return {
    test: 'chi-square',
    statistic,
    df,
    cells: cells.length,
    p: chiSquareTails(statistic, df).upper,
    pAdjusted: null,
    significant: null,
  };
}
