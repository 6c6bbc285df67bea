/**
 * Number and parameter formatting shared by the terminal (src/cli) and the
 * reports (reports/), which both import it from here, below them.
 */

import type { Params } from '../contract/types.js';
import type { Fraction } from '../exact/fraction.js';

/** Probabilities as percentages, means as plain numbers; null (no exact value) as a dash. */
export function formatValue(value: number | null, probability: boolean): string {
  if (value === null || Number.isNaN(value)) return '—';
  if (!Number.isFinite(value)) return value > 0 ? '∞' : '−∞';
  return probability ? `${(value * 100).toFixed(3)}%` : value.toFixed(4);
}

export function formatParams(params: Params): string {
  return Object.entries(params)
    .map(([name, value]) => `${name}=${value}`)
    .join(' ');
}

/**
 * A whole number with commas between thousands, as en-US writes it; other
 * numbers as toLocaleString('en-US') gives them. Written out rather than
 * asked of Intl, whose first call loads locale data: 10 ms of every command.
 * @example formatCount(6553600) // '6,553,600'
 */
export function formatCount(count: number): string {
  if (!Number.isSafeInteger(count)) return count.toLocaleString('en-US');
  const digits = String(Math.abs(count));
  let grouped = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let at = grouped.length; at < digits.length; at += 3) grouped += `,${digits.slice(at, at + 3)}`;
  return count < 0 ? `-${grouped}` : grouped;
}

/** A fraction short enough to read (denominator up to 12 digits), else null. */
export function readableFraction(fraction: Fraction | undefined): string | null {
  if (!fraction || fraction.denominator.toString().length > 12) return null;
  return fraction.toString();
}
