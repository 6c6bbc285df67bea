/**
 * A distribution on the calculator page, on a 375-px phone in headless
 * Chromium: the 2d6 roll-off's rolls drawn as bars whose at-least view is a
 * click away, each bar the brute force's, the chart inside its box.
 *
 * The oracle: the roll-off (Noctvale, Standard Battle Set-Up, step 3) is
 * rolled again while the totals tie; a tie's chance t counts all 6^4 throws
 * of four dice, and P(rolls ≥ k) = t^(k−1), P(= k) = t^(k−1)(1 − t).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { expect, it } from 'vitest';
import { calculatorInChromium } from '../support/chromium-suite.js';
import { describeInChromium, offlinePage } from '../support/offline-page.js';

const folder = mkdtempSync(join(tmpdir(), 'muster-app-distribution-'));
const appFile = join(folder, 'app.html');
let browser: Browser;
const SECTION = '#charts [data-chart="rolloff-distribution-rolls.mean"]';

/** Ties of two 2d6 totals among the 1296 throws of four dice. */
function ties(): bigint {
  let count = 0n;
  for (let a = 1; a <= 6; a++)
    for (let b = 1; b <= 6; b++) for (let c = 1; c <= 6; c++) for (let d = 1; d <= 6; d++) if (a + b === c + d) count++;
  return count;
}

describeInChromium('a distribution on the calculator page, on a phone', () => {
  calculatorInChromium(folder, appFile, (launched) => {
    browser = launched;
  });

  it('rolloff: bars of each value, then at least by the radio, each the brute force’s, inside a 375-px page', async () => {
    const { page, problems } = await offlinePage(browser, { viewport: { width: 375, height: 740 }, blob: true });
    try {
      await page.goto(`file://${appFile}`);
      await page.evaluate(
        (hash) => (window as unknown as { musterApp: { open(hash: string): Promise<void> } }).musterApp.open(hash),
        'rolloff',
      );
      const labels = () =>
        page.evaluate(
          (selector) =>
            [...document.querySelectorAll(`${selector} path[aria-roledescription="bar"]`)].map(
              (bar) => bar.getAttribute('aria-label') ?? '',
            ),
          SECTION,
        );
      const tie = ties();
      // P(= k) = t^(k−1)(1 − t) = tie^(k−1)(1296 − tie) / 1296^k; P(≥ k) = tie^(k−1) / 1296^(k−1).
      const expectBars = (found: string[], view: '=' | '≥') => {
        expect(found).toHaveLength(14);
        found.slice(0, 13).forEach((label, index) => {
          const k = BigInt(index + 1);
          const [n, d] =
            view === '=' ? [tie ** (k - 1n) * (1296n - tie), 1296n ** k] : [tie ** (k - 1n), 1296n ** (k - 1n)];
          const match = new RegExp(`^P\\(${view} ${k}\\): (\\d+)(?:/(\\d+))? exact$`).exec(label);
          expect(match, label).not.toBeNull();
          const [num, den] = [BigInt(match![1]), BigInt(match![2] ?? '1')];
          expect(num * d, label).toBe(n * den);
        });
        expect(found[13]).toMatch(new RegExp(`^P\\(${view} >13\\): `));
      };
      expectBars(await labels(), '=');
      await page.locator(`${SECTION} input[value="at least"]`).check();
      await page.waitForFunction(
        (selector) =>
          document.querySelector(`${selector} path[aria-roledescription="bar"]`)?.getAttribute('aria-label')?.[2] ===
          '≥',
        SECTION,
      );
      expectBars(await labels(), '≥');
      const fit = await page.evaluate((selector) => {
        const section = document.querySelector(selector) as HTMLElement;
        const svg = section.querySelector('svg') as SVGSVGElement;
        const box = (section.querySelector('.vis') as HTMLElement).getBoundingClientRect();
        const drawn = svg.getBoundingClientRect();
        const scale = drawn.width / Number(svg.getAttribute('width'));
        const sizes = [...svg.querySelectorAll('text')]
          .filter((text) => (text.textContent ?? '').trim())
          .map((text) => Number.parseFloat(getComputedStyle(text).fontSize) * scale);
        return { inside: drawn.left >= box.left - 0.5 && drawn.right <= box.right + 0.5, least: Math.min(...sizes) };
      }, SECTION);
      expect(fit.inside).toBe(true);
      expect(fit.least).toBeGreaterThanOrEqual(11 - 0.05);
      expect(await page.evaluate(() => document.scrollingElement?.scrollWidth)).toBeLessThanOrEqual(375);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
