/**
 * Links that carry hostile code, opened in the calculator page in headless
 * Chromium: the code is shown and does not run until confirmed; confirmed,
 * it runs in a worker with no document and no connection (a server on this
 * machine counts every connection it is offered, and the browser reports
 * every request that tried to leave), and a rule that never returns is
 * stopped by the page, which goes on answering.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { appCommand } from '../../src/cli/commands/app.js';
import { formatHash } from '../../src/page/hash.js';
import { packSource } from '../../src/page/workbench/share.js';
import type { RunResult } from '../../src/result.js';
import { bufferIo } from '../support/io.js';
import { describeInChromium, launchChromium } from '../support/offline-page.js';

const folder = mkdtempSync(join(tmpdir(), 'muster-workbench-hostile-'));
const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const appFile = join(folder, 'app.html');
let browser: Browser;
let server: Server;
let port = 0;
/** Connections the server on this machine was offered, and the paths it was asked for. */
let connections = 0;
const asked: string[] = [];

/** A rule file whose trial rolls one die; `top` runs at its top level, `inTrial` in every trial. */
const rule = (top: string, inTrial = '') => `${top}
export default {
  id: 'hostile',
  title: 'A hostile rule',
  params: [{ name: 'sides', type: 'integer', default: 2, min: 2, max: 6, doc: 'sides' }],
  metrics: [
    { name: 'document', doc: 'the rule saw a document', probability: true },
    { name: 'high', doc: 'the die rolled its highest face', probability: true },
  ],
  trial(dice, p, out) {
    ${inTrial}
    out.document = typeof document !== 'undefined';
    out.high = dice.d(p.sides) === p.sides;
  },
};
`;

/** Every way a worker could reach the network, each tried and its failure swallowed. */
const NETWORK = (base: string, ws: string) =>
  `
const attempt = (run) => { try { const r = run(); if (r && typeof r.catch === 'function') r.catch(() => {}); } ` +
  `catch {} };
attempt(() => fetch('${base}/fetch'));
attempt(() => fetch(new Request('${base}/request', { method: 'POST', body: 'x', mode: 'no-cors' })));
attempt(() => { const x = new XMLHttpRequest(); x.open('GET', '${base}/xhr-sync', false); x.send(); });
attempt(() => { const x = new XMLHttpRequest(); x.open('GET', '${base}/xhr'); x.send(); });
attempt(() => new WebSocket('${ws}/socket'));
attempt(() => new EventSource('${base}/events'));
attempt(() => importScripts('${base}/import-scripts.js'));
attempt(() => import('${base}/import.js'));
attempt(() => new Worker('${base}/worker.js'));
attempt(() => navigator.sendBeacon('${base}/beacon', 'x'));
`;

async function codeLink(source: string, entries: Array<[string, string]> = []): Promise<string> {
  return `file://${appFile}#${formatHash(`~${await packSource(source)}`, entries)}`;
}

const idle = (page: Page) =>
  page.evaluate(() => (window as unknown as { musterApp: { idle(): Promise<void> } }).musterApp.idle());
const shown = (page: Page) =>
  page.evaluate(() => (window as unknown as { musterApp: { result: RunResult | null } }).musterApp.result);

interface Opened {
  context: BrowserContext;
  page: Page;
  /**
   * Requests to leave the machine that got past the page's policy: every request is routed through here, and one that
   * reaches the route has passed the policy (file: and blob: are the page's own).
   */
  left: string[];
  /** Requests the browser reports as failed, with why: each attempt the rule made, and the policy's refusal. */
  failed: string[];
}

/** A fresh browser context on the link, watching requests without blocking them: the page's policy must. */
async function openLink(link: string, limitMs = 1500): Promise<Opened> {
  const context = await browser.newContext();
  const left: string[] = [];
  const failed: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file:') || url.startsWith('blob:')) return route.continue();
    left.push(url);
    return route.abort();
  });
  context.on('requestfailed', (request) => failed.push(`${request.url()} ${request.failure()?.errorText}`));
  const page = await context.newPage();
  await page.goto(link);
  await idle(page);
  await page.evaluate((limit) => {
    (window as unknown as { musterApp: { ruleLimitMs: number } }).musterApp.ruleLimitMs = limit;
  }, limitMs);
  return { context, page, left, failed };
}

async function confirm(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Run this rule' }).click();
  await idle(page);
}

describeInChromium('hostile code in a link, in headless Chromium', () => {
  beforeAll(async () => {
    await appCommand({ out: appFile }, bufferIo());
    server = createServer((request, response) => {
      asked.push(request.url ?? '');
      response.end('ok');
    });
    server.on('connection', () => {
      connections += 1;
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
    rmSync(folder, { recursive: true, force: true });
  });

  it(
    'fetch, XMLHttpRequest, WebSocket, EventSource, importScripts, import(), Worker, sendBeacon: nothing ' + 'leaves',
    async () => {
      const base = `http://127.0.0.1:${port}`;
      const ws = `ws://127.0.0.1:${port}`;
      const network = NETWORK(base, ws);
      // Tried at the top level and in every trial.
      const { context, page, left, failed } = await openLink(
        await codeLink(rule(network, network.replaceAll('\n', ' '))),
      );
      // Not run yet: shown behind the button.
      expect(await shown(page)).toBeNull();
      expect(await page.getByRole('button', { name: 'Run this rule' }).isVisible()).toBe(true);
      await confirm(page);
      const result = await shown(page);
      // It ran (its dice enumerated: 1/2 for the high face of a d2), and saw no document.
      expect(result?.metrics.high.fraction).toBe('1/2');
      expect(result?.metrics.document.fraction).toBe('0');
      // Time for anything asynchronous to have tried.
      await page.waitForTimeout(1500);
      expect(left).toEqual([]);
      expect(asked).toEqual([]);
      expect(connections).toBe(0);
      // What the browser saw tried, it refused by the page's policy.
      expect(failed.length).toBeGreaterThan(0);
      for (const attempt of failed) expect(attempt).toMatch(/ csp$/);
      await context.close();

      // The witnesses work: a worker in a page from file:// without muster's policy reaches the server.
      const control = join(folder, 'control.html');
      const worker = `fetch('${base}/control').catch(() => {})`;
      writeFileSync(
        control,
        `<!doctype html><script>new Worker(URL.createObjectURL(new Blob([${JSON.stringify(worker)}])));</script>`,
      );
      const plain = await browser.newPage();
      await plain.goto(`file://${control}`);
      await expect.poll(() => asked, { timeout: 5000 }).toContain('/control');
      expect(connections).toBeGreaterThan(0);
      await plain.close();
    },
  );

  it(
    'a DOM write: there is no document in the sandbox; the page says so in the rule’s words and is ' + 'unchanged',
    async () => {
      const write = 'document.body.innerHTML = \'<p id="pwned">pwned</p>\';';
      const { context, page } = await openLink(await codeLink(rule('', write)));
      await confirm(page);
      expect(await page.locator('#pwned').count()).toBe(0);
      expect(await shown(page)).toBeNull();
      expect(await page.locator('#status').textContent()).toMatch(/^No answer: .*document is not defined/);
      // The page itself still answers.
      await page.selectOption('#rule-picker', 'infinity');
      await idle(page);
      expect((await shown(page))?.rule).toBe('infinity');
      await context.close();
    },
  );

  it('an endless loop in the trial is stopped by the page after its limit; the page goes on answering', async () => {
    const { context, page } = await openLink(await codeLink(rule('', 'for (;;) {}')));
    const started = Date.now();
    await confirm(page);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await page.locator('#status').textContent()).toBe(
      'No answer: shared-rule.mjs: the rule’s code did not return within 1.5 s (an endless loop?); the page stopped it',
    );
    await page.selectOption('#rule-picker', 'infinity');
    await idle(page);
    expect((await shown(page))?.rule).toBe('infinity');
    await context.close();
  });

  it('an endless loop at the top level: stopped, one line under the code, no answer from it', async () => {
    const { context, page } = await openLink(await codeLink(rule('while (true) {}')));
    await confirm(page);
    expect(await page.locator('#source-problem').textContent()).toBe(
      'shared-rule.mjs: its top-level code did not finish within 1.5 s (an endless loop?); the page stopped it',
    );
    expect(await shown(page)).toBeNull();
    await context.close();
  });

  it('a link whose code is garbled, or unpacks past the limit: one line, and the defaults', async () => {
    for (const [hash, line] of [
      ['#~%%%not-base64', /^link: its code is not readable/],
      [`#~${await packSource('a'.repeat(3_000_000))}`, /^link: its code is longer than 200,000 characters/],
    ] as const) {
      const { context, page } = await openLink(`file://${appFile}${hash}`);
      expect(await page.locator('#hash-problems').textContent()).toMatch(line);
      expect((await shown(page))?.rule).toBe('reserves');
      expect(await page.getByRole('button', { name: 'Run this rule' }).isVisible()).toBe(false);
      await context.close();
    }
  });

  it(
    'names that are Object.prototype’s (constructor, hasOwnProperty) are a parameter and a metric like any ' + 'other',
    async () => {
      const source = (metric: string) => `export default {
  id: 'proto',
  title: 'Prototype names',
  params: [{ name: 'hasOwnProperty', type: 'integer', default: 4, min: 2, max: 6, doc: 'sides' }],
  metrics: [{ name: '${metric}', doc: 'the die rolled a one', probability: true }],
  trial(dice, p, out) {
    out['${metric}'] = dice.d(p['hasOwnProperty']) === 1;
  },
};
`;
      // __proto__ is refused as a metric's name, in the words muster run gives the same file.
      const refused = await openLink(await codeLink(source('__proto__')));
      await confirm(refused.page);
      writeFileSync(join(folder, 'shared-rule.mjs'), source('__proto__'));
      const cli = spawnSync(process.execPath, [CLI, 'run', 'shared-rule.mjs', '--exact'], {
        cwd: folder,
        encoding: 'utf8',
      });
      expect(`muster: ${await refused.page.locator('#source-problem').textContent()}\n`).toBe(cli.stderr);
      await refused.context.close();

      const { context, page } = await openLink(await codeLink(source('constructor')));
      await confirm(page);
      // Read in the page: an own key named like Object.prototype's is looked up as the page looks it up.
      const fractionOf = () =>
        page.evaluate(() => {
          const result = (window as unknown as { musterApp: { result: RunResult | null } }).musterApp.result;
          const entry = Object.entries(result?.metrics ?? {}).find(([name]) => name === 'constructor');
          return entry ? entry[1] : document.getElementById('status')?.textContent;
        });
      // A die of 4 sides, then of 3: one in four, one in three.
      expect(await fractionOf()).toMatchObject({ fraction: '1/4' });
      expect(await page.inputValue('#param-hasOwnProperty')).toBe('4');
      await page.fill('#param-hasOwnProperty', '3');
      await idle(page);
      expect(await fractionOf()).toMatchObject({ fraction: '1/3' });
      expect((await shown(page))?.params).toEqual({ hasOwnProperty: 3 });
      await context.close();
    },
  );
});
