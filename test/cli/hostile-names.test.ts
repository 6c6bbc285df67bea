/**
 * Names that are JavaScript's own (`constructor`, `__proto__`, `then` …) or that mean something to Vega,
 * HTML or CSV (`a.b`, `a[0]`, quotes, `<script>`), given to a rule file's parameter and metric, through
 * every command of the built CLI and every output. Each either works — the numbers are the hand-worked
 * ones: the metric is P(d6 ≥ 4) = 1/2, P(d6 ≥ 3) = 2/3, P(d6 ≥ 5) = 1/3, the mean face 7/2 — or is refused
 * in one line with exit 2. Never a crash (exit 1), a stack trace, a value dropped or read from
 * Object.prototype, or a page that does not draw. Before, `constructor` and its kin crashed
 * `compare` across rules ("exactB.sub is not a function"), a parameter named `__proto__` dropped its
 * `--set`, and the calculator's form read `constructor` off a plain object (`i.trim is not a function`).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { parseExpression } from 'vega';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VegaLiteSpec } from '../../reports/charts/chart.js';
import { compileSpec, renderSvg } from '../../reports/svg.js';
import { formatHash } from '../../src/page/hash.js';
import type { RunResult } from '../../src/result.js';
import { scratchFolder } from '../support/cli.js';
import { HOSTILE_NAMES, isMetricName, isParamName, namedRuleSource } from '../support/hostile.js';
import { describeInChromium, launchChromium, offlinePage } from '../support/offline-page.js';

const entry = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const folder = scratchFolder('hostile-names');

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** The built CLI, as a user runs it, in `cwd` (asynchronous, so a name's commands run side by side). */
function muster(cwd: string, ...argv: string[]): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, NO_COLOR: '1' };
    const child = spawn(process.execPath, [entry, ...argv], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** Exit 0 and nothing on stderr that looks like a crash. */
function expectOk(ran: Ran, what: string): void {
  const crash = /\n\s+at |Error:|TypeError|is not a function/;
  const seen = { what, status: ran.status, stderr: ran.stderr };
  expect(seen).toEqual({ what, status: 0, stderr: expect.not.stringMatching(crash) });
}

/** An entry of a JSON object read as its own: never what Object.prototype answers. */
function ownEntry(record: Record<string, unknown>, key: string): unknown {
  const where = `has own ${JSON.stringify(key)} among ${JSON.stringify(Object.keys(record))}`;
  expect(Object.hasOwn(record, key), where).toBe(true);
  return record[key];
}

const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

/**
 * 65,536 trials (one chunk) of a probability of 1/2: σ = √(¼ / 65536) ≈ 0.00195, so 5σ ≈ 0.0098 (fails by
 * chance once in 1.7 million; the seed is fixed, so it either always passes or always fails).
 */
const TRIALS = '65536';
const FIVE_SIGMA_HALF = 5 * Math.sqrt(0.25 / 65536);
/** The mean face of a d6 has variance 35/12: 5σ ≈ 0.0334 over 65,536 trials. */
const FIVE_SIGMA_FACE = 5 * Math.sqrt(35 / 12 / 65536);
const SIM = ['--trials', TRIALS, '--threads', '1', '--seed', 'hostile-names', '--quiet'];

/** An HTML page holds the name as text: escaped for HTML, and present in the chart data as JSON. */
function expectNameInPage(html: string, name: string): void {
  const inElement = name.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  const inAttribute = inElement.replaceAll('"', '&quot;').replaceAll("'", '&#39;');
  const inText = html.includes(inAttribute) || html.includes(inElement);
  expect(inText, `the page shows ${JSON.stringify(name)}`).toBe(true);
  expect(html).not.toContain('<script>window.__pwned');
}

interface Found {
  key: string;
  text: string;
}

/** Every string of a compiled Vega spec where Vega reads an expression or a field name (as vega-safety.test.ts). */
function expressionsAndFields(node: unknown, found: Found[] = []): Found[] {
  if (Array.isArray(node)) for (const item of node) expressionsAndFields(item, found);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (['expr', 'signal', 'test', 'update', 'init', 'field', 'fields', 'as', 'groupby'].includes(key)) {
        for (const text of Array.isArray(value) ? value : [value]) {
          if (typeof text === 'string') found.push({ key, text });
        }
      }
      expressionsAndFields(value, found);
    }
  }
  return found;
}

interface Node {
  type: string;
  [key: string]: unknown;
}

/** Where an expression uses `name` as code: a variable, or a field it reads (`datum.x`, `datum['a.b']`). */
function usesAsCode(node: Node, name: string, found: string[] = []): string[] {
  if (node.type === 'MemberExpression') {
    const property = node.property as Node;
    const object = node.object as Node;
    // A data field is read off `datum` (or `parent`); `domain('y').length` is Vega's own.
    const ofData = object.type === 'Identifier' && (object.name === 'datum' || object.name === 'parent');
    const read = node.computed ? property.type === 'Literal' && property.value === name : property.name === name;
    if (ofData && read) found.push('a field read');
    usesAsCode(node.object as Node, name, found);
    if (node.computed) usesAsCode(property, name, found);
    return found;
  }
  if (node.type === 'Identifier' && node.name === name) found.push('a variable');
  for (const [key, value] of Object.entries(node)) {
    if (key === 'callee') continue; // Vega's own functions (length, format …)
    for (const child of Array.isArray(value) ? value : [value]) {
      const isNode = child && typeof child === 'object' && typeof (child as Node).type === 'string';
      if (isNode) usesAsCode(child as Node, name, found);
    }
  }
  return found;
}

/**
 * Every chart of a page compiles and draws with marks, and the name reaches Vega only as data: never as a
 * field name, and in an expression never as code (a string literal holding it, such as a title, is data).
 */
async function expectChartsDraw(html: string, name: string): Promise<void> {
  const data = /<script type="application\/json" id="muster-charts">([\s\S]*?)<\/script>/.exec(html);
  expect(data, 'the page carries its charts').not.toBeNull();
  const charts = JSON.parse((data as RegExpExecArray)[1]) as Array<{ id: string; spec: VegaLiteSpec }>;
  expect(charts.length).toBeGreaterThan(0);
  for (const chart of charts) {
    const asCode = expressionsAndFields(compileSpec(chart.spec).vega).flatMap(({ key, text }) => {
      if (['field', 'fields', 'as', 'groupby'].includes(key)) return text === name ? [`${key} ${text}`] : [];
      return usesAsCode(parseExpression(text) as unknown as Node, name).map((use) => `${use} in ${text}`);
    });
    expect({ chart: chart.id, asCode }).toEqual({ chart: chart.id, asCode: [] });
    expect(await renderSvg(chart.spec), chart.id).toContain('role-mark');
  }
}

/**
 * Names that reach the same code the same way as another in the list (one more Object.prototype or
 * Function.prototype name, one more dotted name): each runs describe, run and compare, the commands where a
 * name first becomes a key; every other name runs every command. The charts are held to every such name
 * in test/reports/vega-safety.test.ts. This keeps the file to a minute or two of the suite.
 */
const SAME_WAY_AS_ANOTHER = new Set([
  'valueOf',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  '__defineGetter__',
  '__lookupSetter__',
  'apply',
  'call',
  'name',
  'length',
  'prototype',
  'datum.x',
]);

for (const [index, name] of HOSTILE_NAMES.entries()) {
  const param = isParamName(name) ? name : 't';
  /** A test every name runs, and one the names of SAME_WAY_AS_ANOTHER leave out (registered for the others only). */
  const everyCommand: typeof it = (SAME_WAY_AS_ANOTHER.has(name) ? () => undefined : it) as typeof it;
  // Each name's commands run side by side: every test writes files of its own in the name's folder.
  describe.concurrent(`a parameter and a metric named ${JSON.stringify(name)}`, () => {
    const dir = join(folder, `case-${index}`);
    mkdirSync(dir, { recursive: true });
    const file = './named.mjs';

    if (!isMetricName(name)) {
      // Refused: `__proto__` changes a plain object's prototype instead of setting a key, in the rule file's own
      // code too (`{ __proto__: '1/2' }` from exact() has no such key); a line break or a terminal escape is
      // not a name to print on one line.
      it('is refused in one line, exit 2, naming the field and what is allowed, by every command', async () => {
        writeFileSync(join(dir, 'metric.mjs'), namedRuleSource(`named-${index}`, name, 't'));
        const metricRefusal = /metrics\[0\]\.name: got .*; allowed: text of 1 to 100 characters/;
        const files: Array<[string, RegExp]> = [['./metric.mjs', metricRefusal]];
        if (name === '__proto__') {
          writeFileSync(join(dir, 'param.mjs'), namedRuleSource(`named-${index}`, 'm', name));
          files.push(['./param.mjs', /params\[0\]\.name: got "__proto__"; allowed: letters, digits and '_'/]);
        }
        for (const [ruleFile, field] of files) {
          const commands = [
            ['run', ruleFile, '--exact'],
            ['describe', ruleFile],
            ['sweep', ruleFile, '--vary', 'sides=2..3'],
            ['app', '--rule', ruleFile, '--out', 'app.html'],
          ];
          for (const argv of commands) {
            const ran = await muster(dir, ...argv);
            expect(ran.status).toBe(2);
            expect(ran.stderr).toMatch(field);
            expect(ran.stderr.trimEnd().split('\n')).toHaveLength(1);
          }
        }
        // Up to eight commands one after another, beside the other names' tests running at once: about 15 s of
        // the default 60 on an idle 2-core machine, so its own limit is eight times that.
      }, 120_000);
      return;
    }
    writeFileSync(join(dir, 'named.mjs'), namedRuleSource(`named-${index}`, name, param));

    if (!isParamName(name)) {
      it('as a parameter name: refused in one line, exit 2, saying what a name may be', async () => {
        writeFileSync(join(dir, 'param.mjs'), namedRuleSource(`named-${index}`, 'm', name));
        const ran = await muster(dir, 'run', './param.mjs', '--exact');
        expect(ran.status).toBe(2);
        expect(ran.stderr).toMatch(/^muster: .*params\[0\]\.name: got .*; allowed: letters, digits and '_'/);
        expect(ran.stderr.trimEnd().split('\n')).toHaveLength(1);
      });
    }

    it('describe lists them', async () => {
      const ran = await muster(dir, 'describe', file);
      expectOk(ran, 'describe');
      expect(ran.stdout).toContain(name);
      expect(ran.stdout).toContain(param);
    });

    it('run --exact, with --set: 1/2 at the default, 2/3 at threshold 3 (the --set is not dropped)', async () => {
      for (const [set, fraction] of [
        [[], '1/2'],
        [['--set', `${param}=3`], '2/3'],
      ] as const) {
        const ran = await muster(dir, 'run', file, '--exact', ...set, '--json', 'exact.json');
        expectOk(ran, 'run --exact');
        expect(ran.stdout).toContain(name);
        const json = readJson(join(dir, 'exact.json'));
        expect(ownEntry(json.params, param)).toBe(fraction === '1/2' ? 4 : 3);
        expect((ownEntry(json.metrics, name) as { fraction: string }).fraction).toBe(fraction);
        expect((ownEntry(json.metrics, 'face') as { fraction: string }).fraction).toBe('7/2');
      }
      // --metric takes the name as it is: brackets, dots and the like are literal, not a glob.
      const chosen = await muster(dir, 'run', file, '--exact', '--metric', name);
      expectOk(chosen, 'run --metric');
      expect(chosen.stdout).toContain(name);
      expect(chosen.stdout).not.toMatch(/^face /m);
    });

    it('run, simulated, into every output: terminal, --json, --csv, --html, --svg', async () => {
      const outputs = ['--json', 'run.json', '--csv', 'run.csv', '--html', 'run.html', '--svg', 'svg'];
      const ran = await muster(dir, 'run', file, ...SIM, ...outputs);
      expectOk(ran, 'run');
      expect(ran.stdout).toContain(name);
      const metric = ownEntry(readJson(join(dir, 'run.json')).metrics, name) as { estimate: number; exact: number };
      expect(metric.exact).toBe(0.5);
      expect(Math.abs(metric.estimate - 0.5)).toBeLessThan(FIVE_SIGMA_HALF);
      const face = ownEntry(readJson(join(dir, 'run.json')).metrics, 'face') as { estimate: number };
      expect(Math.abs(face.estimate - 3.5)).toBeLessThan(FIVE_SIGMA_FACE);
      const csv = readFileSync(join(dir, 'run.csv'), 'utf8');
      const quoted = /[",\n]/.test(name) ? `"${name.replaceAll('"', '""')}"` : name;
      expect(csv.split('\n').some((line) => line.startsWith(`${quoted},`) && line.includes(',0.5'))).toBe(true);
      expectNameInPage(readFileSync(join(dir, 'run.html'), 'utf8'), name);
      await expectChartsDraw(readFileSync(join(dir, 'run.html'), 'utf8'), name);
      const svgs = readdirSync(join(dir, 'svg'));
      expect(svgs.length).toBeGreaterThan(0);
      for (const svg of svgs) expect(readFileSync(join(dir, 'svg', svg), 'utf8')).toContain('role-mark');
    });

    everyCommand('sweep --exact over the parameter: 2/3, 1/2, 1/3, in every output', async () => {
      const outputs = ['--json', 'sweep.json', '--csv', 'sweep.csv', '--html', 'sweep.html'];
      const ran = await muster(dir, 'sweep', file, '--vary', `${param}=3..5`, '--exact', ...outputs, '--best', name);
      expectOk(ran, 'sweep --exact');
      const json = readJson(join(dir, 'sweep.json'));
      const points = json.points as Array<{ params: Record<string, unknown>; metrics: Record<string, unknown> }>;
      expect(points.map((point) => ownEntry(point.params, param))).toEqual([3, 4, 5]);
      const fractions = points.map((point) => (ownEntry(point.metrics, name) as { fraction: string }).fraction);
      expect(fractions).toEqual(['2/3', '1/2', '1/3']);
      // The answer first, in words: the best value of the parameter, and its figure (src/cli/best.ts, src/analysis/best.ts).
      // (wrapped to the terminal's width where the name is long)
      expect(ran.stdout).toMatch(/^Choose [\s\S]*?=3:[\s\S]*?\s66\.667%/m);
      expect(readFileSync(join(dir, 'sweep.csv'), 'utf8')).toContain('0.6666666666666666');
      expectNameInPage(readFileSync(join(dir, 'sweep.html'), 'utf8'), name);
      await expectChartsDraw(readFileSync(join(dir, 'sweep.html'), 'utf8'), name);
    });

    everyCommand('sweep, simulated: each point within 5σ of its exact value', async () => {
      const outputs = ['--json', 'sweep-sim.json', '--html', 'sweep-sim.html'];
      expectOk(await muster(dir, 'sweep', file, '--vary', `${param}=3..5`, ...SIM, ...outputs), 'sweep');
      const points = readJson(join(dir, 'sweep-sim.json')).points as Array<{ metrics: Record<string, unknown> }>;
      // p(1 − p) ≤ ¼ at every point, so the 5σ of p = 1/2 bounds them all.
      for (const point of points) {
        const metric = ownEntry(point.metrics, name) as { estimate: number; exact: number };
        expect(Math.abs(metric.estimate - metric.exact)).toBeLessThan(FIVE_SIGMA_HALF);
      }
      const exacts = points.map((point) => (ownEntry(point.metrics, name) as { exact: number }).exact);
      expect(exacts).toEqual([2 / 3, 1 / 2, 1 / 3]);
      await expectChartsDraw(readFileSync(join(dir, 'sweep-sim.html'), 'utf8'), name);
    });

    it('compare, exact and simulated, with the name as a variant label too: the difference is 1/6', async () => {
      const variants = ['--variant', `${name}: ${param}=4`, '--variant', `other: ${param}=3`];
      const outputs = ['--json', 'compare.json', '--csv', 'compare.csv', '--html', 'compare.html'];
      const exact = await muster(dir, 'compare', file, ...variants, ...outputs);
      expectOk(exact, 'compare');
      const json = readJson(join(dir, 'compare.json'));
      expect(json.variants.map((v: { label: string }) => v.label)).toEqual([name, 'other']);
      const difference = json.differences.find((d: { metric: string }) => d.metric === name);
      expect(difference).toMatchObject({ baseline: name, variant: 'other', exactFraction: '1/6' });
      expectNameInPage(readFileSync(join(dir, 'compare.html'), 'utf8'), name);
      await expectChartsDraw(readFileSync(join(dir, 'compare.html'), 'utf8'), name);
      expect(readFileSync(join(dir, 'compare.csv'), 'utf8')).toContain('0.16666666666666');
      const simulatedOutputs = ['--json', 'compare-sim.json', '--html', 'compare-sim.html'];
      const simulated = await muster(dir, 'compare', file, ...variants, '--simulate', ...SIM, ...simulatedOutputs);
      expectOk(simulated, 'compare --simulate');
      const d = readJson(join(dir, 'compare-sim.json')).differences.find((x: { metric: string }) => x.metric === name);
      // The difference of two shared-seed estimates: each within 5σ, so their difference within 10σ.
      expect(Math.abs(d.difference - 1 / 6)).toBeLessThan(2 * FIVE_SIGMA_HALF);
      await expectChartsDraw(readFileSync(join(dir, 'compare-sim.html'), 'utf8'), name);
    });

    everyCommand(
      'compare across rules: a built-in rule beside this one, where neither has the other’s metrics',
      async () => {
        const orders = [
          ['infinity', 'a: wipA=13', `b: rule=${file}`],
          [file, 'b: sides=6', 'a: rule=infinity'],
        ];
        for (const [rule, first, second] of orders) {
          const outputs = ['--json', 'mixed.json', '--html', 'mixed.html', '--csv', 'mixed.csv'];
          const ran = await muster(dir, 'compare', rule, '--variant', first, '--variant', second, ...outputs);
          expectOk(ran, `compare ${rule}: ${first} vs ${second}`);
          const json = readJson(join(dir, 'mixed.json'));
          const variants = json.variants as Array<{ metrics: Record<string, unknown> }>;
          const mine = variants.find((v) => Object.hasOwn(v.metrics, 'face')) as { metrics: Record<string, unknown> };
          const theirs = variants.find((v) => !Object.hasOwn(v.metrics, 'face')) as {
            metrics: Record<string, unknown>;
          };
          expect((ownEntry(mine.metrics, name) as { fraction: string }).fraction).toBe('1/2');
          expect(Object.hasOwn(theirs.metrics, name)).toBe(false);
          // No difference is made up for a metric only one side has.
          expect(json.differences.filter((d: { metric: string }) => d.metric === name)).toEqual([]);
          expect(ran.stdout).toContain(name);
          await expectChartsDraw(readFileSync(join(dir, 'mixed.html'), 'utf8'), name);
        }
      },
    );

    everyCommand('matrix: every cell is (sides − threshold + 1)/sides', async () => {
      const ran = await muster(dir, 'matrix', file, '--json', 'matrix.json', '--html', 'matrix.html');
      expectOk(ran, 'matrix');
      const json = readJson(join(dir, 'matrix.json'));
      expect(json.matrix.row).toBe(param);
      const table = json.matrix.tables.find((t: { metric: string }) => t.metric === name);
      const values = [2, 3, 4, 5, 6];
      const byHand = values.map((threshold) => values.map((sides) => Math.max(0, sides - threshold + 1) / sides));
      expect(table.values).toEqual(byHand);
      expectNameInPage(readFileSync(join(dir, 'matrix.html'), 'utf8'), name);
      await expectChartsDraw(readFileSync(join(dir, 'matrix.html'), 'utf8'), name);
    });

    everyCommand('card', async () => {
      const ran = await muster(dir, 'card', file, '--out', 'card.html', '--quiet');
      expectOk(ran, 'card');
      expectNameInPage(readFileSync(join(dir, 'card.html'), 'utf8'), name);
      await expectChartsDraw(readFileSync(join(dir, 'card.html'), 'utf8'), name);
    });

    everyCommand('shard and merge: the same numbers as one run', async () => {
      const settings = ['--trials', '131072', '--threads', '1', '--seed', 'hostile-names', '--quiet'];
      for (const shard of ['0/2', '1/2']) {
        const ran = await muster(dir, 'shard', file, ...settings, '--shard', shard, '--out', `shard-${shard[0]}.json`);
        expectOk(ran, `shard ${shard}`);
      }
      expectOk(
        await muster(dir, 'merge', 'shard-0.json', 'shard-1.json', '--rule', file, '--json', 'merged.json', '--quiet'),
        'merge',
      );
      expectOk(await muster(dir, 'run', file, ...settings, '--json', 'whole.json'), 'run');
      const metricOf = (json: string) => ownEntry(readJson(join(dir, json)).metrics, name);
      expect(metricOf('merged.json')).toEqual(metricOf('whole.json'));
    });

    everyCommand('app: the calculator page bundles the rule', async () => {
      const ran = await muster(dir, 'app', '--rule', file, '--out', 'app.html');
      expectOk(ran, 'app');
      expect(readFileSync(join(dir, 'app.html'), 'utf8')).toContain(`named-${index}`);
    });
  });
}

describe('--set with a name on Object.prototype, on a built-in rule', () => {
  for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'then']) {
    it(`--set ${name}=2: one line naming it as no parameter, exit 2`, async () => {
      const commands = [
        ['run', 'infinity', '--exact'],
        ['sweep', 'infinity', '--exact', '--vary', 'wipA=10..11'],
        ['matrix', 'infinity'],
      ];
      for (const argv of commands) {
        const ran = await muster(folder, ...argv, '--set', `${name}=2`);
        expect(ran.status).toBe(2);
        const refusal = new RegExp(`^muster: ${name}: not a parameter of infinity; allowed: wipA, wipB, crits\\n$`);
        expect(ran.stderr).toMatch(refusal);
      }
      const vary = await muster(folder, 'sweep', 'infinity', '--exact', '--vary', `${name}=1..2`);
      expect(vary.status).toBe(2);
      expect(vary.stderr.trimEnd().split('\n')).toHaveLength(1);
      const variant = await muster(
        folder,
        'compare',
        'infinity',
        '--variant',
        `a: ${name}=2`,
        '--variant',
        'b: wipA=3',
      );
      expect(variant.status).toBe(2);
      expect(variant.stderr.trimEnd().split('\n')).toHaveLength(1);
    });
  }
});

/**
 * Two representative names (one of Object.prototype's, one Vega reads as nested access) and the two
 * compare labels, in a real browser.
 */
describeInChromium('pages in headless Chromium: every chart draws, no console error', () => {
  const dir = join(folder, 'browser');
  mkdirSync(dir, { recursive: true });
  let browser: Browser;
  const rules = [
    { file: './constructor.mjs', id: 'named-constructor', name: 'constructor', param: 'constructor' },
    { file: './dotted.mjs', id: 'named-dotted', name: 'a.b', param: 'hasOwnProperty' },
  ];
  beforeAll(async () => {
    for (const rule of rules) writeFileSync(join(dir, rule.file), namedRuleSource(rule.id, rule.name, rule.param));
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** How many marks each chart drew (runs in the page). */
  const marksPerChart = (selector: string) =>
    [...document.querySelectorAll(selector)].map((vis) => vis.querySelectorAll('svg .role-mark > *').length);
  /** What the calculator page offers tests (src/page/browser.ts). */
  interface AppHandle {
    idle(): Promise<void>;
    open(hash: string): Promise<void>;
    result: RunResult | null;
  }

  /** Opens a report, waits for its charts, and returns the marks each drew and what went wrong. */
  async function open(file: string): Promise<{ marks: number[]; problems: string[]; text: string; pwned: unknown }> {
    const { page, problems, requests } = await offlinePage(browser);
    try {
      await page.goto(`file://${join(dir, file)}`);
      await page.evaluate(() => (window as unknown as { musterCharts: Promise<unknown> }).musterCharts.then(() => 1));
      const marks = await page.evaluate(marksPerChart, '.vis');
      const text = await page.evaluate(() => document.body.textContent);
      const pwned = await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned);
      expect(requests).toEqual([]);
      return { marks, problems, text, pwned };
    } finally {
      await page.close();
    }
  }

  it('compare labels __proto__ and hasOwnProperty draw both charts', async () => {
    for (const [first, second] of [
      ['__proto__', 'hasOwnProperty'],
      ['hasOwnProperty', '__proto__'],
    ]) {
      const variants = ['--variant', `${first}: target=6`, '--variant', `${second}: target=7`];
      expectOk(await muster(dir, 'compare', 'reserves', ...variants, '--html', 'labels.html', '--quiet'), 'compare');
      const opened = await open('labels.html');
      expect(opened.problems).toEqual([]);
      expect(opened.marks).toHaveLength(2);
      for (const count of opened.marks) expect(count).toBeGreaterThan(0);
      expect(opened.text).toContain('__proto__');
      expect(opened.text).toContain('hasOwnProperty');
    }
  });

  // One test a page, so no one test holds six CLI runs and six page loads (CI may be busy).
  for (const rule of rules) {
    const labelled = ['--variant', `__proto__: ${rule.param}=3`, '--simulate'];
    const pages: Array<[string, string[]]> = [
      ['run.html', ['run', rule.file, ...SIM, '--html', 'run.html']],
      ['sweep.html', ['sweep', rule.file, '--vary', `${rule.param}=3..5`, '--exact', '--html', 'sweep.html']],
      [
        'sweep2.html',
        ['sweep', rule.file, '--vary', `${rule.param}=3..5`, '--vary', 'sides=4..6', ...SIM, '--html', 'sweep2.html'],
      ],
      [
        'compare.html',
        [
          'compare',
          rule.file,
          '--variant',
          `${rule.name}: ${rule.param}=4`,
          ...labelled,
          ...SIM,
          '--html',
          'compare.html',
        ],
      ],
      ['matrix.html', ['matrix', rule.file, '--html', 'matrix.html']],
      ['card.html', ['card', rule.file, '--out', 'card.html', '--quiet']],
    ];
    for (const [page, argv] of pages)
      it(`${argv[0]} (${page}) of a rule naming ${rule.param} and ${rule.name}`, async () => {
        const file = `${rule.param}-${page}`;
        const named = argv.map((arg) => (arg === page ? file : arg));
        expectOk(await muster(dir, ...named), named.join(' '));
        const opened = await open(file);
        expect({ file, problems: opened.problems }).toEqual({ file, problems: [] });
        expect(opened.marks.length, file).toBeGreaterThan(0);
        for (const count of opened.marks) expect(count, file).toBeGreaterThan(0);
        expect(opened.text, file).toContain(rule.name);
        expect(opened.pwned, file).toBeUndefined();
      });
  }

  it('the calculator: parameters named constructor and hasOwnProperty are fields; 1/2, then 2/3', async () => {
    expectOk(await muster(dir, 'app', ...rules.flatMap((rule) => ['--rule', rule.file]), '--out', 'app.html'), 'app');
    const { page, problems, requests } = await offlinePage(browser, { blob: true });
    try {
      await page.goto(`file://${join(dir, 'app.html')}`);
      await page.evaluate(() => (window as unknown as { musterApp: AppHandle }).musterApp.idle());
      for (const rule of rules) {
        const cases: Array<[Array<[string, string]>, number]> = [
          [[], 0.5],
          [[[rule.param, '3']], 2 / 3],
        ];
        for (const [set, exact] of cases) {
          const hash = formatHash(rule.id, set);
          await page.evaluate((next) => (window as unknown as { musterApp: AppHandle }).musterApp.open(next), hash);
          const result = await page.evaluate(() => (window as unknown as { musterApp: AppHandle }).musterApp.result);
          expect(result, hash).not.toBeNull();
          expect(ownEntry((result as RunResult).params, rule.param), hash).toBe(set.length === 0 ? 4 : 3);
          expect((ownEntry((result as RunResult).metrics, rule.name) as { exact: number }).exact, hash).toBe(exact);
          // The field shows the parameter's own value, not Object.prototype's function.
          const field = await page.evaluate(
            (name) =>
              [...document.querySelectorAll('input')].find((input) => input.labels?.[0]?.textContent === name)?.value,
            rule.param,
          );
          expect(field, hash).toBe(set.length === 0 ? '4' : '3');
          const marks = await page.evaluate(marksPerChart, '#charts .vis');
          expect(marks.length, hash).toBeGreaterThan(0);
          for (const count of marks) expect(count, hash).toBeGreaterThan(0);
        }
      }
      expect(problems).toEqual([]);
      expect(requests).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
