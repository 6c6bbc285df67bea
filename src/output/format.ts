/**
 * Number and parameter formatting shared by the terminal (src/cli) and the
 * reports (reports/), which both import it from here, below them.
 */
import type { Params } from '../rules/types.js';

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

export function formatCount(count: number): string {
  return count.toLocaleString('en-US');
}
