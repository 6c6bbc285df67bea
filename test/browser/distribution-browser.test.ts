/**
 * A distribution in a run's HTML report, drawn by headless Chromium: the bars
 * of each value, and the at-least and at-most views one click away on screen
 * and one panel each in print, hold the values of an independent brute force;
 * the chart fits a phone's column with no text under 11 px.
 *
 * The oracle: the 2d6 roll-off (Noctvale, Standard Battle Set-Up, step 3) is
 * rolled again while the totals tie. A tie's chance t comes from counting
 * all 6^4 throws of four dice; the rolls taken are then geometric: P(= k) =
 * t^(k−1)(1 − t), P(≥ k) = t^(k−1), P(≤ k) = 1 − t^k, and everything past
 * the last value listed, n, has chance t^n.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { runCommand } from '../../src/cli/commands/run.js';
import { chromiumForSuite } from '../support/chromium-suite.js';
import { bufferIo } from '../support/io.js';
import { describeInChromium, offlinePage } from '../support/offline-page.js';

const folder = mkdtempSync(join(tmpdir(), 'muster-distribution-browser-'));
let browser: Browser;
const CHART = '[id="rolloff-distribution-rolls.mean"]';
const PRINT = '[id="rolloff-distribution-rolls.mean-print"]';

/** A fraction as two BigInts, never reduced (equality is by cross-multiplication). */
type Ratio = [bigint, bigint];
const same = (a: Ratio, b: Ratio) => a[0] * b[1] === b[0] * a[1];
const power = ([n, d]: Ratio, k: number): Ratio => [n ** BigInt(k), d ** BigInt(k)];
const oneLess = ([n, d]: Ratio): Ratio => [d - n, d];
const times = (a: Ratio, b: Ratio): Ratio => [a[0] * b[0], a[1] * b[1]];
const parse = (text: string): Ratio => {
  const [n, d = '1'] = text.split('/');
  return [BigInt(n), BigInt(d)];
};

/** A tie of two 2d6 totals, by counting every throw of the four dice. */
function tieChance(): Ratio {
  let ties = 0n;
  for (let a = 1; a <= 6; a++)
    for (let b = 1; b <= 6; b++) for (let c = 1; c <= 6; c++) for (let d = 1; d <= 6; d++) if (a + b === c + d) ties++;
  return [ties, 1296n];
}

/** The bars a chart's SVG draws (those in `within`), each with its description and height in pixels. */
async function barsOf(page: Page, within: string): Promise<Array<{ label: string; height: number }>> {
  return page.evaluate(
    (selector) =>
      [...document.querySelectorAll(`${selector} svg path[aria-roledescription="bar"]`)].map((bar) => ({
        label: bar.getAttribute('aria-label') ?? '',
        height: (bar as SVGGraphicsElement).getBBox().height,
      })),
    within,
  );
}

/** "P(≥ 3): 1.269% simulated (…); 5329/419904 exact" ─► view, value and the exact fraction. */
function readBar(label: string): { view: string; value: string; exact: Ratio | null; estimate: number | null } {
  const match = /^P\((.) ([^)]+)\): (.*)$/.exec(label);
  if (!match) throw new Error(`unexpected bar description ${label}`);
  const exact = /([0-9/]+) exact$/.exec(match[3]);
  const estimate = /^([0-9.]+)% simulated/.exec(match[3]);
  return {
    view: match[1],
    value: match[2],
    exact: exact ? parse(exact[1]) : null,
    estimate: estimate ? Number(estimate[1]) / 100 : null,
  };
}

/** The brute force's chance of one bar: `value` a number or ">n". */
function expected(view: string, value: string, tie: Ratio): Ratio {
  if (value.startsWith('>')) return power(tie, Number(value.slice(1)));
  const k = Number(value);
  if (view === '=') return times(power(tie, k - 1), oneLess(tie));
  if (view === '≥') return power(tie, k - 1);
  return oneLess(power(tie, k));
}

describeInChromium('a distribution in the HTML report, in headless Chromium', () => {
  const tie = tieChance();
  chromiumForSuite(folder, (launched) => {
    browser = launched;
  });

  it('rolloff --exact: each value, at least and at most, on screen by the radio and in print, hold the brute force', async () => {
    const file = join(folder, 'exact.html');
    await runCommand('rolloff', { exact: true, html: file, quiet: true }, bufferIo());
    const { page, problems, requests } = await offlinePage(browser, { viewport: { width: 900, height: 1200 } });
    try {
      await page.goto(`file://${file}`);
      await page.evaluate(() =>
        (window as unknown as { musterCharts: Promise<unknown> }).musterCharts.then(() => true),
      );
      for (const [radio, view] of [
        [null, '='],
        ['at least', '≥'],
        ['at most', '≤'],
      ] as const) {
        if (radio) await page.locator(`${CHART} input[value="${radio}"]`).check();
        await page.waitForFunction(
          ([selector, want]) =>
            document
              .querySelector(`${selector} svg path[aria-roledescription="bar"]`)
              ?.getAttribute('aria-label')?.[2] === want,
          [CHART, view] as const,
        );
        const bars = await barsOf(page, CHART);
        // 1 to 13 listed, and everything past 13 but in the at-most view (where it is the rest of 1).
        expect(bars.length, view).toBe(view === '≤' ? 13 : 14);
        const read = bars.map((bar) => readBar(bar.label));
        const chances = read.map(({ exact }) => (exact ? Number(exact[0]) / Number(exact[1]) : Number.NaN));
        const tallest = Math.max(...bars.map((b) => b.height));
        const top = Math.max(...chances);
        bars.forEach((bar, index) => {
          const read = readBar(bar.label);
          expect(read.view, bar.label).toBe(view);
          expect(read.value).toBe(index < 13 ? String(index + 1) : '>13');
          expect(read.exact, bar.label).not.toBeNull();
          expect(same(read.exact as Ratio, expected(view, read.value, tie)), bar.label).toBe(true);
          // Drawn to scale: the heights stand as the chances do, to half a pixel.
          expect(Math.abs(bar.height - (tallest * chances[index]) / top), bar.label).toBeLessThan(0.5);
        });
      }
      // On paper the radio's chart is hidden and the three panels print, each with its own bars.
      await page.emulateMedia({ media: 'print' });
      const shown = await page.evaluate(
        ([screen, print]) => [screen, print].map((s) => getComputedStyle(document.querySelector(s) as Element).display),
        [CHART, PRINT] as const,
      );
      expect(shown).toEqual(['none', 'block']);
      const printed = (await barsOf(page, PRINT)).map((bar) => readBar(bar.label));
      expect(printed.map((b) => b.view).join('')).toBe(`${'='.repeat(14)}${'≥'.repeat(14)}${'≤'.repeat(13)}`);
      for (const bar of printed)
        expect(same(bar.exact as Ratio, expected(bar.view, bar.value, tie)), bar.value).toBe(true);
      expect(problems).toEqual([]);
      expect(requests).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('rolloff simulated (seed muster, 20,000 trials) on a phone: estimates with intervals near the brute force, in the column, no text under 11 px', async () => {
    const file = join(folder, 'simulated.html');
    const trials = 20_000;
    await runCommand('rolloff', { trials: String(trials), html: file, quiet: true }, bufferIo());
    const { page, problems, requests } = await offlinePage(browser, { viewport: { width: 375, height: 800 } });
    try {
      await page.goto(`file://${file}`);
      await page.evaluate(() =>
        (window as unknown as { musterCharts: Promise<unknown> }).musterCharts.then(() => true),
      );
      const bars = (await barsOf(page, CHART)).map((bar) => readBar(bar.label));
      expect(bars.length).toBe(14);
      for (const bar of bars) {
        const p = expected('=', bar.value, tie);
        expect(same(bar.exact as Ratio, p), bar.value).toBe(true);
        expect(bar.estimate, bar.value).not.toBeNull();
        // 5σ of a binomial share of 20,000 trials (fails by chance once in 1.7 million per bar), plus the 0.0005
        // percentage points the description rounds to.
        const chance = Number(p[0]) / Number(p[1]);
        const bound = 5 * Math.sqrt((chance * (1 - chance)) / trials) + 5e-6;
        expect(Math.abs((bar.estimate as number) - chance), bar.value).toBeLessThanOrEqual(bound);
      }
      // Every value simulated draws its interval (a rule mark) beside the bar.
      const intervals = await page.evaluate(
        (selector) =>
          document.querySelectorAll(
            `${selector} svg .mark-rule.role-mark line, ${selector} svg .mark-rule.role-mark path`,
          ).length,
        CHART,
      );
      expect(intervals).toBe(14);
      const fit = await page.evaluate((selector) => {
        const svg = document.querySelector(`${selector} svg`) as SVGSVGElement;
        const sizes = [...svg.querySelectorAll('text')].map((text) =>
          Number.parseFloat(getComputedStyle(text).fontSize),
        );
        const box = svg.getBoundingClientRect();
        return { width: box.width, natural: svg.width.baseVal.value, smallest: Math.min(...sizes) };
      }, CHART);
      expect(fit.natural).toBeLessThanOrEqual(339);
      expect(fit.width).toBeCloseTo(fit.natural, 0);
      expect(fit.smallest).toBeGreaterThanOrEqual(11);
      expect(problems).toEqual([]);
      expect(requests).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
