/**
 * Helpers for the "who gets it" charts several rules share: shares of 100%
 * between players or warbands, each share the exact value where known.
 */
import { own } from '../../src/keyed.js';
import { bestOf } from '../../src/best-of.js';
import type { RunResult } from '../../src/result.js';
import { percent } from '../numbers.js';
import type { SplitSegment } from './blocks.js';

/** The value a split shows: exact where known, else the estimate. */
export function bestValue(result: RunResult, metric: string): { value: number; exact: number | null } | null {
  const figures = own(result.metrics, metric);
  if (!figures) return null;
  const value = bestOf(figures);
  return Number.isFinite(value) ? { value, exact: figures.exact } : null;
}

/**
 * One row of a split from metrics that each give one side's share; if the
 * shares fall short of 100% the rest is shown as `remainder`.
 */
export function splitRow(
  result: RunResult,
  row: string,
  rowOrder: number,
  shares: Array<{ segment: string; metric: string }>,
  remainder = 'neither',
): SplitSegment[] {
  const segments: SplitSegment[] = [];
  let total = 0;
  for (const { segment, metric } of shares) {
    const best = bestValue(result, metric);
    if (!best) return [];
    total += best.value;
    segments.push({ row, rowOrder, segment, value: best.value, exact: best.exact, text: percent(best.value, 1) });
  }
  const rest = 1 - total;
  if (rest > 5e-4)
    segments.push({ row, rowOrder, segment: remainder, value: rest, exact: null, text: percent(rest, 1) });
  return segments;
}

/** A two-player row where the metric is player A's share and B gets the rest. */
export function playerRow(
  result: RunResult,
  row: string,
  rowOrder: number,
  metric: string,
  players: [string, string] = ['player A', 'player B'],
): SplitSegment[] {
  const best = bestValue(result, metric);
  if (!best) return [];
  const other = 1 - best.value;
  return [
    { row, rowOrder, segment: players[0], value: best.value, exact: best.exact, text: percent(best.value, 1) },
    {
      row,
      rowOrder,
      segment: players[1],
      value: other,
      exact: best.exact === null ? null : 1 - best.exact,
      text: percent(other, 1),
    },
  ];
}

/** Metric names matching a pattern, with the captured index, in numeric order. */
export function indexed(names: readonly string[], pattern: RegExp): Array<{ name: string; index: number }> {
  return names
    .map((name) => ({ name, match: pattern.exec(name) }))
    .filter((entry): entry is { name: string; match: RegExpExecArray } => entry.match !== null)
    .map(({ name, match }) => ({ name, index: Number(match[1]) }))
    .sort((a, b) => a.index - b.index);
}
