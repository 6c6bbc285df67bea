/**
 * Reports opened in a real browser: Debian's Chromium driven by
 * playwright-core. Every chart must draw as SVG with marks, the page must log
 * no error or warning, no request may leave the file system, hostile labels
 * must stay text, and printing must give pages on A4 and on Letter.
 * Without Chromium it fails under CI and skips, saying so, elsewhere (support/offline-page.ts).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { expect, it } from 'vitest';
import { buildRunPage } from '../../reports/run-report.js';
import { bookCommand } from '../../src/cli/commands/book.js';
import { compareCommand } from '../../src/cli/commands/compare.js';
import { matrixCommand } from '../../src/cli/commands/matrix.js';
import { runCommand } from '../../src/cli/commands/run.js';
import { sweepCommand } from '../../src/cli/commands/sweep.js';
import { writeOutputs } from '../../src/output/files.js';
import { rules } from '../../src/rules/index.js';
import { resolveParams } from '../../src/rules/params.js';
import { chromiumForSuite } from '../support/chromium-suite.js';
import { exactResult } from '../support/exact-result.js';
import { echoRule, HOSTILE } from '../support/hostile.js';
import { bufferIo } from '../support/io.js';
import { inspect } from '../support/layout.js';
import { countPdfPages, describeInChromium, offlinePage } from '../support/offline-page.js';

const folder = mkdtempSync(join(tmpdir(), 'muster-browser-'));
let browser: Browser;

interface Opened {
  problems: string[];
  requests: string[];
  marksPerChart: number[];
  pdfPages: { a4: number; letter: number };
  pwned: unknown;
  images: number;
  text: string;
  /** Chart text marks overprinting one another, or leaving the bar or cell they label. */
  layout: string[];
  /** Diagnostic sections displayed when the page is printed. */
  printedDiagnostics: number;
  diagnostics: number;
}

/** Opens a report, waits for every chart, and prints it on A4 and Letter. */
async function open(file: string): Promise<Opened> {
  const { page, problems, requests } = await offlinePage(browser);
  try {
    await page.goto(`file://${file}`);
    await page.evaluate(() => (window as unknown as { musterCharts: Promise<unknown> }).musterCharts.then(() => true));
    const marksPerChart = await page.evaluate(() =>
      [...document.querySelectorAll('.vis')].map((vis) => vis.querySelectorAll('svg .role-mark > *').length),
    );
    const pwned = await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned);
    const images = await page.evaluate(() => document.querySelectorAll('img').length);
    const text = await page.evaluate(() => document.body.textContent);
    const problemsFound = await page.evaluate(inspect);
    const layout = [...problemsFound.overlaps, ...problemsFound.escaped];
    const diagnostics = await page.evaluate(() => document.querySelectorAll('.diagnostic').length);
    await page.emulateMedia({ media: 'print' });
    const printedDiagnostics = await page.evaluate(
      () =>
        [...document.querySelectorAll('.diagnostic')].filter((node) => getComputedStyle(node).display !== 'none')
          .length,
    );
    await page.emulateMedia({ media: 'screen' });
    const a4 = countPdfPages(await page.pdf({ format: 'A4' }));
    const letter = countPdfPages(await page.pdf({ format: 'Letter' }));
    return {
      problems,
      requests,
      marksPerChart,
      pdfPages: { a4, letter },
      pwned,
      images,
      text,
      layout,
      printedDiagnostics,
      diagnostics,
    };
  } finally {
    await page.close();
  }
}

function expectHealthy(opened: Opened, charts: number): void {
  expect(opened.problems).toEqual([]);
  expect(opened.requests).toEqual([]);
  expect(opened.marksPerChart).toHaveLength(charts);
  for (const marks of opened.marksPerChart) expect(marks).toBeGreaterThan(0);
  expect(opened.pdfPages.a4).toBeGreaterThan(0);
  expect(opened.pdfPages.letter).toBeGreaterThan(0);
  expect(opened.layout).toEqual([]);
}

describeInChromium('reports in headless Chromium', () => {
  chromiumForSuite(folder, (launched) => {
    browser = launched;
  });

  it('seed "browser": a reserves run report draws every chart offline and prints', async () => {
    const file = join(folder, 'run.html');
    await runCommand(
      'reserves',
      { set: ['chosenRound=2', 'command=3'], trials: '200000', seed: 'browser', threads: '1', html: file, quiet: true },
      bufferIo(),
    );
    const opened = await open(file);
    // The rule's 3 charts, and its 5 distributions (squads in by each round, the last arrival's round) each drawn
    // for the screen and for print.
    expectHealthy(opened, 3 + 5 * 2);
    expect(opened.text).toContain('chosenRound');
    // The diagnostics (every metric, simulation against exact) come after the answer, on screen only.
    expect(opened.diagnostics).toBeGreaterThan(1);
    expect(opened.printedDiagnostics).toBe(0);
  });

  it('--print-diagnostics: the run report prints its diagnostics too', async () => {
    const file = join(folder, 'run-diagnostics.html');
    await runCommand(
      'reserves',
      { trials: '100000', seed: 'browser', threads: '1', html: file, printDiagnostics: true, quiet: true },
      bufferIo(),
    );
    const opened = await open(file);
    expectHealthy(opened, 3 + 5 * 2);
    expect(opened.printedDiagnostics).toBe(opened.diagnostics);
    expect(opened.diagnostics).toBeGreaterThan(1);
  });

  // The book is written once; its pages are opened one test each, so no one test holds them all (CI may be busy).
  const book = join(folder, 'book');
  let written: Promise<unknown> | undefined;
  const writeBook = () => {
    written ??= bookCommand({ out: book, trials: '100000', threads: '1', quiet: true }, bufferIo());
    return written;
  };

  it('the report book: the contents page', async () => {
    await writeBook();
    const contents = await open(join(book, 'index.html'));
    expectHealthy(contents, 0);
  });

  for (const rule of rules)
    it(`the report book: the page of ${rule.id}`, async () => {
      await writeBook();
      const opened = await open(join(book, `${rule.id}.html`));
      expect(opened.marksPerChart.length, rule.id).toBeGreaterThan(1);
      expectHealthy(opened, opened.marksPerChart.length);
      // (The cards beside the pages are checked in test/browser/card-browser.test.ts.)
    });

  it('the printable Infinity WIP × WIP matrix draws its heatmap with a value in every cell', async () => {
    const file = join(folder, 'matrix.html');
    await matrixCommand('infinity', { set: ['crits=true'], html: file, quiet: true }, bufferIo());
    const opened = await open(file);
    expectHealthy(opened, 1);
    expect(opened.text).toContain('71.1%'); // WIP 13 against 8: 71.1%, as the terminal table prints it
  });

  it('a two-parameter sweep draws its heatmaps', async () => {
    const file = join(folder, 'sweep.html');
    await sweepCommand(
      'reserves',
      {
        vary: ['chosenRound=0..4', 'command=2..4'],
        exact: true,
        html: file,
        quiet: true,
        metric: ['squad.round.1', 'all.by.4'],
      },
      bufferIo(),
    );
    expectHealthy(await open(file), 2);
  });

  it('hostile text in variant labels stays text: no element made, no script run', async () => {
    const file = join(folder, 'compare.html');
    await compareCommand(
      'infinity',
      {
        variant: [`${HOSTILE.replaceAll(':', '')}: wipA=12`, 'B: wipA=14'],
        trials: '100000',
        threads: '1',
        html: file,
        quiet: true,
      },
      bufferIo(),
    );
    const opened = await open(file);
    expectHealthy(opened, 2);
    expect(opened.pwned).toBeUndefined();
    expect(opened.images).toBe(0);
    expect(opened.text).toContain('</script><img src=x onerror="window.__pwned=1">');
  });

  it(
    'variant labels such as toString, constructor, __proto__, U+2028, quotes and backslashes: every chart draws, ' +
      'each label in its legend',
    async () => {
      const file = join(folder, 'labels.html');
      const labels = ['toString', 'constructor', '__proto__', 'a\u2028b', `q"u'o`, 'back\\slash'];
      await compareCommand(
        'reserves',
        { variant: labels.map((label, i) => `${label}: target=${i + 3}`), exact: true, html: file, quiet: true },
        bufferIo(),
      );
      const opened = await open(file);
      expectHealthy(opened, 2);
      for (const label of ['toString', 'constructor', '__proto__', `q"u'o`, 'back\\slash'])
        expect(opened.text).toContain(label);
    },
  );

  it('hostile text in a rule title, parameter and metric stays text', async () => {
    const file = join(folder, 'echo.html');
    const params = resolveParams(echoRule);
    writeOutputs([
      {
        path: file,
        contents: buildRunPage(echoRule, exactResult(echoRule, params, HOSTILE)).html,
      },
    ]);
    const opened = await open(file);
    expectHealthy(opened, 1);
    expect(opened.pwned).toBeUndefined();
    expect(opened.images).toBe(0);
    expect(opened.text).toContain('<style>body{display:none}</style>');
  });
});
