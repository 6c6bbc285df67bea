/**
 * The page's gate under attack, in headless Chromium (issue 33): code that
 * came from a link runs only after "Run this rule" was chosen for that very
 * text, and is kept only after it ran so, whatever the order of keys, hash
 * changes, back and forward, the rule picker, drops and storage events.
 *
 * Whether a link's code ran is read from outside it: the rule the page shows
 * (its id is the link's own) and what the page keeps in localStorage (its
 * source holds a mark no other text has).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { formatHash } from '../../src/page/hash.js';
import { packSource } from '../../src/page/workbench/share.js';
import { GATE_ARM_MS } from '../../src/page/workbench/workbench.js';
import type { RunResult } from '../../src/result.js';
import { calculatorInChromium } from '../support/chromium-suite.js';
import { describeInChromium, offlinePage } from '../support/offline-page.js';

const folder = mkdtempSync(join(tmpdir(), 'muster-gate-'));
const appFile = join(folder, 'app.html');
let browser: Browser;

/** A rule file whose id and a comment carry `mark`: one die of `sides` faces, its highest face a metric. */
const linkRule = (mark: string) => `// ${mark}
export default {
  id: '${mark}',
  title: 'A rule from a link',
  params: [{ name: 'sides', type: 'integer', default: 4, min: 2, max: 6, doc: 'sides' }],
  metrics: [{ name: 'high', doc: 'the die rolled its highest face', probability: true }],
  trial(dice, p, out) {
    out.high = dice.d(p.sides) === p.sides;
  },
};
`;

const hashOf = async (source: string) => `#${formatHash(`~${await packSource(source)}`, [])}`;

const idle = (page: Page) =>
  page.evaluate(() => (window as unknown as { musterApp: { idle(): Promise<void> } }).musterApp.idle());
const shown = (page: Page) =>
  page.evaluate(() => (window as unknown as { musterApp: { result: RunResult | null } }).musterApp.result);
/** Everything this page keeps in localStorage, as one text. */
const stored = (page: Page) =>
  page.evaluate(() =>
    Array.from({ length: localStorage.length }, (_, index) => localStorage.getItem(localStorage.key(index) ?? '')).join(
      '\n',
    ),
  );
const gated = (page: Page) => page.locator('#gate').isVisible();

async function open(hash = '') {
  const opened = await offlinePage(browser, { blob: true });
  await opened.page.goto(`file://${appFile}${hash}`);
  await idle(opened.page);
  return opened;
}

/**
 * The link's code did not run and is not kept: the page shows no rule of its id, localStorage holds no text of it,
 * and (waited `waitMs`, past the 120-ms typing pause, or the gate's arming) nothing ran late either.
 */
async function expectNotRun(page: Page, mark: string, waitMs = 300): Promise<void> {
  await page.waitForTimeout(waitMs);
  await idle(page);
  expect((await shown(page))?.rule).not.toBe(mark);
  expect(await stored(page)).not.toContain(mark);
}

/** A new rule of the person's own in the editor, loaded and shown. */
async function ownRule(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'New rule' }).click();
  await idle(page);
  expect((await shown(page))?.rule).toBe('my-rule');
}

describeInChromium('the gate a link’s code waits behind, attacked, in headless Chromium', () => {
  calculatorInChromium(folder, appFile, (launched) => {
    browser = launched;
  });

  it('a keystroke, then a link within the typing pause (in the same task, or 100 ms on): the link’s code never runs', async () => {
    const { page, problems } = await open();
    for (const [index, delay] of [0, 100].entries()) {
      const mark = `typing-race-${index}`;
      await ownRule(page);
      await page.evaluate(
        async ({ hash, wait }) => {
          const editor = document.getElementById('rule-source') as HTMLTextAreaElement;
          editor.value += ' ';
          editor.dispatchEvent(new Event('input', { bubbles: true }));
          if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
          location.hash = hash;
        },
        { hash: await hashOf(linkRule(mark)), wait: delay },
      );
      await expectNotRun(page, mark);
      expect(await gated(page), mark).toBe(true);
      expect(await page.inputValue('#rule-source')).toContain(mark);
    }
    expect(problems).toEqual([]);
    await page.close();
  });

  it('a key typed on the keyboard, then a link at once: the link’s code never runs', async () => {
    const { page, problems } = await open();
    await ownRule(page);
    await page.getByRole('textbox', { name: 'Rule source' }).press('End');
    await page.keyboard.type('x');
    await page.evaluate(
      async (hash) => {
        location.hash = hash;
      },
      await hashOf(linkRule('typed-race')),
    );
    await expectNotRun(page, 'typed-race');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('the picker switched away from a link’s code, then a keystroke in it, a drop of text, an edit: none runs it', async () => {
    const { page } = await open(await hashOf(linkRule('picker-switch')));
    expect(await gated(page)).toBe(true);
    await page.selectOption('#rule-picker', 'infinity');
    await idle(page);
    expect((await shown(page))?.rule).toBe('infinity');
    const editor = page.getByRole('textbox', { name: 'Rule source' });
    await editor.press('End');
    await page.keyboard.type(' // edited');
    // Text dropped into the editor is an edit too.
    await page.evaluate(() => {
      const source = document.getElementById('rule-source') as HTMLTextAreaElement;
      source.value += '\n// dropped';
      source.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await expectNotRun(page, 'picker-switch');
    expect((await shown(page))?.rule).toBe('infinity');
    // The text stays a link's, behind the gate: confirmed, it is that edited text which runs.
    expect(await gated(page)).toBe(true);
    await page.getByRole('button', { name: 'Run this rule' }).click();
    await idle(page);
    expect((await shown(page))?.rule).toBe('picker-switch');
    expect(await stored(page)).toContain('// dropped');
    await page.close();
  });

  it('a focused Run button, then a new link’s gate, then Space or Enter at once: the new code does not run', async () => {
    const { page } = await open(await hashOf(linkRule('first-link')));
    // The first link confirmed by keyboard, as a person would: the focus stays on the button.
    await page.waitForTimeout(GATE_ARM_MS + 100);
    await page.focus('#gate-run');
    await page.keyboard.press('Space');
    await idle(page);
    expect((await shown(page))?.rule).toBe('first-link');
    for (const key of ['Space', 'Enter']) {
      const mark = `second-link-${key.toLowerCase()}`;
      await page.evaluate(
        async (hash) => {
          (document.getElementById('gate-run') as HTMLButtonElement).focus();
          location.hash = hash;
          await new Promise((resolve) => setTimeout(resolve, 50));
        },
        await hashOf(linkRule(mark)),
      );
      await page.keyboard.press(key);
      await page.keyboard.press(key);
      // The gate took the focus from its button, and the button waits GATE_ARM_MS before it can be pressed.
      expect(await page.evaluate(() => document.activeElement?.id)).not.toBe('gate-run');
      await expectNotRun(page, mark, GATE_ARM_MS + 100);
      expect(await gated(page)).toBe(true);
    }
    await page.close();
  });

  it('back and forward between links, with a confirmed load in flight: only the confirmed text runs', async () => {
    const { page } = await open(await hashOf(linkRule('history-one')));
    await page.evaluate(
      async (hash) => {
        location.hash = hash;
      },
      await hashOf(linkRule('history-two')),
    );
    await idle(page);
    expect(await page.inputValue('#rule-source')).toContain('history-two');
    // Back to the first link: behind the gate again.
    await page.goBack();
    await idle(page);
    expect(await page.inputValue('#rule-source')).toContain('history-one');
    expect(await gated(page)).toBe(true);
    // Confirmed, and at once forward to the second: the first may run (it was consented to), the second not.
    await page.waitForTimeout(GATE_ARM_MS + 100);
    await page.evaluate(() => {
      (document.getElementById('gate-run') as HTMLButtonElement).click();
      history.forward();
    });
    await idle(page);
    await expectNotRun(page, 'history-two');
    expect(await page.inputValue('#rule-source')).toContain('history-two');
    expect(await gated(page)).toBe(true);
    // Back once more: a confirmed link's text kept in this browser is still asked for (any page here could keep it).
    await page.goBack();
    await idle(page);
    expect(await gated(page)).toBe(true);
    await page.close();
  });

  it('a storage event or a kept copy of the same text does not open the gate; a dropped file is the person’s own', async () => {
    const source = linkRule('kept-copy');
    const { page } = await open();
    // Another page of this origin (any file:// page) writes the link's text as a kept rule, and says so.
    await page.evaluate((text) => {
      localStorage.setItem('muster.workbench.rules.v1', JSON.stringify([{ name: 'kept-copy.mjs', source: text }]));
      window.dispatchEvent(new StorageEvent('storage', { key: 'muster.workbench.rules.v1' }));
    }, source);
    await page.evaluate(
      async (hash) => {
        location.hash = hash;
      },
      await hashOf(source),
    );
    await idle(page);
    expect(await gated(page)).toBe(true);
    expect(await page.locator('#gate-text').textContent()).toContain('kept-copy.mjs, kept in this browser');
    await page.waitForTimeout(GATE_ARM_MS + 200);
    await idle(page);
    expect((await shown(page))?.rule).not.toBe('kept-copy');
    // A storage event while the gate is shown changes the list, never what runs.
    await page.evaluate(() => window.dispatchEvent(new StorageEvent('storage', { key: 'muster.workbench.rules.v1' })));
    await idle(page);
    expect((await shown(page))?.rule).not.toBe('kept-copy');
    // A file dropped on the workbench is the person's: it replaces the link's text and runs; the link's never does.
    await page.evaluate((text) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([text], 'dropped.mjs', { type: 'text/javascript' }));
      const drop = new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true });
      document.getElementById('workbench')?.dispatchEvent(drop);
    }, linkRule('dropped-file'));
    await idle(page);
    expect((await shown(page))?.rule).toBe('dropped-file');
    expect(await gated(page)).toBe(false);
    await page.close();
  });
});
