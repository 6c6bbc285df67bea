import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { badValue, UsageError } from '../../errors.js';
import { SimulationPool } from '../../engine/pool.js';
import { getRule } from '../../rules/index.js';
import { resolveParams } from '../../rules/params.js';
import type { RunResult } from '../../result.js';
import type { Io } from '../io.js';
import { checkOutputFile } from '../options.js';
import { parseSimulationSettings, withInterrupt, type RunOptions } from './run.js';
import { evaluateAll } from '../../../reports/evaluate.js';
import { layoutCard, PAPERS, planCard, type Paper } from '../../../reports/card/layout.js';
import { renderCardPage } from '../../../reports/card/page.js';
import { checkChromium, printToPdf } from '../../../reports/card/pdf.js';

export interface CardCommandOptions extends Pick<RunOptions, 'set' | 'trials' | 'seed' | 'threads' | 'confidence' | 'quiet'> {
  range?: string;
  against?: string;
  out?: string;
  pdf?: string;
  paper?: string;
}

/** Trials per point when a rule has no exact solution: a card's figures to about ±0.3 percentage points. */
export const CARD_TRIALS = 100_000;

/**
 * `muster card <rule>`: the rule's one-page odds card as HTML (--out) and,
 * through Chromium, as PDF (--pdf). Exact wherever the rule has an exact
 * solution; simulated on the pool otherwise.
 */
export async function cardCommand(ruleId: string, options: CardCommandOptions, io: Io): Promise<{ html: string; pdf?: string }> {
  const rule = getRule(ruleId);
  if (options.out === undefined) throw new UsageError('--out: missing; allowed: the HTML file to write, such as --out card.html');
  const out = checkOutputFile('--out', options.out);
  const pdfPath = options.pdf === undefined ? undefined : checkOutputFile('--pdf', options.pdf);
  if (pdfPath !== undefined && pdfPath === out) throw badValue('--pdf', options.pdf as string, 'a file other than --out');
  const paperText = (options.paper ?? 'a4').toLowerCase();
  if (!(PAPERS as readonly string[]).includes(paperText)) throw badValue('--paper', options.paper as string, PAPERS.join(' or '));
  const paper = paperText as Paper;
  // Checked even where the rule is exact and they go unused: a typo should not pass silently.
  const settings = parseSimulationSettings({ ...options, trials: options.trials ?? String(CARD_TRIALS) });
  const chromium = pdfPath === undefined ? undefined : checkChromium();
  const params = resolveParams(rule, options.set ?? []);
  const cardOptions = { range: options.range, against: options.against };
  const plan = planCard(rule, params, cardOptions);

  let results: RunResult[];
  if (rule.exact) {
    results = (await evaluateAll(rule, plan, { method: 'exact', seed: '', confidence: 1, trials: 0, threads: 0 })).map((point) => point.result);
  } else {
    const pool = new SimulationPool(settings.threads);
    try {
      results = await withInterrupt(async (signal) =>
        (await evaluateAll(rule, plan, { method: 'simulation', seed: settings.seed, confidence: settings.confidence, trials: settings.trials, threads: settings.threads }, { pool, signal })).map((point) => point.result),
      );
    } finally {
      await pool.close();
    }
  }
  const html = renderCardPage(layoutCard(rule, params, cardOptions, results), paper);
  const pdf = pdfPath === undefined ? undefined : await printToPdf(html, chromium);

  // Both files appear whole, or neither does.
  const staged: Array<[string, string]> = [];
  try {
    for (const [path, contents] of [[out, html], ...(pdfPath && pdf ? [[pdfPath, pdf]] : [])] as Array<[string, string | Buffer]>) {
      const temporary = `${path}.${process.pid}.tmp`;
      staged.push([temporary, path]);
      writeFileSync(temporary, contents);
    }
    for (const [temporary, path] of staged) renameSync(temporary, path);
  } catch (error) {
    for (const [temporary] of staged) rmSync(temporary, { force: true });
    throw error;
  }
  if (!options.quiet) {
    io.err(`wrote ${out}\n`);
    if (pdfPath) io.err(`wrote ${pdfPath}\n`);
  }
  return { html: out, ...(pdfPath ? { pdf: pdfPath } : {}) };
}
