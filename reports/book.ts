/**
 * The report book (`muster book`, `npm start`): every rule at its defaults
 * and the printable odds charts players ask for, one page per rule and a
 * contents page, all self-contained HTML.
 *
 *   for each rule: simulate the defaults on the shared pool
 *                  ─► its run charts + metrics table
 *                  ─► its printable charts (exact where the rule allows)
 *   contents page ─► links to every page and chart
 */
import { join } from 'node:path';
import { formatCount } from '../src/output/format.js';
import { SimulationPool } from '../src/engine/pool.js';
import { resolveParams } from '../src/rules/params.js';
import type { Params, Rule } from '../src/rules/types.js';
import type { Chart, PrintableContext } from './charts/chart.js';
import { hasRuleCharts, printableCharts, runCharts } from './charts/index.js';
import { escapeHtml } from './escape.js';
import { evaluateAll, evaluateUntilInterrupted, type GridSettings } from './evaluate.js';
import type { OutputFile } from './outputs.js';
import { renderPage, type Section } from './page.js';
import { methodLine, runPageInput } from './run-report.js';
import { confidenceLabel } from './tables.js';

export interface BookSettings {
  outDir: string;
  seed: string;
  confidence: number;
  threads: number;
  /** Trials for each rule's run at its defaults. */
  trials: number;
  /** Trials per point of a printable chart that has to be simulated (rules without an exact solution). */
  printableTrials: number;
  /** Told what is being worked on. */
  onProgress?: (message: string) => void;
  /** Ctrl-C: the book stops after the pages already finished. */
  signal?: AbortSignal;
  /** Watchdog in seconds (--timeout). */
  timeout?: number;
  /** The calculator page (`muster app`), written as app.html and linked from every page. */
  appHtml?: string;
}

export interface BookPage {
  rule: Rule;
  file: string;
  charts: Chart[];
  printable: Chart[];
}

export interface Book {
  files: OutputFile[];
  pages: BookPage[];
  index: string;
  /** True when an interruption stopped the book: only the pages listed finished. */
  partial: boolean;
}

const pageFile = (rule: Rule) => `${rule.id}.html`;
const APP_FILE = 'app.html';

/** Builds every page in memory; the caller writes the files. */
export async function buildBook(rules: readonly Rule[], settings: BookSettings): Promise<Book> {
  const pool = new SimulationPool(settings.threads);
  const pages: BookPage[] = [];
  const files: OutputFile[] = [];
  const nav = (current: string | null) => [
    { href: 'index.html', label: 'Contents', current: current === null },
    ...(settings.appHtml === undefined ? [] : [{ href: APP_FILE, label: 'Calculator' }]),
    ...rules.map((rule) => ({ href: pageFile(rule), label: rule.title, current: current === rule.id })),
  ];
  let partial = false;
  const { signal } = settings;
  try {
    for (const [position, rule] of rules.entries()) {
      if (signal?.aborted) {
        partial = true;
        break;
      }
      const step = `[${position + 1}/${rules.length}] ${rule.id}`;
      const defaults = resolveParams(rule);
      const simulation: GridSettings = { method: 'simulation', seed: settings.seed, confidence: settings.confidence, trials: settings.trials, threads: settings.threads, timeout: settings.timeout };
      settings.onProgress?.(`${step}: simulating ${formatCount(settings.trials)} trials at the defaults`);
      const stopped = await evaluateUntilInterrupted(rule, [defaults], simulation, { pool, signal });
      if (stopped.interrupted) {
        partial = true;
        break;
      }
      const [{ result }] = stopped.evaluated;
      const charts = runCharts({ rule, result, metrics: rule.metrics(defaults) });

      const printableSettings: GridSettings = rule.exact ? { ...simulation, method: 'exact' } : { ...simulation, trials: settings.printableTrials };
      const context: PrintableContext = {
        rule,
        defaults,
        evaluate: (paramsList: readonly Params[]) => {
          settings.onProgress?.(`${step}: printable charts, ${paramsList.length} parameter sets${rule.exact ? ' (exact)' : `, ${formatCount(settings.printableTrials)} trials each`}`);
          return evaluateAll(rule, paramsList, printableSettings, { pool, signal });
        },
      };
      let printable: Chart[];
      try {
        printable = await printableCharts(context);
      } catch (error) {
        if (!signal?.aborted) throw error;
        partial = true;
        break;
      }

      const input = runPageInput(rule, result, charts);
      const sections: Section[] = [];
      if (printable.length > 0) {
        sections.push({
          kind: 'html',
          html: `<h2 class="part">Printable odds charts</h2><p class="note">${escapeHtml(rule.exact ? 'Computed exactly from the rule’s exact solution; other parameters at their defaults (above).' : `Simulated, ${formatCount(settings.printableTrials)} trials per point, seed ${JSON.stringify(settings.seed)}; other parameters at their defaults (above).`)}</p>`,
        });
        sections.push(...printable.map((chart) => ({ kind: 'chart' as const, chart })));
      }
      sections.push({ kind: 'html', html: `<h2 class="part">At the defaults</h2><p class="note">${escapeHtml(methodLine(result))}.${hasRuleCharts(rule.id) ? '' : ' (This rule has no charts of its own yet: the generic charts follow.)'}</p>` });
      sections.push(...input.sections);
      const html = renderPage({ ...input, kicker: 'muster · report book', sections, nav: nav(rule.id) });
      files.push({ path: join(settings.outDir, pageFile(rule)), contents: html });
      pages.push({ rule, file: pageFile(rule), charts, printable });
    }
  } finally {
    await pool.close();
  }

  const index = renderIndex(pages, settings, nav(null), partial);
  files.unshift({ path: join(settings.outDir, 'index.html'), contents: index });
  if (settings.appHtml !== undefined) files.push({ path: join(settings.outDir, APP_FILE), contents: settings.appHtml });
  return { files, pages, index: join(settings.outDir, 'index.html'), partial };
}

function renderIndex(pages: readonly BookPage[], settings: BookSettings, nav: Parameters<typeof renderPage>[0]['nav'], partial: boolean): string {
  const chartLinks = (page: BookPage, charts: readonly Chart[]) =>
    charts.map((chart) => `<a href="${escapeHtml(`${page.file}#${chart.id}`)}">${escapeHtml(chart.title)}</a>`).join(' · ');
  const items = pages.map(
    (page) =>
      `<li><a href="${escapeHtml(page.file)}"><strong>${escapeHtml(page.rule.title)}</strong></a> <span class="name">(${escapeHtml(page.rule.id)})</span><br>${escapeHtml(page.rule.summary)}` +
      `<br><span class="charts">${page.printable.length > 0 ? `Printable: ${chartLinks(page, page.printable)}<br>` : ''}At the defaults: ${chartLinks(page, page.charts)}</span></li>`,
  );
  const calculator = settings.appHtml === undefined
    ? ''
    : `<p><a href="${APP_FILE}"><strong>The calculator</strong></a>: every rule in one page that works offline — change a number, read the new odds, exactly, as you type. Open it on a phone at the table, or mail it to your club.</p>`;
  return renderPage({
    title: 'muster report book',
    kicker: 'muster · report book',
    summary: 'The odds of every pre-game procedure muster knows, at its default parameters, and the printable odds charts: each page prints on A4 or Letter with its parameters at the top of every sheet.',
    facts: [
      ['rules', String(pages.length)],
      ['runs at the defaults', `${formatCount(settings.trials)} trials each, seed ${JSON.stringify(settings.seed)}, ${confidenceLabel(settings.confidence)} intervals`],
      ['printable charts', `exact where the rule has an exact solution, else ${formatCount(settings.printableTrials)} trials per point`],
      ...(partial ? [['PARTIAL', 'interrupted: only the pages listed were finished'] as [string, string]] : []),
    ],
    params: [],
    printHeader: 'muster report book',
    sections: [{ kind: 'html', html: `<section id="contents"><h2>Contents</h2>${calculator}<ul class="book">${items.join('')}</ul></section>` }],
    nav,
  });
}
