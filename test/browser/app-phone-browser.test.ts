/**
 * The calculator's charts on a 375-px phone, in headless Chromium (issue 33):
 * laid out for the column (reports/charts/narrow.ts), each chart sits inside
 * its box at text of 11 px or more, and nothing scrolls sideways, for every
 * built-in rule: bars side by side per series share the column's width,
 * and legends list one entry a line.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { expect, it } from 'vitest';
import { rules } from '../../src/rules/index.js';
import { calculatorInChromium } from '../support/chromium-suite.js';
import { describeInChromium, offlinePage } from '../support/offline-page.js';

const folder = mkdtempSync(join(tmpdir(), 'muster-phone-'));
const appFile = join(folder, 'app.html');
let browser: Browser;

describeInChromium('the calculator’s charts on a 375-px phone, in headless Chromium', () => {
  calculatorInChromium(folder, appFile, (launched) => {
    browser = launched;
  });

  it('every built-in rule: each chart inside its box, chart text ≥ 11 px, nothing scrolling sideways', async () => {
    const { page, problems } = await offlinePage(browser, { viewport: { width: 375, height: 740 }, blob: true });
    await page.goto(`file://${appFile}`);
    for (const rule of rules) {
      await page.evaluate(
        (hash) => (window as unknown as { musterApp: { open(hash: string): Promise<void> } }).musterApp.open(hash),
        rule.id,
      );
      const charts = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLElement>('#charts [data-chart]')].map((section) => {
          const svg = section.querySelector('svg');
          const box = (section.querySelector('.vis') as HTMLElement).getBoundingClientRect();
          const drawn = svg?.getBoundingClientRect();
          // Each text's size as drawn: its font size times how much its SVG is scaled from its own width.
          const scale = svg && drawn ? drawn.width / Number(svg.getAttribute('width')) : 1;
          let least = Infinity;
          for (const text of svg?.querySelectorAll('text') ?? [])
            if ((text.textContent ?? '').trim())
              least = Math.min(least, parseFloat(getComputedStyle(text).fontSize) * scale);
          return {
            id: section.dataset.chart ?? '',
            inside: drawn !== undefined && drawn.left >= box.left - 0.5 && drawn.right <= box.right + 0.5,
            least,
          };
        }),
      );
      expect(charts.length, rule.id).toBeGreaterThan(0);
      for (const chart of charts) {
        expect(chart.least, `${rule.id} ${chart.id}`).toBeGreaterThanOrEqual(11 - 0.05);
        expect(chart.inside, `${rule.id} ${chart.id} inside its box`).toBe(true);
      }
      expect(await page.evaluate(() => document.scrollingElement?.scrollWidth), rule.id).toBeLessThanOrEqual(375);
    }
    expect(problems).toEqual([]);
    await page.close();
  });
});
