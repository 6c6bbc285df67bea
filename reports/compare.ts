/**
 * A comparison's report: its terminal notes, charts, page and CSV, from the
 * result src/analysis/compare.ts assembles (the variants, the differences
 * from the first, Holm-adjusted tests). Nothing here computes.
 */

import type { CompareResult } from '../src/analysis/compare.js';
import type { ValueDifference } from '../src/analysis/distribution-differences.js';
import type { MetricSpec, Rule } from '../src/contract/types.js';
import { own } from '../src/keyed.js';
import { formatCount, formatValue } from '../src/output/format.js';
import { type IntervalPoint, intervalChart, pointFrom } from './charts/blocks.js';
import type { Chart } from './charts/chart.js';
import { type CsvCell, csvLine, partialColumn } from './csv.js';
import { escapeHtml } from './escape.js';
import { type ParamRow, renderPage } from './page.js';
import { readingRows } from './readings.js';
import { confidenceLabel, formatInterval, htmlSection } from './tables.js';

/** A difference in the metric's units: percentage points for probabilities. */
export function formatDifference(value: number | null, probability: boolean): string {
  if (value === null || Number.isNaN(value)) return '—';
  const sign = value > 0 ? '+' : value < 0 ? '−' : '±';
  return probability ? `${sign}${Math.abs(value * 100).toFixed(3)} pp` : `${sign}${Math.abs(value).toFixed(4)}`;
}

/** A p-value to two significant figures, or "< 1e-300". */
export function formatP(p: number | null): string {
  if (p === null) return '—';
  if (p === 0) return '< 1e-300';
  return p < 1e-4 ? p.toExponential(1) : p.toPrecision(2);
}

/** The rule for reading the results, in a sentence. */
export function significanceNote(result: CompareResult): string {
  if (result.method === 'exact') return 'Exact values: every difference is known exactly, so no test is needed.';
  const seeds =
    result.seeds === 'shared'
      ? 'Every variant ran on the same seed: where a change leaves the dice as they fell, the variants share them ' +
        'and the independent-samples test is conservative; where it changes how many dice are thrown the streams ' +
        'soon part ' +
        'and the samples are close to independent. Use --seed-per-variant for a change that reverses whom a die ' +
        'favours ' +
        '(such as swapping sides), where shared dice would make the test too bold.'
      : 'Each variant ran on its own random stream, so the samples are independent, as the test assumes.';
  return (
    `Significant: a two-sample z-test (each side's own variance) whose Holm-adjusted p-value is at most ` +
    `${+result.alpha.toFixed(6)}, adjusting over all ${result.tests} comparisons (every metric of every variant ` +
    `against ${JSON.stringify(result.variants[0].label)}), which keeps the chance of any false “significant” at most ` +
    `${+result.alpha.toFixed(6)}. ${seeds}`
  );
}

/** Charts: each variant's probabilities side by side, and the differences from the baseline with their intervals. */
function compareCharts(rule: Rule, result: CompareResult, metrics: readonly MetricSpec[]): Chart[] {
  const probabilities = metrics.filter((metric) => metric.probability);
  if (probabilities.length === 0) return [];
  const simulated = result.method === 'simulation';
  const labels = result.variants.map((variant) => variant.label);
  const values: IntervalPoint[] = [];
  for (const variant of result.variants) {
    probabilities.forEach((metric, index) => {
      const value = own(variant.metrics, metric.name);
      if (value) values.push(pointFrom(value, simulated, metric.name, index, true, { series: variant.label }));
    });
  }
  const charts: Chart[] = [
    {
      id: 'compare-values',
      title: `${rule.title}: variants side by side`,
      caption:
        `Every probability of every variant, one colour per variant; ` +
        `${
          simulated
            ? `dots are estimates with ${confidenceLabel(result.confidence)} intervals, diamonds exact ` + `values`
            : 'exact values'
        }.`,
      spec: intervalChart(values, {
        orientation: 'horizontal',
        categoryTitle: 'metric',
        valueTitle: 'probability',
        percent: true,
        series: { title: 'variant', order: labels },
        step: 13,
      }),
    },
  ];
  // Metrics that no variant changes at all (difference exactly 0 everywhere) are named in the caption instead of drawn.
  const unchanged = probabilities.filter((m) =>
    result.differences
      .filter((d) => d.metric === m.name)
      .every((d) => (d.exactDifference ?? d.difference) === 0 && (d.difference ?? 0) === 0),
  );
  const probabilityNames = new Set(probabilities.filter((m) => !unchanged.includes(m)).map((m) => m.name));
  const differences: IntervalPoint[] = result.differences
    .filter((d) => probabilityNames.has(d.metric))
    .map((d) => {
      const best = d.exactDifference ?? d.difference ?? 0;
      return {
        label: d.metric,
        order: probabilities.findIndex((m) => m.name === d.metric),
        series: d.variant,
        estimate: d.difference === null ? null : d.difference * 100,
        lo: d.lo === null ? null : d.lo * 100,
        hi: d.hi === null ? null : d.hi * 100,
        exact: d.exactDifference === null ? null : d.exactDifference * 100,
        text: `${formatDifference(best, true)}${d.significant ? ' *' : ''}`,
      };
    });
  const reach =
    Math.max(
      0.05,
      ...differences.flatMap((d) =>
        [d.lo, d.hi, d.exact, d.estimate].filter((x): x is number => x !== null).map(Math.abs),
      ),
    ) * 1.15;
  if (differences.length === 0) return charts;
  charts.push({
    id: 'compare-differences',
    title: `${rule.title}: differences from “${labels[0]}”`,
    caption:
      `Each probability of each variant minus the same probability of “${labels[0]}”, in percentage ` +
      `points${
        simulated
          ? `, with the ${confidenceLabel(result.confidence)} interval of the difference; * marks a ` +
            `significant difference (Holm-adjusted)`
          : ''
      }; diamonds are exact ` +
      `differences.${
        unchanged.length > 0
          ? ` Unchanged by every variant, so not drawn: ` + `${unchanged.map((m) => m.name).join(', ')}.`
          : ''
      }`,
    spec: intervalChart(differences, {
      orientation: 'horizontal',
      categoryTitle: 'metric',
      // Not the baseline's label: an axis title also goes into the tooltip expression Vega-Lite writes. The chart title
      // names it.
      valueTitle: 'difference from the baseline (percentage points)',
      percent: false,
      domain: [-reach, reach],
      series: { title: 'variant', order: labels.slice(1) },
      step: 11,
    }),
  });
  return charts;
}

function valuesTable(result: CompareResult, metrics: readonly MetricSpec[]): string {
  const simulated = result.method === 'simulation';
  const head = ['<th>metric</th>', ...result.variants.map((v) => `<th class="num">${escapeHtml(v.label)}</th>`)];
  const rows = metrics.map((metric) => {
    const cells = result.variants.map((v) => {
      const value = own(v.metrics, metric.name);
      if (!value) return '<td class="num">—</td>';
      const main = formatValue(simulated ? value.estimate : value.exact, metric.probability);
      const extra = simulated
        ? `<span class="fraction">${escapeHtml(formatInterval(value, metric.probability))}${
            value.exact !== null ? ` · exact ${escapeHtml(formatValue(value.exact, metric.probability))}` : ''
          }</span>`
        : '';
      return `<td class="num">${escapeHtml(main)}${extra}</td>`;
    });
    return `<tr><td class="name">${escapeHtml(metric.name)}</td>${cells.join('')}</tr>`;
  });
  return `<table><thead><tr>${head.join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function differencesTable(result: CompareResult, metrics: readonly MetricSpec[]): string {
  const simulated = result.method === 'simulation';
  const probability = new Map(metrics.map((m) => [m.name, m.probability]));
  const head = simulated
    ? '<tr><th>metric</th><th>variant</th><th class="num">difference</th><th class="num">interval</th><th ' +
      'class="num">z</th><th class="num">p</th><th class="num">p (Holm)</th><th>significant</th><th ' +
      'class="num">exact ' +
      'difference</th></tr>'
    : '<tr><th>metric</th><th>variant</th><th class="num">exact difference</th></tr>';
  const rows = result.differences.map((d) => {
    const isProbability = probability.get(d.metric) ?? false;
    const exact = `${escapeHtml(formatDifference(d.exactDifference, isProbability))}${
      d.exactFraction ? `<span ` + `class="fraction">= ${escapeHtml(d.exactFraction)}</span>` : ''
    }`;
    const cells = [`<td class="name">${escapeHtml(d.metric)}</td>`, `<td>${escapeHtml(d.variant)}</td>`];
    if (simulated) {
      cells.push(
        `<td class="num">${escapeHtml(formatDifference(d.difference, isProbability))}</td>`,
        `<td class="num">${escapeHtml(
          `${formatDifference(d.lo, isProbability)} … ` + `${formatDifference(d.hi, isProbability)}`,
        )}</td>`,
        `<td class="num">${d.z === null ? '—' : escapeHtml(Number.isFinite(d.z) ? d.z.toFixed(2) : String(d.z))}</td>`,
        `<td class="num">${escapeHtml(formatP(d.p))}</td>`,
        `<td class="num">${escapeHtml(formatP(d.pAdjusted))}</td>`,
        `<td>${d.significant === null ? '—' : d.significant ? '<span class="yes">yes</span>' : 'no'}</td>`,
      );
    }
    cells.push(`<td class="num">${exact}</td>`);
    return `<tr${d.significant ? ' class="significant"' : ''}>${cells.join('')}</tr>`;
  });
  return `<table><thead>${head}</thead><tbody>${rows.join('')}</tbody></table>`;
}

/** The comparison's HTML report. */
export function comparePage(
  rule: Rule,
  result: CompareResult,
  metrics: readonly MetricSpec[],
): { html: string; charts: Chart[] } {
  const charts = compareCharts(rule, result, metrics);
  const params: ParamRow[] = rule.params.map((spec) => {
    const values = result.variants.map((v) => String(own(v.params, spec.name) ?? '—'));
    const differs = new Set(values).size > 1;
    return { name: spec.name, value: differs ? values.join(' | ') : values[0], doc: spec.doc, varied: differs };
  });
  const variantList = `<table><thead><tr><th>variant</th><th>settings</th></tr></thead><tbody>${result.variants
    .map(
      (v, i) =>
        `<tr><td>${escapeHtml(v.label)}${i === 0 ? ' <span class="note">(baseline)</span>' : ''}</td><td ` +
        `class="name">${escapeHtml(v.assignments.join('; ') || '(defaults)')}</td></tr>`,
    )
    .join('')}</tbody></table>`;
  const significant = result.differences.filter((d) => d.significant);
  const verdict =
    result.method === 'exact'
      ? ''
      : significant.length === 0
        ? 'No difference is significant.'
        : `Significant: ${significant.map((d) => `${d.metric} (${d.variant})`).join(', ')}.`;
  const method =
    result.method === 'exact'
      ? 'exact values (no simulation)'
      : `simulated: ${formatCount(result.trials)} trials a variant, seed ${JSON.stringify(result.seed)} ` +
        `(${result.seeds === 'shared' ? 'the same for every variant' : 'one per variant'}; stream ${result.stream}), ` +
        `${confidenceLabel(result.confidence)} intervals`;
  const html = renderPage({
    exactOnly: result.method === 'exact',
    title: `${rule.title}: ${result.variants.map((v) => v.label).join(' vs ')}`,
    kicker: 'muster · variant comparison',
    summary: rule.summary,
    facts: [
      ['rule', `${rule.id} — ${rule.title}`],
      ['rule text', rule.source],
      ['method', method],
      ['variants', result.variants.map((v) => v.label).join(', ')],
      ...(result.partial ? [['PARTIAL', 'interrupted: only the variants listed finished'] as [string, string]] : []),
    ],
    params,
    readings: readingRows(
      rule,
      result.variants.map((variant) => ({ label: variant.label, params: variant.params })),
    ),
    printHeader:
      `muster compare · ${rule.id} · ` +
      `${result.variants
        .map((v) => `${v.label}: ` + `${v.assignments.join(' ') || 'defaults'}`)
        .join(
          ' | ' + '',
        )}${result.method === 'exact' ? ' · exact' : ` · seed ${result.seed} · ${formatCount(result.trials)} trials`}`,
    sections: [
      { kind: 'html', html: htmlSection('variants', 'Variants', variantList) },
      ...charts.map((chart) => ({ kind: 'chart' as const, chart })),
      {
        kind: 'html',
        html: htmlSection(
          'differences',
          `Differences from “${result.variants[0].label}”`,
          differencesTable(result, metrics),
          `${verdict} ${significanceNote(result)}`.trim(),
        ),
      },
      { kind: 'html', html: htmlSection('values', 'Every metric of every variant', valuesTable(result, metrics)) },
    ],
  });
  return { html, charts };
}

/** Every metric of every variant with its difference from the baseline, one row each. */
export function compareCsv(result: CompareResult, metrics: readonly MetricSpec[]): string {
  const partial = partialColumn(result.partial === true);
  // A distribution compared value by value adds its rows, and these columns to every row (empty on the others).
  const extra = result.distributions ? ['value', 'chi_square', 'df'] : [];
  let text = csvLine([
    'metric',
    'kind',
    'variant',
    'estimate',
    'lo',
    'hi',
    'exact',
    'difference',
    'difference_lo',
    'difference_hi',
    'exact_difference',
    'z',
    'p',
    'p_holm',
    'significant',
    ...extra,
    ...partial.header,
  ]);
  const none = extra.map(() => null);
  for (const metric of metrics) {
    for (const variant of result.variants) {
      const value = own(variant.metrics, metric.name);
      if (!value) continue;
      const d = result.differences.find((x) => x.metric === metric.name && x.variant === variant.label);
      text += csvLine([
        metric.name,
        metric.probability ? 'probability' : 'mean',
        variant.label,
        value.estimate,
        value.lo,
        value.hi,
        value.exact,
        d?.difference ?? null,
        d?.lo ?? null,
        d?.hi ?? null,
        d?.exactDifference ?? null,
        d?.z ?? null,
        d?.p ?? null,
        d?.pAdjusted ?? null,
        d?.significant ?? null,
        ...none,
        ...partial.cells,
      ]);
    }
    text += distributionRows(result, metric, partial.cells);
  }
  return text;
}

/**
 * A distribution's rows in a comparison's CSV: the baseline's chance of each value (kind `value`), each variant's
 * with its difference from the baseline's, the chance past the values listed (kind `beyond`, `value` the last
 * listed), and each variant's chi-square test (kind `distribution test`).
 */
function distributionRows(result: CompareResult, metric: MetricSpec, partial: readonly CsvCell[]): string {
  const found = (result.distributions ?? []).filter((d) => d.metric === metric.name);
  if (found.length === 0) return '';
  type Figures = Omit<ValueDifference, 'value'>;
  const line = (kind: string, label: string, value: number, side: Figures['baseline'], d: Figures | null) =>
    csvLine([
      metric.name,
      kind,
      label,
      side.estimate,
      null,
      null,
      side.exact,
      d?.difference ?? null,
      null,
      null,
      d?.exactDifference ?? null,
      null,
      null,
      null,
      null,
      value,
      null,
      null,
      ...partial,
    ]);
  let text = '';
  const first = found[0];
  for (const v of first.values) text += line('value', first.baseline, v.value, v.baseline, null);
  if (first.beyond) text += line('beyond', first.baseline, first.beyond.above, first.beyond.baseline, null);
  for (const d of found) {
    for (const v of d.values) text += line('value', d.variant, v.value, v.variant, v);
    if (d.beyond) text += line('beyond', d.variant, d.beyond.above, d.beyond.variant, d.beyond);
    if (d.test)
      text += csvLine([
        metric.name,
        'distribution test',
        d.variant,
        ...[null, null, null, null, null, null, null, null, null],
        d.test.p,
        d.test.pAdjusted,
        d.test.significant,
        null,
        d.test.statistic,
        d.test.df,
        ...partial,
      ]);
  }
  return text;
}
