/**
 * muster-odds/browser in Chromium: src/library/browser.ts bundled by
 * esbuild for the browser platform, loaded into a blank page with the
 * network off, computes what the CLI computes — Infinity's Initiative Roll
 * at WIP 13 against 15 exactly (145/352: 145 of the 352 d20 pairs that
 * decide, brute-forced below from the rule text), a rule file's default
 * export enumerated (brute force in support/inline-rolloff.ts), and a seeded
 * run on the page's thread equal to `muster run … --json`. The example in
 * docs/library.md, "In the browser", runs as written.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunResult } from '../../src/result.js';
import { cli, scratchFolder } from '../support/cli.js';
import { ROLL_OFF_FILE, ROLL_OFF_SOURCE, rollOffBruteForce } from '../support/inline-rolloff.js';
import { describeInChromium, launchChromium, offlinePage } from '../support/offline-page.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const entry = join(root, 'src/library/browser.ts');
const folder = scratchFolder('library-browser');
const blank = join(folder, 'blank.html');
writeFileSync(
  blank,
  '<!doctype html><html><head><meta charset="utf-8"><title>blank</title></head><body></body></html>',
);
const rollOffPath = join(folder, 'rolloff.mjs');
writeFileSync(rollOffPath, ROLL_OFF_FILE);
let browser: Browser;
let bundle: string;

/** The browser entry as one script that leaves the library on `window.muster`. */
async function bundleEntry(): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    platform: 'browser',
    format: 'iife',
    globalName: 'muster',
    target: 'es2020',
    logLevel: 'silent',
  });
  return result.outputFiles[0].text;
}

/** The WIP 13 against 15 roll by brute force (Infinity N4, Initiative Roll, with Face to Face criticals). */
function initiativeBruteForce(wipA: number, wipB: number): string {
  // A d20 at or under WIP succeeds with its result; equal to WIP is a critical, above every ordinary success.
  const score = (wip: number, face: number) => (face < wip ? face : face === wip ? 100 : 0);
  let aWins = 0;
  let deciding = 0;
  for (let a = 1; a <= 20; a++)
    for (let b = 1; b <= 20; b++) {
      // Equal scores (both fail, both critical, the same result) mean rolling again: those pairs decide nothing.
      if (score(wipA, a) === score(wipB, b)) continue;
      deciding++;
      if (score(wipA, a) > score(wipB, b)) aWins++;
    }
  let [n, d] = [aWins, deciding];
  for (let k = 2; k <= n; k++)
    while (n % k === 0 && d % k === 0) {
      n /= k;
      d /= k;
    }
  return `${n}/${d}`;
}

async function libraryPage(): Promise<{ page: Page; problems: string[]; requests: string[] }> {
  const opened = await offlinePage(browser);
  await opened.page.goto(`file://${blank}`);
  await opened.page.addScriptTag({ content: `${bundle}\nwindow.rollOff = ${ROLL_OFF_SOURCE};` });
  return opened;
}

type Library = typeof import('../../src/library/browser.js');
type InPage = Window & { muster: Library; rollOff: unknown };

async function cliJson(...argv: string[]): Promise<RunResult> {
  const printed = await cli(...argv, '--json', '-');
  expect(printed.status, printed.stderr).toBe(0);
  return JSON.parse(printed.stdout);
}

describeInChromium('muster-odds/browser in a blank offline page', () => {
  beforeAll(async () => {
    bundle = await bundleEntry();
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('Infinity WIP 13 against 15 exactly: 145/352, the CLI result', async () => {
    const { page, problems, requests } = await libraryPage();
    const result = await page.evaluate(() =>
      (window as unknown as InPage).muster.exact('infinity', { set: { wipA: 13, wipB: 15 } }),
    );
    expect(initiativeBruteForce(13, 15)).toBe('145/352');
    expect(result.metrics['a.wins'].fraction).toBe(initiativeBruteForce(13, 15));
    expect(result).toEqual(await cliJson('run', 'infinity', '--exact', '--set', 'wipA=13', '--set', 'wipB=15'));
    expect(problems).toEqual([]);
    expect(requests).toEqual([]);
    await page.close();
  });

  it("a rule file's default export enumerated in the page: brute force's values, run FILE --exact's", async () => {
    const { page, problems } = await libraryPage();
    const result = await page.evaluate((name) => {
      const { muster, rollOff } = window as unknown as InPage;
      return muster.exact(muster.ruleFile(rollOff, name), { set: { bonus: 2 } });
    }, rollOffPath);
    const fractions = Object.fromEntries(Object.entries(result.metrics).map(([name, m]) => [name, m.fraction]));
    expect(fractions).toEqual(rollOffBruteForce(2));
    expect(result).toEqual(await cliJson('run', rollOffPath, '--exact', '--set', 'bonus=2'));
    // The file's checks, as a UsageError the page can catch.
    const refused = await page.evaluate(() => {
      const { muster } = window as unknown as InPage;
      try {
        muster.ruleFile({ id: 'x', title: 'x', params: [], metrics: [] });
        return 'accepted';
      } catch (error) {
        return `${error instanceof muster.UsageError} ${(error as Error).message}`;
      }
    });
    expect(refused).toMatch(/^true rule object \(rule x\): /);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('a seeded run on the page thread: muster run --seed --trials --json, a built-in and a rule file', async () => {
    const { page, problems } = await libraryPage();
    // 150,000 trials: two whole chunks of 65,536 and a short third.
    const [reserves, rollOff] = await page.evaluate(async (name) => {
      const { muster, rollOff: spec } = window as unknown as InPage;
      return [
        await muster.run('reserves', { set: { squads: 5, command: 3 }, trials: 150_000, seed: 'page' }),
        await muster.run(muster.ruleFile(spec, name), { set: { bonus: -2 }, trials: 150_000, seed: 'page' }),
      ];
    }, rollOffPath);
    const cliReserves = await cliJson(
      ...['run', 'reserves', '--set', 'squads=5', '--set', 'command=3', '--trials', '150000', '--seed', 'page'],
      ...['--threads', '2'],
    );
    // The figures never depend on the threads, only the field that records them.
    expect(reserves).toEqual({ ...cliReserves, threads: 1 });
    const cliRollOff = await cliJson(
      ...['run', rollOffPath, '--set', 'bonus=-2', '--trials', '150000', '--seed', 'page', '--threads', '1'],
    );
    expect(rollOff).toEqual(cliRollOff);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it('runs the example in docs/library.md, "In the browser", as written', async () => {
    const doc = readFileSync(join(root, 'docs/library.md'), 'utf8');
    const example = /## In the browser\n[\s\S]*?```js\n([\s\S]*?)```/.exec(doc)?.[1];
    if (!example) throw new Error('docs/library.md has no js example under "In the browser"');
    const script = await build({
      stdin: { contents: `${example}\nwindow.exampleDone = true;\n`, resolveDir: root, loader: 'js' },
      bundle: true,
      write: false,
      platform: 'browser',
      format: 'esm',
      target: 'es2022',
      logLevel: 'silent',
      alias: { 'muster-odds/browser': entry },
    });
    const { page, problems } = await offlinePage(browser);
    const printed: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'log') printed.push(message.text());
    });
    await page.goto(`file://${blank}`);
    await page.addScriptTag({ content: script.outputFiles[0].text, type: 'module' });
    await page.waitForFunction(() => (window as unknown as { exampleDone?: boolean }).exampleDone === true, null, {
      timeout: 30_000,
    });
    const simulated = await cliJson('run', 'reserves', '--seed', 'league', '--trials', '200000');
    expect(printed).toEqual([
      initiativeBruteForce(13, 15),
      rollOffBruteForce(1)['a.wins'],
      String(simulated.metrics['all.by.4'].estimate),
    ]);
    // The values the example's comments give are these.
    expect(example).toContain(`// ${initiativeBruteForce(13, 15)}\n`);
    expect(example).toContain(`// ${rollOffBruteForce(1)['a.wins']}\n`);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);
});
