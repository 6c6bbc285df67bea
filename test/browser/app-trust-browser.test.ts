/**
 * What a newcomer trips on in the calculator and the cards, in headless
 * Chromium (issue 22): links in the CLI's own short forms, fields chosen
 * from lists, hostile links of any size, a rule file's own fault, and a
 * 375-px phone (chart text legible, nothing scrolling sideways).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { appCommand } from '../../src/cli/commands/app.js';
import { cardCommand } from '../../src/cli/commands/card.js';
import { runCommand } from '../../src/cli/commands/run.js';
import { MAX_HASH_LENGTH } from '../../src/page/hash.js';
import type { RunResult } from '../../src/result.js';
import { rules } from '../../src/rules/index.js';
import { bufferIo } from '../support/io.js';
import { describeInChromium, launchChromium, offlinePage } from '../support/offline-page.js';

const folder = mkdtempSync(join(tmpdir(), 'muster-app-trust-'));
const appFile = join(folder, 'app.html');
const faultyAppFile = join(folder, 'faulty-app.html');
const faultyRule = join(folder, 'faulty.mjs');
const faultyExactRule = join(folder, 'faulty-exact.mjs');
let browser: Browser;

/** A designer's rule whose trial throws when asked to: the fault is the file's, not muster's. */
const FAULTY = (id: string, exact: boolean) => `export default {
  id: '${id}',
  title: 'A rule with a bug',
  source: 'a test',
  params: [{ name: 'fail', type: 'boolean', default: false, doc: 'throw in every trial' }],
  metrics: [{ name: 'a.wins', doc: 'player A wins', probability: true }],
  trial(dice, p, out) {
    if (p.fail) throw new Error('the designer slipped');
    out['a.wins'] = dice.d(6) > 3;
  },
  ${exact ? "exact(p) { if (p.fail) throw new Error('the exact slipped'); return { 'a.wins': 0.5 }; }," : ''}
};
`;

const idle = (page: Page) =>
  page.evaluate(() => (window as unknown as { musterApp: { idle(): Promise<void> } }).musterApp.idle());
const go = (page: Page, hash: string) =>
  page.evaluate(
    (next) => (window as unknown as { musterApp: { open(hash: string): Promise<void> } }).musterApp.open(next),
    hash,
  );
const shownResult = (page: Page) =>
  page.evaluate(() => (window as unknown as { musterApp: { result: RunResult | null } }).musterApp.result);

async function open(file: string, hash = '', viewport = { width: 1200, height: 900 }) {
  const opened = await offlinePage(browser, { viewport, blob: true });
  await opened.page.goto(`file://${file}${hash}`);
  await idle(opened.page);
  return opened;
}

/**
 * The smallest chart text as it is drawn on screen, in CSS pixels: each
 * text's font size times how much its SVG is scaled from its own width.
 */
const smallestChartText = (page: Page, scope: string) =>
  page.evaluate((selector) => {
    let least = Infinity;
    let where = '';
    for (const text of document.querySelectorAll<SVGTextElement>(`${selector} .vis svg text`)) {
      if (!(text.textContent ?? '').trim()) continue;
      const svg = text.ownerSVGElement as SVGSVGElement;
      const own = Number(svg.getAttribute('width'));
      const scale = svg.getBoundingClientRect().width / own;
      const size = parseFloat(getComputedStyle(text).fontSize) * scale;
      if (size < least) {
        least = size;
        where = `${svg.closest('[data-chart]')?.getAttribute('data-chart')}: ${text.textContent}`;
      }
    }
    return { least, where };
  }, scope);

describeInChromium('what a newcomer trips on, in headless Chromium', () => {
  beforeAll(async () => {
    await appCommand({ out: appFile }, bufferIo());
    writeFileSync(faultyRule, FAULTY('faulty', false));
    writeFileSync(faultyExactRule, FAULTY('faulty-exact', true));
    await appCommand({ out: faultyAppFile, rule: [faultyRule, faultyExactRule] }, bufferIo());
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it(
    'a link in the short labels the CLI teaches (a=F1, b=S123) opens the same question as muster run --set a=F1 ' +
      '--set b=S123',
    async () => {
      const { page, problems } = await open(appFile, '#deployment?a=F1&b=S123');
      const cli = await runCommand('deployment', { exact: true, set: ['a=F1', 'b=S123'], quiet: true }, bufferIo());
      const shown = await shownResult(page);
      expect(shown?.params).toEqual(cli.params);
      expect(shown?.params.a).toBe('forward:1');
      expect(shown?.params.b).toBe('standard:1,2,3');
      expect(shown?.metrics).toEqual(cli.metrics);
      // The link is rewritten in the canonical form, which reopens the same answer.
      expect(await page.evaluate(() => location.hash)).toContain('a=forward:1&b=standard:1,2,3');
      expect(problems).toEqual([]);
      await page.close();
    },
  );

  it(
    'every choice parameter, and every text parameter a rule’s matrix enumerates, is chosen from a list, on every ' +
      'rule',
    async () => {
      const { page } = await open(appFile);
      for (const rule of rules) {
        await go(page, rule.id);
        const listed = rule.params.filter(
          (spec) =>
            spec.type === 'choice' ||
            (spec.type === 'text' &&
              rule.presentation?.matrix &&
              [rule.presentation.matrix.row, rule.presentation.matrix.col].includes(spec.name)),
        );
        for (const spec of listed) {
          const control = await page.evaluate((id) => {
            const element = document.getElementById(id) as HTMLSelectElement | null;
            return element
              ? { tag: element.tagName, values: [...(element.options ?? [])].map((option) => option.value) }
              : null;
          }, `param-${spec.name}`);
          expect(control?.tag, `${rule.id} ${spec.name}`).toBe('SELECT');
          const expected =
            spec.type === 'choice' ? [...spec.choices] : rule.presentation!.matrix!.defaultValues({}).map(String);
          expect(control?.values, `${rule.id} ${spec.name}`).toEqual(expected);
        }
      }
      // deployment's two strategies are among them: sixteen each, the matrix's own.
      await go(page, 'deployment');
      expect(await page.locator('#param-a option').count()).toBe(16);
      expect(await page.locator('#param-a option[value="forward:1"]').textContent()).toBe('F1 — forward:1');
      await page.close();
    },
  );

  it(
    'hostile links (a megabyte, deep brackets, broken escapes, prototype keys, a 100,000-character seed) give one ' +
      'line and the defaults, never a blank page',
    async () => {
      const { page, problems } = await open(appFile);
      const seed = 'a'.repeat(100_000);
      const cases = [
        `infinity?wipA=${'1'.repeat(1_000_000)}`,
        `infinity?wipA=${'['.repeat(MAX_HASH_LENGTH)}`,
        `infinity?${Array.from({ length: 5000 }, (_, index) => `k${index}=1`).join('&')}`,
        'infinity?wipA=%E0%A4%A&wipB=%&crits=%ZZ',
        'infinity?__proto__=1&constructor=2&toString=3&hasOwnProperty=4&prototype=5&valueOf=6&x=7',
        `infinity?simulate=1&seed=${seed}`,
      ];
      for (const hash of cases) {
        // The same page opening a plain link just before: what the machine takes now, whatever its load.
        const plainStarted = Date.now();
        await go(page, 'infinity?wipA=12');
        const plain = Date.now() - plainStarted;
        const started = Date.now();
        await go(page, hash);
        const where = hash.slice(0, 40);
        // A few lines at most, each short; the page answers (the defaults, or the message by a field).
        const lines = await page.evaluate(() =>
          [...document.querySelectorAll('#hash-problems p')].map((line) => line.textContent ?? ''),
        );
        expect(lines.length, where).toBeLessThanOrEqual(6);
        for (const line of lines) expect(line.length, where).toBeLessThanOrEqual(400);
        expect(await page.evaluate(() => document.body.textContent.length), where).toBeGreaterThan(200);
        expect(await page.locator('#controls select, #controls input').count(), where).toBeGreaterThan(3);
        // The tab stays responsive rather than blocking for seconds: a hostile link costs at most a few plain
        // links' time (5 s on an idle machine, where a plain link takes well under one; scaled on a busy one).
        // Not the megabyte: setting location.hash to a megabyte is Chromium's own work (history, IPC), 6-12 s at
        // load 15 on two cores for this build and the one before it alike; the page's part, refusing it by its
        // length, is held by the one-line check below.
        if (hash.length < 100_000) expect(Date.now() - started, where).toBeLessThan(Math.max(5000, 5 * plain));
      }
      // A link past the bound: one line naming the bound, and the default rule's answer at its defaults.
      await go(page, `infinity?wipA=${'1'.repeat(1_000_000)}`);
      expect(await page.locator('#hash-problems').textContent()).toMatch(
        /^link: got 1,000,0\d\d characters; allowed: at most 16,384 \(the defaults are shown\)$/,
      );
      expect((await shownResult(page))?.rule).toBe(rules[0].id);
      // Prototype keys are reported as unknown parameters and change nothing.
      await go(page, 'infinity?__proto__=1&wipA=13');
      expect(await page.locator('#hash-problems').textContent()).toContain('__proto__: not a parameter of infinity');
      expect((await shownResult(page))?.params.wipA).toBe(13);
      expect(await page.evaluate(() => Object.hasOwn(Object.prototype, 'wipA'))).toBe(false);
      expect(problems).toEqual([]);
      await page.close();
    },
  );

  it('a 100,000-character seed typed into the form: the CLI’s seed rule, named by its length, not echoed', async () => {
    const { page } = await open(appFile, '#infinity?simulate=1');
    await page.fill('#sim-seed', 'b'.repeat(100_000));
    await idle(page);
    const cli = await runCommand(
      'infinity',
      { seed: 'b'.repeat(100_000), trials: '1000', quiet: true },
      bufferIo(),
    ).then(
      () => null,
      (error: Error) => error.message,
    );
    expect(cli).toBe('--seed: got 100,000 characters; allowed: any text of 1 to 200 characters');
    expect(await page.locator('#sim-seed-error').textContent()).toBe(
      'seed: got 100,000 characters; allowed: any text of 1 to 200 characters',
    );
    await page.close();
  });

  it(
    'a rule file that throws, simulated or exact: the rule’s fault in the CLI’s words, not “something went wrong ' +
      'in muster itself”',
    async () => {
      const { page, problems } = await open(faultyAppFile, '#faulty?fail=true&trials=1000');
      const cli = (file: string) =>
        runCommand(file, { set: ['fail=true'], trials: '1000', quiet: true, threads: '1' }, bufferIo()).then(
          () => '',
          (error: Error) => error.message,
        );
      const simulated = await cli(faultyRule);
      expect(simulated).toContain('trial threw');
      // The page tries the rule's dice enumerated first (a rule file without exact()), as muster run --exact does,
      // and the trial throws there: the page says what that command says.
      const enumerated = await runCommand(
        faultyRule,
        { set: ['fail=true'], exact: true, quiet: true },
        bufferIo(),
      ).then(
        () => '',
        (error: Error) => error.message,
      );
      expect(enumerated).toContain('trial threw');
      expect(await page.locator('#status').textContent()).toBe(`No answer: ${enumerated}`);
      const exactMessage = await runCommand(
        faultyExactRule,
        { set: ['fail=true'], exact: true, quiet: true },
        bufferIo(),
      ).then(
        () => '',
        (error: Error) => error.message,
      );
      expect(exactMessage).toContain('exact(params) threw');
      await go(page, 'faulty-exact?fail=true');
      expect(await page.locator('#status').textContent()).toBe(`No answer: ${exactMessage}`);
      expect(await page.locator('#status').textContent()).not.toContain('muster itself');
      // Working, the same file's answer names it as muster run would take it: by its path, not its id.
      await go(page, 'faulty?simulate=1&trials=1000');
      expect(await page.locator('#answer-method').textContent()).toContain(
        `the same figures as muster run ${faultyRule} with that seed and trials`,
      );
      // Its printed card's footer names it so too.
      await go(page, 'faulty-exact');
      expect(
        await page.evaluate(() =>
          (window as unknown as { musterApp: { prepareCard(): Promise<boolean> } }).musterApp.prepareCard(),
        ),
      ).toBe(true);
      expect(await page.locator('#print-card .card-footer').textContent()).toContain(`muster card ${faultyExactRule}`);
      expect(problems.filter((line) => !line.includes('slipped'))).toEqual([]);
      await page.close();
    },
  );

  it(
    'on a 375-px phone the calculator’s chart text is at least 11 px and nothing scrolls sideways, every ' + 'rule',
    async () => {
      const { page } = await open(appFile, '', { width: 375, height: 740 });
      for (const rule of rules) {
        await go(page, rule.id);
        const { least, where } = await smallestChartText(page, '#charts');
        expect(least, where).toBeGreaterThanOrEqual(11 - 0.05);
        expect(await page.evaluate(() => document.documentElement.scrollWidth), rule.id).toBeLessThanOrEqual(375);
      }
      await page.close();
    },
  );

  it(
    'on a 375-px phone every rule’s card keeps its chart text at 11 px or more, each chart and table inside its ' +
      'block, and does not scroll sideways',
    async () => {
      // The layout is what is checked, not the figures: 4,000 trials draw the same charts, tables and labels as the
      // card's default 100,000, in a twenty-fifth of the time. An exact card refuses --trials: it is solved instead.
      const files = [];
      const wide: string[] = [];
      for (const rule of rules) {
        const file = join(folder, `card-${rule.id}.html`);
        try {
          await cardCommand(rule.id, { out: file, quiet: true, trials: '4000' }, bufferIo());
        } catch (error) {
          if (!/card is exact/.test((error as Error).message)) throw error;
          await cardCommand(rule.id, { out: file, quiet: true }, bufferIo());
        }
        files.push({ rule: rule.id, file });
      }
      const { page, problems } = await offlinePage(browser, { viewport: { width: 375, height: 740 } });
      for (const { rule, file } of files) {
        await page.goto(`file://${file}`);
        await page.evaluate(() =>
          (window as unknown as { musterCharts: Promise<unknown> }).musterCharts.then(() => true),
        );
        const { least, where } = await smallestChartText(page, '.card');
        expect(least, `${rule} ${where}`).toBeGreaterThanOrEqual(11 - 0.05);
        expect(await page.evaluate(() => document.scrollingElement?.scrollWidth), rule).toBeLessThanOrEqual(375);
        // Nothing scrolls inside its block either: every block's content, charts and tables, within its width.
        const blocks = await page.evaluate(() =>
          [...document.querySelectorAll<HTMLElement>('.card .block')]
            .filter((block) => block.scrollWidth > block.clientWidth + 0.5)
            .map((block) => `${block.id || block.className}: ${block.scrollWidth} > ${block.clientWidth}`),
        );
        wide.push(...blocks.map((block) => `${rule} ${block}`));
      }
      expect(wide).toEqual([]);
      expect(problems).toEqual([]);
      await page.close();
    },
  );
});
