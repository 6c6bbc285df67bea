/**
 * What the workbench hands out, in headless Chromium (issue 33): Share from a
 * page opened from disk says what to send (the page and the part after #),
 * and that part opens the same question in a copy of the page anywhere else;
 * Download names the file by the rule's id, made safe; and a link's code
 * that ran and was stopped is no longer said not to have run.
 *
 * The values checked are worked by hand: a die's highest face is one roll in its number of sides.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { appCommand } from '../../src/cli/commands/app.js';
import { formatHash } from '../../src/page/hash.js';
import { packSource } from '../../src/page/workbench/share.js';
import type { RunResult } from '../../src/result.js';
import { bufferIo } from '../support/io.js';
import { describeInChromium, launchChromium, offlinePage } from '../support/offline-page.js';

const folder = mkdtempSync(join(tmpdir(), 'muster-share-'));
const appFile = join(folder, 'app.html');
/** The same page, elsewhere: as the person a page was sent to keeps it. */
const copyFile = join(folder, 'elsewhere', 'odds page.html');
let browser: Browser;

/** A rule file with id `id` (written as given, quotes and all): one die of `sides` faces, its highest face. */
const ruleWithId = (id: string, top = '') => `${top}
export default {
  id: ${JSON.stringify(id)},
  title: 'One die',
  params: [{ name: 'sides', type: 'integer', default: 4, min: 2, max: 6, doc: 'sides' }],
  metrics: [{ name: 'high', doc: 'the die rolled its highest face', probability: true }],
  trial(dice, p, out) {
    out.high = dice.d(p.sides) === p.sides;
  },
};
`;

const idle = (page: Page) =>
  page.evaluate(() => (window as unknown as { musterApp: { idle(): Promise<void> } }).musterApp.idle());
const shown = (page: Page) =>
  page.evaluate(() => (window as unknown as { musterApp: { result: RunResult | null } }).musterApp.result);

async function open(url: string): Promise<Page> {
  const { page } = await offlinePage(browser, { blob: true });
  await page.goto(url);
  await idle(page);
  return page;
}

/** Types `source` as the editor's whole text, then one key, and waits for it to load. */
async function typeRule(page: Page, source: string): Promise<void> {
  await page.getByRole('button', { name: 'New rule' }).click();
  await idle(page);
  const editor = page.getByRole('textbox', { name: 'Rule source' });
  await editor.fill(source.slice(0, -1));
  await editor.press('End');
  await page.keyboard.type(source.slice(-1));
  await idle(page);
}

async function downloadName(page: Page): Promise<string> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download .mjs' }).click(),
  ]);
  return download.suggestedFilename();
}

describeInChromium('what the workbench hands out, in headless Chromium', () => {
  beforeAll(async () => {
    await appCommand({ out: appFile }, bufferIo());
    mkdirSync(join(folder, 'elsewhere'));
    copyFileSync(appFile, copyFile);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('Share from a page on disk: says to send the page and the part after #, which opens in a copy anywhere', async () => {
    const page = await open(`file://${appFile}`);
    await typeRule(page, ruleWithId('one-die'));
    await page.fill('#param-sides', '6');
    await idle(page);
    await page.getByRole('button', { name: 'Share' }).click();
    expect(await page.locator('#share-local').isVisible()).toBe(true);
    expect(await page.locator('#share-local').textContent()).toContain('send the page itself');
    const hash = await page.inputValue('#share-hash');
    expect(hash).toBe(await page.evaluate(() => location.hash));
    expect(hash).toMatch(/^#~[A-Za-z0-9_-]+\?sides=6$/);
    // What the field holds is selected, ready to copy.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('share-hash');
    await page.close();

    // The copy, at another path, with the part after # added to its address: the same code, behind the gate.
    const copy = await open(`${new URL(`file://${copyFile}`).href}${hash}`);
    expect(await copy.inputValue('#rule-source')).toBe(ruleWithId('one-die'));
    await copy.getByRole('button', { name: 'Run this rule' }).click();
    await idle(copy);
    const result = await shown(copy);
    expect(result?.params).toEqual({ sides: 6 });
    expect(result?.metrics.high.fraction).toBe('1/6');
    await copy.close();
  });

  it('Download names the file by the rule’s id, made safe; a file opened keeps its own name', async () => {
    const page = await open(`file://${appFile}`);
    await page.getByRole('button', { name: 'New rule' }).click();
    await idle(page);
    expect(await downloadName(page)).toBe('my-rule.mjs');
    await typeRule(page, ruleWithId('one-die'));
    // Loaded (sides kept at 6 from the rule before it, whose parameter had the same name).
    expect((await shown(page))?.metrics.high.fraction).toBe('1/6');
    expect(await downloadName(page)).toBe('one-die.mjs');
    // A text that does not load (yet): its declared id, read as text, and a path in it is no path.
    await typeRule(page, `${ruleWithId('../../etc/passwd')}oops(`);
    expect(await downloadName(page)).toBe('etc-passwd.mjs');
    // A file shipped in the page keeps its own name.
    await page.selectOption('#rule-files', 'example:infinity-steps.mjs');
    await idle(page);
    expect(await downloadName(page)).toBe('infinity-steps.mjs');
    // A link's code, behind its gate and never run: named from its text too.
    await page.evaluate(
      async (hash) => {
        location.hash = hash;
      },
      `#${formatHash(`~${await packSource(ruleWithId('from a link'))}`, [])}`,
    );
    await idle(page);
    expect(await page.locator('#gate').isVisible()).toBe(true);
    expect(await downloadName(page)).toBe('from-a-link.mjs');
    await page.close();
  });

  it('a link’s code that ran and was stopped by the watchdog: the answer no longer says it has not run', async () => {
    const link = `file://${appFile}#${formatHash(`~${await packSource(ruleWithId('looping', 'while (true) {}'))}`, [])}`;
    const page = await open(link);
    await page.evaluate(() => {
      (window as unknown as { musterApp: { ruleLimitMs: number } }).musterApp.ruleLimitMs = 1500;
    });
    expect(await page.locator('#status').textContent()).toContain('has not run');
    await page.getByRole('button', { name: 'Run this rule' }).click();
    await idle(page);
    const status = await page.locator('#status').textContent();
    expect(status).not.toContain('has not run');
    expect(status).toBe(
      'No answer: the rule’s code ran and did not load: shared-rule.mjs: its top-level code did not finish within ' +
        '1.5 s (an endless loop?); the page stopped it',
    );
    await page.close();
  });
});
