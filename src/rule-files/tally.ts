/**
 * The tally phase of a rule file (rule.ts): where each metric's counts
 * lie in the tally, what a metric's value in a trial may be, and how a
 * trial's `out` is read. One reader and one rule serve simulation
 * (loop.ts, whose compiled loop writes the same steps out as code),
 * enumeration (exact.ts) and the steps of the step form
 * (steps.ts), so the two ways of answering agree on what a trial
 * wrote and refuse the same mistakes in the same words.
 *
 * A metric's value in a trial is what `out[name]` and `out[k]` (its position)
 * hold together: a probability's must be 0 or 1 (written as 0/1 or
 * false/true, once), a mean's a finite number.
 *
 * The tally: a probability metric takes one entry (trials where it was 1);
 * a mean takes four — the whole and fractional parts of Σ value and of
 * Σ value²; a distribution takes a mean's four, then one count per value
 * from its min to its max (or, without a max, to min + DISTRIBUTION_DEPTH − 1,
 * and one more entry counting the trials beyond). A distribution's value in a
 * trial is a whole number in its range, 0 when not written. Each chunk sums
 * its trials in doubles, in a fixed order, then
 * adds floor(sum) and round(fraction · 2^32) into the tally: every entry is
 * an integer, so adding chunks is exact and in any order gives the same
 * bits, on any thread count or shard, as for the built-in rules.
 */

import type { MetricSpec } from '../contract/types.js';
import { DISTRIBUTION_DEPTH } from '../exact/exact-distribution.js';
import { describeValue } from '../guard/rule-text.js';
import { keyedRecord } from '../keyed.js';
import { type Histogram, mean, proportion, type Tallied } from '../stats/estimate.js';

const FRACTION_UNITS = 2 ** 32;

export { DISTRIBUTION_DEPTH };
/** Most values a distribution's declared range may hold: its histogram is that many tally entries. */
export const MAX_DISTRIBUTION_VALUES = 100_000;
/** Values a distribution may declare or give lie within ±LIMIT, so every count and square sums exactly enough. */
export const DISTRIBUTION_LIMIT = 2 ** 31 - 1;

/** Where a distribution's histogram lies in the tally, and the values it lists. */
export interface HistogramSlot {
  min: number;
  /** The declared max, or null for a distribution without one. */
  max: number | null;
  /** The last value with an entry of its own. */
  top: number;
  /** The entry counting value `min`; value v is counted at `at + v − min`. */
  at: number;
  /** The entry counting trials above `top` (max null), or −1. */
  beyond: number;
}

/** One metric's place in the tally. */
export interface Slot {
  name: string;
  probability: boolean;
  /** First tally entry. */
  offset: number;
  /** For a mean: its pair in the chunk's running sums. */
  sum: number;
  /** For a distribution: its histogram (a distribution is a mean too: its four entries come first). */
  histogram: HistogramSlot | null;
}

/** The tally of one list of metrics: what the loop (loop.ts) counts into and summarize reads. */
export interface TallyLayout {
  metrics: MetricSpec[];
  slots: Slot[];
  length: number;
  /** How many metrics are means: the chunk's running sums hold two doubles each. */
  means: number;
}

export function tallyLayout(metrics: MetricSpec[]): TallyLayout {
  let offset = 0;
  let means = 0;
  const slots = metrics.map((metric) => {
    const slot: Slot = {
      name: metric.name,
      probability: metric.probability,
      offset,
      sum: metric.probability ? -1 : 2 * means,
      histogram: null,
    };
    offset += metric.probability ? 1 : 4;
    if (!metric.probability) means++;
    const range = metric.distribution;
    if (range) {
      const top = range.max ?? range.min + DISTRIBUTION_DEPTH - 1;
      const values = top - range.min + 1;
      slot.histogram = {
        min: range.min,
        max: range.max,
        top,
        at: offset,
        beyond: range.max === null ? offset + values : -1,
      };
      offset += values + (range.max === null ? 1 : 0);
    }
    return slot;
  });
  return { metrics, slots, length: offset, means };
}

/**
 * What one field of `out` counts for its metric: a probability's 1 or true
 * is 1, its 0 or false 0; a mean's finite number is itself. Null for any
 * other value, which the metric may not hold.
 */
function fieldValue(probability: boolean, value: unknown): number | null {
  if (probability) return value === 1 || value === true ? 1 : value === 0 || value === false ? 0 : null;
  return typeof value === 'number' && value - value === 0 ? value : null;
}

/** What a metric's value may be, as a message says it. */
const allows = (metric: MetricSpec): string => {
  const range = metric.distribution;
  if (range)
    return range.max === null
      ? `a whole number from ${range.min} to ${DISTRIBUTION_LIMIT} (a distribution)`
      : `a whole number from ${range.min} to ${range.max} (a distribution)`;
  return metric.probability ? '0, 1, false or true (a probability)' : 'a finite number (a mean)';
};

/** Whether a distribution may hold `value` (a finite number). */
export function inRange(metric: MetricSpec, value: number): boolean {
  const range = metric.distribution;
  if (!range) return true;
  return Number.isInteger(value) && value >= range.min && value <= (range.max ?? DISTRIBUTION_LIMIT);
}

/**
 * The one line for a value a metric may not hold, `at` saying where it was
 * written ("in trial 3 of a chunk", "from read(outcome 2)", "from trial
 * (while enumerating)"). `both`: the value is the sum of out[name] and out[k].
 */
export function badValueText(metric: MetricSpec, index: number, value: unknown, at: string, both: boolean): string {
  const shown = describeValue(value);
  const together = both ? ` (out[${JSON.stringify(metric.name)}] and out[${index}] together)` : '';
  return `metric ${JSON.stringify(metric.name)}: got ${shown}${together} ${at}; allowed: ${allows(metric)}`;
}

/** Calls for a value read off `out`: what it counts for (by name, by position), or why it may not count. */
interface OutReader {
  /** Each metric written, with what out[name] and out[k] count for (0 where not written). */
  count(index: number, byName: number, byIndex: number): void;
  /** A value the metric may not hold (`both`: the sum of its two fields). */
  bad(index: number, value: unknown, both: boolean): never;
  /** Where a probability may not be written at all (a step: means only), called for one that was. */
  refuse?(index: number): never;
}

/**
 * Reads what one trial (or step, or outcome, or final state) wrote into
 * `out`, metric by metric, by name and by position, resets it to 0, checks
 * it, and hands each metric written to `reader.count`. A probability written
 * twice as 1 (out.p = 1 and out[0] = 1) is a value of 2, not a probability.
 */
export function readOut(out: Record<string, unknown>, metrics: readonly MetricSpec[], reader: OutReader): void {
  for (let index = 0; index < metrics.length; index++) {
    const metric = metrics[index];
    const { name, probability } = metric;
    const written = out[name];
    const writtenAt = out[index];
    if (written === 0 && writtenAt === 0) {
      // A distribution not written is 0 in a trial's end (a step, which refuses them, has nothing to count).
      if (metric.distribution && !reader.refuse) {
        if (!inRange(metric, 0)) reader.bad(index, 0, false);
        reader.count(index, 0, 0);
      }
      continue;
    }
    out[name] = 0;
    out[index] = 0;
    if (probability || metric.distribution) reader.refuse?.(index);
    const byName = fieldValue(probability, written);
    if (byName === null) reader.bad(index, written, false);
    const byIndex = fieldValue(probability, writtenAt);
    if (byIndex === null) reader.bad(index, writtenAt, false);
    if (probability && (byName as number) + (byIndex as number) > 1) reader.bad(index, 2, true);
    if (metric.distribution && !inRange(metric, (byName as number) + (byIndex as number)))
      reader.bad(index, (byName as number) + (byIndex as number), written !== 0 && writtenAt !== 0);
    reader.count(index, byName as number, byIndex as number);
  }
}

/**
 * A trial's `out`, in simulation and in enumeration alike (so that what a
 * trial does to it does the same in both): a field per metric by name, and
 * by position (out[k]), all 0. It is an array of doubles with the names added as properties: a number
 * written by position is then stored as it is, where a plain object's
 * numbered fields hold tagged values and each fraction written becomes a new
 * heap number (measured: the reserves port's trial 1.7× as fast). A metric
 * named "length" would be the array's length, so such a list of metrics gets
 * a plain object.
 */
export function newOut(metrics: readonly MetricSpec[]): Record<string, unknown> {
  if (metrics.some((metric) => metric.name === 'length')) {
    const out: Record<string, unknown> = {};
    for (const metric of metrics) out[metric.name] = 0;
    metrics.forEach((_, index) => (out[index] = 0));
    return out;
  }
  // Filled with a fraction first, so the array holds unboxed doubles from the start.
  const out = new Array<number>(metrics.length).fill(0.5).fill(0) as unknown as Record<string, unknown>;
  for (const metric of metrics) out[metric.name] = 0;
  return out;
}

/**
 * A field of `out` that is no metric's name or position (a trial that writes
 * one adds it to out), or null. Looked for once a chunk, not once a trial.
 */
export function strayField(out: Record<string, unknown>, metrics: readonly MetricSpec[]): string | null {
  const keys = Object.keys(out);
  if (keys.length !== 2 * metrics.length) {
    const known = new Set([...metrics.map((m) => m.name), ...metrics.map((_, index) => String(index))]);
    const stray = keys.find((name) => !known.has(name));
    if (stray !== undefined) return stray;
  }
  // An array's length is no key: a length a trial set shows only as the length.
  if (Array.isArray(out) && out.length !== metrics.length) return 'length';
  return keys.length === 2 * metrics.length ? null : '';
}

/** The one line for a stray field, `who` being the function that wrote it. */
export const strayText = (who: string, stray: string, metrics: readonly MetricSpec[]): string =>
  `${who} wrote out[${JSON.stringify(stray)}], which is not a metric; allowed: ` +
  `${metrics.map((m) => m.name).join(', ')} (or their positions 0 to ${metrics.length - 1})`;

/**
 * The first field of `out` written (metric by metric, by name then by
 * position), or null: in a rule that counts outcomes, a trial that writes
 * one would have it read as the first outcome's.
 */
export function writtenField(out: Record<string, unknown>, metrics: readonly MetricSpec[]): string | number | null {
  for (let index = 0; index < metrics.length; index++) {
    for (const field of [metrics[index].name, index]) if (out[field] !== 0) return field;
  }
  return null;
}

/** The one line for a trial that wrote `field` of out while the rule counts outcomes. */
export const writtenText = (field: string | number): string =>
  `trial wrote out[${JSON.stringify(field)}] while the rule counts outcomes; allowed: return the outcome, and write ` +
  'its metrics in read(outcome, params, out)';

/** Adds a chunk's running sums of the means into the tally, each as two integer entries. */
export function addMeans(layout: TallyLayout, sums: Float64Array, tally: Float64Array): void {
  for (const slot of layout.slots) {
    if (slot.probability) continue;
    addExactly(tally, slot.offset, sums[slot.sum]);
    addExactly(tally, slot.offset + 2, sums[slot.sum + 1]);
  }
}

/** Adds a chunk's sum into two integer entries: its floor, and its fraction in units of 2^-32. */
function addExactly(tally: Float64Array, at: number, sum: number): void {
  const whole = Math.floor(sum);
  tally[at] += whole;
  tally[at + 1] += Math.round((sum - whole) * FRACTION_UNITS);
}

export function checkTally(layout: TallyLayout, tally: Float64Array, trials?: number): string | null {
  // Only the whole part of a mean's Σ value (a chunk's floor, addExactly) may be below zero: d6 − d6 sums so.
  for (const slot of layout.slots) {
    for (let at = slot.offset; at < slot.offset + (slot.probability ? 1 : 4); at++) {
      if (tally[at] < 0 && (slot.probability || at !== slot.offset))
        return `${slot.name}: tally entry ${at} is ${tally[at]}, and only a mean's sum may be below zero`;
    }
    const histogram = slot.histogram;
    if (histogram && trials !== undefined) {
      // One count a trial: a distribution's histogram adds up to the trials.
      const end = histogram.beyond >= 0 ? histogram.beyond + 1 : histogram.at + histogram.top - histogram.min + 1;
      let sum = 0;
      for (let at = histogram.at; at < end; at++) {
        if (tally[at] < 0) return `${slot.name}: tally entry ${at} is ${tally[at]}, and a count may not be below zero`;
        sum += tally[at];
      }
      if (sum !== trials) return `${slot.name}: its histogram counts ${sum} trials, not the ${trials} run`;
    }
  }
  return null;
}

/** A distribution's counts in the tally, as summarize hands them on. */
export function histogramOf(slot: HistogramSlot, tally: Float64Array): Histogram {
  return {
    min: slot.min,
    counts: tally.subarray(slot.at, slot.at + slot.top - slot.min + 1),
    beyond: slot.beyond >= 0 ? tally[slot.beyond] : null,
  };
}

export function summarize(layout: TallyLayout, tally: Float64Array, trials: number): Record<string, Tallied> {
  const result = keyedRecord<Tallied>();
  for (const slot of layout.slots) {
    const at = slot.offset;
    const counted = slot.probability
      ? proportion(tally[at], trials)
      : mean(tally[at] + tally[at + 1] / FRACTION_UNITS, tally[at + 2] + tally[at + 3] / FRACTION_UNITS, trials);
    if (slot.histogram && counted.kind === 'mean') counted.histogram = histogramOf(slot.histogram, tally);
    result[slot.name] = counted;
  }
  return result;
}
