import type { MetricSpec, Params, Rule } from '../contract/types.js';
import { own } from '../keyed.js';
import { formatCount, formatParams, formatValue } from '../output/format.js';
import { terminalLine } from '../output/terminal.js';
import type { MetricResult, RunResult } from '../result.js';

export { formatCount, formatParams, formatValue };

/** A fraction short enough to read at a glance ("145/352"); longer ones stay in the JSON. */
const SHORT_FRACTION = 11;

/** The exact value, with its fraction where that is short and not a whole number: `41.193% = 145/352`. */
export function formatExact(value: MetricResult, probability: boolean): string {
  const shown = formatValue(value.exact, probability);
  const fraction = value.fraction;
  if (fraction === null || !fraction.includes('/') || fraction.length > SHORT_FRACTION) return shown;
  return `${shown} = ${fraction}`;
}

/**
 * Whether a metric cannot vary at these parameters: a probability of
 * exactly 0 or 1, or a simulated figure every trial gave alike (a zero-width
 * interval that agrees with the exact value).
 */
function isCertain(value: MetricResult, probability: boolean): boolean {
  if (probability && value.exact !== null) return value.exact === 0 || value.exact === 1;
  if (value.estimate === null) return false;
  return (
    value.lo === value.hi && value.estimate === value.lo && (value.exact === null || value.exact === value.estimate)
  );
}

/** A certain value in few characters: 0%, 100%, 4. */
export function formatCertain(value: MetricResult, probability: boolean): string {
  const x = value.exact ?? (value.estimate as number);
  return probability ? `${+(x * 100).toFixed(3)}%` : `${+x.toFixed(4)}`;
}

interface TableLayout {
  /** Leading columns (the row's name) repeated in every part when the table is split. */
  keep?: number;
  /**
   * Columns after the kept ones that belong together (a value, its ± and its exact value) and are never split apart.
   */
  group?: number;
}

/**
 * Columns padded to their widest cell; the first `keep` columns left-aligned,
 * the rest (numbers) right-aligned. A table wider than `width` is split into
 * parts of whole column groups, each repeating the leading columns, rather
 * than letting the terminal wrap every line.
 */
export function renderTable(
  rawHeader: readonly string[],
  rawRows: readonly (readonly string[])[],
  width = 80,
  layout: TableLayout = {},
): string {
  // Cells are user text (labels, values) as often as numbers: escaped here, before the widths are measured,
  // so an escape such as \x1b pads as the four characters it shows and a line feed cannot split a row.
  const header = rawHeader.map(terminalLine);
  const rows = rawRows.map((row) => row.map(terminalLine));
  const keep = layout.keep ?? 1;
  const group = layout.group ?? 1;
  const widths = header.map((title, column) =>
    Math.max([...title].length, ...rows.map((row) => [...row[column]].length)),
  );
  const total = (columns: readonly number[]) =>
    columns.reduce((sum, column) => sum + widths[column], 0) + 2 * (columns.length - 1);
  const kept = Array.from({ length: Math.min(keep, header.length) }, (_, i) => i);
  const parts: number[][] = [];
  let part = [...kept];
  for (let start = kept.length; start < header.length; start += group) {
    const columns = Array.from({ length: Math.min(group, header.length - start) }, (_, i) => start + i);
    if (part.length > kept.length && total([...part, ...columns]) > width) {
      parts.push(part);
      part = [...kept];
    }
    part.push(...columns);
  }
  parts.push(part);
  const render = (columns: readonly number[]) => {
    const line = (cells: readonly string[]) =>
      columns
        .map((column) =>
          column < keep ? cells[column].padEnd(widths[column]) : cells[column].padStart(widths[column]),
        )
        .join('  ')
        .trimEnd();
    const rule = columns.map((column) => '─'.repeat(widths[column])).join('  ');
    return `${[line(header), rule, ...rows.map(line)].join('\n')}\n`;
  };
  return parts.map(render).join('\n');
}

/** The width tables fit: the terminal's, or 80 columns when output is not a terminal or its width is unknown. */
export function tableWidth(columns: number | undefined): number {
  return columns !== undefined && Number.isInteger(columns) && columns >= 40 ? columns : 80;
}

interface RenderRunOptions {
  /** Fold metrics that cannot vary at these parameters into one line (the default view). */
  fold?: boolean;
  /** A note under the table (what was left out). */
  note?: string;
  /** Terminal width the table fits (80 when unknown). */
  width?: number;
  /** The checkpoint a resumed run picked up, and the trials it already held. */
  resumed?: { path: string; trials: number };
}

/**
 * The header line of a resumed run. @example resumedLine({ path: 'run.ckpt', trials: 400000 }) // 'resumed from
 * run.ckpt: 400,000 trials already done'
 */
export function resumedLine(resumed: { path: string; trials: number }): string {
  return `resumed from ${resumed.path}: ${formatCount(resumed.trials)} trials already done`;
}

/** The terminal report of one run: what ran, then metric, estimate, interval and exact value. */
export function renderRun(
  result: RunResult,
  metrics: readonly MetricSpec[],
  seconds: number | null,
  options: RenderRunOptions = {},
): string {
  const level = `${+(result.confidence * 100).toFixed(4)}%`;
  const lines = [
    `${result.rule} — ${result.title}`,
    `source: ${result.source}`,
    `params: ${formatParams(result.params) || '(none)'}`,
  ];
  if (result.method === 'exact') {
    lines.push('exact values (no simulation)');
  } else {
    const facts = [
      `seed ${result.seed}`,
      `stream ${result.stream}`,
      `${formatCount(result.trials)} trials`,
      `${result.threads} thread${result.threads === 1 ? '' : 's'}`,
      `${level} intervals`,
    ];
    if (seconds !== null) facts.push(`${seconds.toFixed(2)} s`);
    lines.push(facts.join(' · '));
    if (options.resumed && options.resumed.trials > 0) lines.push(resumedLine(options.resumed));
    if (result.precision) {
      lines.push(
        result.precision.reached
          ? `precision ±${result.precision.target} reached after ${formatCount(result.trials)} trials`
          : result.partial
            ? `precision ±${result.precision.target} not reached: interrupted after ${formatCount(result.trials)} ` +
              `trials`
            : `precision ±${result.precision.target} NOT reached: stopped at --max-trials ` +
              `${formatCount(result.trials)}`,
      );
    }
    if (result.partial) lines.push('PARTIAL: interrupted; only the finished chunks are counted');
  }
  const header = result.method === 'exact' ? ['metric', 'exact'] : ['metric', 'estimate', `${level} interval`, 'exact'];
  const valueAt = (metric: MetricSpec) => own(result.metrics, metric.name) as MetricResult;
  const certain = options.fold
    ? metrics.filter((metric) => valueAt(metric) && isCertain(valueAt(metric), metric.probability))
    : [];
  // Folding every row away would leave no table; fold only when something still varies.
  const folded =
    certain.length > 1 && certain.length < metrics.length ? new Set(certain.map((m) => m.name)) : new Set<string>();
  const rows = metrics
    .filter((metric) => !folded.has(metric.name))
    .map((metric) => {
      const value = valueAt(metric);
      const show = (x: number | null) => formatValue(x, metric.probability);
      return result.method === 'exact'
        ? [metric.name, formatExact(value, metric.probability)]
        : [
            metric.name,
            show(value.estimate),
            `${show(value.lo)} – ${show(value.hi)}`,
            formatExact(value, metric.probability),
          ];
    });
  const width = options.width ?? 80;
  let text = `${wrapLines(lines, width).join('\n')}\n\n${renderTable(header, rows, width)}`;
  if (folded.size > 0) {
    const list = metrics
      .filter((m) => folded.has(m.name))
      .map((m) => `${m.name} ${formatCertain(valueAt(m), m.probability)}`);
    text += `${wrapText(`certain at these parameters: ${list.join(', ')}`, width, '')}\n`;
  }
  return text + (options.note ?? '');
}

/** Wraps `text` at word boundaries to `width` columns, every line starting with `indent`. */
export function wrapText(text: string, width: number, indent: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && indent.length + line.length + 1 + word.length > width) {
      lines.push(indent + line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(indent + line);
  return lines.join('\n');
}

/**
 * Lines wrapped at word boundaries to `width`, continuation lines indented two spaces; a word longer than the width
 * stays whole.
 */
export function wrapLines(rawLines: readonly string[], width: number): string[] {
  // Each is one line by contract: a line feed in the user text it holds (a rule title, a seed) is shown, not obeyed.
  const lines = rawLines.map(terminalLine);
  return lines.flatMap((line) => {
    if ([...line].length <= width) return [line];
    const out: string[] = [];
    let current = '';
    for (const word of line.split(' ')) {
      const indent = out.length === 0 ? '' : '  ';
      if (current && [...indent].length + [...current].length + 1 + [...word].length > width) {
        out.push(indent + current);
        current = word;
      } else {
        current = current ? `${current} ${word}` : word;
      }
    }
    if (current) out.push((out.length === 0 ? '' : '  ') + current);
    return out;
  });
}

/**
 * The parameters every one of several parameter sets shares and that differ
 * from the defaults of its rule: what a comparison's header lists as set for
 * every variant (`compare deployment --set b=F3 …` says b=forward:3).
 * `defaults` gives each set's rule defaults, in the same order.
 */
export function sharedChanges(paramsList: readonly Params[], defaults: readonly Params[]): Params {
  const shared: Params = {};
  const [first, ...rest] = paramsList;
  if (!first) return shared;
  for (const name of Object.keys(first)) {
    const value = first[name];
    if (!rest.every((params) => Object.hasOwn(params, name) && params[name] === value)) continue;
    if (paramsList.every((_, index) => defaults[index][name] === value)) continue;
    Object.defineProperty(shared, name, { value, enumerable: true, writable: true, configurable: true });
  }
  return shared;
}

/**
 * A rule's parameters at their defaults after its resolve, or each spec's own default where the defaults alone do not
 * validate.
 */
export function ruleDefaults(rule: Rule, resolve: (rule: Rule) => Params): Params {
  try {
    return resolve(rule);
  } catch {
    return Object.fromEntries(rule.params.map((spec) => [spec.name, spec.default]));
  }
}
