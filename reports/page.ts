/**
 * The HTML shell of every report: one self-contained file with vega,
 * vega-lite and vega-embed inlined (it opens with the network off), a header
 * that says exactly what was computed, the charts, the tables, and print CSS
 * for A4 and Letter. A Content-Security-Policy allows only the page's own
 * scripts (by hash) and no network at all, so even text that slipped past
 * escaping could neither run nor call out.
 *
 *   page input ─► header + sections (escaped HTML) ─► chart specs as JSON
 *   (no `<` left) ─► <script> calls vegaEmbed on each .vis element (SVG)
 */

import type { Chart } from './charts/chart.js';
import { cssString, escapeHtml, jsonForScript } from './escape.js';
import { contentPolicy, type PolicyOptions } from './policy.js';
import type { ReadingRow } from './readings.js';
import { vendorScripts } from './vendor.js';

/** A block of the page body. `html` must already be escaped (build it with the helpers of ./escape.ts). */
export type Section = ({ kind: 'chart'; chart: Chart } | { kind: 'html'; html: string }) & {
  /** Developer diagnostics (simulation against exact, every metric): on screen, printed only with printDiagnostics. */
  diagnostic?: boolean;
  /** Shown only on screen (a chart with a control, such as a distribution's view) or only in print (its panels). */
  media?: 'screen' | 'print';
};

export interface ParamRow {
  name: string;
  value: string;
  doc: string;
  /** Highlight: varied in a sweep, or different between variants. */
  varied?: boolean;
}

export interface PageInput {
  /** The <title> and the big heading. */
  title: string;
  /** Small line above the heading, e.g. "muster · run report". */
  kicker: string;
  /** A sentence under the heading. */
  summary?: string;
  /** Label/value pairs shown under the heading: rule, source, seed, trials … */
  facts: Array<[string, string]>;
  /** Every parameter of the run. */
  params: ParamRow[];
  /**
   * The readings taken where the rule text is silent or ambiguous (reports/readings.ts), shown under the parameters and
   * printed.
   */
  readings?: ReadingRow[];
  sections: Section[];
  /** The line repeated at the top of every printed page (parameters, seed, trials). */
  printHeader: string;
  /** Links shown above the heading (the book's table of contents). */
  nav?: Array<{ href: string; label: string; current?: boolean }>;
  /** Print the diagnostic sections too (`--print-diagnostics`); by default they show on screen only. */
  printDiagnostics?: boolean;
  /** Every figure is exact: the footer then says nothing of intervals. */
  exactOnly?: boolean;
}

const STYLE =
  `
:root { color-scheme: light; --ink: #1d232b; --muted: #5b6470; --rule: #d9dde3; --accent: #1f4e79; --band: #f3f6fa; }
* { box-sizing: border-box; }
html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
body { margin: 0; background: #eef1f5; color: var(--ink); font: 15px/1.45 Helvetica, Arial, sans-serif; }
.sheet { max-width: 920px; margin: 24px auto; background: white; padding: 28px 40px 36px; box-shadow: 0 1px 4px ` +
  `rgba(0,0,0,.12); border-radius: 4px; }
nav.toc { display: flex; flex-wrap: wrap; gap: 4px 16px; font-size: 13px; margin: 0 0 18px; padding: 0 0 10px; ` +
  `border-bottom: 1px solid var(--rule); }
nav.toc a { color: var(--accent); text-decoration: none; white-space: nowrap; }
nav.toc a[aria-current] { color: var(--ink); font-weight: 600; }
.kicker { margin: 0; color: var(--muted); font-size: 12px; letter-spacing: .06em; text-transform: uppercase; }
h1 { margin: 2px 0 6px; font-size: 26px; line-height: 1.2; }
.summary { margin: 0 0 14px; color: var(--muted); }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 0 0 14px; font-size: 13px; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; word-break: break-word; }
table { border-collapse: collapse; width: 100%; font-size: 12.5px; }
th, td { padding: 4px 8px; border-bottom: 1px solid var(--rule); vertical-align: top; text-align: left; }
th { font-weight: 600; background: var(--band); }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.name { font-family: Menlo, Consolas, monospace; font-size: 12px; white-space: nowrap; }
td.doc { color: var(--muted); }
tr.varied td { background: #fff7e0; }
.fraction { display: block; color: var(--muted); font-size: 11px; }
table.params { margin-bottom: 6px; }
section { margin: 26px 0 0; }
h2 { font-size: 17px; margin: 0 0 4px; }
h3 { font-size: 14px; margin: 14px 0 4px; }
h2.part { font-size: 20px; margin: 34px 0 2px; padding-top: 10px; border-top: 2px solid var(--accent); color: ` +
  `var(--accent); }
span.name { font-family: Menlo, Consolas, monospace; font-size: 12px; color: var(--muted); }
.caption { margin: 6px 0 0; color: var(--muted); font-size: 13px; max-width: 760px; }
.vis { margin-top: 8px; min-height: 40px; overflow-x: auto; }
.vis svg { max-width: 100%; height: auto; }
.note { font-size: 13px; color: var(--muted); }
.significant { font-weight: 600; }
.yes { color: #8a1c1c; font-weight: 600; }
.chart-error { color: #8a1c1c; }
.print-only { display: none; }
.vega-bindings { margin-top: 4px; font-size: 13px; }
.vega-bindings label { margin-right: 10px; white-space: nowrap; }
ul.book { padding-left: 20px; }
ul.book li { margin: 8px 0; }
ul.book .charts { color: var(--muted); font-size: 13px; }
section.readings { margin: 4px 0 0; }
section.readings h2 { font-size: 14px; margin: 0 0 2px; }
section.readings p.note { margin: 0 0 3px; }
ul.readings { margin: 0; padding-left: 18px; font-size: 12.5px; }
ul.readings li { margin: 1px 0; }
footer { margin-top: 28px; color: var(--muted); font-size: 12px; border-top: 1px solid var(--rule); padding-top: 8px; }
@media screen and (max-width: 400px) {
  .sheet { margin: 0; padding: 16px 18px 24px; border-radius: 0; box-shadow: none; }
}
@media print {
  body { background: white; font-size: 10.5pt; }
  .sheet { max-width: none; margin: 0; padding: 0; box-shadow: none; border-radius: 0; }
  nav.toc { display: none; }
  section.chart, figure, tr, .keep { break-inside: avoid; page-break-inside: avoid; }
  h2, h3, h2.part + .note { break-after: avoid; page-break-after: avoid; }
  h1 { font-size: 19pt; }
  table { font-size: 8.5pt; }
  th, td { padding: 2px 6px; }
  dl.facts { font-size: 9pt; }
  section { margin-top: 16px; }
  h2.part { margin-top: 18px; }
  thead { display: table-header-group; }
  .vis { overflow: visible; }
  .print-only { display: block; }
  .screen-only, .vega-bindings { display: none; }
  a { color: inherit; text-decoration: none; }
}
`;

/** The @page rules: margins that fit both A4 and Letter, and the run's parameters at the top of every sheet. */
function pageStyle(printHeader: string): string {
  const header = printHeader.length > 170 ? `${printHeader.slice(0, 167)}…` : printHeader;
  return (
    `
@page {
  size: auto;
  margin: 16mm 13mm 15mm 13mm;
  @top-left { content: ${cssString(header)}; font: 7.5pt Helvetica, Arial, sans-serif; color: #5b6470; ` +
    `vertical-align: bottom; padding-bottom: 3mm; }
  @bottom-right { content: "page " counter(page) " of " counter(pages); font: 7.5pt Helvetica, Arial, sans-serif; ` +
    `color: #5b6470; }
}`
  );
}

/**
 * Draws every chart with vega-embed as SVG; `window.musterCharts` settles when all are drawn (tests wait on it). A
 * chart with a `narrow` layout (a card's, for a phone) is drawn in that one where its media query matches.
 */
export const BOOT_SCRIPT = `(function () {
  var charts = JSON.parse(document.getElementById('muster-charts').textContent);
  if (charts.length === 0) { window.musterCharts = Promise.resolve([]); return; }
  var targets = document.querySelectorAll('.vis[data-chart]');
  window.musterCharts = Promise.all(charts.map(function (chart, index) {
    var target = targets[index];
    var narrow = chart.narrow && window.matchMedia(chart.narrow.media).matches;
    var spec = narrow ? chart.narrow.spec : chart.spec;
    return vegaEmbed(target, spec, { renderer: 'svg', actions: false }).then(function (result) {
      return result.view;
    }).catch(function (error) {
      target.textContent = 'This chart could not be drawn: ' + error.message;
      target.className += ' chart-error';
      console.error(error);
      throw error;
    });
  }));
})();`;

function renderNav(nav: NonNullable<PageInput['nav']>): string {
  const links = nav.map(
    (link) =>
      `<a href="${escapeHtml(link.href)}"${link.current ? ' aria-current="page"' : ''}>${escapeHtml(link.label)}</a>`,
  );
  return `<nav class="toc" aria-label="report book">${links.join('')}</nav>`;
}

function renderFacts(facts: PageInput['facts']): string {
  const entries = facts.map(([label, value]) => `<dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd>`);
  return `<dl class="facts">${entries.join('')}</dl>`;
}

function renderParams(params: ParamRow[]): string {
  if (params.length === 0) return '';
  const rows = params.map(
    (param) =>
      `<tr${param.varied ? ' class="varied"' : ''}><td class="name">${escapeHtml(param.name)}</td><td ` +
      `class="name">${escapeHtml(param.value)}</td><td class="doc">${escapeHtml(param.doc)}</td></tr>`,
  );
  const head = '<thead><tr><th>parameter</th><th>value</th><th>meaning</th></tr></thead>';
  return `<table class="params">${head}<tbody>${rows.join('')}</tbody></table>`;
}

/**
 * One compact block: each reading in force, the setting that selects it first, so a printed chart says which reading
 * produced it.
 */
function renderReadings(readings: readonly ReadingRow[] | undefined): string {
  if (!readings || readings.length === 0) return '';
  const items = readings.map(
    (row) =>
      `<li><span class="name">${escapeHtml(`${row.param}=${row.value}`)}</span> ` +
      `${escapeHtml(row.text)}${row.where ? ` <span class="note">(${escapeHtml(row.where)})</span>` : ''}</li>`,
  );
  return (
    `<section class="readings keep" id="readings"><h2>Readings</h2><p class="note">Where the rule text is ` +
    `silent or ambiguous, these figures take the readings below; --set the parameter named to change one.</p><ul ` +
    `class="readings">${items.join('')}</ul></section>`
  );
}

function renderChartSection(chart: Chart, diagnostic = false, media?: 'screen' | 'print'): string {
  return (
    `<section class="chart${diagnostic ? ' diagnostic' : ''}${media ? ` ${media}-only` : ''}" ` +
    `id="${escapeHtml(chart.id)}"><h2>${escapeHtml(chart.title)}</h2><div class="vis" ` +
    `data-chart="${escapeHtml(chart.id)}" role="img" aria-label="${escapeHtml(chart.title)}"></div><p ` +
    `class="caption">${escapeHtml(chart.caption)}</p></section>`
  );
}

/**
 * A chart page's doctype and <head>: its Content-Security-Policy (the hashes
 * of vega's bundles and of `pageScripts`, the page's own inline scripts,
 * which follow in its body), title, style, and vega inline. A page without
 * charts (the book's contents) carries no vega.
 */
export function chartPageHead(
  title: string,
  style: string,
  hasCharts: boolean,
  pageScripts: readonly string[],
  policyOptions: PolicyOptions = {},
): string {
  const vendor = hasCharts ? vendorScripts() : [];
  const policy = contentPolicy([...vendor.map((bundle) => bundle.code), ...pageScripts], policyOptions);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(policy)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="muster">
<title>${escapeHtml(title)}</title>
<style>${style}</style>
${vendor.map((bundle) => `<!-- ${escapeHtml(bundle.name)} --><script>${bundle.code}</script>`).join('\n')}
</head>`;
}

/** The whole page as one string. */
export function renderPage(input: PageInput): string {
  const charts = input.sections.flatMap((section) => (section.kind === 'chart' ? [section.chart] : []));
  const body = input.sections
    .map((section) =>
      section.kind === 'chart'
        ? renderChartSection(section.chart, section.diagnostic, section.media)
        : section.diagnostic
          ? `<div class="diagnostic">${section.html}</div>`
          : section.html,
    )
    .join('\n');
  const hideDiagnostics = input.printDiagnostics ? '' : '\n@media print { .diagnostic { display: none; } }';
  const chartData = jsonForScript(charts.map((chart) => ({ id: chart.id, spec: chart.spec })));
  const style = `${STYLE}${pageStyle(input.printHeader)}${hideDiagnostics}`;
  return `${chartPageHead(input.title, style, charts.length > 0, [BOOT_SCRIPT])}
<body>
<div class="sheet">
${input.nav ? renderNav(input.nav) : ''}
<header>
<p class="kicker">${escapeHtml(input.kicker)}</p>
<h1>${escapeHtml(input.title)}</h1>
${input.summary ? `<p class="summary">${escapeHtml(input.summary)}</p>` : ''}
${renderFacts(input.facts)}
${renderParams(input.params)}
${renderReadings(input.readings)}
</header>
<main>
${body}
</main>
<footer>${
    input.exactOnly
      ? 'Made by muster. Every value is exact, computed in rational arithmetic and rounded ' + 'only for display.'
      : 'Made by muster. Simulated values carry the intervals stated above; exact values are ' +
        'computed in rational arithmetic and rounded only for display.'
  }</footer>
</div>
<script type="application/json" id="muster-charts">${chartData}</script>
<script>${BOOT_SCRIPT}</script>
</body>
</html>
`;
}
