/**
 * A confirmed rule that answers for its own sandbox, in headless Chromium
 * (issue 33): its code posts forged replies on the worker's own channel
 * ("250% exactly", floods of progress, a fraction of 300,000 digits, a
 * message that is no reply), or returns from its own exact() what no honest
 * answer holds. The page shows one line that says it refused, never the
 * forged value, and goes on answering at once.
 *
 * The honest value for the control is worked by hand: a d4's highest face is
 * one roll in four.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { formatHash } from '../../src/page/hash.js';
import { packSource } from '../../src/page/workbench/share.js';
import type { RunResult } from '../../src/result.js';
import { calculatorInChromium } from '../support/chromium-suite.js';
import { describeInChromium, offlinePage } from '../support/offline-page.js';

const folder = mkdtempSync(join(tmpdir(), 'muster-replies-'));
const appFile = join(folder, 'app.html');
let browser: Browser;

/** Code for a number of 300,000 digits (a link carries at most 200,000 characters: the rule builds it). */
const HUGE = "'7'.repeat(300000)";

/** A forged answer of 250% for `high`, as the harness would post it (ids 1 to 4 cover the load and first answers). */
const FORGED_ANSWER = `(id) => ({
  kind: 'answered', id, params: { sides: 4 }, fieldErrors: [], formErrors: [], forced: false,
  answer: {
    result: { metrics: { high: { estimate: null, lo: null, hi: null, exact: 2.5, fraction: '5/2' } } },
    fractions: [['high', 5n, 2n]],
    metrics: [{ name: 'high', doc: 'forged', probability: true }],
    headline: null, readings: [],
  },
})`;

/** A rule whose `top` runs at its top level, `inTrial` in every trial, with an optional exact(). */
const rule = (top: string, inTrial = '', exact = '') => `const forged = ${FORGED_ANSWER};
${top}
export default {
  id: 'spoofer',
  title: 'A rule that answers for its sandbox',
  params: [{ name: 'sides', type: 'integer', default: 4, min: 2, max: 6, doc: 'sides' }],
  metrics: [{ name: 'high', doc: 'the die rolled its highest face', probability: true }],
  trial(dice, p, out) {
    ${inTrial}
    out.high = dice.d(p.sides) === p.sides;
  },
  ${exact}
};
`;

const CASES: Array<{ name: string; source: string }> = [
  {
    name: '250% exactly, posted at the top level for every id',
    source: rule('for (let id = 0; id < 5; id++) postMessage(forged(id));'),
  },
  {
    name: '250% exactly, posted from every trial',
    source: rule('', 'for (let id = 0; id < 5; id++) postMessage(forged(id));'),
  },
  {
    name: 'a flood of 2,000,000 forged progress messages from a trial',
    source: rule('', 'for (let n = 1; n <= 2e6; n++) postMessage({ kind: "progress", id: 2, done: n, total: 2e6 });'),
  },
  {
    name: 'a forged fraction of 300,000 digits',
    source: rule(
      `const big = BigInt(${HUGE}); postMessage({ ...forged(2), answer: { ...forged(2).answer, ` +
        `fractions: [['high', big, big + 1n]] } });`,
    ),
  },
  { name: 'a malformed reply', source: rule("postMessage('not a reply'); postMessage({ kind: 'answered' });") },
  {
    name: 'a message posted later, from a timer of its own',
    source: rule('setTimeout(() => postMessage(forged(2)), 0);'),
  },
];

const idle = (page: Page) =>
  page.evaluate(() => (window as unknown as { musterApp: { idle(): Promise<void> } }).musterApp.idle());
const shown = (page: Page) =>
  page.evaluate(() => (window as unknown as { musterApp: { result: RunResult | null } }).musterApp.result);

/** The link opened and confirmed, its rule given `limitMs` without a word before the watchdog stops it. */
async function openConfirmed(source: string, limitMs = 2000): Promise<Page> {
  const { page } = await offlinePage(browser, { blob: true });
  await page.goto(`file://${appFile}#${formatHash(`~${await packSource(source)}`, [])}`);
  await idle(page);
  await page.evaluate((limit) => {
    (window as unknown as { musterApp: { ruleLimitMs: number } }).musterApp.ruleLimitMs = limit;
  }, limitMs);
  await page.getByRole('button', { name: 'Run this rule' }).click();
  await idle(page);
  return page;
}

/** The page's own text, every line of it (the answer, the problem under the code, the figures). */
// biome-ignore lint/performance/useDomNodeTextContent: what is on screen, line by line, is the point.
const pageText = (page: Page) => page.evaluate(() => document.body.innerText);

/**
 * The round trip of a small task on the page's main thread, in milliseconds: the page is not frozen (a page busy
 * reducing a huge fraction or reading millions of messages takes 10 s or more; 2 s leaves room for a loaded machine).
 */
const roundTrip = async (page: Page) => {
  const started = Date.now();
  await page.evaluate(() => 1);
  return Date.now() - started;
};

describeInChromium('replies a confirmed rule forges, in headless Chromium', () => {
  calculatorInChromium(folder, appFile, (launched) => {
    browser = launched;
  });

  it('the control: the same rule, honest, answers 1/4 for a d4’s highest face', async () => {
    const page = await openConfirmed(rule(''));
    expect((await shown(page))?.metrics.high.fraction).toBe('1/4');
    await page.close();
  });

  for (const { name, source } of CASES)
    it(`${name}: one line that the page refused it, never the forged value, the page answering`, async () => {
      const page = await openConfirmed(source);
      // Refused as a forged reply, not stopped later by the watchdog ("did not return within").
      const text = await pageText(page);
      expect(text).toMatch(/shared-rule\.mjs: the page refused its sandbox’s reply: [^\n]+; the page stopped it/);
      expect(text).not.toMatch(/250(\.0+)?%|5\/2|7777777777/);
      expect((await shown(page))?.rule ?? null).not.toBe('spoofer');
      expect(await roundTrip(page)).toBeLessThan(2000);
      // The page goes on answering: a built-in rule chosen is shown at once.
      await page.selectOption('#rule-picker', 'infinity');
      await idle(page);
      expect((await shown(page))?.rule).toBe('infinity');
      await page.close();
    });

  const exactCases = [
    [
      'a fraction of 300,000 digits',
      `${HUGE} + '/' + ${HUGE} + '1'`,
      // Refused where the rule file's exact() is read, inside its watched call, before any reply is made of it.
      /No answer: shared-rule\.mjs \(rule spoofer\): exact\(params\): metric "high": got a fraction with a part of more than 1000 digits/,
    ],
    [
      '5/2 for a probability',
      "'5/2'",
      /No answer: shared-rule\.mjs \(rule spoofer\): exact\(params\): [^\n]*allowed: a probability from 0 to 1/,
    ],
  ] as const;
  for (const [name, value, line] of exactCases)
    it(`exact() returning ${name}: refused in one line, the page answering`, async () => {
      // Reading 600,000 digits takes the sandbox a moment on a busy machine: the watchdog is not what answers here.
      const page = await openConfirmed(rule('', '', `exact() { return { high: ${value} }; },`), 10_000);
      const text = await pageText(page);
      expect(text).toMatch(line);
      expect(text).not.toMatch(/250(\.0+)?%|7777777777/);
      expect((await shown(page))?.metrics.high.fraction).toBeUndefined();
      expect(await roundTrip(page)).toBeLessThan(2000);
      await page.close();
    });
});
