/**
 * A distribution metric on the terminal: one row a value with P(=), P(≥)
 * and P(≤) (simulated, and exact beside them), a bar of P(=) in block
 * characters, and a line of its mean, standard deviation, median and the
 * percentiles asked. Rows past ROWS are left out in the middle, saying how
 * many (every value stays in --json and --csv).
 */
import type { DistributionResult, DistributionValue } from '../result-distribution.js';
import { renderTable, wrapText } from './format.js';

/** Most values a table lists before the middle ones are left out. */
const ROWS = 40;
const BAR = 10;
const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];

/** A bar of `share` (0…1) of BAR cells, in eighths of a cell. */
function bar(share: number): string {
  const eighths = Math.round(share * BAR * 8);
  return '█'.repeat(Math.floor(eighths / 8)) + EIGHTHS[eighths % 8];
}

/** A chance as a percentage to three decimals; one too small for that keeps two significant digits (2.1e-7%). */
const percent = (x: number | null): string =>
  x === null ? '—' : x > 0 && x < 5e-6 ? `${(x * 100).toPrecision(2)}%` : `${(x * 100).toFixed(3)}%`;
/** Fractions longer than this stay in --json. */
const SHORT_FRACTION = 15;
const number = (x: number | null): string => (x === null ? '—' : `${+x.toFixed(4)}`);
const chance = (simulated: boolean, c: { estimate: number | null; exact: number | null }) =>
  percent(simulated ? c.estimate : c.exact);

/** The table of one distribution; `simulated` false for exact values alone. */
export function renderDistribution(
  name: string,
  d: DistributionResult,
  mean: { estimate: number | null; exact: number | null },
  simulated: boolean,
  width: number,
): string {
  const pick = (c: { estimate: number | null; exact: number | null }) => (simulated ? c.estimate : c.exact);
  const summary = [
    `mean ${number(pick(mean))}`,
    `sd ${number(pick(d.sd))}`,
    `median ${d.median.estimate ?? d.median.exact ?? '—'}`,
    ...d.percentiles.map((p) => `${+p.p}th ${(simulated ? p.estimate : p.exact) ?? 'beyond'}`),
  ];
  if (simulated && mean.exact !== null) summary.push(`exact mean ${number(mean.exact)}`);
  const top = Math.max(...d.values.map((v) => pick(v) ?? 0), 0);
  const row = (v: DistributionValue): string[] => [
    String(v.value),
    chance(simulated, v),
    ...(simulated
      ? [`${percent(v.lo)} – ${percent(v.hi)}`, percent(v.exact)]
      : [v.fraction === null ? '—' : v.fraction.length <= SHORT_FRACTION ? v.fraction : '(in --json)']),
    chance(simulated, v.atLeast),
    chance(simulated, v.atMost),
    bar(top > 0 ? (pick(v) ?? 0) / top : 0).padEnd(BAR + 1),
  ];
  const header = ['value', 'P(=)', ...(simulated ? ['interval', 'exact'] : ['fraction']), 'P(≥)', 'P(≤)', ''];
  const shown = d.values.length <= ROWS ? d.values : [...d.values.slice(0, ROWS / 2), ...d.values.slice(-ROWS / 2)];
  const rows = shown.map(row);
  if (shown.length < d.values.length) {
    const left = d.values.length - shown.length;
    rows.splice(ROWS / 2, 0, ['…', `${left} values`, ...header.slice(2).map(() => '')]);
  }
  if (d.beyond) {
    const beyond = simulated ? d.beyond.estimate : d.beyond.exact;
    rows.push([`>${d.beyond.above}`, percent(beyond), ...header.slice(2).map(() => '')]);
  }
  let text = `${wrapText(`${name}: ${summary.join(' · ')}`, width, '')}\n${renderTable(header, rows, width)}`;
  if (simulated && d.unseen && d.unseen.length > 0 && d.unseen.length <= 12)
    text += `${wrapText(`never seen: ${d.unseen.join(', ')}`, width, '')}\n`;
  else if (simulated && d.unseen && d.unseen.length > 12) text += `never seen: ${d.unseen.length} values listed\n`;
  return text;
}
