/**
 * Cards with best play in headless Chromium (one launch for the file): the longest policy a card prints
 * (rolloff-token, cut to its first rows, on A4) and the reserves call's own card, with leader loss (on Letter, the
 * shorter sheet), each print to exactly one page, offline, with no table cell's text overflowing and hostile labels kept as text.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cardCommand } from '../../src/cli/commands/card.js';
import { bufferIo } from '../support/io.js';
import { inspect } from '../support/layout.js';
import { countPdfPages, describeInChromium, launchChromium, offlinePage } from '../support/offline-page.js';

const folder = mkdtempSync(join(tmpdir(), 'muster-card-decisions-browser-'));
const examples = new URL('../../examples/rules/', import.meta.url).pathname;
let browser: Browser;

/** A rule whose decision labels are markup and script: the card must show them as text. */
const HOSTILE_LABELS = `
export default {
  id: 'hostile-labels',
  title: 'Hostile labels',
  params: [],
  metrics: [{ name: 'four.up', probability: true, doc: 'the die kept shows 4 or more' }],
  start: () => ({}),
  choices: (s) => (s.face !== undefined && !s.final ? ['keep', '<img src=x onerror="window.__pwned=1">'] : null),
  choose: (s, option) => (option === 'keep' ? { face: s.face, final: true } : { again: true }),
  step: (s, dice) => (s.again ? { face: dice.d(6), final: true } : { face: dice.d(6) }),
  done: (s) => s.final === true,
  report: (s, p, out) => { out['four.up'] = s.face >= 4; },
  label: (s) => '<script>window.__pwned=2</script>' + s.face,
};
`;

describeInChromium('cards with best play in headless Chromium', () => {
  beforeAll(async () => {
    browser = await launchChromium();
    writeFileSync(join(folder, 'hostile-labels.mjs'), HOSTILE_LABELS);
  });
  afterAll(async () => {
    await browser?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const variants = [
    {
      rule: join(examples, 'rolloff-token.mjs'),
      options: {},
      paper: 'a4' as const,
      label: 'rolloff-token (121 decision states)',
    },
    {
      rule: 'reserves',
      options: { set: ['chosenRound=call', 'squads=6', 'command=4', 'fallbackCommand=1', 'leaderLoss=0.2'] },
      paper: 'letter' as const,
      label: 'reserves chosenRound=call, 6 squads, leader loss',
    },
    {
      rule: join(folder, 'hostile-labels.mjs'),
      options: {},
      paper: 'a4' as const,
      label: 'hostile labels and options',
    },
  ];
  // One paper each (the sheet is the same on both, card-browser.test.ts prints every built-in card on both).
  for (const { rule, options, paper, label } of variants) {
    it(`${label}: one page on ${paper}, offline, every cell's text inside it`, async () => {
      {
        const file = join(folder, `${label.replace(/\W+/g, '-')}-${paper}.html`);
        await cardCommand(rule, { ...options, paper, out: file, quiet: true }, bufferIo());
        const { page, problems, requests } = await offlinePage(browser, { viewport: { width: 900, height: 1200 } });
        try {
          await page.goto(`file://${file}`);
          await page.evaluate(() =>
            (window as unknown as { musterCharts: Promise<unknown> }).musterCharts.then(() => 1),
          );
          const layout = await page.evaluate(inspect);
          expect(problems, paper).toEqual([]);
          expect(requests, paper).toEqual([]);
          expect(layout.overflowing, paper).toEqual([]);
          expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
          expect(await page.evaluate(() => document.querySelectorAll('.card img, .card script').length)).toBe(0);
          const rows = await page.evaluate(
            () => document.querySelectorAll('#best-play tbody tr, #call-policy tbody tr').length,
          );
          expect(rows, paper).toBeGreaterThan(5);
          const pdf = await page.pdf({ preferCSSPageSize: true });
          expect(countPdfPages(pdf), paper).toBe(1);
        } finally {
          await page.close();
        }
      }
    });
  }
});
