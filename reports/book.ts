/**
 * The report book (`muster book`, `npm start`): every rule at its defaults
 * and its one-page odds card, a page and a card per rule and a contents
 * page, all self-contained HTML.
 *
 *   for each rule computed (src/analysis/book.ts: the defaults, the card's points)
 *                  ─► its run charts, then the diagnostics (not printed)
 *                  ─► its card, card-<rule>.html (exact where the rule allows)
 *   contents page ─► links to every page, chart and card
 */
import { join } from 'node:path';
import type { BookRun } from '../src/analysis/book.js';
import type { Rule, StreamVersion } from '../src/contract/types.js';
import { formatCount } from '../src/output/format.js';
import { ruleWord } from '../src/text/suggest.js';
import { layoutCard } from './card/layout.js';
import { renderCardPage } from './card/page.js';
import type { Chart } from './charts/chart.js';
import { hasRuleCharts, runCharts } from './charts/index.js';
import { escapeHtml } from './escape.js';
import type { OutputFile } from './outputs.js';
import { renderPage, type Section } from './page.js';
import { methodLine, runPageInput } from './run-report.js';
import { confidenceLabel } from './tables.js';

interface BookSettings {
  outDir: string;
  seed: string;
  stream: StreamVersion;
  confidence: number;
  /** Trials for each rule's run at its defaults. */
  trials: number;
  /** Trials per point of a card that has to be simulated (rules without an exact solution). */
  printableTrials: number;
  /** The calculator page (`muster app`), written as app.html and linked from every page. */
  appHtml?: string;
}

interface BookPage {
  rule: Rule;
  file: string;
  charts: Chart[];
  /** The rule's one-page odds card, beside the page. */
  card: { file: string; title: string };
}

interface Book {
  files: OutputFile[];
  pages: BookPage[];
  index: string;
  /** True when an interruption stopped the book: only the pages listed finished. */
  partial: boolean;
}

const pageFile = (rule: Rule) => `${rule.id}.html`;
const cardFile = (rule: Rule) => `card-${rule.id}.html`;
const APP_FILE = 'app.html';

/**
 * Every page in memory from the rules computed (src/analysis/book.ts evaluateBook), in their order; `partial`
 * when an interruption stopped the book. The caller writes the files.
 */
export function renderBook(
  rules: readonly Rule[],
  runs: readonly BookRun[],
  partial: boolean,
  settings: BookSettings,
): Book {
  const pages: BookPage[] = [];
  const files: OutputFile[] = [];
  const nav = (current: string | null) => [
    { href: 'index.html', label: 'Contents', current: current === null },
    ...(settings.appHtml === undefined ? [] : [{ href: APP_FILE, label: 'Calculator' }]),
    ...rules.map((rule) => ({ href: pageFile(rule), label: rule.title, current: current === rule.id })),
  ];
  for (const { rule, defaults, result, card: cardResults } of runs) {
    const charts = runCharts({ rule, result, metrics: rule.metrics(defaults) });
    const card = layoutCard(rule, defaults, {}, cardResults);
    files.push({ path: join(settings.outDir, cardFile(rule)), contents: renderCardPage(card, 'a4') });

    const input = runPageInput(rule, result, charts);
    const sections: Section[] = [
      {
        kind: 'html',
        html:
          `<p class="note">One-page odds card to print: <a ` +
          `href="${escapeHtml(cardFile(rule))}">${escapeHtml(card.title)}</a> (<code>muster card ` +
          `${escapeHtml(ruleWord(rule))}</code> for other parameters, A4 or Letter, and PDF). Below, the rule at its ` +
          `defaults: ${escapeHtml(methodLine(result))}.${
            hasRuleCharts(rule) ? '' : ' (This rule has no charts of ' + 'its own yet: the generic charts follow.)'
          }</p>`,
      },
      ...input.sections,
    ];
    const html = renderPage({ ...input, kicker: 'muster · report book', sections, nav: nav(rule.id) });
    files.push({ path: join(settings.outDir, pageFile(rule)), contents: html });
    pages.push({ rule, file: pageFile(rule), charts, card: { file: cardFile(rule), title: card.title } });
  }

  const index = renderIndex(pages, settings, nav(null), partial);
  files.unshift({ path: join(settings.outDir, 'index.html'), contents: index });
  if (settings.appHtml !== undefined) files.push({ path: join(settings.outDir, APP_FILE), contents: settings.appHtml });
  return { files, pages, index: join(settings.outDir, 'index.html'), partial };
}

function renderIndex(
  pages: readonly BookPage[],
  settings: BookSettings,
  nav: Parameters<typeof renderPage>[0]['nav'],
  partial: boolean,
): string {
  const chartLinks = (page: BookPage, charts: readonly Chart[]) =>
    charts
      .map((chart) => `<a href="${escapeHtml(`${page.file}#${chart.id}`)}">${escapeHtml(chart.title)}</a>`)
      .join(' · ');
  const items = pages.map(
    (page) =>
      `<li><a href="${escapeHtml(page.file)}"><strong>${escapeHtml(page.rule.title)}</strong></a> <span ` +
      `class="name">(${escapeHtml(page.rule.id)})</span><br>${escapeHtml(page.rule.summary)}` +
      `<br><span class="charts">Card to print: <a ` +
      `href="${escapeHtml(page.card.file)}">${escapeHtml(page.card.title)}</a><br>At the defaults: ` +
      `${chartLinks(page, page.charts)}</span></li>`,
  );
  const calculator =
    settings.appHtml === undefined
      ? ''
      : `<p><a href="${APP_FILE}"><strong>The calculator</strong></a>: every rule in one page that works offline — ` +
        `change a number, read the new odds, exactly, as you type. Open it on a phone at the table, or mail it to ` +
        `your ` +
        `club.</p>`;
  return renderPage({
    title: 'muster report book',
    kicker: 'muster · report book',
    summary:
      'The odds of every pre-game procedure muster knows, at its default parameters, and a one-page odds card for ' +
      'each to print on A4 or Letter (muster card makes them for other parameters).',
    facts: [
      ['rules', String(pages.length)],
      [
        'runs at the defaults',
        `${formatCount(settings.trials)} trials each, seed ${JSON.stringify(settings.seed)}, stream ` +
          `${settings.stream}, ${confidenceLabel(settings.confidence)} intervals`,
      ],
      [
        'cards',
        `exact where the rule has an exact solution, else ${formatCount(settings.printableTrials)} trials per point`,
      ],
      ...(partial ? [['PARTIAL', 'interrupted: only the pages listed were finished'] as [string, string]] : []),
    ],
    params: [],
    printHeader: 'muster report book',
    sections: [
      {
        kind: 'html',
        html: `<section id="contents"><h2>Contents</h2>${calculator}<ul class="book">${items.join('')}</ul></section>`,
      },
    ],
    nav,
  });
}
