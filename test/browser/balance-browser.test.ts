/**
 * The balance map opened in headless Chromium (Debian's, through
 * playwright-core): the heat map and the line draw offline with marks, the
 * page logs no problem and asks for nothing over the network, its text marks
 * stay in their cells, and it prints on A4 and Letter. Without Chromium it
 * fails under CI and skips, saying so, elsewhere (support/offline-page.ts).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { expect, it } from 'vitest';
import { balanceCommand } from '../../src/cli/commands/balance.js';
import { chromiumForSuite } from '../support/chromium-suite.js';
import { bufferIo } from '../support/io.js';
import { inspect } from '../support/layout.js';
import { countPdfPages, describeInChromium, offlinePage } from '../support/offline-page.js';

const folder = mkdtempSync(join(tmpdir(), 'muster-balance-browser-'));
let browser: Browser;

async function open(file: string) {
  const { page, problems, requests } = await offlinePage(browser);
  try {
    await page.goto(`file://${file}`);
    await page.evaluate(() => (window as unknown as { musterCharts: Promise<unknown> }).musterCharts.then(() => true));
    const marksPerChart = await page.evaluate(() =>
      [...document.querySelectorAll('.vis')].map((vis) => vis.querySelectorAll('svg .role-mark > *').length),
    );
    const found = await page.evaluate(inspect);
    const text = await page.evaluate(() => document.body.textContent);
    const a4 = countPdfPages(await page.pdf({ format: 'A4' }));
    const letter = countPdfPages(await page.pdf({ format: 'Letter' }));
    return { problems, requests, marksPerChart, layout: [...found.overlaps, ...found.escaped], text, a4, letter };
  } finally {
    await page.close();
  }
}

describeInChromium('the balance map in headless Chromium', () => {
  chromiumForSuite(folder, (launched) => {
    browser = launched;
  });

  it.each([
    ['two parameters: the heat map', ['squads=4..8', 'target=5..8']],
    ['one parameter: the line', ['target=4..9']],
  ])('%s draws offline and prints', async (_what, vary) => {
    const file = join(folder, `${vary.length}.html`);
    await balanceCommand('reserves', { metric: 'all.by.4', target: '80%', vary, html: file, quiet: true }, bufferIo());
    const opened = await open(file);
    expect(opened.problems).toEqual([]);
    expect(opened.requests).toEqual([]);
    expect(opened.marksPerChart).toHaveLength(1);
    expect(opened.marksPerChart[0]).toBeGreaterThan(0);
    expect(opened.layout).toEqual([]);
    expect(opened.a4).toBeGreaterThan(0);
    expect(opened.letter).toBeGreaterThan(0);
    expect(opened.text).toContain('Sensitivity at');
  });
});
