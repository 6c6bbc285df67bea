/**
 * The calculator page in a real browser (Debian's Chromium through
 * playwright-core), opened from file:// with every non-file request aborted.
 * The figures it shows are checked against the CLI's for several parameter
 * sets of every rule, set through the hash and through the form; its
 * simulation against `muster run` with the same seed and trials, bit for
 * bit; and it must print one page, fit a 375-px phone, work by keyboard and
 * keep hostile rule text as text.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { appCommand } from '../../src/cli/commands/app.js';
import { runCommand } from '../../src/cli/commands/run.js';
import { formatValue } from '../../src/cli/format.js';
import { chunkCount, chunkTrials } from '../../src/engine/chunks.js';
import { chunkStream, DEFAULT_STREAM } from '../../src/engine/random.js';
import { buildAppHtml } from '../../src/page/build.js';
import { formatHash } from '../../src/page/hash.js';
import type { RunResult } from '../../src/result.js';
import { getRule, rules } from '../../src/rules/index.js';
import { estimate } from '../../src/stats/estimate.js';
import { diceRule } from '../fixtures/app-rules.js';
import { CLUB_LOST_ONE, writeClubRules } from '../support/club-rules.js';
import { HOSTILE } from '../support/hostile.js';
import { bufferIo } from '../support/io.js';
import { countPdfPages, describeInChromium, launchChromium, offlinePage } from '../support/offline-page.js';

const folder = mkdtempSync(join(tmpdir(), 'muster-app-browser-'));
const appFile = join(folder, 'app.html');
const fixtureFile = join(folder, 'fixture-app.html');
const clubAppFile = join(folder, 'club-app.html');
// Rule files a designer wrote, in a folder of their own outside the repository.
const clubFolder = mkdtempSync(join(tmpdir(), 'muster-club-rules-'));
const club = writeClubRules(clubFolder);
let browser: Browser;

/** Several parameter sets of every rule, as `--set` takes them: defaults, the README's questions, and corners. */
const CASES: Record<string, string[][]> = {
  reserves: [
    [],
    ['chosenRound=3', 'command=3'],
    ['squads=6', 'chosenRound=2', 'command=3', 'leaderLoss=0.15', 'fallbackCommand=1'],
    ['rounds=5', 'target=6'],
  ],
  deployment: [[], ['a=standard:1,2,4', 'b=forward:4'], ['a=forward:6', 'compare=modified']],
  infinity: [
    ['wipA=13', 'wipB=15'],
    ['wipA=25', 'wipB=8', 'crits=false'],
    ['wipA=30', 'wipB=21'],
  ],
  noctvale: [[], ['fightersA=7', 'fightersB=9', 'groups=2'], ['fightersA=12', 'fightersB=12', 'groups=5']],
  warbands: [[], ['warbands=100:5,90:6,80:7,150:12', 'allies=2+3'], ['defender=false', 'warbands=120:8,120:8']],
  fow: [
    [],
    ['attackerPlatoons=8', 'defenderPlatoons=7', 'ambush=false'],
    ['hit=4', 'guarantee=0', 'scatter=1-3:left,4-6:right', 'turns=6'],
  ],
  rolloff: [[], ['bonusA=2'], ['bonusA=-6']],
};

const split = (assignment: string): [string, string] => {
  const equals = assignment.indexOf('=');
  return [assignment.slice(0, equals), assignment.slice(equals + 1)];
};

interface Opened {
  page: Page;
  problems: string[];
  requests: string[];
}

/**
 * Opens a page from file:// with the network blocked, collecting console errors and any request that tried to leave.
 */
async function open(file: string, hash = '', viewport = { width: 1200, height: 900 }): Promise<Opened> {
  const { page, problems, requests } = await offlinePage(browser, { viewport, blob: true });
  await page.goto(`file://${file}${hash}`);
  await idle(page);
  return { page, problems, requests };
}

/** Goes to a hash as a followed link would, and waits until the page shows it. */
const go = (page: Page, hash: string) =>
  page.evaluate(
    (next) => (window as unknown as { musterApp: { open(hash: string): Promise<void> } }).musterApp.open(next),
    hash,
  );
const idle = (page: Page) =>
  page.evaluate(() => (window as unknown as { musterApp: { idle(): Promise<void> } }).musterApp.idle());
const shownResult = (page: Page) =>
  page.evaluate(() => (window as unknown as { musterApp: { result: RunResult | null } }).musterApp.result);

/**
 * Metric name → the value cells of its row in the "Every metric" table, as shown (first line only: the fraction is on
 * its own line).
 */
const shownTable = (page: Page) =>
  page.evaluate(() => {
    const rows: Record<string, string[]> = {};
    for (const row of document.querySelectorAll('#metrics-table tbody tr')) {
      const cells = [...row.querySelectorAll('td')];
      rows[cells[0].textContent ?? ''] = cells.slice(2).map((cell) => cell.firstChild?.textContent ?? '');
    }
    return rows;
  });

const shownHeadline = (page: Page) =>
  page.evaluate(() =>
    Object.fromEntries(
      [...document.querySelectorAll<HTMLElement>('#headline .figure')].map((figure) => [
        figure.dataset.metric,
        figure.querySelector('.figure-value')?.textContent,
      ]),
    ),
  );

/**
 * The page's figures against the CLI's `muster run --exact` at the same parameters: the numbers behind them and the
 * text shown.
 */
async function expectExactLikeCli(page: Page, ruleId: string, set: string[]): Promise<void> {
  const cli = await runCommand(ruleId, { exact: true, set, quiet: true }, bufferIo());
  const result = await shownResult(page);
  const where = `${ruleId} ${set.join(' ')}`;
  expect(result, where).not.toBeNull();
  expect(result?.params, where).toEqual(cli.params);
  const metrics = getRule(ruleId).metrics(cli.params);
  expect(Object.keys(result?.metrics ?? {}), where).toEqual(metrics.map((metric) => metric.name));
  const table = await shownTable(page);
  const headline = await shownHeadline(page);
  expect(Object.keys(headline).length, where).toBeGreaterThan(0);
  for (const metric of metrics) {
    const exact = cli.metrics[metric.name].exact;
    expect(result?.metrics[metric.name].exact, `${where} ${metric.name}`).toBe(exact);
    expect(table[metric.name], `${where} ${metric.name}`).toEqual([formatValue(exact, metric.probability)]);
    if (metric.name in headline)
      expect(headline[metric.name], `${where} headline ${metric.name}`).toBe(formatValue(exact, metric.probability));
  }
}

describeInChromium('the calculator page in headless Chromium', () => {
  beforeAll(async () => {
    await appCommand({ out: appFile }, bufferIo());
    const fixture = await buildAppHtml({
      extraRulesModule: join(import.meta.dirname, '..', 'fixtures', 'app-rules.ts'),
    });
    writeFileSync(fixtureFile, fixture.html);
    await appCommand({ out: clubAppFile, rule: [club.reserves, club.rolloff] }, bufferIo());
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    rmSync(folder, { recursive: true, force: true });
    rmSync(clubFolder, { recursive: true, force: true });
  });

  it('parameters set through the hash: every rule, several sets, the CLI’s exact values shown', async () => {
    const { page, problems, requests } = await open(appFile);
    for (const rule of rules) {
      for (const set of CASES[rule.id]) {
        await go(page, formatHash(rule.id, set.map(split)));
        await expectExactLikeCli(page, rule.id, set);
        // The rule's charts are drawn, each with marks.
        const marks = await page.evaluate(() =>
          [...document.querySelectorAll('#charts .vis')].map(
            (vis) => vis.querySelectorAll('svg .role-mark > *').length,
          ),
        );
        expect(marks.length, rule.id).toBeGreaterThan(0);
        for (const count of marks) expect(count, rule.id).toBeGreaterThan(0);
      }
    }
    expect(problems).toEqual([]);
    expect(requests).toEqual([]);
    await page.close();
  });

  it('a hand-worked case: equal WIP without criticals is a coin toss, 50.000% = 1/2', async () => {
    const { page } = await open(appFile, '#infinity?wipA=11&wipB=11&crits=false');
    expect((await shownHeadline(page))['a.wins']).toBe('50.000%');
    expect(await page.locator('#headline .figure[data-metric="a.wins"] .figure-fraction').textContent()).toBe(
      'exactly = 1/2',
    );
    await page.close();
  });

  it(
    'parameters set through the form: every rule, the hash follows, and the link reopens the same ' + 'answer',
    async () => {
      const { page, problems } = await open(appFile);
      for (const rule of rules) {
        await page.selectOption('#rule-picker', rule.id);
        await idle(page);
        const set = CASES[rule.id][CASES[rule.id].length - 1];
        for (const [name, value] of set.map(split)) {
          const spec = rule.params.find((candidate) => candidate.name === name)!;
          const field = `#param-${name}`;
          if (spec.type === 'boolean') await page.setChecked(field, value === 'true');
          else if ((await page.locator(field).evaluate((control) => control.tagName)) === 'SELECT')
            await page.selectOption(field, value);
          else await page.fill(field, value);
          await idle(page);
        }
        await expectExactLikeCli(page, rule.id, set);
        const hash = await page.evaluate(() => location.hash);
        const written = Object.fromEntries(
          new URLSearchParams(hash.slice(hash.indexOf('?') + 1).replaceAll('+', '%2B')),
        );
        for (const [name, value] of set.map(split)) expect(written[name], `${rule.id} ${name}`).toBe(value);
        // Followed as a link from elsewhere, the hash gives the same answer.
        await go(page, rules.find((other) => other.id !== rule.id)!.id);
        await go(page, hash.slice(1));
        await expectExactLikeCli(page, rule.id, set);
      }
      expect(problems).toEqual([]);
      await page.close();
    },
  );

  it(
    'a parameter change redraws the charts with the new figures, swapping only the data where the chart keeps its ' +
      'shape',
    async () => {
      const { page, problems } = await open(appFile, '#infinity');
      const chartText = (id: string) => page.locator(`#charts section[data-chart="${id}"] svg`).textContent();
      expect(await chartText('infinity-probabilities')).toContain('50.0%');
      await page.evaluate(() => {
        (
          document.querySelector('section[data-chart="infinity-probabilities"]') as HTMLElement & { marked?: boolean }
        ).marked = true;
      });
      await page.fill('#param-wipB', '15');
      await idle(page);
      // 41.193% and 58.807% (145/352 and 207/352, as the CLI gives them), labelled to one decimal.
      const probabilities = await chartText('infinity-probabilities');
      expect(probabilities).toContain('41.2%');
      expect(probabilities).toContain('58.8%');
      expect(probabilities).not.toContain('50.0%');
      expect(
        await page.evaluate(
          () =>
            (
              document.querySelector('section[data-chart="infinity-probabilities"]') as HTMLElement & {
                marked?: boolean;
              }
            ).marked,
        ),
      ).toBe(true);
      // The first chart's legend names the WIP, so its shape changed and it was drawn afresh.
      expect(await chartText('infinity-initiative')).toContain('player B (WIP 15)');
      expect(await page.locator('#charts section.chart').count()).toBe(2);
      expect(problems).toEqual([]);
      await page.close();
    },
  );

  it(
    'invalid values in the hash: the CLI’s message beside each field, a notice instead of figures, no blank ' + 'page',
    async () => {
      const { page, problems } = await open(appFile, '#infinity?wipA=abc&wipB=31&crits=maybe&wip=1');
      for (const [name, value] of [
        ['wipA', 'abc'],
        ['wipB', '31'],
        ['crits', 'maybe'],
      ]) {
        const shown = await page.locator(`#param-${name}-error`).textContent();
        const cliError = await runCommand('infinity', { exact: true, set: [`${name}=${value}`] }, bufferIo()).then(
          () => null,
          (error: Error) => error.message,
        );
        expect(shown).toBe(cliError);
        expect(shown).toMatch(new RegExp(`^${name}: got "${value}"; allowed: `));
        expect(await page.getAttribute(`#param-${name}`, 'aria-invalid')).toBe('true');
      }
      const unknown = await runCommand('infinity', { exact: true, set: ['wip=1'] }, bufferIo()).then(
        () => null,
        (error: Error) => error.message,
      );
      expect(unknown).toMatch(/^wip: not a parameter of infinity/);
      expect(await page.locator('#hash-problems').textContent()).toContain(unknown);
      expect(await page.locator('#status').textContent()).toBe(
        'No answer yet: wipA, wipB, crits need a different value (see the message by the field).',
      );
      expect(await page.locator('#charts .vis').count()).toBe(0);
      expect(await shownResult(page)).toBeNull();
      // A cross-parameter check lands on its field too; here the hash is edited as a user would, and the page follows.
      await page.evaluate(() => {
        location.hash = 'reserves?rounds=3&chosenRound=4';
      });
      await page.waitForFunction(() => document.getElementById('param-chosenRound-error')?.hidden === false);
      await idle(page);
      expect(await page.locator('#param-chosenRound-error').textContent()).toBe(
        'chosenRound: got 4; allowed: 0 (none) to rounds (3)',
      );
      // Fixing the field brings the answer back.
      await page.fill('#param-chosenRound', '3');
      await idle(page);
      await expectExactLikeCli(page, 'reserves', ['rounds=3', 'chosenRound=3']);
      expect(await page.locator('#param-chosenRound-error').isHidden()).toBe(true);
      expect(problems).toEqual([]);
      await page.close();
    },
  );

  it(
    'seed "browser", 150,001 trials (a short last chunk): the page’s simulation equals muster run’s, bit for ' + 'bit',
    async () => {
      const set = ['squads=6', 'chosenRound=2', 'command=3', 'leaderLoss=0.15', 'fallbackCommand=1'];
      const page = await browser.newPage();
      // Record whether a progress bar ever showed: the run may be over before the test could look.
      await page.addInitScript(() => {
        new MutationObserver(() => {
          if (document.getElementById('sim-progress'))
            (window as unknown as { sawProgress: boolean }).sawProgress = true;
        }).observe(document, { childList: true, subtree: true });
      });
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      await page.route('**/*', (route) =>
        /^(file|blob):/.test(route.request().url()) ? route.continue() : route.abort(),
      );
      await page.goto(
        `file://${appFile}#${formatHash('reserves', [...set.map(split), ['simulate', '1'], ['trials', '150001'], ['seed', 'browser']])}`,
      );
      await idle(page);
      const cli = await runCommand(
        'reserves',
        { set, trials: '150001', seed: 'browser', threads: '2', quiet: true },
        bufferIo(),
      );
      const shown = await shownResult(page);
      expect(shown?.method).toBe('simulation');
      expect(shown?.trials).toBe(150_001);
      expect(shown?.metrics).toEqual(cli.metrics);
      const table = await shownTable(page);
      for (const metric of getRule('reserves').metrics(cli.params)) {
        const value = cli.metrics[metric.name];
        const show = (x: number | null) => formatValue(x, metric.probability);
        expect(table[metric.name], metric.name).toEqual([
          show(value.estimate),
          `${show(value.lo)} – ${show(value.hi)}`,
          show(value.exact),
        ]);
      }
      expect(await page.evaluate(() => (window as unknown as { sawProgress?: boolean }).sawProgress)).toBe(true);
      expect(await page.locator('#answer-method').textContent()).toContain('150,001 trials, seed "browser"');
      expect(problems).toEqual([]);
      await page.close();
    },
  );

  it(
    'seed "muster": a bundled rule with no exact solution is simulated in the page, as muster’s engine ' + 'would',
    async () => {
      const { page, problems, requests } = await open(fixtureFile, '#dice?target=5&trials=100000');
      const shown = await shownResult(page);
      expect(shown?.method).toBe('simulation');
      // The same chunks on the same streams, run here in Node.
      const tally = new Float64Array(1);
      for (let chunk = 0; chunk < chunkCount(100_000); chunk++)
        diceRule.tally.simulate(
          { target: 5 },
          chunkStream('muster', 'dice', chunk, DEFAULT_STREAM),
          chunkTrials(chunk, 100_000),
          tally,
        );
      const expected = estimate(diceRule.tally.summarize({ target: 5 }, tally, 100_000).p, 0.95);
      expect(shown?.metrics.p).toEqual({ ...expected, exact: null, fraction: null });
      // And it is right: a die shows 5 or 6 a third of the time. 5σ with σ = √(⅓·⅔/100000) ≈ 0.00149.
      expect(Math.abs((shown?.metrics.p.estimate ?? 0) - 1 / 3)).toBeLessThan(
        5 * Math.sqrt(((1 / 3) * (2 / 3)) / 100_000),
      );
      expect(await page.isDisabled('#sim-on')).toBe(true);
      expect(await page.isChecked('#sim-on')).toBe(true);
      expect(problems).toEqual([]);
      expect(requests).toEqual([]);
      await page.close();
    },
  );

  it(
    'seed "muster", stream=1 in the link: the page simulates on stream 1, as muster run --stream 1 would, and ' +
      'says so',
    async () => {
      const { page, problems, requests } = await open(fixtureFile, '#dice?target=5&trials=100000&stream=1');
      const shown = await shownResult(page);
      const tally = new Float64Array(1);
      for (let chunk = 0; chunk < chunkCount(100_000); chunk++)
        diceRule.tally.simulate(
          { target: 5 },
          chunkStream('muster', 'dice', chunk, 1),
          chunkTrials(chunk, 100_000),
          tally,
        );
      const expected = estimate(diceRule.tally.summarize({ target: 5 }, tally, 100_000).p, 0.95);
      expect(shown?.stream).toBe(1);
      expect(shown?.metrics.p).toEqual({ ...expected, exact: null, fraction: null });
      expect(await page.inputValue('#sim-stream')).toBe('1');
      expect(await page.locator('#answer-method').textContent()).toContain('stream 1');
      // A stream the page does not have is shown beside its field, in the CLI's words, and nothing is simulated.
      await page.fill('#sim-stream', '6');
      await page.waitForFunction(() => !document.getElementById('sim-stream-error')?.hidden);
      expect(await page.locator('#sim-stream-error').textContent()).toMatch(
        /^stream: got "6"; allowed: 5 \(the default\), 4 \(.*\) or 1 \(/,
      );
      expect(problems).toEqual([]);
      expect(requests).toEqual([]);
      await page.close();
    },
  );

  it('hostile text in a bundled rule’s title, parameter and metric stays text', async () => {
    const { page, problems } = await open(fixtureFile, '#echo');
    expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.locator('#answer-title').textContent()).toBe(`Echo ${HOSTILE}`);
    expect(await page.inputValue('#param-label')).toBe(HOSTILE);
    expect(await page.locator('#metrics-table').textContent()).toContain(`a third ${HOSTILE}`);
    expect(await page.locator('#rule-picker option[value="echo"]').textContent()).toBe(`Echo ${HOSTILE} (echo)`);
    expect(problems).toEqual([]);
    await page.close();
  });

  it(
    'printed without the button (the browser’s own command) before the card is drawn, the page’s fallback layout ' +
      'is one page: the answer, its chart and a short table, not the form — every rule at its defaults and ' +
      'more',
    async () => {
      const { page } = await open(appFile);
      // The card is never drawn on its own here, so the fallback is what prints.
      await page.evaluate(
        () => ((window as unknown as { musterApp: { cardAfterMs: number } }).musterApp.cardAfterMs = Infinity),
      );
      await page.emulateMedia({ media: 'print' });
      // The rules at their defaults, the longest table that still prints (12 rows), and a rule whose headline is 40
      // figures.
      for (const hash of [
        ...rules.map((rule) => rule.id),
        'warbands?warbands=100:5,90:6',
        'fow?turns=20&attackerPlatoons=30',
      ]) {
        await go(page, hash);
        expect(await page.locator('#controls').isVisible(), hash).toBe(false);
        expect(await page.locator('#headline').isVisible(), hash).toBe(true);
        expect(await page.locator('#charts section.chart').first().isVisible(), hash).toBe(true);
        expect(await page.locator('#print-link').textContent(), hash).toMatch(/^This card: app\.html#/);
        const pdf = await page.pdf({ format: 'A4' });
        expect(countPdfPages(pdf), hash).toBe(1);
      }
      await page.close();
    },
  );

  it(
    'an answer that has stood a moment gets its card drawn on its own: the browser’s own print command then ' +
      'prints the card, one page',
    async () => {
      const { page, problems, requests } = await open(appFile);
      for (const [hash, ruleId] of [
        ['infinity?wipA=13&wipB=15', 'infinity'],
        ['reserves?chosenRound=3&command=3', 'reserves'],
      ]) {
        await go(page, hash);
        await page.waitForFunction(() => document.body.classList.contains('card-ready'));
        expect(await page.locator('#print-card .card').getAttribute('data-rule'), hash).toBe(ruleId);
        await page.emulateMedia({ media: 'print' });
        expect(await page.locator('#print-card .card').isVisible(), hash).toBe(true);
        expect(await page.locator('#controls').isVisible(), hash).toBe(false);
        expect(countPdfPages(await page.pdf({ format: 'A4' })), hash).toBe(1);
        await page.emulateMedia({ media: 'screen' });
        // A change drops the card at once: until the new one is drawn, the fallback layout prints, never a stale card.
        await page.fill('#param-wipA, #param-squads', '5');
        expect(await page.evaluate(() => document.body.classList.contains('card-ready')), hash).toBe(false);
      }
      expect(problems).toEqual([]);
      expect(requests).toEqual([]);
      await page.close();
    },
  );

  it(
    'the print button prints the odds card for the rule and parameters shown: every rule, defaults and more, one ' +
      'A4 and one Letter page',
    async () => {
      const { page, problems, requests } = await open(appFile);
      await page.evaluate(() => {
        window.print = () => {
          const counted = window as unknown as { printed?: number };
          counted.printed = (counted.printed ?? 0) + 1;
        };
      });
      const printed = () => page.evaluate(() => (window as unknown as { printed?: number }).printed ?? 0);
      const eight = Array.from({ length: 8 }, (_, index) => `${1000 + index}:${100 + index}`).join(',');
      // Each rule at its defaults; then set parameters the card must show (its footer lists the fixed ones), and the
      // largest tables.
      const cases: Array<[string, string[]]> = [
        ...rules.map((rule): [string, string[]] => [rule.id, []]),
        ['infinity?crits=false', ['crits=false']],
        ['fow?turns=20&attackerPlatoons=30', ['turns=20', 'attackerPlatoons=30']],
        [`warbands?warbands=${eight}&allies=1+2,3+4`, [`warbands=${eight}`]],
        ['reserves?squads=6&target=6', ['squads=6', 'target=6']],
        ['noctvale?groups=5', ['groups=5']],
      ];
      for (const [hash, shown] of cases) {
        const ruleId = hash.split('?')[0];
        await go(page, hash);
        const before = await printed();
        await page.click('#print');
        await page.waitForFunction(
          (count) => ((window as unknown as { printed?: number }).printed ?? 0) > count,
          before,
        );
        expect(await printed(), hash).toBe(before + 1);
        expect(await page.evaluate(() => document.body.classList.contains('card-ready')), hash).toBe(true);
        expect(await page.locator('#print-card .card').getAttribute('data-rule'), hash).toBe(ruleId);
        const footer = (await page.locator('#print-card .card-footer').textContent()) ?? '';
        for (const assignment of shown) expect(footer, hash).toContain(assignment);
        expect(await page.locator('#print-card .card-link').textContent(), hash).toBe(
          `Reopen this question: app.html${await page.evaluate(() => location.hash)}`,
        );
        // Every chart of the card is drawn, with marks.
        const marks = await page.evaluate(() =>
          [...document.querySelectorAll('#print-card .vis')].map(
            (vis) => vis.querySelectorAll('svg .role-mark > *').length,
          ),
        );
        expect(marks.length, hash).toBeGreaterThan(0);
        for (const count of marks) expect(count, hash).toBeGreaterThan(0);
        await page.emulateMedia({ media: 'print' });
        expect(await page.locator('#controls').isVisible(), hash).toBe(false);
        expect(await page.locator('#answer').isVisible(), hash).toBe(false);
        expect(await page.locator('#print-card .card h1').isVisible(), hash).toBe(true);
        for (const format of ['A4', 'Letter']) {
          const pdf = await page.pdf({ format });
          expect(countPdfPages(pdf), `${hash} ${format}`).toBe(1);
        }
        await page.emulateMedia({ media: 'screen' });
      }
      // A change drops the card: printed now (by the browser's own command) the page's fallback layout prints the new
      // answer, never the old card.
      await go(page, 'infinity?wipA=10');
      expect(await page.evaluate(() => document.body.classList.contains('card-ready'))).toBe(false);
      expect(await page.locator('#print-card').innerHTML()).toBe('');
      expect(problems).toEqual([]);
      expect(requests).toEqual([]);
      await page.close();
    },
  );

  it(
    'muster app --rule: a designer’s rule files are offered, computed exactly like muster run FILE --exact, ' +
      'simulated bit for bit like muster run FILE, and printed as a card',
    async () => {
      const { page, problems, requests } = await open(clubAppFile, '#club-reserves');
      const offered = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLOptionElement>('#rule-picker option')].map((option) => option.value),
      );
      expect(offered).toEqual([...rules.map((rule) => rule.id), 'club-reserves', 'club-rolloff']);

      // With exact(): the page's figures are muster run FILE --exact's.
      for (const set of [[], ['squads=1', 'target=9'], ['squads=12', 'target=16']]) {
        await go(page, formatHash('club-reserves', set.map(split)));
        const cli = await runCommand(club.reserves, { exact: true, set, quiet: true }, bufferIo());
        const shown = await shownResult(page);
        expect(shown?.method, set.join(' ')).toBe('exact');
        expect(shown?.params, set.join(' ')).toEqual(cli.params);
        expect(shown?.metrics, set.join(' ')).toEqual(cli.metrics);
        const table = await shownTable(page);
        expect(table['all.by.4'], set.join(' ')).toEqual([formatValue(cli.metrics['all.by.4'].exact, true)]);
      }
      // And right, by hand (test/support/club-rules.ts): one squad, target 9.
      await go(page, 'club-reserves?squads=1&target=9');
      const one = await shownResult(page);
      expect(one?.metrics['all.by.4'].exact).toBeCloseTo(1 - CLUB_LOST_ONE, 12);
      expect(one?.metrics['lost.mean'].exact).toBeCloseTo(CLUB_LOST_ONE, 12);

      // Without exact(): simulated in the page's workers, the same figures as muster run FILE with that seed and trials.
      await go(
        page,
        formatHash('club-rolloff', [
          ['bonusA', '0'],
          ['trials', '150001'],
          ['seed', 'browser'],
        ]),
      );
      const cli = await runCommand(
        club.rolloff,
        { set: ['bonusA=0'], trials: '150001', seed: 'browser', threads: '2', quiet: true },
        bufferIo(),
      );
      const shown = await shownResult(page);
      expect(shown?.method).toBe('simulation');
      expect(shown?.trials).toBe(150_001);
      expect(shown?.metrics).toEqual(cli.metrics);
      expect(await page.isDisabled('#sim-on')).toBe(true);
      // And right: with no bonus the roll-off is fair by symmetry. 5σ, σ = √(¼ / 150001) ≈ 0.00129.
      expect(Math.abs((shown?.metrics['a.wins'].estimate ?? 0) - 0.5)).toBeLessThan(5 * Math.sqrt(0.25 / 150_001));

      // The rule with exact(), simulated on request: muster run FILE's figures too.
      await go(
        page,
        formatHash('club-reserves', [
          ['target', '11'],
          ['simulate', '1'],
          ['trials', '50000'],
          ['seed', 's'],
        ]),
      );
      const simulated = await runCommand(
        club.reserves,
        { set: ['target=11'], trials: '50000', seed: 's', threads: '2', quiet: true },
        bufferIo(),
      );
      expect((await shownResult(page))?.metrics).toEqual(simulated.metrics);

      // The print button prints its card, on one page.
      await page.evaluate(() => {
        window.print = () => undefined;
      });
      await page.click('#print');
      await page.waitForFunction(() => document.body.classList.contains('card-ready'));
      expect(await page.locator('#print-card .card').getAttribute('data-rule')).toBe('club-reserves');
      await page.emulateMedia({ media: 'print' });
      const pdf = await page.pdf({ format: 'A4' });
      expect(countPdfPages(pdf)).toBe(1);
      expect(problems).toEqual([]);
      expect(requests).toEqual([]);
      await page.close();
    },
  );

  it('on a 375-px phone nothing runs off the side: every rule, long lists and long metric names', async () => {
    const { page } = await open(appFile, '', { width: 375, height: 740 });
    const eight = Array.from({ length: 8 }, (_, index) => `${1000 + index}:${100 + index}`).join(',');
    for (const hash of [
      ...rules.map((rule) => rule.id),
      `warbands?warbands=${eight}&allies=1+2,3+4`,
      'fow?turns=20&attackerPlatoons=30',
    ]) {
      await go(page, hash);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), hash).toBeLessThanOrEqual(375);
    }
    await page.close();
  });

  it('by keyboard alone: pick a rule, tab to a field, type a value; every control has its label', async () => {
    const { page } = await open(appFile, '#reserves');
    const unlabelled = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLInputElement>('#controls input, #controls select')]
        .filter((control) => (control.labels?.length ?? 0) === 0)
        .map((control) => control.id),
    );
    expect(unlabelled).toEqual([]);
    await page.focus('#rule-picker');
    await page.keyboard.press('ArrowDown'); // reserves → deployment
    await idle(page);
    expect(await page.evaluate(() => location.hash.split('?')[0])).toBe('#deployment');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('param-a');
    // The strategy is a list, labelled as the matrix prints it: typing its label picks it.
    await page.keyboard.type('F6');
    await idle(page);
    await expectExactLikeCli(page, 'deployment', ['a=forward:6']);
    await page.close();
  });
});
