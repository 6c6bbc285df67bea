/**
 * A parameter sweep's report: lines for one varied parameter, heatmaps for
 * two, heatmap panels for three, and its CSV. The sweep itself (`--vary`, the grid,
 * the points computed) is src/analysis/sweep.ts's.
 */

import type { SweepResult } from '../src/analysis/sweep.js';
import { type Vary, varyValuesText } from '../src/analysis/vary.js';
import type { MetricSpec, Params, ParamValue, Rule } from '../src/contract/types.js';
import { keyedRecord, own } from '../src/keyed.js';
import { formatCount, formatValue } from '../src/output/format.js';
import { bestOf, type MetricResult } from '../src/result.js';
import { type IntervalPoint, lineChart, pointFrom } from './charts/blocks.js';
import type { Chart } from './charts/chart.js';
import { type HeatCell, heatmap } from './charts/heatmap.js';
import { uniqueIds } from './charts/index.js';
import { csvLine, partialColumn } from './csv.js';
import { escapeHtml } from './escape.js';
import { percent } from './numbers.js';
import { type ParamRow, renderPage } from './page.js';
import { readingRows } from './readings.js';
import { confidenceLabel, formatInterval, htmlSection } from './tables.js';

function pointLabel(value: ParamValue): string {
  return String(value);
}
/** A point's value of a varied parameter (its own entry: the name may be `constructor`). */
function valueAt(point: { params: Params }, vary: Vary): ParamValue {
  return own(point.params, vary.name) as ParamValue;
}
/** A value's place along its parameter, the charts' order. */
function order(vary: Vary, value: ParamValue): number {
  return vary.values.indexOf(value);
}
/** Text fit for a chart's id. */
function safe(text: string): string {
  return text.replace(/[^A-Za-z0-9.-]+/g, '-');
}

/** Charts of a sweep for the chosen metrics. */
function sweepCharts(rule: Rule, sweep: SweepResult, metrics: readonly MetricSpec[]): Chart[] {
  const simulated = sweep.method === 'simulation';
  const how = simulated
    ? `Simulated, ${formatCount(sweep.trials)} trials a point (seed ${sweep.seed}), ` +
      `${confidenceLabel(sweep.confidence)} intervals; diamonds mark exact values.`
    : 'Exact values.';
  if (sweep.vary.length === 1) return uniqueIds(lineCharts(rule, sweep, metrics, how));
  if (sweep.vary.length > 3) return [];
  return uniqueIds(heatmapCharts(rule, sweep, metrics));
}

/** One varied parameter: the probabilities in one line chart, each other metric in one of its own. */
function lineCharts(rule: Rule, sweep: SweepResult, metrics: readonly MetricSpec[], how: string): Chart[] {
  const simulated = sweep.method === 'simulation';
  const charts: Chart[] = [];
  const [first] = sweep.vary;
  const probabilities = metrics.filter((metric) => metric.probability);
  if (probabilities.length > 0) {
    const points: IntervalPoint[] = [];
    for (const point of sweep.points) {
      for (const metric of probabilities) {
        const value = own(point.metrics, metric.name);
        if (!value) continue; // a metric this point does not have (e.g. a round it does not play)
        points.push(
          pointFrom(value, simulated, pointLabel(valueAt(point, first)), order(first, valueAt(point, first)), true, {
            series: metric.name,
          }),
        );
      }
    }
    charts.push({
      id: `sweep-${safe(first.name)}-probabilities`,
      title: `${rule.title}: ${probabilities.map((m) => m.name).join(', ')} by ${first.name}`,
      caption: `${probabilities.map((m) => `${m.name}: ${m.doc}`).join('; ')}. ${how}`,
      spec: lineChart(points, {
        xTitle: first.name,
        yTitle: 'probability',
        percent: true,
        seriesTitle: 'metric',
        seriesOrder: probabilities.map((m) => m.name),
        labels: probabilities.length <= 2,
      }),
    });
  }
  for (const metric of metrics.filter((m) => !m.probability)) {
    const points = sweep.points
      .filter((point) => own(point.metrics, metric.name))
      .map((point) =>
        pointFrom(
          own(point.metrics, metric.name) as MetricResult,
          simulated,
          pointLabel(valueAt(point, first)),
          order(first, valueAt(point, first)),
          false,
          { series: metric.name },
        ),
      );
    charts.push({
      id: `sweep-${safe(first.name)}-${safe(metric.name)}`,
      title: `${rule.title}: ${metric.name} by ${first.name}`,
      caption: `${metric.doc}. ${how}`,
      spec: lineChart(points, {
        xTitle: first.name,
        yTitle: metric.name,
        percent: false,
        seriesTitle: 'metric',
        seriesOrder: [metric.name],
        labels: true,
      }),
    });
  }
  return charts;
}

/** Two or three varied parameters: a heatmap a metric, in panels by the third. */
function heatmapCharts(rule: Rule, sweep: SweepResult, metrics: readonly MetricSpec[]): Chart[] {
  const simulated = sweep.method === 'simulation';
  const charts: Chart[] = [];
  const [first, second, third] = sweep.vary;
  for (const metric of metrics) {
    const cells: HeatCell[] = sweep.points
      .filter((point) => own(point.metrics, metric.name))
      .map((point) => {
        const figures = own(point.metrics, metric.name) as MetricResult;
        const value = bestOf(figures);
        return {
          row: pointLabel(valueAt(point, first)),
          col: pointLabel(valueAt(point, second)),
          rowOrder: order(first, valueAt(point, first)),
          colOrder: order(second, valueAt(point, second)),
          value,
          text: metric.probability ? percent(value, 1) : value.toFixed(3),
          lo: simulated ? figures.lo : null,
          hi: simulated ? figures.hi : null,
          ...(third ? { facet: `${third.name}=${pointLabel(valueAt(point, third))}` } : {}),
        };
      });
    charts.push({
      id: `sweep-${safe(metric.name)}`,
      title:
        `${rule.title}: ${metric.name} by ${first.name} and ` +
        `${second.name}${third ? `, panels by ${third.name}` : ''}`,
      caption:
        `${metric.doc}. Rows ${first.name}, columns ${second.name}. ` +
        `${
          simulated
            ? `Simulated, ${formatCount(sweep.trials)} trials a cell (seed ${sweep.seed}); cells show ` +
              `exact values where known, hover for ` +
              `intervals.`
            : 'Exact ' + 'values.'
        }${sweep.skipped.length > 0 ? ' Blank cells: ' + 'combinations the rule rejects.' : ''}`,
      spec: heatmap(cells, {
        rowTitle: first.name,
        colTitle: second.name,
        valueTitle: metric.name,
        percent: metric.probability,
        slantColumns: second.values.some((v) => String(v).length > 6),
        ...(third
          ? {
              facet: { title: third.name, order: third.values.map((v) => `${third.name}=${pointLabel(v)}`) },
              cellWidth: 48,
            }
          : {}),
      }),
    });
  }
  return charts;
}

/** The sweep table as HTML: one row per combination, the chosen metrics' estimates, intervals and exact values. */
function sweepTable(sweep: SweepResult, metrics: readonly MetricSpec[]): string {
  const simulated = sweep.method === 'simulation';
  const names = [...sweep.vary.map((vary) => vary.name), ...(sweep.perPoint ?? [])];
  const head = names.map((name) => `<th>${escapeHtml(name)}</th>`);
  for (const metric of metrics) {
    head.push(`<th class="num">${escapeHtml(metric.name)}</th>`);
    if (simulated) head.push(`<th class="num">${escapeHtml(confidenceLabel(sweep.confidence))} interval</th>`);
    if (simulated) head.push('<th class="num">exact</th>');
  }
  const rows = sweep.points.map((point) => {
    const cells = names.map((name) => `<td class="name">${escapeHtml(String(own(point.params, name)))}</td>`);
    for (const metric of metrics) {
      const value = own(point.metrics, metric.name);
      if (!value) {
        cells.push(
          ...(simulated
            ? ['<td class="num">—</td>', '<td class="num">—</td>', '<td class="num">—</td>']
            : ['<td class="num">—</td>']),
        );
        continue;
      }
      cells.push(
        `<td class="num">${escapeHtml(formatValue(simulated ? value.estimate : value.exact, metric.probability))}</td>`,
      );
      if (simulated)
        cells.push(
          `<td class="num">${escapeHtml(formatInterval(value, metric.probability))}</td>`,
          `<td class="num">${escapeHtml(formatValue(value.exact, metric.probability))}</td>`,
        );
    }
    return `<tr>${cells.join('')}</tr>`;
  });
  return `<table><thead><tr>${head.join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** The sweep's HTML report. */
export function sweepPage(
  rule: Rule,
  sweep: SweepResult,
  metrics: readonly MetricSpec[],
): { html: string; charts: Chart[] } {
  const charts = sweepCharts(rule, sweep, metrics);
  const varied = new Set(sweep.vary.map((vary) => vary.name));
  const perPoint = new Set(sweep.perPoint ?? []);
  const params: ParamRow[] = rule.params.map((spec) => {
    const vary = sweep.vary.find((v) => v.name === spec.name);
    // A default that depends on a varied parameter is not fixed: its values, each point's in the table.
    const resolved = () =>
      `per point: ${[...new Set(sweep.points.map((point) => String(own(point.params, spec.name))))].join(' | ')}`.trim();
    return {
      name: spec.name,
      value: vary
        ? vary.values.map(String).join(' | ')
        : perPoint.has(spec.name)
          ? resolved()
          : String(own(sweep.params, spec.name)),
      doc: spec.doc,
      varied: varied.has(spec.name),
    };
  });
  const method =
    sweep.method === 'exact'
      ? 'exact values (no simulation)'
      : `simulated: ${formatCount(sweep.trials)} trials a point, seed ${JSON.stringify(sweep.seed)} (the same for ` +
        `every point; stream ${sweep.stream}), ${sweep.threads} threads, ${confidenceLabel(sweep.confidence)} ` +
        `intervals`;
  const varyText = sweep.vary.map((vary) => `${vary.name} over ${varyValuesText(vary.values)}`).join(' · ');
  const notes = [
    sweep.vary.length > 3 ? 'More than three parameters vary, so the sweep is shown as a table only.' : '',
    sweep.skipped.length > 0
      ? `${sweep.skipped.length} combination(s) skipped because the rule rejects them, e.g. ${sweep.skipped[0].reason}.`
      : '',
    'The JSON and CSV outputs hold every metric at every point.',
  ].filter(Boolean);
  const html = renderPage({
    exactOnly: sweep.method === 'exact',
    title: `${rule.title}: sweep`,
    kicker: 'muster · parameter sweep',
    summary: `${rule.summary}. Varied: ${varyText}.`,
    facts: [
      ['rule', `${rule.id} — ${rule.title}`],
      ['rule text', rule.source],
      ['method', method],
      ['points', `${sweep.points.length}${sweep.skipped.length > 0 ? ` (${sweep.skipped.length} skipped)` : ''}`],
      ...(sweep.partial
        ? [['PARTIAL', 'interrupted: only the combinations finished are shown'] as [string, string]]
        : []),
    ],
    params,
    readings: readingRows(
      rule,
      // A point's params hold only the varied parameters; the readings need every one.
      sweep.points.map((point) => ({
        label: sweep.vary.map((vary) => `${vary.name}=${valueAt(point, vary)}`).join(' '),
        params: keyedRecord([...Object.entries(sweep.params), ...Object.entries(point.params)]),
      })),
    ),
    printHeader:
      `muster sweep · ${rule.id} · ` +
      `${sweep.vary.map((v) => `${v.name}=${v.values.map(String).join('|')}`).join(' ')} · ` +
      `${sweep.method === 'exact' ? 'exact' : `seed ${sweep.seed} · ${formatCount(sweep.trials)} trials a point`}`,
    sections: [
      ...charts.map((chart) => ({ kind: 'chart' as const, chart })),
      { kind: 'html', html: htmlSection('points', 'Every point', sweepTable(sweep, metrics), notes.join(' ')) },
    ],
  });
  return { html, charts };
}

/** Every metric at every point, one row each (long format, for spreadsheets and R). */
export function sweepCsv(sweep: SweepResult, metrics: readonly MetricSpec[]): string {
  const partial = partialColumn(sweep.partial);
  // The varied parameters, then those resolved per point (a default that depends on a varied one).
  const names = [...sweep.vary.map((vary) => vary.name), ...(sweep.perPoint ?? [])];
  let text = csvLine([...names, 'metric', 'kind', 'estimate', 'lo', 'hi', 'exact', ...partial.header]);
  for (const point of sweep.points) {
    for (const metric of metrics) {
      const value = own(point.metrics, metric.name);
      if (!value) continue;
      text += csvLine([
        ...names.map((name) => own(point.params, name) as ParamValue),
        metric.name,
        // As the run's CSV names a distribution metric's row (its mean, reports/csv.ts).
        metric.distribution ? 'distribution' : metric.probability ? 'probability' : 'mean',
        value.estimate,
        value.lo,
        value.hi,
        value.exact,
        ...partial.cells,
      ]);
    }
  }
  return text;
}
