/**
 * Best play on the calculator page, in headless Chromium: a rule with choices typed into the workbench shows the
 * objective under best play, the fixed plays beside it and the policy table, through the same solver as `muster
 * run` (the page's sandbox asks src/analysis/result-of.ts withDecisions). Values against a rule worked by hand (a d6 kept or
 * rolled again once, playing for 4+: keep 4–6, roll again on 1–3, 3/4; always keep or always roll again, 1/2) and,
 * for examples/rules/rolloff-token.mjs, against brute force over every way of playing the ties (the 2^11 sets of
 * tied totals re-rolled; off a tie, keeping ahead and re-rolling behind), written here from the procedure.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { appCommand } from '../../src/cli/commands/app.js';
import { Fraction } from '../../src/exact/fraction.js';
import type { RunResult } from '../../src/result.js';
import { bufferIo } from '../support/io.js';
import { describeInChromium, launchChromium, offlinePage } from '../support/offline-page.js';

const folder = mkdtempSync(join(tmpdir(), 'muster-app-decisions-'));
const appFile = join(folder, 'app.html');
let browser: Browser;
/** One page for the file, opened offline before the tests (each types its own rule into it). */
let opened: Awaited<ReturnType<typeof offlinePage>>;

const KEEP_OR_REROLL = `export default {
  id: 'keep-or-reroll',
  title: 'Keep or roll again',
  params: [],
  metrics: [{ name: 'four.up', probability: true, doc: 'the die kept shows 4 or more' }],
  start: () => ({}),
  choices: (s) => (s.face !== undefined && !s.final ? ['keep', 'reroll'] : null),
  choose: (s, option) => (option === 'keep' ? { face: s.face, final: true } : { again: true }),
  step: (s, dice) => (s.again ? { face: dice.d(6), final: true } : { face: dice.d(6) }),
  done: (s) => s.final === true,
  report: (s, p, out) => { out['four.up'] = s.face >= 4; },
  label: (s) => '<b>face</b> ' + s.face,
};
`;

const app = (page: Page) =>
  page.evaluate(() => (window as unknown as { musterApp: { idle(): Promise<void> } }).musterApp.idle());
const shown = (page: Page) =>
  page.evaluate(() => (window as unknown as { musterApp: { result: RunResult | null } }).musterApp.result);

async function typeRule(page: Page, source: string): Promise<void> {
  await page.getByRole('button', { name: 'New rule' }).click();
  await app(page);
  const editor = page.getByRole('textbox', { name: 'Rule source' });
  await editor.fill(source.slice(0, -1));
  await editor.press('End');
  await page.keyboard.type(source.slice(-1));
  await app(page);
}

/** Every row of a table in the best-play section, each cell's text. */
const rowsOf = (page: Page, table: string) =>
  page.$$eval(`#best-play table.${table} tbody tr`, (rows) =>
    rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? '')),
  );

/** rolloff-token's best value by brute force: every set of tied totals re-rolled, in fractions. */
function rolloffTokenBest(): { value: Fraction; rerollTies: Set<number> } {
  const ZERO = Fraction.ZERO;
  const chance = new Map<number, Fraction>();
  for (let x = 1; x <= 6; x++)
    for (let y = 1; y <= 6; y++) chance.set(x + y, (chance.get(x + y) ?? ZERO).add(Fraction.of(1, 36)));
  const totals = [...chance.keys()].sort((x, y) => x - y);
  const at = (t: number) => chance.get(t) as Fraction;
  // A re-roll against b wins above b; a tie then rolls again with no token left: 1/2 (the dice are alike).
  const reroll = (b: number) =>
    totals
      .filter((t) => t > b)
      .reduce((sum, t) => sum.add(at(t)), ZERO)
      .add(at(b).mul(Fraction.of(1, 2)));
  let best = ZERO;
  let bestSet = new Set<number>();
  for (let mask = 0; mask < 1 << totals.length; mask++) {
    const ties = new Set(totals.filter((_, i) => (mask >> i) & 1));
    let win = ZERO; // the chance of winning from this round's rolls on
    let again = ZERO; // the chance of a tie kept: back to the start with the token
    for (const a of totals)
      for (const b of totals) {
        const p = at(a).mul(at(b));
        if (a > b) win = win.add(p);
        else if (a < b) win = win.add(p.mul(reroll(b)));
        else if (ties.has(b)) win = win.add(p.mul(reroll(b)));
        else again = again.add(p);
      }
    const value = win.div(Fraction.ONE.sub(again));
    if (value.compare(best) > 0) {
      best = value;
      bestSet = ties;
    }
  }
  return { value: best, rerollTies: bestSet };
}

describeInChromium('best play on the calculator page, in headless Chromium', () => {
  beforeAll(async () => {
    await appCommand({ out: appFile }, bufferIo());
    browser = await launchChromium();
    opened = await offlinePage(browser, { viewport: { width: 1200, height: 900 }, blob: true });
    await opened.page.goto(`file://${appFile}`);
    await app(opened.page);
  });
  afterAll(async () => {
    await opened?.page.close();
    await browser?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('a d6 kept or rolled again, typed in: the policy worked by hand, labels kept as text, gone for a rule without choices', async () => {
    const { page, problems, requests } = opened;
    {
      // A built-in rule has no decisions: no section.
      expect(await page.locator('#best-play').isVisible()).toBe(false);
      await typeRule(page, KEEP_OR_REROLL);
      expect(await page.locator('#best-play').isVisible()).toBe(true);
      expect(await page.locator('#best-play-title').textContent()).toBe('Best play for four.up');
      expect(await page.locator('#best-play .best-play-value').textContent()).toBe(
        'Under best play four.up is 75.000% = 3/4 (side a plays to raise it).',
      );
      expect(await rowsOf(page, 'best-play-fixed')).toEqual([
        ['best play', '75.000%', ''],
        ['always the first option offered', '50.000%', '+25.000 pp'],
        ['always the last option offered', '50.000%', '+25.000 pp'],
      ]);
      const policy = await rowsOf(page, 'best-play-policy');
      const expected = [1, 2, 3, 4, 5, 6].map((face) => [
        `<b>face</b> ${face}`,
        face >= 4 ? '100.000%' : '0.000%',
        '50.000%',
        face >= 4 ? 'keep' : 'reroll',
      ]);
      expect(policy.sort()).toEqual(expected.sort());
      expect(await page.locator('#best-play b').count()).toBe(0);
      expect(problems).toEqual([]);
      expect(requests).toEqual([]);
    }
  });

  it('rolloff-token typed in: the value and every choice as brute force over every way of playing the ties', async () => {
    const { value, rerollTies } = rolloffTokenBest();
    const source = readFileSync(new URL('../../examples/rules/rolloff-token.mjs', import.meta.url), 'utf8');
    const { page, problems } = opened;
    {
      await typeRule(page, source);
      const result = await shown(page);
      expect(result?.objective?.fraction).toBe(value.toString());
      expect(await page.locator('#best-play .best-play-value').textContent()).toContain(`= ${value.toString()}`);
      const policy = await rowsOf(page, 'best-play-policy');
      expect(policy).toHaveLength(121);
      for (const [label, , , choice] of policy) {
        const [, a, b] = (/A (\d+) vs B (\d+)/.exec(label) ?? []).map(Number);
        const expected = a > b ? 'keep' : a < b ? 'reroll' : rerollTies.has(b) ? 'reroll' : 'keep';
        expect(choice, label).toBe(expected);
      }
      expect(problems).toEqual([]);
    }
  });
});
