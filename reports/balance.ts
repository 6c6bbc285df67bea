/**
 * A balance's page: the answer in words, then the balance map
 * (./balance-charts.ts: a heat map of two varied parameters, a line of one),
 * then one step and the cliffs. Nothing here computes: it reads the result
 * src/analysis/balance.ts assembles.
 */
import type { BalanceResult } from '../src/analysis/balance.js';
import type { MetricSpec, Rule } from '../src/contract/types.js';
import { own } from '../src/keyed.js';
import { formatCount, formatValue } from '../src/output/format.js';
import { balanceCharts } from './balance-charts.js';
import { balanceVerdict, cliffLines, rowLines, sensitivityLines, withinLines } from './balance-words.js';
import type { Chart } from './charts/chart.js';
import { escapeHtml } from './escape.js';
import { type ParamRow, renderPage } from './page.js';
import { htmlSection } from './tables.js';

export { balanceCharts };

/** Lines of words as escaped paragraphs, an indented line (a list's item) as an item of the list before it. */
function wordsHtml(lines: readonly string[]): string {
  const html: string[] = [];
  let items: string[] = [];
  const flush = () => {
    if (items.length > 0) html.push(`<ul>${items.map((item) => `<li>${escapeHtml(item)}</li>`).join('')}</ul>`);
    items = [];
  };
  for (const line of lines) {
    if (line.startsWith('  ')) {
      items.push(line.trim());
    } else {
      flush();
      html.push(`<p>${escapeHtml(line)}</p>`);
    }
  }
  flush();
  return html.join('');
}

/** The balance's HTML page: the answer, the map, sensitivity, cliffs. */
export function balancePage(rule: Rule, result: BalanceResult, metric: MetricSpec): { html: string; charts: Chart[] } {
  const { balance } = result;
  const charts = balanceCharts(rule, result, metric);
  const varied = new Set(result.vary.map((vary) => vary.name));
  const params: ParamRow[] = rule.params.map((spec) => {
    const vary = result.vary.find((v) => v.name === spec.name);
    return {
      name: spec.name,
      value: vary ? vary.values.map(String).join(' | ') : String(own(result.params, spec.name)),
      doc: spec.doc,
      varied: varied.has(spec.name),
    };
  });
  const method =
    result.method === 'exact'
      ? 'exact values (no simulation)'
      : `simulated: ${formatCount(result.trials)} trials a point, seed ${JSON.stringify(result.seed)}, stream ` +
        `${result.stream}${balance.exact ? '; compared by the exact values beside the estimates' : ''}`;
  const answer = [
    balanceVerdict(balance, metric, result.method === 'simulation'),
    ...withinLines(balance, metric),
    ...rowLines(balance, metric, result.vary[0].name),
  ];
  const html = renderPage({
    exactOnly: result.method === 'exact',
    title: `${rule.title}: balance of ${metric.name}`,
    kicker: 'muster · balance',
    summary: `The settings of ${result.vary.map((vary) => vary.name).join(' and ')} that bring ${metric.name} (${metric.doc}) nearest ${balance.target.text}.`,
    facts: [
      ['rule', `${rule.id} — ${rule.title}`],
      ['rule text', rule.source],
      ['metric', `${metric.name}: ${metric.doc}`],
      ['target', `${balance.target.text} (${formatValue(balance.target.value, metric.probability)})`],
      ...(balance.keep.length > 0
        ? [['keep', `${balance.keep.join(', ')} (${balance.excluded} setting(s) left out)`] as [string, string]]
        : []),
      ['method', method],
      ['settings', `${result.points.length}${result.skipped.length > 0 ? ` (${result.skipped.length} skipped)` : ''}`],
      ...(result.partial
        ? [['PARTIAL', 'interrupted: only the settings finished are weighed'] as [string, string]]
        : []),
    ],
    params,
    printHeader:
      `muster balance · ${rule.id} · ${metric.name} at ${balance.target.text} · ` +
      `${result.vary.map((v) => `${v.name}=${v.values.map(String).join('|')}`).join(' ')}`,
    sections: [
      { kind: 'html', html: htmlSection('answer', 'The answer', wordsHtml(answer)) },
      ...charts.map((chart) => ({ kind: 'chart' as const, chart })),
      {
        kind: 'html',
        html: htmlSection(
          'steps',
          'One step, and the cliffs',
          wordsHtml([...sensitivityLines(balance, metric), ...cliffLines(balance, metric)]),
        ),
      },
    ],
  });
  return { html, charts };
}
