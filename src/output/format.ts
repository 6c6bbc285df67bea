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

/** Counts are written by src/text/count.ts, a leaf the exact engine's messages share. */
export { formatCount } from '../text/count.js';

/** A fraction short enough to read (denominator up to 12 digits), else null. */
export function readableFraction(fraction: Fraction | undefined): string | null {
  if (!fraction || fraction.denominator.toString().length > 12) return null;
  return fraction.toString();
}
