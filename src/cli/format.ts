import type { RunResult } from '../result.js';
import type { MetricSpec } from '../rules/types.js';
import { formatCount, formatParams, formatValue } from '../output/format.js';

export { formatCount, formatParams, formatValue };

/** Columns padded to their widest cell; the first column left-aligned, the rest (numbers) right-aligned. */
export function renderTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, column) => Math.max([...title].length, ...rows.map((row) => [...row[column]].length)));
  const line = (cells: readonly string[]) =>
    cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  ').trimEnd();
  const rule = widths.map((width) => '─'.repeat(width)).join('  ');
  return [line(header), rule, ...rows.map(line)].join('\n') + '\n';
}

/** The terminal report of one run: what ran, then metric, estimate, interval and exact value. */
export function renderRun(result: RunResult, metrics: readonly MetricSpec[], seconds: number | null): string {
  const level = `${+(result.confidence * 100).toFixed(4)}%`;
  const lines = [`${result.rule} — ${result.title}`, `source: ../shared/rules/${result.source}`, `params: ${formatParams(result.params)}`];
  if (result.method === 'exact') {
    lines.push('exact values (no simulation)');
  } else {
    const facts = [`seed ${result.seed}`, `${formatCount(result.trials)} trials`, `${result.threads} thread${result.threads === 1 ? '' : 's'}`, `${level} intervals`];
    if (seconds !== null) facts.push(`${seconds.toFixed(2)} s`);
    lines.push(facts.join(' · '));
    if (result.precision) {
      lines.push(
        result.precision.reached
          ? `precision ±${result.precision.target} reached after ${formatCount(result.trials)} trials`
          : result.partial
            ? `precision ±${result.precision.target} not reached: interrupted after ${formatCount(result.trials)} trials`
            : `precision ±${result.precision.target} NOT reached: stopped at --max-trials ${formatCount(result.trials)}`,
      );
    }
    if (result.partial) lines.push('PARTIAL: interrupted; only the finished chunks are counted');
  }
  const header = result.method === 'exact' ? ['metric', 'exact'] : ['metric', 'estimate', `${level} interval`, 'exact'];
  const rows = metrics.map((metric) => {
    const value = result.metrics[metric.name];
    const show = (x: number | null) => formatValue(x, metric.probability);
    return result.method === 'exact'
      ? [metric.name, show(value.exact)]
      : [metric.name, show(value.estimate), `${show(value.lo)} – ${show(value.hi)}`, show(value.exact)];
  });
  return `${lines.join('\n')}\n\n${renderTable(header, rows)}`;
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
