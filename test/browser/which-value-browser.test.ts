/**
 * "Which value?" in the calculator (src/page/which-value.ts), in headless
 * Chromium offline: the page's answer to a question is the CLI's for the same
 * question — the `balance` block and every point of `muster balance --json`
 * (one varied parameter and two, with the form's other values as --set), and
 * the best point of `muster sweep --best --exact --json` — the command the
 * page prints is that very command, and on a 375-px phone the view scrolls
 * nothing sideways and draws its chart text at 11 px or more. The independent
 * source is the CLI, run as a user runs it; its balance is held against brute
 * force in test/analysis/balance.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { appCommand } from '../../src/cli/commands/app.js';
import { bufferIo } from '../support/io.js';
import { cliJsonText } from '../support/library.js';
import { describeInChromium, launchChromium, offlinePage } from '../support/offline-page.js';

const folder = mkdtempSync(join(tmpdir(), 'muster-which-value-'));
const appFile = join(folder, 'app.html');
let browser: Browser;
let sharedPage: Awaited<ReturnType<typeof offlinePage>>;
let shared: Page;

interface Question {
  first: { name: string; values: string };
  second: { name: string; values: string } | null;
  goal: 'target' | 'max' | 'min';
  metric: string;
  target?: string;
  within?: string;
}

interface PageAnswer {
  command: string;
  result: { method: string; partial: boolean; points: unknown[]; balance: unknown };
  best: unknown;
  words: string;
}

/** The CLI's JSON for argv (a muster command line without `muster`). */
async function cliJson(argv: string[]): Promise<Record<string, unknown>> {
  return JSON.parse(await cliJsonText(folder, 'cli', argv));
}

/** Splits a command the page printed (words quoted with '…' where the shell needs it) into argv. */
function argvOf(command: string): string[] {
  const words = command.match(/'(?:[^']|'\\'')*'|\S+/g) ?? [];
  return words.map((word) => (word.startsWith("'") ? word.slice(1, -1).replaceAll("'\\''", "'") : word)).slice(1);
}

/** Opens the rule at the hash, asks the view the question and reads its answer. */
async function ask(page: Page, hash: string, question: Question): Promise<PageAnswer> {
  await page.evaluate(
    (h) => (window as unknown as { musterApp: { open(h: string): Promise<void> } }).musterApp.open(h),
    hash,
  );
  return page.evaluate(async (q) => {
    const view = (
      window as unknown as {
        musterApp: {
          whichValue: {
            ask(q: unknown): Promise<void>;
            answer: { command: string; result: PageAnswer['result'] & { best?: unknown } } | null;
          };
        };
      }
    ).musterApp.whichValue;
    await view.ask(q);
    const answer = view.answer;
    if (!answer) throw new Error(document.querySelector('.which-status')?.textContent ?? 'no answer');
    return {
      command: answer.command,
      result: JSON.parse(JSON.stringify(answer.result)),
      best: null,
      words: document.querySelector('.which-words')?.textContent ?? '',
    };
  }, question);
}

const QUESTIONS: Array<[string, Question, string]> = [
  // The roll-off: ties roll again, so bonus 0 is fair exactly (symmetry: 1/2); 60% lies between bonus 0 and 1.
  [
    'rolloff',
    { first: { name: 'bonusA', values: '-2..4' }, second: null, goal: 'target', metric: 'a.wins', target: '50%' },
    'hit',
  ],
  [
    'rolloff',
    { first: { name: 'bonusA', values: '-2..4' }, second: null, goal: 'target', metric: 'a.wins', target: '60%' },
    'between',
  ],
  // Reserves with command 3 set in the form (a --set), two varied parameters, and --within.
  [
    'reserves?command=3',
    {
      first: { name: 'squads', values: '4..6' },
      second: { name: 'target', values: '5..8' },
      goal: 'target',
      metric: 'all.by.4',
      target: '80%',
      within: '5pp',
    },
    '',
  ],
  // Infinity WIP pairs, two parameters, the target as a fraction.
  [
    'infinity',
    {
      first: { name: 'wipA', values: '11..14' },
      second: { name: 'wipB', values: '12,13' },
      goal: 'target',
      metric: 'a.wins',
      target: '1/2',
    },
    '',
  ],
];

describeInChromium('"Which value?" in the calculator, in headless Chromium', () => {
  beforeAll(async () => {
    await appCommand({ out: appFile }, bufferIo());
    browser = await launchChromium();
    sharedPage = await offlinePage(browser, { blob: true });
    shared = sharedPage.page;
    await shared.goto(`file://${appFile}`);
  });
  afterAll(async () => {
    await shared?.close();
    await browser?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it.each(QUESTIONS)(
    'nearest a target (#%s): muster balance --json’s balance block and every point',
    async (hash, question, reach) => {
      const answer = await ask(shared, hash, question);
      expect(answer.command.startsWith('muster balance ')).toBe(true);
      const cli = await cliJson(argvOf(answer.command));
      expect(answer.result.method).toBe('exact');
      expect(answer.result.partial).toBe(false);
      expect(answer.result.balance, answer.command).toEqual(cli.balance);
      expect(answer.result.points).toEqual(cli.points);
      if (reach) expect((answer.result.balance as { reach: string }).reach).toBe(reach);
      expect(answer.words.length).toBeGreaterThan(0);
      expect(sharedPage.problems).toEqual([]);
      expect(sharedPage.requests).toEqual([]);
    },
  );

  it('the highest and lowest: the best point of muster sweep --best --exact --json', async () => {
    for (const goal of ['max', 'min'] as const) {
      const answer = await ask(shared, 'reserves', {
        first: { name: 'command', values: '1..4' },
        second: null,
        goal,
        metric: 'all.by.3',
      });
      expect(answer.command).toMatch(/^muster sweep reserves /);
      const cli = (await cliJson(argvOf(answer.command))) as { best: { params: unknown; value: number } };
      // The words name the best setting and its value as the CLI found it.
      expect(answer.words).toContain(`${goal === 'max' ? 'Highest' : 'Lowest'} all.by.3`);
      const [[name, value]] = Object.entries(cli.best.params as Record<string, unknown>);
      expect(answer.words).toContain(`${name}=${value}`);
    }
    expect(sharedPage.problems).toEqual([]);
  });

  it('past its time limit the page stops, weighs the settings finished and says so', async () => {
    const limit = (ms: number | null) =>
      shared.evaluate((value) => {
        const view = (window as unknown as { musterApp: { whichValue: { limitMs: number } } }).musterApp.whichValue;
        const before = view.limitMs;
        if (value !== null) view.limitMs = value;
        return before;
      }, ms);
    const usual = await limit(1);
    try {
      // 100 × 10 = 1,000 settings, a grid's most: the solver hears the stop at its first pause, 50 ms of solving in,
      // with about a third of them solved (322 in headless Chromium here). A balance leaves out the points'
      // distributions, so the 671 settings of 40 to 100 squads this asked before now take less than 50 ms there.
      const answer = await ask(shared, 'reserves', {
        first: { name: 'squads', values: '1..100' },
        second: { name: 'rounds', values: '3..12' },
        goal: 'target',
        metric: 'all.by.4',
        target: '80%',
      });
      expect(answer.result.partial).toBe(true);
      expect(answer.result.points.length).toBeLessThan(1000);
      expect(answer.words).toMatch(
        /^Stopped after 0\.001 s with \d+ of the settings worked out: only those are weighed/,
      );
    } finally {
      await limit(usual);
    }
    expect(usual).toBe(20_000);
  });

  it('on a 375-px phone: nothing scrolls sideways, the map text is 11 px or more', async () => {
    const { page, problems } = await offlinePage(browser, { viewport: { width: 375, height: 740 }, blob: true });
    await page.goto(`file://${appFile}`);
    await ask(page, 'reserves', {
      first: { name: 'squads', values: '4..8' },
      second: { name: 'target', values: '4..9' },
      goal: 'target',
      metric: 'all.by.4',
      target: '80%',
    });
    const least = await page.evaluate(() => {
      const svg = document.querySelector('#which-value svg');
      if (!svg) return 0;
      const scale = svg.getBoundingClientRect().width / Number(svg.getAttribute('width'));
      let smallest = Infinity;
      for (const text of svg.querySelectorAll('text'))
        if ((text.textContent ?? '').trim())
          smallest = Math.min(smallest, parseFloat(getComputedStyle(text).fontSize) * scale);
      return smallest;
    });
    expect(least).toBeGreaterThanOrEqual(11 - 0.05);
    expect(await page.evaluate(() => document.scrollingElement?.scrollWidth)).toBeLessThanOrEqual(375);
    expect(problems).toEqual([]);
    await page.close();
  });
});
