/**
 * A distribution's tail as a probability metric: `arrived.by.2>=3` (also
 * `>`, `<=`, `<` and `=`) wherever a metric name is taken (`--metric`,
 * `--best`, `balance --metric`/`--keep`, `matrix --objective`). The rule is
 * wrapped so that the tail is one more metric: read off the distribution's
 * histogram in the tally (nothing more is counted, so shards and
 * checkpoints are the rule's own) and, exactly, off its exact distribution.
 * A distribution whose name ends in `.mean` (the built-ins', where the
 * number shown is its mean) is also named without it: `arrived.by.2>=3`
 * reads `arrived.by.2.mean`. A tail past the values a histogram lists one
 * by one, or whose exact chance the rule cannot give (an exact() of a rule
 * file's own gives only the mean), says so in one line rather than guess;
 * so does a tail of a metric that is not a distribution.
 */

import type { MetricSpec, Params, Rule } from '../contract/types.js';
import { UsageError } from '../errors.js';
import type { ExactDistribution } from '../exact/exact-distribution.js';
import { Fraction } from '../exact/fraction.js';
import { NotEnumerable } from '../exact/replay-dice.js';
import { keyedRecord, own } from '../keyed.js';
import { type Histogram, proportion, type Tallied } from '../stats/estimate.js';

interface Tail {
  name: string;
  /** The name as typed before the comparison: the distribution metric's, or it without `.mean`. */
  base: string;
  /** The values counted: from `low` to `high` (either end open as ±Infinity). */
  low: number;
  high: number;
  words: string;
}

/** A tail named `base>=k` (or >, <=, <, =), or null for any other name. @example tailOf('rolls>=3') */
export function tailOf(name: string): Tail | null {
  const match = /^(.+?)\s*(>=|<=|>|<|=)\s*(-?\d+)$/.exec(name.trim());
  if (!match) return null;
  const [, base, op, text] = match;
  const k = Number(text);
  if (!Number.isSafeInteger(k)) return null;
  const [low, high, words] =
    op === '>='
      ? [k, Number.POSITIVE_INFINITY, `${k} or more`]
      : op === '>'
        ? [k + 1, Number.POSITIVE_INFINITY, `more than ${k}`]
        : op === '<='
          ? [Number.NEGATIVE_INFINITY, k, `${k} or less`]
          : op === '<'
            ? [Number.NEGATIVE_INFINITY, k - 1, `less than ${k}`]
            : [k, k, `exactly ${k}`];
  return { name: `${base}${op}${k}`, base, low, high, words };
}

/** A tail read against a rule's metrics: `metric` is the distribution metric its base names. */
type ReadTail = Tail & { metric: string };

/**
 * The distribution metric a tail's base names at these metrics: the base itself, or the base with `.mean` added
 * (`arrived.by.2` for `arrived.by.2.mean`); null when it names none. A metric that is not a distribution is refused in
 * one line naming `option`.
 */
function distributionNamed(metrics: readonly MetricSpec[], tail: Tail, option: string): string | null {
  const byName = new Map(metrics.map((m) => [m.name, m]));
  const metric = byName.get(tail.base) ?? byName.get(`${tail.base}.mean`);
  if (!metric) return null;
  if (metric.distribution) return metric.name;
  const distributions = metrics.filter((m) => m.distribution).map((m) => m.name);
  throw new UsageError(
    `${option}: got ${JSON.stringify(tail.name)}, a tail of ${metric.name}, which is ${
      metric.probability ? 'a probability' : 'a mean'
    }, not a distribution; allowed: a tail (>=, >, <=, <, =) of a distribution metric${
      distributions.length === 0
        ? ' (this rule has none at these parameters)'
        : `, such as ${distributions.slice(0, 3).join(', ')}`
    }, or ${metric.name} alone`,
  );
}

/** Trials whose value lies in the tail, or null where the histogram's beyond count leaves it unknown. */
function countIn(histogram: Histogram, tail: Tail): number | null {
  const top = histogram.min + histogram.counts.length - 1;
  const beyond = histogram.beyond ?? 0;
  // Values above top are counted together: in the tail whole (it reaches past top from top + 1 or below), or not.
  let fromBeyond = 0;
  if (beyond > 0) {
    if (tail.high === Number.POSITIVE_INFINITY && tail.low <= top + 1) fromBeyond = beyond;
    else if (tail.high > top) return null;
  }
  let sum = fromBeyond;
  for (let at = 0; at < histogram.counts.length; at++) {
    const value = histogram.min + at;
    if (value >= tail.low && value <= tail.high) sum += histogram.counts[at];
  }
  return sum;
}

/** The tail's exact chance, or null where the listing's beyond leaves it unknown. */
function chanceIn(distribution: ExactDistribution, tail: Tail): Fraction | null {
  const top = distribution.min + distribution.probabilities.length - 1;
  let sum = Fraction.ZERO;
  if (distribution.beyond.numerator !== 0n) {
    if (tail.high === Number.POSITIVE_INFINITY && tail.low <= top + 1) sum = distribution.beyond;
    else if (tail.high > top) return null;
  }
  distribution.probabilities.forEach((chance, at) => {
    const value = distribution.min + at;
    if (value >= tail.low && value <= tail.high) sum = sum.add(chance);
  });
  return sum;
}

/**
 * The rule with each tail among `names` (metric names or patterns as typed; `:max`/`:min` of --best ignored) that
 * reads a distribution metric added as a probability metric; the rule itself when none does.
 */
export function withTails(rule: Rule, names: ReadonlyArray<string | undefined>, option = '--metric'): Rule {
  const tails = names
    .filter((name): name is string => name !== undefined)
    .map((name) => tailOf(name.replace(/:(max|min)$/, '')))
    .filter((tail): tail is Tail => tail !== null);
  if (tails.length === 0) return rule;
  const tailsAt = (p: Params): ReadTail[] => {
    const metrics = rule.metrics(p);
    // Wrapped twice (balance plans a sweep of a rule it wrapped), a tail already a metric is not added again.
    const names = new Set(metrics.map((m) => m.name));
    const read: ReadTail[] = [];
    for (const tail of tails) {
      if (names.has(tail.name)) continue;
      const metric = distributionNamed(metrics, tail, option);
      if (metric === null) continue;
      names.add(tail.name);
      read.push({ ...tail, metric });
    }
    return read;
  };
  const cannotRead = (tail: ReadTail): never => {
    throw new UsageError(
      `${option}: ${tail.name} reaches past the values ${tail.metric} lists one by one; allowed: a tail within ` +
        'them (see its table: the last row says what lies beyond)',
    );
  };
  const addExact = (p: Params, values: Record<string, Fraction>): Record<string, Fraction> => {
    const list = tailsAt(p);
    if (list.length === 0) return values;
    const distributions = rule.exact?.distributions?.(p) ?? null;
    const result = keyedRecord<Fraction>(Object.entries(values));
    for (const tail of list) {
      const distribution = distributions ? own(distributions, tail.metric) : undefined;
      const chance = distribution ? chanceIn(distribution, tail) : null;
      if (chance) {
        result[tail.name] = chance;
        continue;
      }
      // No exact chance where the rule's other values are exact: refused as a point past enumeration is, so --exact
      // says why in one line and a simulation goes without exact values here.
      throw new NotEnumerable(
        `${tail.name} has no exact value: ${
          distribution
            ? `it reaches past the values ${tail.metric} lists exactly`
            : rule.file && rule.exact?.by !== 'enumeration'
              ? `the rule file's exact() gives only the mean of ${tail.metric}, not its whole distribution`
              : rule.exact?.decisions
                ? `${rule.id} gives the mean of ${tail.metric} under best play, not its whole distribution`
                : `${rule.id} gives no exact distribution of ${tail.metric} here`
        }`,
        distribution
          ? 'a tail within the values listed'
          : rule.file && rule.exact?.by !== 'enumeration'
            ? 'a rule file without exact(), whose dice muster enumerates'
            : `${tail.metric} alone`,
        option,
      );
    }
    return result;
  };
  const wrapped: Rule = {
    ...rule,
    metrics: (p) => [
      ...rule.metrics(p),
      ...tailsAt(p).map(
        (tail): MetricSpec => ({
          name: tail.name,
          doc: `the chance that ${tail.metric} is ${tail.words}`,
          label: `${tail.base} ${tail.words}`,
          probability: true,
        }),
      ),
    ],
    tally: {
      ...rule.tally,
      summarize(p, tally, trials) {
        const counted = rule.tally.summarize(p, tally, trials);
        const result: Record<string, Tallied> = keyedRecord(Object.entries(counted));
        for (const tail of tailsAt(p)) {
          const base = own(counted, tail.metric);
          const histogram = base?.kind === 'mean' ? base.histogram : undefined;
          if (!histogram) throw new Error(`${rule.id}: ${tail.metric} counted no histogram`);
          const inTail = countIn(histogram, tail);
          result[tail.name] = proportion(inTail === null ? cannotRead(tail) : inTail, trials);
        }
        return result;
      },
    },
  };
  if (rule.exact) {
    const { values, enumerate } = rule.exact;
    wrapped.exact = { ...rule.exact, values: (p) => addExact(p, values(p)) };
    if (enumerate) wrapped.exact.enumerate = (p, paths) => addExact(p, enumerate(p, paths));
  }
  return wrapped;
}
