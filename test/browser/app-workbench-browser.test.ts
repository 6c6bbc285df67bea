/**
 * The calculator page as a rule workbench, in headless Chromium: a rule file
 * typed into the page answers as `muster run FILE --exact` does; a mistake
 * is one line under the code, in the CLI's words, with the last good answer
 * kept; Share gives a link that carries the code and opens, offline, behind
 * a button; the code runs in a sandbox with no network and no DOM, stopped
 * when it loops; Download gives a file the CLI runs to the same numbers.
 *
 * The expected Infinity value is counted here over the 400 pairs of d20
 * faces from the rule text (Infinity N4, Initiative Roll with Face to Face
 * criticals), not taken from muster.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { runCommand } from '../../src/cli/commands/run.js';
import { Fraction } from '../../src/exact/fraction.js';
import type { RunResult } from '../../src/result.js';
import { calculatorInChromium } from '../support/chromium-suite.js';
import { bufferIo } from '../support/io.js';
import { describeInChromium, offlinePage } from '../support/offline-page.js';

const folder = mkdtempSync(join(tmpdir(), 'muster-workbench-'));
const appFile = join(folder, 'app.html');
const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
/** The Infinity port, as a person would type it: not, character for character, the copy the page ships. */
const PORT_SOURCE =
  `// typed into the ` +
  `page\n${readFileSync(new URL('../../examples/rules/infinity-steps.mjs', import.meta.url), 'utf8')}`;
let browser: Browser;

/**
 * P(A wins) at WIP a against b, criticals on, counted over the 400 pairs of faces: a face above WIP fails, equal to
 * WIP is a critical (beats any success), else it scores its value; the higher wins, a tie or two failures roll again.
 */
function aWins(wipA: number, wipB: number): Fraction {
  const score = (face: number, wip: number) => (face > wip ? 0 : face === wip ? 21 : face);
  let a = 0;
  let b = 0;
  for (let faceA = 1; faceA <= 20; faceA++)
    for (let faceB = 1; faceB <= 20; faceB++) {
      const sa = score(faceA, wipA);
      const sb = score(faceB, wipB);
      if (sa > sb) a++;
      else if (sb > sa) b++;
    }
  return Fraction.of(a, a + b);
}

const app = (page: Page) =>
  page.evaluate(() => (window as unknown as { musterApp: { idle(): Promise<void> } }).musterApp.idle());
const shown = (page: Page) =>
  page.evaluate(() => (window as unknown as { musterApp: { result: RunResult | null } }).musterApp.result);

/** Opens the page offline; `hash` as a followed link would. */
async function open(hash = '', viewport = { width: 1200, height: 900 }) {
  const opened = await offlinePage(browser, { viewport, blob: true });
  await opened.page.goto(`file://${appFile}${hash}`);
  await app(opened.page);
  return opened;
}

/** Types a rule into the editor (the whole text at once, then one keystroke, as a person's last key). */
async function typeRule(page: Page, source: string): Promise<void> {
  await page.getByRole('button', { name: 'New rule' }).click();
  await app(page);
  const editor = page.getByRole('textbox', { name: 'Rule source' });
  await editor.fill(source.slice(0, -1));
  await editor.press('End');
  await page.keyboard.type(source.slice(-1));
  await app(page);
}

async function setWips(page: Page, a: number, b: number): Promise<void> {
  await page.fill('#param-wipA', String(a));
  await page.fill('#param-wipB', String(b));
  await app(page);
}

const figure = (page: Page, metric: string) =>
  page.locator(`#headline .figure[data-metric="${metric}"] .figure-fraction`).textContent();

describeInChromium('the rule workbench in headless Chromium', () => {
  calculatorInChromium(folder, appFile, (launched) => {
    browser = launched;
  });

  it(
    'the Infinity port typed in: 145/352 at WIP 13 against 15, as counted here and as muster run FILE ' + '--exact',
    async () => {
      expect(aWins(13, 15).toString()).toBe('145/352');
      const { page, problems, requests } = await open();
      await typeRule(page, PORT_SOURCE);
      await setWips(page, 13, 15);
      expect(await figure(page, 'a.wins')).toBe(`exactly = ${aWins(13, 15)}`);
      const result = await shown(page);
      expect(result?.rule).toBe('infinity-steps');
      expect(result?.metrics['a.wins'].fraction).toBe('145/352');
      // Every metric as the CLI computes it from the same file.
      const file = join(folder, 'typed.mjs');
      writeFileSync(file, PORT_SOURCE);
      const cli = await runCommand(file, { exact: true, set: ['wipA=13', 'wipB=15'], quiet: true }, bufferIo());
      for (const name of Object.keys(cli.metrics))
        expect(result?.metrics[name].fraction, name).toBe(cli.metrics[name].fraction);
      expect(problems).toEqual([]);
      expect(requests).toEqual([]);
      await page.close();
    },
  );

  it(
    'a mistake while typing: one line under the code, the CLI’s own words and line number; the last answer ' + 'stays',
    async () => {
      const { page } = await open();
      await typeRule(page, PORT_SOURCE);
      await setWips(page, 13, 15);
      const editor = page.getByRole('textbox', { name: 'Rule source' });
      const lines = PORT_SOURCE.split('\n');
      const startAt = lines.findIndex((line) => line.includes('start: () =>'));
      const doneAt = lines.findIndex((line) => line.includes('done: (state)'));
      // Each mistake, and the line the page adds where the CLI names none (`null`: the CLI's words, whole).
      const mistakes: Array<[string[], string | null]> = [
        // A syntax error: the CLI asks node --check for its line; the page must give the same.
        [
          lines.map((line, index) =>
            index === startAt ? line.replace('rolling: true, first', 'rolling: true first') : line,
          ),
          null,
        ],
        // A contract mistake: a step form without done().
        [lines.filter((_, index) => index !== doneAt), null],
        // A mistake in the top-level code, thrown as the file is imported: the page also says where.
        [[...lines.slice(0, 5), 'const broken = undefined.length;', ...lines.slice(5)], ' (line 6)'],
      ];
      for (const [mistake, line] of mistakes) {
        const text = mistake.join('\n');
        await editor.fill(text);
        await app(page);
        const shownProblem = await page.locator('#source-problem').textContent();
        writeFileSync(join(folder, 'my-rule.mjs'), text);
        const cli = spawnSync(process.execPath, [CLI, 'run', 'my-rule.mjs', '--exact'], {
          cwd: folder,
          encoding: 'utf8',
        });
        expect(cli.status).toBe(2);
        expect(`muster: ${shownProblem}\n`).toBe(line ? `${cli.stderr.trimEnd()}${line}\n` : cli.stderr);
        if (line === null) expect(cli.stderr).toMatch(/\(line \d+\)\n$|done/);
        expect(await editor.getAttribute('aria-invalid')).toBe('true');
        // The last good version keeps answering.
        expect(await figure(page, 'a.wins')).toBe('exactly = 145/352');
        expect((await shown(page))?.metrics['a.wins'].fraction).toBe('145/352');
      }
      await page.close();
    },
  );

  it(
    'Share: the link carries the code and the parameters; offline, in a fresh browser, it runs only once ' +
      'confirmed',
    async () => {
      const { page } = await open();
      await typeRule(page, PORT_SOURCE);
      await setWips(page, 13, 15);
      await page.getByRole('button', { name: 'Share' }).click();
      const link = await page.locator('#share-link').inputValue();
      expect(link.startsWith(`file://${appFile}#~`)).toBe(true);
      expect(link).toContain('wipA=13&wipB=15');
      await page.close();

      const context = await browser.newContext();
      await context.setOffline(true);
      const requests: string[] = [];
      await context.route('**/*', (route) => {
        const url = route.request().url();
        if (url.startsWith('file:') || url.startsWith('blob:')) return route.continue();
        requests.push(url);
        return route.abort();
      });
      const fresh = await context.newPage();
      await fresh.goto(link);
      await app(fresh);
      // Shown, not run: no answer, the code in the editor, a button to run it.
      expect(await shown(fresh)).toBeNull();
      expect(await fresh.getByRole('textbox', { name: 'Rule source' }).inputValue()).toBe(PORT_SOURCE);
      await fresh.getByRole('button', { name: 'Run this rule' }).click();
      await app(fresh);
      expect(await figure(fresh, 'a.wins')).toBe('exactly = 145/352');
      expect(await fresh.inputValue('#param-wipA')).toBe('13');
      expect(requests).toEqual([]);
      await context.close();
    },
  );

  it('Download: a file muster run takes unchanged, with the same numbers', async () => {
    const { page } = await open();
    await typeRule(page, PORT_SOURCE);
    await setWips(page, 13, 15);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download .mjs' }).click(),
    ]);
    const file = join(folder, download.suggestedFilename());
    await download.saveAs(file);
    expect(readFileSync(file, 'utf8')).toBe(PORT_SOURCE);
    const json = join(folder, 'downloaded.json');
    const cli = spawnSync(
      process.execPath,
      [CLI, 'run', file, '--exact', '--set', 'wipA=13', '--set', 'wipB=15', '--json', json, '--quiet'],
      { encoding: 'utf8' },
    );
    expect(cli.stderr).toBe('');
    const fromCli = JSON.parse(readFileSync(json, 'utf8')) as RunResult;
    const inPage = await shown(page);
    expect(Object.keys(inPage?.metrics ?? {})).toEqual(Object.keys(fromCli.metrics));
    for (const name of Object.keys(fromCli.metrics))
      expect(inPage?.metrics[name].fraction, name).toBe(fromCli.metrics[name].fraction);
    await page.close();
  });

  it(
    'kept in this browser until deleted; a file chosen or dropped opens and answers as muster run FILE ' + '--exact',
    async () => {
      const context = await browser.newContext();
      const first = await context.newPage();
      await first.goto(`file://${appFile}`);
      await app(first);
      await typeRule(first, PORT_SOURCE);
      await first.close();
      const page = await context.newPage();
      await page.goto(`file://${appFile}`);
      await app(page);
      expect(await page.locator('#rule-files option[value="kept:my-rule.mjs"]').count()).toBe(1);
      await page.selectOption('#rule-files', 'kept:my-rule.mjs');
      await app(page);
      expect((await shown(page))?.rule).toBe('infinity-steps');
      await page.getByRole('button', { name: 'Delete from this browser' }).click();
      await page.reload();
      await app(page);
      expect(await page.locator('#rule-files option[value="kept:my-rule.mjs"]').count()).toBe(0);

      // A file chosen, then one dropped: each answers as the CLI does from the same file.
      const house = join(folder, 'house.mjs');
      writeFileSync(house, readFileSync(new URL('../../examples/rules/reserves-2d6.mjs', import.meta.url), 'utf8'));
      const cli = await runCommand(house, { exact: true, quiet: true }, bufferIo());
      await page.setInputFiles('#open-file', house);
      await app(page);
      const chosen = await shown(page);
      expect(chosen?.rule).toBe('reserves-2d6');
      for (const name of Object.keys(cli.metrics))
        expect(chosen?.metrics[name].fraction).toBe(cli.metrics[name].fraction);
      const dropped = await page.evaluateHandle((text) => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([text], 'dropped.mjs', { type: 'text/javascript' }));
        return transfer;
      }, PORT_SOURCE);
      await page.dispatchEvent('#workbench', 'drop', { dataTransfer: dropped });
      await app(page);
      expect((await shown(page))?.metrics['a.wins'].fraction).toBe(aWins(13, 13).toString());
      expect((await shown(page))?.rule).toBe('infinity-steps');
      await context.close();
    },
  );

  it(
    'on a 375-px phone: Edit opens a built-in’s port; editor, form, Share and answer bar fit, chart text ≥ 11 ' + 'px',
    async () => {
      const { page, problems } = await open('#infinity?wipA=13&wipB=15', { width: 375, height: 740 });
      await page.getByRole('button', { name: 'Edit' }).click();
      await app(page);
      const result = await shown(page);
      expect(result?.rule).toBe('infinity-steps');
      // The built-in's own values, now from its port in the sandbox.
      expect(result?.metrics['a.wins'].fraction).toBe('145/352');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      for (const target of [
        page.getByRole('textbox', { name: 'Rule source' }),
        page.getByRole('button', { name: 'Share' }),
        page.locator('#param-wipA'),
        page.locator('#quick'),
      ]) {
        const box = await target.boundingBox();
        expect(box).not.toBeNull();
        expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= 375).toBe(true);
      }
      expect(await page.locator('#quick b').first().textContent()).toBe('41.193%');
      const least = await page.evaluate(() => {
        let smallest = Infinity;
        for (const text of document.querySelectorAll<SVGTextElement>('#charts .vis svg text')) {
          if (!(text.textContent ?? '').trim()) continue;
          const svg = text.ownerSVGElement as SVGSVGElement;
          const scale = svg.getBoundingClientRect().width / Number(svg.getAttribute('width'));
          smallest = Math.min(smallest, parseFloat(getComputedStyle(text).fontSize) * scale);
        }
        return smallest;
      });
      expect(least).toBeGreaterThanOrEqual(11 - 0.05);
      expect(least).toBeLessThan(Infinity);
      expect(problems).toEqual([]);
      await page.close();
    },
  );

  it(
    'simulated in the page: the same figures as muster run FILE with that seed and trials, bit for bit; and a ' +
      'card',
    async () => {
      const { page, problems } = await open();
      await typeRule(page, PORT_SOURCE);
      await setWips(page, 13, 15);
      await page.locator('#simulation summary').click();
      await page.fill('#sim-trials', '150001');
      await page.fill('#sim-seed', 'workbench');
      await page.check('#sim-on');
      await app(page);
      const inPage = await shown(page);
      expect(inPage?.method).toBe('simulation');
      const file = join(folder, 'my-rule.mjs');
      writeFileSync(file, PORT_SOURCE);
      const cli = await runCommand(
        file,
        { set: ['wipA=13', 'wipB=15'], trials: '150001', seed: 'workbench', threads: '2', quiet: true },
        bufferIo(),
      );
      for (const name of Object.keys(cli.metrics)) {
        expect(inPage?.metrics[name].estimate, name).toBe(cli.metrics[name].estimate);
        expect(inPage?.metrics[name].lo, name).toBe(cli.metrics[name].lo);
        expect(inPage?.metrics[name].fraction, name).toBe(cli.metrics[name].fraction);
      }
      expect(await page.locator('#answer-method').textContent()).toContain(
        'the same figures as muster run my-rule.mjs with that seed and trials',
      );
      const carded = await page.evaluate(() =>
        (window as unknown as { musterApp: { prepareCard(): Promise<boolean> } }).musterApp.prepareCard(),
      );
      expect(carded).toBe(true);
      expect(await page.locator('#print-card .card-footer').textContent()).toContain('muster card my-rule.mjs');
      expect(await page.locator('#print-card .vis svg').count()).toBeGreaterThan(0);
      expect(problems).toEqual([]);
      await page.close();
    },
  );
});
