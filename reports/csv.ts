/**
 * CSV (RFC 4180): fields with commas, quotes or line ends are quoted, and
 * text that a spreadsheet would run as a formula (=, +, -, @ first) gets a
 * leading apostrophe. User text (a variant's label, a rule file's values and
 * names) shows its control characters as the terminal does (`\x1b`,
 * `\u202e`: src/output/terminal.ts), so `cat out.csv` cannot run an escape
 * sequence and a spreadsheet cell holds no invisible character. Numbers keep
 * every digit JavaScript prints, so a value read back is the value computed.
 */

import type { MetricSpec } from '../src/contract/types.js';
import { own } from '../src/keyed.js';
import { terminalSafe } from '../src/output/terminal.js';
import type { RunResult } from '../src/result.js';

export type CsvCell = string | number | boolean | null;

function csvField(cell: CsvCell): string {
  if (cell === null) return '';
  if (typeof cell === 'number') return Number.isNaN(cell) ? '' : String(cell);
  if (typeof cell === 'boolean') return String(cell);
  const safe = terminalSafe(cell);
  const text = /^[=+\-@\t\r]/.test(safe) ? `'${safe}` : safe;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV record, ending in CRLF as RFC 4180 asks. */
export function csvLine(cells: readonly CsvCell[]): string {
  return `${cells.map(csvField).join(',')}\r\n`;
}

/**
 * The metrics table of one run: metric, kind, estimate, interval, exact (empty where the rule has none). A run with
 * distribution metrics adds, after each one's row (kind `distribution`, its mean), one row a value (kind `value`)
 * with five more columns: the value, and its at-least and at-most chances, simulated and exact.
 */
export function metricsCsv(result: RunResult, metrics: readonly MetricSpec[]): string {
  const partial = partialColumn(result.partial);
  const distributions = result.distributions;
  const extra = distributions ? ['value', 'at_least', 'at_least_exact', 'at_most', 'at_most_exact'] : [];
  let text = csvLine([
    'metric',
    'kind',
    'estimate',
    'lo',
    'hi',
    'exact',
    'confidence',
    'meaning',
    ...extra,
    ...partial.header,
  ]);
  for (const metric of metrics) {
    const value = own(result.metrics, metric.name);
    if (!value) continue;
    text += csvLine([
      metric.name,
      metric.distribution ? 'distribution' : metric.probability ? 'probability' : 'mean',
      value.estimate,
      value.lo,
      value.hi,
      value.exact,
      result.confidence,
      metric.doc,
      ...extra.map(() => null),
      ...partial.cells,
    ]);
    const distribution = distributions ? own(distributions, metric.name) : undefined;
    if (!distribution) continue;
    for (const v of distribution.values) {
      text += csvLine([
        metric.name,
        'value',
        v.estimate,
        v.lo,
        v.hi,
        v.exact,
        result.confidence,
        `P(${metric.name} = ${v.value})`,
        v.value,
        v.atLeast.estimate,
        v.atLeast.exact,
        v.atMost.estimate,
        v.atMost.exact,
        ...partial.cells,
      ]);
    }
  }
  return text;
}

/**
 * An interrupted run's CSV says so on every row: a last column `partial`,
 * true throughout. A finished run's CSV has no such column, so its layout
 * is the same as ever.
 */
export function partialColumn(partial: boolean): { header: string[]; cells: CsvCell[] } {
  return partial ? { header: ['partial'], cells: [true] } : { header: [], cells: [] };
}
