/**
 * What `muster balance` reads from its flags besides a sweep's: the target
 * (`--target 50%`, `1/2`, `2.5`), a distance (`--cliff 10pp`, `--within 2pp`)
 * and the constraints (`--keep "all.by.4>=80%"`). Each is a number written as
 * text and read exactly, as a fraction, so that a target of 1/2 is 1/2 and
 * not the double nearest it; every refusal is one line naming the flag.
 *
 * The forms, for a probability metric: `50%` or `50pp` (per hundred), `1/2`
 * (a fraction) or `0.5` (a proportion, at most 1); for a mean: `2.5` or
 * `5/2`. A constraint is a metric, a comparator (`>=`, `<=`, `>`, `<`, `=`,
 * `!=`) and a value of that metric's form; nothing else is read from it.
 */

import type { MetricSpec } from '../contract/types.js';
import { badValue, UsageError } from '../errors.js';
import { Fraction } from '../exact/fraction.js';
import { didYouMean } from '../text/suggest.js';

/** A value as typed and as the exact number it stands for. */
export interface Quantity {
  text: string;
  value: Fraction;
}

export type Comparator = '>=' | '<=' | '>' | '<' | '=' | '!=';

/** One `--keep`: candidates must have `metric comparator value`. */
export interface Keep {
  text: string;
  metric: MetricSpec;
  comparator: Comparator;
  value: Quantity;
}

/** The longest text a --target, --cliff, --within or --keep may be: these are short by nature. */
const LONGEST = 200;
/** Digits a decimal or a fraction's numerator and denominator may have: far more than any question needs. */
const DIGITS = 30;

const DECIMAL = new RegExp(
  `^[+-]?(?:\\d{1,${DIGITS}}(?:\\.\\d{0,${DIGITS}})?|\\.\\d{1,${DIGITS}})(?:[eE][+-]?\\d{1,3})?$`,
);
const RATIO = new RegExp(`^([+-]?\\d{1,${DIGITS}})\\s*/\\s*(\\d{1,${DIGITS}})$`);

/** The forms a value of this metric takes, for the `allowed:` part of a refusal. */
function forms(metric: MetricSpec, distance: boolean): string {
  if (!metric.probability) return 'a number such as 2.5 or a fraction such as 5/2 (the metric is a mean)';
  return distance
    ? 'points per hundred such as 10pp (or 10%), or a fraction of 1 such as 1/10 or 0.1'
    : 'a percentage such as 50%, a fraction such as 1/2, or a proportion such as 0.5';
}

/**
 * A number as text, exactly: `50%` / `50pp` (a hundredth each; probabilities only), `1/2`, `0.5`, `2.5e-1`.
 * `distance` reads a gap between two values (`--cliff`, `--within`): not negative.
 */
function parseQuantity(flag: string, raw: string, metric: MetricSpec, distance: boolean): Quantity {
  const text = raw.trim();
  const refuse = () =>
    new UsageError(
      `${flag}: got ${raw.length > LONGEST ? `${raw.length} characters` : JSON.stringify(raw)}; ` +
        `allowed: ${forms(metric, distance)}`,
    );
  if (text === '' || text.length > LONGEST) throw refuse();
  let value: Fraction;
  const perHundred = /^(.*?)\s*(%|pp)$/.exec(text);
  if (perHundred) {
    if (!metric.probability)
      throw new UsageError(
        `${flag}: got ${JSON.stringify(raw)}, but ${metric.name} is a mean, not a probability; ` +
          `allowed: ${forms(metric, distance)}`,
      );
    if (!DECIMAL.test(perHundred[1])) throw refuse();
    value = Fraction.fromDecimal(perHundred[1]).div(Fraction.of(100));
  } else if (RATIO.test(text)) {
    const [, numerator, denominator] = RATIO.exec(text) as RegExpExecArray;
    if (BigInt(denominator) === 0n) throw refuse();
    value = Fraction.of(BigInt(numerator), BigInt(denominator));
  } else if (DECIMAL.test(text)) {
    value = Fraction.fromDecimal(text);
  } else {
    throw refuse();
  }
  if (distance && value.compare(Fraction.ZERO) < 0)
    throw new UsageError(`${flag}: got ${JSON.stringify(raw)}, a negative distance; allowed: ${forms(metric, true)}`);
  if (metric.probability && (value.compare(Fraction.ZERO) < 0 || value.compare(Fraction.ONE) > 0))
    throw new UsageError(
      `${flag}: got ${JSON.stringify(raw)}, outside 0%–100% (${metric.name} is a probability); ` +
        `allowed: ${forms(metric, distance)}`,
    );
  return { text, value };
}

/** `--target`: the value of the metric to come nearest to. */
export function parseTarget(raw: string, metric: MetricSpec): Quantity {
  return parseQuantity('--target', raw, metric, false);
}

/** `--cliff` or `--within`: a distance between two values of the metric, not negative. */
export function parseDistance(flag: '--cliff' | '--within', raw: string, metric: MetricSpec): Quantity {
  return parseQuantity(flag, raw, metric, true);
}

/** The default cliff: 10 pp for a probability, one whole unit for a mean. */
export function defaultCliff(metric: MetricSpec): Quantity {
  return metric.probability ? { text: '10pp', value: Fraction.of(1, 10) } : { text: '1', value: Fraction.ONE };
}

// Longest first, so that `>=` is not read as `>` followed by `=…`.
const COMPARATORS: readonly Comparator[] = ['>=', '<=', '!=', '>', '<', '='];

/** Every place a --keep's text may split into METRIC OP VALUE, from the left, each comparator read longest first. */
function keepSplits(text: string): Array<{ at: number; comparator: Comparator }> {
  const splits: Array<{ at: number; comparator: Comparator }> = [];
  for (let index = 0; index < text.length; index++) {
    const found = COMPARATORS.find((op) => text.startsWith(op, index));
    if (!found) continue;
    splits.push({ at: index, comparator: found });
    index += found.length - 1;
  }
  return splits;
}

/**
 * The METRIC sides a --keep's text may have (every split's left side): a distribution's tail among them is a metric
 * the grid must count (analysis/tails.ts).
 */
export function keepNames(raw: string): string[] {
  const text = raw.trim();
  return keepSplits(text).map(({ at }) => text.slice(0, at).trim());
}

/**
 * One `--keep "METRIC OP VALUE"`, checked against the metrics some point of the grid has.
 * @example parseKeep('all.by.4>=80%', metrics) // { metric: all.by.4, comparator: '>=', value: 4/5 }
 */
export function parseKeep(raw: string, metrics: readonly MetricSpec[]): Keep {
  const allowed = 'METRIC OP VALUE with OP one of >=, <=, >, <, =, != (e.g. "all.by.4>=80%")';
  if (raw.length > LONGEST)
    throw badValue('--keep', `${raw.slice(0, 40)}…`, `${allowed}, at most ${LONGEST} characters`);
  const text = raw.trim();
  const splits = keepSplits(text);
  if (splits.length === 0) throw badValue('--keep', raw, allowed);
  // A distribution's tail holds a comparison of its own ("arrived.by.2>=3>=80%"): the last split whose left side is a
  // metric of the grid (the tail, not the distribution's mean before it), else the first.
  const { at, comparator } =
    [...splits].reverse().find((split) => metrics.some((m) => m.name === text.slice(0, split.at).trim())) ?? splits[0];
  const name = text.slice(0, at).trim();
  const valueText = text.slice(at + comparator.length).trim();
  // `==` is read as `=`: the one slip worth forgiving.
  const rest = comparator === '=' && valueText.startsWith('=') ? valueText.slice(1).trim() : valueText;
  if (name === '' || rest === '') throw badValue('--keep', raw, allowed);
  const metric = metrics.find((m) => m.name === name);
  if (!metric) {
    const names = metrics.map((m) => m.name);
    throw new UsageError(
      `--keep: ${JSON.stringify(name)} is not a metric of the grid${didYouMean(name, names)}; ` +
        `allowed: ${allowed}, METRIC one of ${names.length <= 12 ? names.join(', ') : `${names.slice(0, 6).join(', ')}, …`}`,
    );
  }
  return { text, metric, comparator, value: parseQuantity(`--keep ${name}`, rest, metric, false) };
}

/** Whether `value` meets the constraint. */
export function keeps(keep: Keep, value: Fraction): boolean {
  const order = value.compare(keep.value.value);
  switch (keep.comparator) {
    case '>=':
      return order >= 0;
    case '<=':
      return order <= 0;
    case '>':
      return order > 0;
    case '<':
      return order < 0;
    case '=':
      return order === 0;
    case '!=':
      return order !== 0;
  }
}
