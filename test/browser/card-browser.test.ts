/**
 * Every rule's card in headless Chromium (one launch for the file): it
 * prints to exactly one page on A4 and on Letter, no text mark of a chart
 * overlaps another, a label inside a bar or cell stays inside it, no table
 * cell's text overflows, and hostile text stays text.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { layoutCard, type Paper, planCard } from '../../reports/card/layout.js';
import { renderCardPage } from '../../reports/card/page.js';
import { cardCommand } from '../../src/cli/commands/card.js';
import { rules } from '../../src/rules/index.js';
import { resolveParams } from '../../src/rules/params.js';
import { chromiumForSuite } from '../support/chromium-suite.js';
import { exactResult } from '../support/exact-result.js';
import { echoRule, HOSTILE } from '../support/hostile.js';
import { bufferIo } from '../support/io.js';
import { inspect } from '../support/layout.js';
import { countPdfPages, describeInChromium, offlinePage } from '../support/offline-page.js';

const folder = mkdtempSync(join(tmpdir(), 'muster-card-browser-'));
let browser: Browser;

async function openCard(file: string): Promise<{ page: Page; problems: string[]; requests: string[] }> {
  const { page, problems, requests } = await offlinePage(browser, { viewport: { width: 900, height: 1200 } });
  await page.goto(`file://${file}`);
  await page.evaluate(() => (window as unknown as { musterCharts: Promise<unknown> }).musterCharts.then(() => true));
  return { page, problems, requests };
}

const MEDIA_BOX: Record<Paper, RegExp> = {
  a4: /\/MediaBox\s*\[\s*0\s+0\s+594\.9\d*\s+841\.9\d*\s*\]/,
  letter: /\/MediaBox\s*\[\s*0\s+0\s+612\s+792\s*\]/,
};

describeInChromium('cards in headless Chromium', () => {
  chromiumForSuite(folder, (launched) => {
    browser = launched;
  });

  const variants: Array<{
    rule: string;
    options?: { range?: string; against?: string; set?: string[] };
    label: string;
  }> = [
    ...rules.map((rule) => ({ rule: rule.id, label: `${rule.id} at its defaults` })),
    { rule: 'deployment', options: { against: 'forward:4' }, label: 'deployment --against forward:4' },
    { rule: 'infinity', options: { range: '1..30' }, label: 'infinity --range 1..30 (the widest table)' },
    // Eight warbands with allies: the longest footer of readings; the card zooms itself to the sheet if it must.
    {
      rule: 'warbands',
      options: { set: ['warbands=90:5,152:9,148:11,300:20,120:8,151:12,100:3,200:9', 'allies=1+2'] },
      label: 'warbands with eight warbands and allies',
    },
  ];
  for (const { rule, options = {}, label } of variants) {
    it(`${label}: one page on A4 and on Letter, no text overprinted or out of its mark`, async () => {
      for (const paper of ['a4', 'letter'] as const) {
        const file = join(folder, `${label.replace(/\W+/g, '-')}-${paper}.html`);
        await cardCommand(rule, { ...options, paper, out: file, quiet: true }, bufferIo());
        const { page, problems, requests } = await openCard(file);
        try {
          const layout = await page.evaluate(inspect);
          expect(problems, paper).toEqual([]);
          expect(requests, paper).toEqual([]);
          expect(layout.charts, paper).toBeGreaterThan(0);
          expect(layout.textMarks, paper).toBeGreaterThan(10);
          expect(layout.overlaps, paper).toEqual([]);
          expect(layout.escaped, paper).toEqual([]);
          expect(layout.overflowing, paper).toEqual([]);
          const pdf = await page.pdf({ preferCSSPageSize: true });
          expect(countPdfPages(pdf), paper).toBe(1);
          expect(pdf.toString('latin1'), paper).toMatch(MEDIA_BOX[paper]);
        } finally {
          await page.close();
        }
      }
    });
  }

  it(
    'the layout checks catch what they look for: a doubled label overprints, a label moved off its cell leaves ' + 'it',
    async () => {
      const file = join(folder, 'checker.html');
      await cardCommand('infinity', { out: file, quiet: true }, bufferIo());
      const { page } = await openCard(file);
      try {
        const clean = await page.evaluate(inspect);
        expect(clean.overlaps).toEqual([]);
        expect(clean.escaped).toEqual([]);
        await page.evaluate(() => {
          const labels = document.querySelectorAll('.vis svg .mark-text text');
          // A second copy of the first cell's label, on top of it; the second label nudged 20 px right, out of its cell.
          labels[0].parentNode?.appendChild(labels[0].cloneNode(true));
          const moved = labels[1] as SVGTextElement;
          moved.setAttribute('transform', `${moved.getAttribute('transform') ?? ''} translate(20,0)`);
        });
        const broken = await page.evaluate(inspect);
        expect(broken.overlaps.length).toBeGreaterThan(0);
        expect(broken.escaped.length).toBeGreaterThan(0);
      } finally {
        await page.close();
      }
    },
  );

  it('hostile text in a rule’s title, parameters and metrics stays text on the card', async () => {
    const params = resolveParams(echoRule);
    const results = planCard(echoRule, params).map((point) => exactResult(echoRule, point, HOSTILE));
    const file = join(folder, 'hostile.html');
    writeFileSync(file, renderCardPage(layoutCard(echoRule, params, {}, results), 'a4'));
    const { page, problems } = await openCard(file);
    try {
      expect(problems).toEqual([]);
      expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
      expect(await page.evaluate(() => document.querySelectorAll('img').length)).toBe(0);
      expect(await page.evaluate(() => document.body.textContent)).toContain('<style>body{display:none}</style>');
      expect(countPdfPages(await page.pdf({ preferCSSPageSize: true }))).toBe(1);
    } finally {
      await page.close();
    }
  });
});
