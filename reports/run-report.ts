/**
 * The report of one run (`muster run <rule> --html/--svg/--csv`): the rule's
 * charts, every metric in a table, and a header that says exactly what was
 * computed — enough to reproduce it.
 */

import { join } from 'node:path';
import type { Params, Rule } from '../src/contract/types.js';
import { own } from '../src/keyed.js';
import { formatCount, formatParams } from '../src/output/format.js';
import type { RunResult } from '../src/result.js';
import { lookUpExact } from '../src/rules/exact-of.js';
import type { Chart } from './charts/chart.js';
import { withTitle } from './charts/chart.js';
import { distributionCharts } from './charts/distribution.js';
import { runCharts } from './charts/index.js';
import { metricsCsv } from './csv.js';
import { escapeHtml } from './escape.js';
import type { OutputFile } from './outputs.js';
import { type PageInput, type ParamRow, renderPage } from './page.js';
import { readingLines, readingRows } from './readings.js';
import { confidenceLabel, htmlSection, metricsTable } from './tables.js';

/** Every parameter of the rule with its value and meaning. */
export function paramRows(rule: Rule, params: Params, varied: ReadonlySet<string> = new Set()): ParamRow[] {
  return rule.params.map((spec) => ({
    name: spec.name,
    value: String(own(params, spec.name)),
    doc: spec.doc,
    varied: varied.has(spec.name),
  }));
}

/** "simulated: 1,000,000 trials, seed "muster" (stream 3), 2 threads, 95% intervals" or "exact (no simulation)". */
export function methodLine(
  result: Pick<RunResult, 'method' | 'trials' | 'seed' | 'stream' | 'threads' | 'confidence'>,
): string {
  if (result.method === 'exact') return 'exact values, computed in rational arithmetic (no simulation)';
  return (
    `simulated: ${formatCount(result.trials)} trials, seed ${JSON.stringify(result.seed)} (stream ` +
    `${result.stream}), ${result.threads} thread${result.threads === 1 ? '' : 's'}, ` +
    `${confidenceLabel(result.confidence)} intervals`
  );
}

function runFacts(result: RunResult): Array<[string, string]> {
  const facts: Array<[string, string]> = [
    ['rule', `${result.rule} — ${result.title}`],
    ['rule text', result.source],
    ['method', methodLine(result)],
  ];
  if (result.precision) {
    facts.push([
      'precision',
      result.precision.reached
        ? `±${result.precision.target} reached`
        : `±${result.precision.target} NOT reached (stopped at --max-trials)`,
    ]);
  }
  if (result.partial) facts.push(['PARTIAL', 'interrupted: only the chunks that finished are counted']);
  return facts;
}

/** The line at the top of every printed page. */
function runPrintHeader(result: RunResult): string {
  const how =
    result.method === 'exact'
      ? 'exact'
      : `seed ${result.seed} · ${formatCount(result.trials)} trials · ${confidenceLabel(result.confidence)}`;
  return `muster · ${result.rule} · ${formatParams(result.params)} · ${how}`;
}

interface RunPage {
  html: string;
  charts: Chart[];
}

/** The simulation-against-exact check is for developers: it goes with the diagnostics, after the answer. */
const isDiagnostic = (chart: Chart) => chart.id.endsWith('-exact-check');

/**
 * The page input of a run, so the report book can add its navigation: the
 * answer (the rule's charts) first, then the diagnostics — the check against
 * the exact values and every metric — which print only when asked.
 */
export function runPageInput(
  rule: Rule,
  result: RunResult,
  charts: Chart[],
  options: { printDiagnostics?: boolean } = {},
): PageInput {
  const metrics = rule.metrics(result.params);
  // As the result has them: a rule file's enumeration past its budget beside a simulation is no exact value.
  const fractions = lookUpExact(rule, result.params).values;
  const printed = options.printDiagnostics ? '' : ' Shown on screen; printed only with --print-diagnostics.';
  // A distribution reads one view at a time on screen (a radio under the chart) and all three on paper.
  const distributions = distributionCharts({ rule, result, metrics }).flatMap(({ screen, print }) => [
    { kind: 'chart' as const, chart: screen, media: 'screen' as const },
    { kind: 'chart' as const, chart: print, media: 'print' as const },
  ]);
  return {
    printDiagnostics: options.printDiagnostics ?? false,
    exactOnly: result.method === 'exact',
    title: result.title,
    kicker: 'muster · odds report',
    summary: rule.summary,
    facts: runFacts(result),
    params: paramRows(rule, result.params),
    readings: readingRows(rule, [{ params: result.params }]),
    printHeader: runPrintHeader(result),
    sections: [
      ...charts.filter((chart) => !isDiagnostic(chart)).map((chart) => ({ kind: 'chart' as const, chart })),
      ...distributions,
      {
        kind: 'html' as const,
        diagnostic: true,
        html:
          `<h2 class="part">Diagnostics</h2><p ` +
          `class="note">${escapeHtml(
            `Every metric the rule ` +
              `reports${
                result.method === 'simulation' && fractions
                  ? ', and the simulation checked against the exact ' + 'values'
                  : ''
              }.${printed}`,
          )}</p>`,
      },
      ...charts.filter(isDiagnostic).map((chart) => ({ kind: 'chart' as const, chart, diagnostic: true })),
      {
        kind: 'html' as const,
        diagnostic: true,
        html: htmlSection(
          'metrics',
          'Every metric',
          metricsTable(result, metrics, fractions),
          result.method === 'simulation' && fractions
            ? `Exact values come from ` +
                `${rule.exact?.by === 'enumeration' ? 'enumerating the rule’s dice' : 'the rule’s exact solution'}; ` +
                `fractions are ` +
                `shown where they are short.`
            : '',
        ),
      },
    ],
  };
}

/**
 * The HTML report of one run and the charts an --svg export saves: the rule's, then each distribution's three panels
 * (its on-screen chart chooses a view with a radio, which a file cannot).
 */
export function buildRunPage(rule: Rule, result: RunResult, options: { printDiagnostics?: boolean } = {}): RunPage {
  const view = { rule, result, metrics: rule.metrics(result.params) };
  const charts = runCharts(view);
  const panels = distributionCharts(view).map(({ print }) => ({ ...print, id: print.id.replace(/-print$/, '') }));
  return { html: renderPage(runPageInput(rule, result, charts, options)), charts: [...charts, ...panels] };
}

/** Where `muster run` writes its reports; paths already checked. */
export interface ReportPaths {
  html?: string;
  svgDir?: string;
  csv?: string;
  /** Print the diagnostics on the HTML page too. */
  printDiagnostics?: boolean;
}

/** Renders every requested report file in memory (nothing is written here). */
export async function runReportFiles(rule: Rule, result: RunResult, paths: ReportPaths): Promise<OutputFile[]> {
  const files: OutputFile[] = [];
  const page =
    paths.html || paths.svgDir ? buildRunPage(rule, result, { printDiagnostics: paths.printDiagnostics }) : null;
  if (paths.html && page) files.push({ path: paths.html, contents: page.html, option: '--html' });
  if (paths.svgDir && page) {
    // vega and vega-lite take longer to load than most commands take to run: only --svg draws in Node.
    const { renderSvg } = await import('./svg.js');
    // A chart saved alone has no page around it: its subtitle carries the readings too.
    const readings = readingLines(readingRows(rule, [{ params: result.params }]));
    // Nor a PARTIAL line: an interrupted run's chart says so in its subtitle.
    const note = `${readings.length > 0 ? ` Readings: ` + `${readings.join('; ')}.` : ''}${
      result.partial ? ' PARTIAL: ' + 'interrupted; only the chunks that finished are counted.' : ''
    }`;
    for (const chart of page.charts) {
      files.push({
        path: join(paths.svgDir, `${chart.id}.svg`),
        contents: await renderSvg(withTitle({ ...chart, caption: chart.caption + note })),
        option: '--svg',
      });
    }
  }
  if (paths.csv)
    files.push({ path: paths.csv, contents: metricsCsv(result, rule.metrics(result.params)), option: '--csv' });
  return files;
}
