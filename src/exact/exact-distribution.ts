/**
 * A whole-number distribution known exactly: the chance of each value from
 * `min` up to a listed top, the chance of everything above it (`beyond`),
 * and the mean and variance, which stay exact however deep the listing goes.
 * A distribution of finite support lists it all (beyond 0); one without end
 * (roll-offs re-rolled on ties: the number of rolls) is listed to a stated
 * depth, and `beyond` says how much lies past it — never cut off silently.
 */
import { Fraction } from './fraction.js';

/**
 * How many values a distribution metric without a max lists from its min before counting the rest as beyond
 * (a built-in's histogram and a rule file's alike).
 */
export const DISTRIBUTION_DEPTH = 1000;

export interface ExactDistribution {
  /** The first value listed. */
  min: number;
  /** probabilities[i] is P(X = min + i). */
  probabilities: Fraction[];
  /** P(X > min + probabilities.length − 1): zero when the listing holds the whole support. */
  beyond: Fraction;
  mean: Fraction;
  variance: Fraction;
}

/**
 * The distribution of finite support given by each value's chance (values absent have none), listed from the
 * lowest value with a chance to the highest; the chances must add up to 1.
 *
 * @example distributionOf(new Map([[1, Fraction.of(1, 2)], [3, Fraction.of(1, 2)]]))
 * // { min: 1, probabilities: [1/2, 0, 1/2], beyond: 0, mean: 2, variance: 1 }
 */
export function distributionOf(chances: ReadonlyMap<number, Fraction>): ExactDistribution {
  const values = [...chances.keys()].filter((value) => chances.get(value)?.numerator !== 0n).sort((a, b) => a - b);
  if (values.length === 0) throw new RangeError('distributionOf needs at least one value with a chance');
  const min = values[0];
  const probabilities = Array.from({ length: values[values.length - 1] - min + 1 }, () => Fraction.ZERO);
  let total = Fraction.ZERO;
  let mean = Fraction.ZERO;
  let square = Fraction.ZERO;
  for (const value of values) {
    const chance = chances.get(value) as Fraction;
    probabilities[value - min] = chance;
    total = total.add(chance);
    mean = mean.add(chance.mul(Fraction.of(value)));
    square = square.add(chance.mul(Fraction.of(value * value)));
  }
  if (!total.equals(Fraction.ONE)) throw new RangeError(`distributionOf: the chances add up to ${total}, not 1`);
  return { min, probabilities, beyond: Fraction.ZERO, mean, variance: square.sub(mean.mul(mean)) };
}

/**
 * The same distribution given as whole-number counts over one total: value `min + i` has chance
 * `counts[i] / total`. Mean and variance are summed in whole numbers and each figure reduced once, where
 * distributionOf reduces a fraction at every step (a sweep's exact distributions were mostly that).
 *
 * @example distributionOfCounts(0, [1n, 2n, 1n], 4n) // { min: 0, probabilities: [1/4, 1/2, 1/4], beyond: 0, mean: 1, variance: 1/2 }
 */
export function distributionOfCounts(min: number, counts: readonly bigint[], total: bigint): ExactDistribution {
  let first = 0;
  while (first < counts.length && counts[first] === 0n) first++;
  let last = counts.length - 1;
  while (last >= first && counts[last] === 0n) last--;
  if (first > last) throw new RangeError('distributionOfCounts needs at least one value with a chance');
  let sum = 0n;
  let moment = 0n;
  let square = 0n;
  const probabilities: Fraction[] = [];
  for (let at = first; at <= last; at++) {
    const count = counts[at];
    const value = BigInt(min + at);
    sum += count;
    moment += count * value;
    square += count * value * value;
    probabilities.push(count === 0n ? Fraction.ZERO : Fraction.of(count, total));
  }
  if (sum !== total) throw new RangeError(`distributionOfCounts: the counts add up to ${sum}, not ${total}`);
  return {
    min: min + first,
    probabilities,
    beyond: Fraction.ZERO,
    mean: Fraction.of(moment, total),
    variance: Fraction.of(square * total - moment * moment, total * total),
  };
}

/** Where a listing without end stops: once what lies beyond is at most this. */
const TAIL = Fraction.of(1, 10 ** 12);

/**
 * The number of tries to the first that does not repeat, counted from `first`, when each try repeats with chance
 * `again` (0 ≤ again < 1): P(first + j) = again^j · (1 − again), listed until what lies beyond is at most 10^-12.
 * Mean first + again/(1 − again), variance again/(1 − again)².
 *
 * @example geometricDistribution(1, Fraction.of(1, 6)).probabilities.slice(0, 2) // [5/6, 5/36]
 */
export function geometricDistribution(first: number, again: Fraction): ExactDistribution {
  const stop = again.complement();
  const probabilities: Fraction[] = [];
  let beyond = Fraction.ONE;
  do {
    probabilities.push(beyond.mul(stop));
    beyond = beyond.mul(again);
  } while (beyond.compare(TAIL) > 0);
  return {
    min: first,
    probabilities,
    beyond,
    mean: Fraction.of(first).add(again.div(stop)),
    variance: again.div(stop.mul(stop)),
  };
}
