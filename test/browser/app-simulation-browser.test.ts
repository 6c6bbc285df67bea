/**
 * The calculator page's simulation in Debian's Chromium: workers kept
 * across changes (every Worker the page constructs is counted by an init
 * script that wraps window.Worker, and every message to and from them is
 * logged), a progress bar that reaches 100%, the estimate shown growing as
 * chunks come in, a change mid-run that stops the run's workers at their
 * next chunk, a worker that cannot answer replaced, and the answer's time
 * counted from the change. Every figure is checked against `muster run`
 * with the same seed and trials (the CLI is the independent source: its
 * pool, its merging, its own process).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { appCommand } from '../../src/cli/commands/app.js';
import { runCommand } from '../../src/cli/commands/run.js';
import { formatValue } from '../../src/cli/format.js';
import { CHUNK_TRIALS, chunkCount, chunkTrials } from '../../src/engine/chunks.js';
import { chunkStream, DEFAULT_STREAM } from '../../src/engine/random.js';
import { buildAppHtml } from '../../src/page/build.js';
import { formatHash } from '../../src/page/hash.js';
import type { RunResult } from '../../src/result.js';
import { getRule } from '../../src/rules/index.js';
import { estimate } from '../../src/stats/estimate.js';
import { slowRule } from '../fixtures/app-slow-rule.js';
import { bufferIo } from '../support/io.js';
import { describeInChromium, launchChromium, offlinePage } from '../support/offline-page.js';

const folder = mkdtempSync(join(tmpdir(), 'muster-app-simulation-'));
const appFile = join(folder, 'app.html');
const slowFile = join(folder, 'slow-app.html');
let browser: Browser;

/** What the init script records: Workers made, messages each way, the progress bar and the method line over time. */
interface Log {
  workers: number;
  sent: Array<{ kind: string; id: number; end?: number; first?: number; totalTrials?: number }>;
  replies: Array<{ kind: string; task: number; chunk?: number }>;
  progress: Array<{ tag: string; value: number; max: number; labelled: boolean }>;
  partials: Array<{ method: string; figures: Record<string, string> }>;
}

/** Runs in the page before its own scripts: wraps Worker, and watches the status line and the headline. */
function watch(): void {
  const log: Log = { workers: 0, sent: [], replies: [], progress: [], partials: [] };
  (window as unknown as { simulationLog: Log }).simulationLog = log;
  const Original = window.Worker;
  window.Worker = class extends Original {
    constructor(url: string | URL, options?: WorkerOptions) {
      super(url, options);
      log.workers += 1;
      this.addEventListener('message', (event: MessageEvent) => {
        const data = event.data as { kind?: string; task?: number; chunk?: number };
        if (typeof data?.kind === 'string')
          log.replies.push({ kind: data.kind, task: data.task ?? -1, chunk: data.chunk });
      });
    }
    override postMessage(message: unknown, transfer?: unknown): void {
      const data = message as Log['sent'][number];
      if (typeof data?.kind === 'string')
        log.sent.push({
          kind: data.kind,
          id: data.id,
          first: data.first ?? (data as { firstChunk?: number }).firstChunk,
          end: (data as { endChunk?: number }).endChunk,
          totalTrials: data.totalTrials,
        });
      super.postMessage(message, transfer as Transferable[]);
    }
  };
  const record = () => {
    const bar = document.getElementById('sim-progress') as HTMLProgressElement | null;
    if (bar)
      log.progress.push({ tag: bar.tagName, value: bar.value, max: bar.max, labelled: (bar.labels?.length ?? 0) > 0 });
    const method = document.getElementById('answer-method')?.textContent ?? '';
    if (method.includes('estimate so far') && log.partials.at(-1)?.method !== method) {
      const figures: Record<string, string> = {};
      for (const figure of document.querySelectorAll<HTMLElement>('#headline .figure'))
        figures[figure.dataset.metric ?? ''] = figure.querySelector('.figure-value')?.textContent ?? '';
      log.partials.push({ method, figures });
    }
  };
  new MutationObserver(record).observe(document, { childList: true, subtree: true, attributes: true });
}

async function open(file: string, hash: string): Promise<{ page: Page; problems: string[] }> {
  const { page, problems } = await offlinePage(browser, { blob: true });
  await page.addInitScript(watch);
  await page.goto(`file://${file}${hash}`);
  await idle(page);
  return { page, problems };
}

const idle = (page: Page) =>
  page.evaluate(() => (window as unknown as { musterApp: { idle(): Promise<void> } }).musterApp.idle());
/** Goes to a hash as a followed link would; settles with the milliseconds the page took, in its own clock. */
const go = (page: Page, hash: string) =>
  page.evaluate(async (next) => {
    const started = performance.now();
    await (window as unknown as { musterApp: { open(hash: string): Promise<void> } }).musterApp.open(next);
    return performance.now() - started;
  }, hash);
const shown = (page: Page) =>
  page.evaluate(() => (window as unknown as { musterApp: { result: RunResult | null } }).musterApp.result);
const timings = (page: Page) =>
  page.evaluate(
    () =>
      (window as unknown as { musterApp: { timings: { simulation: number; compute: number; total: number } | null } })
        .musterApp.timings,
  );
const log = (page: Page) => page.evaluate(() => (window as unknown as { simulationLog: Log }).simulationLog);
const cores = (page: Page) => page.evaluate(() => Math.max(1, Math.min(navigator.hardwareConcurrency || 2, 8)));

/** `muster run RULE --set … --trials N --seed S`, in this process. */
const cli = (rule: string, set: string[], trials: number, seed: string) =>
  runCommand(rule, { set, trials: String(trials), seed, threads: '2', quiet: true }, bufferIo());

const split = (assignment: string): [string, string] => {
  const equals = assignment.indexOf('=');
  return [assignment.slice(0, equals), assignment.slice(equals + 1)];
};
const simulated = (rule: string, set: string[], trials: number, seed: string) =>
  formatHash(rule, [...set.map(split), ['simulate', '1'], ['trials', String(trials)], ['seed', seed]]);

describeInChromium('the calculator page’s simulation workers in headless Chromium', () => {
  beforeAll(async () => {
    await appCommand({ out: appFile }, bufferIo());
    const slow = await buildAppHtml({
      extraRulesModule: join(import.meta.dirname, '..', 'fixtures', 'app-slow-rule.ts'),
    });
    writeFileSync(slowFile, slow.html);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it(
    'fow, seed "long", 20,000,000 trials: a labelled progress bar climbs to 100%, the estimate so far is shown as ' +
      'chunks come in (each one muster run’s for its trials), and the answer is muster run’s, timed from the ' +
      'change',
    async () => {
      const { page, problems } = await open(appFile, '#fow');
      // Long enough that an idle machine still shows two estimates before the end: the first after 250 ms, then
      // one at most every 100 ms (6,000,000 trials could finish in about 350 ms).
      const trials = 20_000_000;
      const elapsed = await go(page, simulated('fow', [], trials, 'long'));
      const seen = await log(page);
      const bars = seen.progress.filter((bar) => bar.max === trials);
      expect(bars.length).toBeGreaterThan(2);
      // A <progress> is a progressbar to assistive technology, with its label.
      for (const bar of bars) expect(bar).toMatchObject({ tag: 'PROGRESS', labelled: true });
      for (let index = 1; index < bars.length; index++)
        expect(bars[index].value).toBeGreaterThanOrEqual(bars[index - 1].value);
      expect(bars.some((bar) => bar.value > 0 && bar.value < trials)).toBe(true);
      expect(bars.at(-1)?.value).toBe(trials);
      expect(await page.locator('#sim-progress').count()).toBe(0);

      // The estimate grows: several partial answers, each from more trials, each the first k whole chunks.
      const partialTrials = seen.partials.map((partial) =>
        Number((/from ([\d,]+) of/.exec(partial.method)?.[1] ?? '').replaceAll(',', '')),
      );
      expect(partialTrials.length).toBeGreaterThanOrEqual(2);
      for (let index = 1; index < partialTrials.length; index++)
        expect(partialTrials[index]).toBeGreaterThan(partialTrials[index - 1]);
      for (const done of partialTrials) expect(done % CHUNK_TRIALS).toBe(0);
      // Chunks are merged in order, so the estimate so far is muster run's with that many trials.
      const first = seen.partials[0];
      const early = await cli('fow', [], partialTrials[0], 'long');
      const rule = getRule('fow');
      const names = Object.keys(first.figures);
      expect(names.length).toBeGreaterThan(0);
      for (const metric of rule.metrics(early.params).filter((spec) => names.includes(spec.name)))
        expect(first.figures[metric.name], metric.name).toBe(
          formatValue(early.metrics[metric.name].estimate, metric.probability),
        );

      const result = await shown(page);
      const expected = await cli('fow', [], trials, 'long');
      expect(result?.trials).toBe(trials);
      expect(result?.metrics).toEqual(expected.metrics);
      // The answer's time is the wait from the change: the simulation inside it, not after it.
      const timed = await timings(page);
      expect(timed?.simulation).toBeGreaterThan(0);
      expect(timed?.compute).toBeGreaterThanOrEqual(timed?.simulation ?? Infinity);
      expect(timed?.total).toBeGreaterThanOrEqual(timed?.compute ?? Infinity);
      expect(timed?.total).toBeLessThanOrEqual(elapsed);
      // Only the bookkeeping of open() and idle() lies outside the page's own figure.
      expect(timed?.total).toBeGreaterThan(0.8 * elapsed);
      expect(problems).toEqual([]);
      await page.close();
    },
  );

  it(
    'reserves at 100 squads over 12 rounds, seed "long", 40,000,000 trials, changed mid-run to seed "b", 150,001 ' +
      'trials: the run’s workers ' +
      'stop at their next chunk, none is re-created, and the answer is muster run’s for the new setting',
    async () => {
      const { page, problems } = await open(appFile, '#infinity');
      expect((await log(page)).workers).toBe(0);
      // 100 squads over 12 rounds: chunks slow enough (tens of milliseconds) that the change lands in the middle of
      // the workers' tasks of 16 chunks. At the defaults a task took about 40 ms, and a page slow to take the change
      // on a busy machine could find both tasks ended, with no worker left to stop.
      const long = 40_000_000;
      const heavy = ['squads=100', 'rounds=12'];
      await page.evaluate(
        (hash) => {
          location.hash = hash;
        },
        simulated('reserves', heavy, long, 'long'),
      );
      await page.waitForFunction(
        (total) =>
          (window as unknown as { simulationLog: Log }).simulationLog.progress.some(
            (bar) => bar.max === total && bar.value > 0,
          ),
        long,
      );
      const set = ['command=3'];
      await go(page, simulated('reserves', set, 150_001, 'b'));
      // The new answer can be shown before the last cancelled worker has answered (another worker, freed at its
      // task's end, ran the new chunks): wait until every cancelled task has said it stopped or sent its last chunk.
      await page.waitForFunction(() => {
        const { sent, replies } = (window as unknown as { simulationLog: Log }).simulationLog;
        return sent
          .filter((message) => message.kind === 'cancel')
          .every(({ id }) => {
            const mine = replies.filter((reply) => reply.task === id);
            const task = sent.find((message) => message.kind === 'task' && message.id === id);
            return mine.some((reply) => reply.kind === 'stopped') || mine.at(-1)?.chunk === (task?.end ?? 0) - 1;
          });
      });
      const seen = await log(page);
      expect(seen.workers).toBe(await cores(page));

      const longTasks = new Set(
        seen.sent.filter((message) => message.kind === 'task' && message.totalTrials === long).map((task) => task.id),
      );
      const cancelled = seen.sent.filter((message) => message.kind === 'cancel').map((message) => message.id);
      expect(cancelled.length).toBeGreaterThan(0);
      for (const id of cancelled) expect(longTasks.has(id)).toBe(true);
      // Each worker told to stop either said so or had just sent its task's last chunk; nothing of that task after.
      for (const id of cancelled) {
        const replies = seen.replies.filter((reply) => reply.task === id);
        const stopped = replies.findIndex((reply) => reply.kind === 'stopped');
        if (stopped >= 0) expect(replies.slice(stopped + 1)).toEqual([]);
        else {
          const task = seen.sent.find((message) => message.kind === 'task' && message.id === id);
          expect(replies.at(-1)?.chunk).toBe((task?.end ?? 0) - 1);
        }
      }
      expect(seen.replies.some((reply) => reply.kind === 'stopped' && longTasks.has(reply.task))).toBe(true);
      const longChunks = seen.replies.filter((reply) => reply.kind === 'chunk' && longTasks.has(reply.task)).length;
      expect(longChunks).toBeLessThan(chunkCount(long));

      const result = await shown(page);
      const expected = await cli('reserves', set, 150_001, 'b');
      expect(result?.trials).toBe(150_001);
      expect(result?.seed).toBe('b');
      expect(result?.metrics).toEqual(expected.metrics);
      expect(await page.locator('#answer-method').textContent()).toContain('150,001 trials, seed "b"');
      expect(problems).toEqual([]);
      await page.close();
    },
  );

  it(
    'five simulated changes across three rules: the workers started for the first are the only ones, and each ' +
      'answer is muster run’s',
    async () => {
      const { page, problems } = await open(appFile, '#reserves');
      const changes: Array<[string, string[], number, string]> = [
        ['reserves', ['squads=6'], 100_000, 'one'],
        ['reserves', ['squads=7'], 200_000, 'two'],
        ['infinity', ['wipA=14'], 131_072, 'three'],
        ['fow', ['turns=6'], 65_537, 'four'],
        ['reserves', ['squads=6'], 100_000, 'five'],
      ];
      for (const [rule, set, trials, seed] of changes) {
        await go(page, simulated(rule, set, trials, seed));
        const expected = await cli(rule, set, trials, seed);
        const where = `${rule} ${seed}`;
        expect((await shown(page))?.metrics, where).toEqual(expected.metrics);
        expect((await log(page)).workers, where).toBe(await cores(page));
      }
      expect(problems).toEqual([]);
      await page.close();
    },
  );

  it(
    'twelve changes in one go (trials typed digit by digit, then a new seed): each cancels the last, the answer ' +
      'is muster run’s for the last, and the same workers ran them all',
    async () => {
      const { page, problems } = await open(appFile, '#noctvale');
      await go(page, simulated('noctvale', [], 65_536, 'warm'));
      const threads = await cores(page);
      const typed = ['1', '13', '131', '1310', '13107', '131072', '1310720', '131072', '13107', '131072'];
      const hashes = [
        ...typed.map((trials) => simulated('noctvale', ['groups=4'], Number(trials), 'x')),
        simulated('noctvale', ['groups=4'], 131_072, 'xy'),
        simulated('noctvale', ['groups=4'], 200_001, 'xyz'),
      ];
      await page.evaluate(async (all) => {
        const app = (window as unknown as { musterApp: { open(hash: string): Promise<void> } }).musterApp;
        let last: Promise<void> = Promise.resolve();
        for (const hash of all) last = app.open(hash);
        await last;
      }, hashes);
      const expected = await cli('noctvale', ['groups=4'], 200_001, 'xyz');
      const result = await shown(page);
      expect(result?.seed).toBe('xyz');
      expect(result?.metrics).toEqual(expected.metrics);
      expect((await log(page)).workers).toBe(threads);
      expect(problems).toEqual([]);
      await page.close();
    },
  );

  it(
    'a simulation whose trial throws: the rule’s fault shown, and the kept workers answer the next setting ' + 'right',
    async () => {
      const { page } = await open(slowFile, '#slow?trials=1000');
      const threads = await cores(page);
      await go(page, '#slow?spill=true&trials=300000');
      expect(await page.locator('#status').textContent()).toBe('No answer: slow: the die fell off the table');
      expect(await shown(page)).toBeNull();
      await go(page, '#slow?target=3&trials=100000&seed=after');
      const tally = new Float64Array(1);
      const params = { target: 3, stallMs: 0, spill: false };
      for (let chunk = 0; chunk < chunkCount(100_000); chunk++)
        slowRule.tally.simulate(
          params,
          chunkStream('after', 'slow', chunk, DEFAULT_STREAM),
          chunkTrials(chunk, 100_000),
          tally,
        );
      const expected = estimate(slowRule.tally.summarize(params, tally, 100_000).p, 0.95);
      expect((await shown(page))?.metrics.p).toEqual({ ...expected, exact: null, fraction: null });
      expect((await log(page)).workers).toBe(threads);
      await page.close();
    },
  );

  it(
    'a worker held in a chunk (stallMs=3000) when the setting changes is replaced, not waited for: the new answer ' +
      'comes first, and is right',
    async () => {
      // A first run starts the workers, so the stalled run finds them booted and each takes its chunk at once.
      const { page, problems } = await open(slowFile, '#slow?trials=1000');
      const threads = await cores(page);
      expect((await log(page)).workers).toBe(threads);
      // 200,000 trials are 4 chunks, one a task: every worker gets one and holds it 3 s.
      await page.evaluate(() => {
        location.hash = '#slow?stallMs=3000&trials=200000';
      });
      await page.waitForFunction(
        (count) =>
          (window as unknown as { simulationLog: Log }).simulationLog.sent.filter(
            (message) => message.kind === 'task' && message.totalTrials === 200_000,
          ).length >= count,
        threads,
      );
      const elapsed = await go(page, '#slow?target=5&trials=100000&seed=quick');
      // Each worker in a 3 s chunk was replaced after its grace, and the answer did not wait the 3 s.
      expect((await log(page)).workers).toBe(2 * threads);
      expect(elapsed).toBeLessThan(2500);
      // The same chunks on the same streams, run here in Node.
      const tally = new Float64Array(1);
      const params = { target: 5, stallMs: 0, spill: false };
      for (let chunk = 0; chunk < chunkCount(100_000); chunk++)
        slowRule.tally.simulate(
          params,
          chunkStream('quick', 'slow', chunk, DEFAULT_STREAM),
          chunkTrials(chunk, 100_000),
          tally,
        );
      const expected = estimate(slowRule.tally.summarize(params, tally, 100_000).p, 0.95);
      const result = await shown(page);
      expect(result?.metrics.p).toEqual({ ...expected, exact: null, fraction: null });
      // And right: a die shows 5 or 6 a third of the time. 5σ with σ = √(⅓·⅔/100000) ≈ 0.00149.
      expect(Math.abs((result?.metrics.p.estimate ?? 0) - 1 / 3)).toBeLessThan(
        5 * Math.sqrt(((1 / 3) * (2 / 3)) / 1e5),
      );
      expect(problems).toEqual([]);
      await page.close();
    },
  );
});
