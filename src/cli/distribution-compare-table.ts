/**
 * Where two variants' distributions differ, on the terminal: one row a value
 * with each side's chance and the variant's minus the baseline's (simulated,
 * and exact beside it where both are exact), a last row for everything past
 * the values compared, then one line saying where they differ — the values
 * whose exact chances differ, or the chi-square test of the simulated ones.
 * Rows past ROWS are left out in the middle, saying how many (every value
 * stays in --json and --csv).
 */
import type { DistributionDifference, ValueDifference } from '../analysis/distribution-differences.js';
import { terminalLine } from '../output/terminal.js';
import { renderTable, wrapText } from './format.js';

const ROWS = 30;
/** Fractions longer than this stay in --json. */
const SHORT_FRACTION = 15;

/** A chance as a percentage to three decimals; one too small for that keeps two significant digits. */
const percent = (x: number | null): string =>
  x === null ? '—' : x > 0 && x < 5e-6 ? `${(x * 100).toPrecision(2)}%` : `${(x * 100).toFixed(3)}%`;

/** A difference of chances in percentage points, signed; a tiny one keeps two significant digits. */
function points(x: number | null): string {
  if (x === null) return '—';
  const sign = x > 0 ? '+' : x < 0 ? '−' : '±';
  const size = Math.abs(x * 100);
  return `${sign}${size > 0 && size < 5e-4 ? size.toPrecision(2) : size.toFixed(3)} pp`;
}

/** "1, 2, 3, 5" — at most `most` values, then how many more. */
function valueList(values: readonly number[], most = 12): string {
  if (values.length <= most + 2) return values.join(', ');
  return `${values.slice(0, most).join(', ')} and ${values.length - most} more`;
}

/** The table and verdict of one distribution difference. */
export function renderDistributionDifference(d: DistributionDifference, simulated: boolean, width: number): string {
  const exact = d.exactSame !== null;
  const pick = (side: { estimate: number | null; exact: number | null }) => (simulated ? side.estimate : side.exact);
  const row = (label: string, v: Omit<ValueDifference, 'value'>): string[] => [
    label,
    percent(pick(v.baseline)),
    percent(pick(v.variant)),
    ...(simulated ? [points(v.difference)] : []),
    ...(exact
      ? [
          `${points(v.exactDifference)}${
            v.exactFraction !== null && v.exactFraction !== '0' && v.exactFraction.length <= SHORT_FRACTION
              ? ` = ${v.exactFraction.replace('-', '−')}`
              : ''
          }`,
        ]
      : []),
  ];
  const header = [
    'value',
    d.baseline,
    d.variant,
    ...(simulated ? ['difference'] : []),
    ...(exact ? [simulated ? 'exact' : 'difference'] : []),
  ];
  const shown = d.values.length <= ROWS ? d.values : [...d.values.slice(0, ROWS / 2), ...d.values.slice(-ROWS / 2)];
  const rows = shown.map((v) => row(String(v.value), v));
  if (shown.length < d.values.length)
    rows.splice(ROWS / 2, 0, ['…', `${d.values.length - ROWS} values`, ...header.slice(2).map(() => '')]);
  if (d.beyond) rows.push(row(`>${d.beyond.above}`, d.beyond));
  const verdict: string[] = [];
  if (d.differAt !== null) {
    const past = d.beyond && d.beyond.exactFraction !== '0' ? ` and past ${d.beyond.above}` : '';
    verdict.push(
      d.exactSame
        ? 'exactly the same chance at every value'
        : d.differAt.length === 0
          ? `exactly the same at every value listed; they differ only past ${d.beyond?.above}`
          : `exact chances differ at ${valueList(d.differAt)}${past}`,
    );
  }
  if (d.test) {
    verdict.push(
      `chi-square ${d.test.statistic.toFixed(2)} on ${d.test.df} df (${d.test.cells} cells), p ${formatP(
        d.test.p,
      )}, Holm ${formatP(d.test.pAdjusted)}: ${
        d.test.significant ? 'the distributions differ' : 'no significant difference'
      }`,
    );
  } else if (simulated) verdict.push('no test: every trial of both gave the same value');
  return (
    // Labels and the metric's name are a rule file's or the user's text: one line each, no control characters.
    `${terminalLine(`${d.metric}: ${d.variant} against ${d.baseline}, value by value`)}\n` +
    renderTable(header, rows, width) +
    wrapText(`${verdict.join('; ')}.`, width, '') +
    '\n'
  );
}

/** A p-value to two significant figures, or "< 1e-300". */
function formatP(p: number | null): string {
  if (p === null) return '—';
  if (p === 0) return '< 1e-300';
  return p < 1e-4 ? p.toExponential(1) : p.toPrecision(2);
}
