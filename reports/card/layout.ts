/**
 * One-page odds cards (`muster card`): the sheet a player takes to a
 * tournament or a designer puts in a rules review — the rule's headline
 * chart or table sized to the paper, a title in players' words, and one
 * footer line with the parameters, readings and method behind it.
 *
 *   planCard(rule, params, options)            ─► the parameter sets to compute
 *   (the CLI: exactly, or simulated where a rule has no exact solution;
 *    the calculator page: exactly, in the browser)
 *   layoutCard(rule, params, options, results) ─► Card: title, blocks, footer
 *   renderCardSheet(card) + cardStyle(paper)   ─► the sheet's HTML and CSS
 *
 * No node: imports here or below, so the calculator page can bundle it.
 */

import type { Params, Rule } from '../../src/contract/types.js';
import { UsageError } from '../../src/errors.js';
import { own } from '../../src/keyed.js';
import { formatCount } from '../../src/output/format.js';
import type { RunResult } from '../../src/result.js';
import { presentationOf, registry } from '../../src/rules/index.js';
import { resolveParams } from '../../src/rules/params.js';
import { ruleWord, shellWord } from '../../src/text/suggest.js';
import type { Chart } from '../charts/chart.js';
import { escapeHtml } from '../escape.js';
import { percent } from '../numbers.js';
import { type CardBlock, type CardDesign, type CardOptions, declaredDesign } from '../present/cards.js';
import { genericDesign } from '../present/generic-card.js';
import { distributionBlocks } from './distribution-panel.js';

export type Paper = 'a4' | 'letter';
export const PAPERS: readonly Paper[] = ['a4', 'letter'];

export type { CardBlock, CardOptions } from '../present/cards.js';

export interface Card {
  rule: string;
  /** A short title in players' words. */
  title: string;
  /** One sentence: what the chart answers. */
  subtitle: string;
  blocks: CardBlock[];
  /** The one footer line: parameters, readings, method, source. */
  footer: string;
}

/**
 * Usable sheet in CSS pixels: the narrower of A4 and Letter (Letter is 6 mm wider, A4 18 mm taller) less 10 mm margins.
 */
export const SHEET = { width: 700, height: 960 } as const;
/** The built-ins whose cards take --against, for the refusal's "allowed". */
const againstCards = () =>
  registry
    .filter(({ presentation }) => presentation.card?.kind === 'matrix' && presentation.card.against)
    .map(({ rule }) => rule.id)
    .join(' or ');

/** A rule's card design: what its presentation declares, else the generic card. */
function design(rule: Rule): CardDesign {
  const presentation = presentationOf(rule);
  return presentation.card ? declaredDesign(presentation.card, presentation.charts ?? []) : genericDesign(rule);
}

/**
 * The parameter sets a card needs, in the order layoutCard expects their
 * results; checks --range and --against first (a UsageError naming them).
 */
export function planCard(rule: Rule, params: Params, options: CardOptions = {}): Params[] {
  const chosen = design(rule);
  if (options.range !== undefined && !chosen.accepts.range)
    throw new UsageError(
      `--range: the ${rule.id} card has no table axis to set; allowed: leave out --range (set parameters with --set)`,
    );
  if (options.against !== undefined && !chosen.accepts.against)
    throw new UsageError(
      `--against: the ${rule.id} card has no opponent strategy to fix; allowed: --against with the ` +
        `${againstCards()} card only`,
    );
  return chosen.plan(rule, params, options);
}

/** The card, from the results of planCard's parameter sets (exact or simulated). */
export function layoutCard(rule: Rule, params: Params, options: CardOptions, results: readonly RunResult[]): Card {
  const { varied = [], ...card } = design(rule).layout(rule, params, options, results);
  return {
    ...card,
    blocks: [...card.blocks, ...distributionBlocks(rule, results)],
    rule: rule.id,
    footer: footerLine(rule, params, varied, results, options),
  };
}

/** The rule text cited by game, edition and section, without the file name it is kept under. */
function citation(rule: Rule): string {
  return rule.source.replace(/^\d{3}_[0-9a-f]+\.txt\s*/, '').replace(/^\((.*)\)$/, '$1') || rule.source;
}

/** "exact values" or "estimates with 95% intervals: 100,000 trials a point, seed "muster" (stream 3)". */
export function methodText(results: readonly RunResult[]): string {
  if (results.every((result) => result.method === 'exact')) return 'exact values (rational arithmetic, no simulation)';
  const first = results.find((result) => result.method === 'simulation') as RunResult;
  return (
    `estimates with ${percent(first.confidence, 0)} intervals: ${formatCount(first.trials)} ` +
    `trials${results.length > 1 ? ' a point' : ''}, seed ${JSON.stringify(first.seed)} (stream ${first.stream})`
  );
}

function footerLine(
  rule: Rule,
  params: Params,
  varied: readonly string[],
  results: readonly RunResult[],
  options: CardOptions,
): string {
  const fixed = rule.params
    .filter((spec) => !varied.includes(spec.name))
    .map((spec) => `${spec.name}=${String(own(params, spec.name))}`);
  const readings = (rule.presentation?.readings?.(params) ?? []).map((reading) => `${reading.param}: ${reading.text}`);
  const parts = [
    `${rule.title} — ${citation(rule)}`,
    fixed.length > 0 ? `parameters ${fixed.join(' ')}` : '',
    options.against !== undefined ? `against ${options.against}` : '',
    readings.length > 0 ? `readings: ${readings.join('; ')}` : '',
    methodText(results),
    commandLine(rule, params, varied, options),
  ];
  return parts.filter((part) => part !== '').join(' · ');
}

/** The command that makes this card again: only what differs from the defaults. */
function commandLine(rule: Rule, params: Params, varied: readonly string[], options: CardOptions): string {
  // Quoted as a shell reads them back, so the line can be pasted.
  const quote = shellWord;
  let defaults: Params = {};
  try {
    defaults = resolveParams(rule);
  } catch {
    // a rule whose defaults do not validate on their own: list every parameter
  }
  const sets = rule.params
    .filter((spec) => !varied.includes(spec.name) && own(params, spec.name) !== own(defaults, spec.name))
    .map((spec) => `--set ${quote(`${spec.name}=${String(own(params, spec.name))}`)}`);
  const extra = [
    options.range === undefined ? '' : `--range ${quote(options.range)}`,
    options.against === undefined ? '' : `--against ${quote(options.against)}`,
  ];
  return ['muster card', ruleWord(rule), ...sets, ...extra].filter((part) => part !== '').join(' ');
}

/**
 * The card's sheet: title, blocks (charts as .vis placeholders for vega-embed, in card.blocks order), footer. Every
 * text escaped.
 */
export function renderCardSheet(card: Card): string {
  const blocks = card.blocks.map((block) =>
    block.kind === 'chart'
      ? `<section class="block chart" ` +
        `id="${escapeHtml(block.chart.id)}"><h2>${escapeHtml(block.chart.title)}</h2><div class="vis" ` +
        `data-chart="${escapeHtml(block.chart.id)}" role="img" ` +
        `aria-label="${escapeHtml(block.chart.title)}"></div>${
          block.chart.caption ? `<p ` + `class="caption">${escapeHtml(block.chart.caption)}</p>` : ''
        }</section>`
      : `<section class="block table" ` +
        `id="${escapeHtml(block.id)}"><h2>${escapeHtml(block.title)}</h2>${block.html}${
          block.caption ? `<p ` + `class="caption">${escapeHtml(block.caption)}</p>` : ''
        }</section>`,
  );
  return (
    `<article class="card" data-rule="${escapeHtml(card.rule)}"><header><h1>${escapeHtml(card.title)}</h1><p ` +
    `class="subtitle">${escapeHtml(card.subtitle)}</p></header>${blocks.join('')}<footer ` +
    `class="card-footer">${escapeHtml(card.footer)}</footer></article>`
  );
}

/** The charts of a card, in the order their placeholders appear. */
export function cardCharts(card: Card): Chart[] {
  return card.blocks.flatMap((block) => (block.kind === 'chart' ? [block.chart] : []));
}

/**
 * The rules for the sheet itself (.card and below), shared by the card's own page and the calculator's printed card.
 */
export function cardSheetStyle(): string {
  return (
    `
.card { width: ${SHEET.width}px; margin: 16px auto; background: white; padding: 14px 16px; display: flex; ` +
    `flex-direction: column; gap: 8px; }
.card header h1 { margin: 0; font-size: 21px; line-height: 1.2; }
.card .subtitle { margin: 3px 0 0; color: #3d4652; font-size: 12.5px; }
.card h2 { margin: 0 0 2px; font-size: 14px; }
.card .block { break-inside: avoid; }
.card .vis { overflow: hidden; }
.card .vis svg { max-width: 100%; height: auto; display: block; }
.card .caption { margin: 2px 0 0; color: #4b5461; font-size: 11px; }
.card table { border-collapse: collapse; width: 100%; font-size: 11px; table-layout: auto; }
.card th, .card td { padding: 2px 6px; border-bottom: 1px solid #d9dde3; text-align: left; vertical-align: top; }
.card th { background: #f3f6fa; font-weight: 600; }
.card .num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.card-footer { margin-top: 4px; padding-top: 5px; border-top: 1px solid #d9dde3; color: #4b5461; font-size: 9px; ` +
    `line-height: 1.3; overflow-wrap: anywhere; }
`
  );
}

/** The card's CSS: one sheet of the paper chosen, on screen as on paper. */
export function cardStyle(paper: Paper): string {
  const size = paper === 'letter' ? 'letter' : 'A4';
  return `
@page { size: ${size} portrait; margin: 10mm; }
:root { color-scheme: light; }
* { box-sizing: border-box; }
html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
body { margin: 0; background: #eef1f5; color: #1d232b; font: 13px/1.35 Helvetica, Arial, sans-serif; }
${cardSheetStyle()}.chart-error { color: #8a1c1c; }
.card { zoom: var(--fit-zoom, 1); }
/* A phone shows the card a column wide: chart text stays legible (./legible.ts), charts are drawn for the column
   (./page.ts) and tables wrap, so nothing scrolls sideways; a block scrolls inside itself only on a screen narrower
   than a phone's. */
@media screen and (max-width: ${SHEET.width + 31}px) {
  html:not(.sheet-measure) .card { width: auto; margin: 0; zoom: 1; }
  html:not(.sheet-measure) .card .block { overflow-x: auto; }
  html:not(.sheet-measure) .card .vis { overflow: visible; }
  html:not(.sheet-measure) .card .vis svg { width: var(--legible-width, auto); max-width: none; }
  html:not(.sheet-measure) .card-footer { font-size: 11px; }
  /* A table wraps in its cells rather than run past the column: long names break anywhere, figures at their spaces. */
  html:not(.sheet-measure) .card th, html:not(.sheet-measure) .card td { padding: 2px 4px; overflow-wrap: anywhere; }
  html:not(.sheet-measure) .card .num { white-space: normal; }
}
@media print {
  body { background: white; }
  .card { margin: 0; padding: 0; }
}
`;
}
