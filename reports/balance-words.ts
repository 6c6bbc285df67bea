/**
 * A balance's answer in words, for the terminal and the page alike: the
 * settings nearest the target, how one step of each parameter moves the
 * metric there, and the cliffs. Nothing here computes; it reads the
 * `balance` block src/analysis/balance-solve.ts assembles.
 */
import type { BalanceBlock, BalancePoint } from '../src/analysis/balance-solve.js';
import type { MetricSpec, ParamValue } from '../src/contract/types.js';
import { formatParams, formatValue } from '../src/output/format.js';

/** A change or a miss in the metric's units: percentage points for probabilities, signed. */
export function formatChange(value: number, probability: boolean, digits = 3): string {
  const sign = value > 0 ? '+' : value < 0 ? '−' : '±';
  return probability ? `${sign}${Math.abs(value * 100).toFixed(digits)} pp` : `${sign}${Math.abs(value).toFixed(4)}`;
}

/** A value with its fraction where it is exact and short: `50.000% = 1/2`. */
export function formatFigure(number: { value: number; fraction: string | null }, probability: boolean): string {
  const shown = formatValue(number.value, probability);
  const { fraction } = number;
  return fraction?.includes('/') && fraction.length <= 11 ? `${shown} = ${fraction}` : shown;
}

/** The target as the user wrote it, with its percentage where it is a probability written otherwise (`1/2` → 50%). */
function targetText(balance: BalanceBlock, metric: MetricSpec): string {
  const { text } = balance.target;
  return !metric.probability || /(%|pp)$/.test(text) ? text : `${text} (${formatValue(balance.target.value, true)})`;
}

function pointText(point: BalancePoint, metric: MetricSpec): string {
  return `${formatParams(point.params)} (${formatFigure(point.value, metric.probability)})`;
}

function missText(point: BalancePoint, metric: MetricSpec): string {
  return point.miss.value === 0 ? 'on target' : `misses by ${formatChange(point.miss.value, metric.probability)}`;
}

/**
 * The answer, first thing under the header; `simulated` when the settings were simulated (the exact values
 * compared, where there are any, were known beside the estimates).
 * @example "bonusA=0 gives a.wins 50.000% = 1/2: exactly the target (exact values)."
 */
export function balanceVerdict(balance: BalanceBlock, metric: MetricSpec, simulated = false): string {
  const target = targetText(balance, metric);
  const how = balance.exact
    ? simulated
      ? 'exact values, known beside the simulation'
      : 'exact values'
    : 'simulated estimates: a miss within the intervals is noise';
  const kept =
    balance.keep.length > 0 ? ` among the ${balance.candidates} settings that keep ${balance.keep.join(' and ')}` : '';
  if (balance.reach === 'none')
    return balance.keep.length > 0
      ? `No setting keeps ${balance.keep.join(' and ')} (${balance.excluded} tried); loosen a --keep or widen a --vary.`
      : `No setting has ${metric.name}.`;
  const nearest = balance.nearest;
  const [first] = nearest;
  const tie =
    nearest.length > 1
      ? ` (tied ${balance.exact ? 'exactly' : 'in the estimates'} with ` +
        `${nearest
          .slice(1)
          .map((point) => formatParams(point.params))
          .join(', ')})`
      : '';
  if (balance.reach === 'hit')
    return (
      `${formatParams(first.params)} gives ${metric.name} ${formatFigure(first.value, metric.probability)}: ` +
      `exactly the target ${target}${tie}${kept} (${how}).`
    );
  if (balance.reach === 'above' || balance.reach === 'below') {
    const side = balance.reach === 'above' ? 'above' : 'below';
    return (
      `No setting in range reaches ${target}${kept}: every one is ${side} it; the nearest is ` +
      `${pointText(first, metric)}, which ${missText(first, metric)}${tie} (${how}).`
    );
  }
  const pair = balance.straddles[0];
  const more =
    balance.straddles.length > 1
      ? ` (and ${balance.straddles.length - 1} more neighbouring pair${balance.straddles.length > 2 ? 's' : ''})`
      : '';
  const lies = pair
    ? `${pointText(pair.below, metric)}, which ${missText(pair.below, metric)}, and ` +
      `${pointText(pair.above, metric)}, which ${missText(pair.above, metric)}${more}`
    : '';
  const same = (a: BalancePoint, b: BalancePoint) => formatParams(a.params) === formatParams(b.params);
  if (pair && (same(pair.below, first) || same(pair.above, first)))
    return `The target ${target} lies between ${lies}${kept}: the nearest is ${formatParams(first.params)}${tie} (${how}).`;
  return (
    `Nearest ${target}${kept}: ${pointText(first, metric)}, which ${missText(first, metric)}${tie}` +
    `${pair ? `; the target also lies between ${lies}` : ''} (${how}).`
  );
}

/** A parameter's step in words: `bonusA +1`, `crits true → false`. */
function stepText(param: string, from: ParamValue, to: ParamValue): string {
  if (typeof from === 'number' && typeof to === 'number') {
    const step = Number((to - from).toPrecision(12));
    return `${param} ${step > 0 ? '+' : '−'}${Math.abs(step)}`;
  }
  return `${param} ${String(from)} → ${String(to)}`;
}

/**
 * How one step of each varied parameter moves the metric at the nearest setting.
 * @example ["at bonusA=0: bonusA −1 moves a.wins by −8.923 pp; bonusA +1 moves it by +8.923 pp"]
 */
export function sensitivityLines(balance: BalanceBlock, metric: MetricSpec): string[] {
  if (balance.nearest.length === 0 || balance.sensitivity.length === 0) return [];
  const lines = [`Sensitivity at ${formatParams(balance.nearest[0].params)}:`];
  const byParam = new Map<string, string[]>();
  for (const step of balance.sensitivity) {
    const words = byParam.get(step.param) ?? [];
    words.push(
      `${stepText(step.param, step.from, step.to)} moves ${words.length === 0 ? metric.name : 'it'} by ` +
        `${formatChange(step.change.value, metric.probability)}`,
    );
    byParam.set(step.param, words);
  }
  for (const words of byParam.values()) lines.push(`  ${words.join('; ')}`);
  return lines;
}

/** Most cliffs listed in words; the JSON has them all. */
const CLIFFS_LISTED = 12;

/**
 * The neighbouring settings between which the metric jumps by more than the cliff.
 * @example ["Cliffs (a jump above 10pp between neighbours): none."]
 */
export function cliffLines(balance: BalanceBlock, metric: MetricSpec): string[] {
  const threshold = `${balance.cliff.text}${metric.probability ? '' : ` ${metric.name}`}`;
  if (balance.cliffs.length === 0) return [`Cliffs (a jump above ${threshold} between neighbours): none.`];
  const lines = [`Cliffs (a jump above ${threshold} between neighbours): ${balance.cliffs.length}`];
  for (const cliff of balance.cliffs.slice(0, CLIFFS_LISTED)) {
    const rest = Object.entries(cliff.from)
      .filter(([name]) => name !== cliff.param)
      .map(([name, value]) => `${name}=${value}`)
      .join(' ');
    const from = Object.entries(cliff.from).find(([name]) => name === cliff.param)?.[1] as ParamValue;
    const to = Object.entries(cliff.to).find(([name]) => name === cliff.param)?.[1] as ParamValue;
    lines.push(
      `  ${cliff.param} ${String(from)} → ${String(to)}${rest ? ` at ${rest}` : ''}: ` +
        `${formatChange(cliff.change.value, metric.probability)}`,
    );
  }
  if (balance.cliffs.length > CLIFFS_LISTED)
    lines.push(`  … and ${balance.cliffs.length - CLIFFS_LISTED} more (--json has every one)`);
  return lines;
}

/** With --within: the settings within the distance, in words. */
export function withinLines(balance: BalanceBlock, metric: MetricSpec): string[] {
  if (!balance.within) return [];
  const { distance, points } = balance.within;
  const head = `Within ${distance.text} of ${targetText(balance, metric)}: ${points.length} setting${points.length === 1 ? '' : 's'}`;
  if (points.length === 0) return [`${head}.`];
  return [`${head}:`, ...points.map((point) => `  ${pointText(point, metric)}, ${missText(point, metric)}`)];
}

/** With two or more varied parameters: the nearest setting for each value of the first. */
export function rowLines(balance: BalanceBlock, metric: MetricSpec, first: string): string[] {
  if (!balance.rows) return [];
  const lines = [`Nearest for each ${first}:`];
  for (const row of balance.rows) {
    if (row.nearest.length === 0) {
      lines.push(`  ${first}=${String(row.value)}: no setting keeps ${balance.keep.join(' and ')}`);
      continue;
    }
    const rest = (point: BalancePoint) =>
      Object.entries(point.params)
        .filter(([name]) => name !== first)
        .map(([name, value]) => `${name}=${value}`)
        .join(' ');
    lines.push(
      `  ${first}=${String(row.value)}: ${row.nearest.map((point) => rest(point)).join(' or ')} ` +
        `(${formatFigure(row.nearest[0].value, metric.probability)}, ${missText(row.nearest[0], metric)})`,
    );
  }
  return lines;
}
