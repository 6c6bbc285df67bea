/**
 * `npm run bench:app`: how soon the calculator page shows a new answer, in
 * Debian's Chromium, for every built-in rule at its defaults and at its
 * largest sizes (the most squads, rounds, fighters, warbands, platoons and
 * turns its parameters allow). The target is the new exact answer and the
 * rule's first chart within 100 ms of a change.
 *
 * A change is one parameter moved by a step (WIP 13 → 14), as a player
 * changes it, or a switch from another rule, when every chart is drawn from
 * nothing (a parameter change mostly swaps only the data into the charts).
 *
 *   exact          parameters read and checked, exact(params), the result built
 *   first chart    from a parameter change to the rule's main chart on screen (the target)
 *   all charts     from a parameter change to the last of the rule's charts
 *   switched rule  from a switch of rule to the main chart on screen
 *   baseline       one vega-embed of a one-mark chart, timed in the same page, so a
 *                  slow or busy machine shows as a large baseline, not a slow page
 *
 * Simulated, for every built-in rule at its defaults and at its largest
 * sizes (the same questions, with `simulate=1`: the page's 1,000,000
 * trials and seed "muster"), timed from the change as a person waits:
 *
 *   simulation     from the change to the last chunk merged (the kept workers, no boot)
 *   first chart    from the change to the simulated answer and its main chart on screen
 *                  (goal at the defaults: under 150 ms)
 *
 * Each is the median of three changes after one warm-up; the Workers the page
 * made over all of them are counted (kept workers: one a core, made once).
 * The page's load is timed too: navigation to its first answer shown.
 *
 * The workbench: each step-form port of examples/rules/ opened in the page's
 * editor at its defaults, then one keystroke typed into its source (a space
 * at its end); timed in the page from the keystroke's input event to the new
 * exact answer and its first chart on screen (goal: under 300 ms). That
 * includes the pause the editor waits for the typing to stop, a fresh
 * sandbox worker started and the text loaded, checked and enumerated there.
 * The page's size is given too.
 *
 * Each figure is the median of five changes after two warm-up changes.
 * Not a test: timings on a shared machine vary, so nothing here fails.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { renderTable } from '../../src/cli/format.js';
import { buildAppHtml } from '../../src/page/build.js';
import { formatHash } from '../../src/page/hash.js';
import { rules } from '../../src/rules/index.js';

const REPEATS = 5;
const WARM_UP = 2;
const TARGET_MS = 100;

interface Case {
  label: string;
  rule: string;
  set: Array<[string, string]>;
  /** The same question with one parameter a step away: the change measured is from this to the case. */
  step: [string, string];
  /**
   * The first chart's target, when not TARGET_MS: a rule file's enumerated answer has 200 ms (issue: exact without the
   * maths).
   */
  target?: number;
}

/**
 * The step-form ports in examples/rules/, bundled as `muster app --rule FILE` bundles them: exact by enumeration
 * in the page. The page keeps the enumerations of the last 16 settings, so after the warm-ups these rows time a
 * setting enumerated before; a first enumeration costs what `muster run FILE --exact` reports for it.
 */
const PORTS = ['infinity-steps', 'reserves-steps', 'noctvale-steps'];
const PORT_TARGET_MS = 200;

const eight = (entry: string) => Array.from({ length: 8 }, () => entry).join(',');

const CASES: Case[] = [
  { label: 'rolloff, defaults', rule: 'rolloff', set: [], step: ['bonusA', '1'] },
  { label: 'rolloff, bonus +6', rule: 'rolloff', set: [['bonusA', '6']], step: ['bonusA', '5'] },
  { label: 'reserves, defaults', rule: 'reserves', set: [], step: ['command', '3'] },
  {
    label: 'reserves, 100 squads, 12 rounds',
    rule: 'reserves',
    set: [
      ['squads', '100'],
      ['rounds', '12'],
      ['chosenRound', '6'],
      ['command', '3'],
      ['leaderLoss', '0.15'],
      ['fallbackCommand', '1'],
    ],
    step: ['squads', '99'],
  },
  { label: 'deployment, defaults', rule: 'deployment', set: [], step: ['a', 'forward:2'] },
  {
    label: 'deployment, standard against forward',
    rule: 'deployment',
    set: [
      ['a', 'standard:1,2,6'],
      ['b', 'forward:6'],
      ['compare', 'modified'],
    ],
    step: ['b', 'forward:5'],
  },
  { label: 'infinity, defaults', rule: 'infinity', set: [], step: ['wipA', '14'] },
  {
    label: 'infinity, WIP 30 against 30',
    rule: 'infinity',
    set: [
      ['wipA', '30'],
      ['wipB', '30'],
    ],
    step: ['wipB', '29'],
  },
  { label: 'noctvale, defaults', rule: 'noctvale', set: [], step: ['fightersA', '9'] },
  {
    label: 'noctvale, 60 fighters, 10 groups',
    rule: 'noctvale',
    set: [
      ['fightersA', '60'],
      ['fightersB', '60'],
      ['groups', '10'],
    ],
    step: ['fightersB', '59'],
  },
  { label: 'warbands, defaults', rule: 'warbands', set: [], step: ['warbands', '152:9,148:11,121:8'] },
  {
    label: 'warbands, 8 warbands, allies',
    rule: 'warbands',
    set: [
      ['warbands', eight('10:200')],
      ['allies', '1+2,3+4'],
    ],
    step: ['allies', '1+2'],
  },
  { label: 'fow, defaults', rule: 'fow', set: [], step: ['hit', '4'] },
  {
    label: 'fow, 30 platoons, 20 turns',
    rule: 'fow',
    set: [
      ['attackerPlatoons', '30'],
      ['attackerReserves', '30'],
      ['defenderPlatoons', '30'],
      ['defenderReserves', '29'],
      ['turns', '20'],
    ],
    step: ['hit', '4'],
  },
  {
    label: 'fow, the same at 6+, guarantee 20, from turn 1',
    rule: 'fow',
    set: [
      ['attackerPlatoons', '30'],
      ['attackerReserves', '30'],
      ['defenderPlatoons', '30'],
      ['defenderReserves', '29'],
      ['turns', '20'],
      ['hit', '6'],
      ['guarantee', '20'],
      ['attackerStart', '1'],
      ['defenderStart', '1'],
    ],
    step: ['guarantee', '19'],
  },
  {
    label: 'infinity-steps (rule file, enumerated), WIP 13 against 15',
    rule: 'infinity-steps',
    set: [['wipB', '15']],
    step: ['wipA', '14'],
    target: PORT_TARGET_MS,
  },
  {
    label: 'reserves-steps (rule file, enumerated), defaults',
    rule: 'reserves-steps',
    set: [],
    step: ['command', '3'],
    target: PORT_TARGET_MS,
  },
  {
    label: 'noctvale-steps (rule file, enumerated), defaults',
    rule: 'noctvale-steps',
    set: [],
    step: ['fightersA', '9'],
    target: PORT_TARGET_MS,
  },
];

interface Timings {
  simulation: number;
  compute: number;
  firstChart: number;
  total: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Sets the hash and waits for the page to show everything; the page times itself from the change. */
async function change(page: Page, hash: string): Promise<Timings> {
  const timings = await page.evaluate(async (next) => {
    const app = (window as unknown as { musterApp: { open(hash: string): Promise<void>; timings: Timings | null } })
      .musterApp;
    await app.open(next);
    return app.timings;
  }, hash);
  if (!timings) throw new Error(`the page showed no answer for #${hash}`);
  return timings;
}

/** One vega-embed of a one-mark chart, in the same page: what the machine itself costs today. */
async function baseline(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const embed = (
      window as unknown as {
        vegaEmbed: (element: HTMLElement, spec: unknown, options: unknown) => Promise<{ view: { finalize(): void } }>;
      }
    ).vegaEmbed;
    const target = document.createElement('div');
    document.body.append(target);
    const spec = { data: { values: [{ x: 1 }] }, mark: 'point', encoding: { x: { field: 'x', type: 'quantitative' } } };
    const times: number[] = [];
    for (let repeat = 0; repeat < 7; repeat++) {
      const started = performance.now();
      const { view } = await embed(target, spec, { renderer: 'svg', actions: false });
      times.push(performance.now() - started);
      view.finalize();
    }
    target.remove();
    return times.sort((a, b) => a - b)[3];
  });
}

const SIMULATED_TARGET_MS = 150;
const SIMULATED_REPEATS = 3;
const SIMULATED_WARM_UP = 1;
/** The trials the page simulates when a link names none (src/page/form-values.ts). */
const PAGE_TRIALS = 1_000_000;

/** Every built-in rule needs a row at its defaults and one at its largest sizes: a new rule must be added above. */
function checkCoverage(): void {
  for (const rule of rules) {
    const mine = CASES.filter((benchCase) => benchCase.rule === rule.id);
    if (!mine.some((benchCase) => benchCase.set.length === 0) || !mine.some((benchCase) => benchCase.set.length > 0))
      throw new Error(`scripts/bench/app.ts has no defaults and large case for ${rule.id}`);
  }
}

/** A question as the page simulates it: simulate=1, the page's trials and seed. */
async function simulatedRow(page: Page, benchCase: Case, base: number): Promise<string[]> {
  const simulated = (set: Array<[string, string]>) => formatHash(benchCase.rule, [...set, ['simulate', '1']]);
  const hash = simulated(benchCase.set);
  const stepped = simulated([...benchCase.set.filter(([name]) => name !== benchCase.step[0]), benchCase.step]);
  const runs: Timings[] = [];
  for (let repeat = 0; repeat < SIMULATED_WARM_UP + SIMULATED_REPEATS; repeat++) {
    await change(page, stepped);
    const run = await change(page, hash);
    if (run.simulation <= 0) throw new Error(`the page did not simulate #${hash}`);
    if (repeat >= SIMULATED_WARM_UP) runs.push(run);
  }
  const simulation = median(runs.map((run) => run.simulation));
  const first = median(runs.map((run) => run.firstChart));
  const atDefaults = benchCase.set.length === 0;
  return [
    benchCase.label,
    `${((PAGE_TRIALS / simulation) * 1000).toExponential(2)}`,
    `${simulation.toFixed(1)} ms`,
    `${first.toFixed(1)} ms`,
    `${median(runs.map((run) => run.total)).toFixed(1)} ms`,
    `${(first / base).toFixed(1)}×`,
    atDefaults ? (first <= SIMULATED_TARGET_MS ? 'yes' : 'NO') : '—',
  ];
}

/** From navigation to the page's first answer shown, in the page's own clock (median of three loads). */
async function loadTime(page: Page, url: string): Promise<number> {
  const times: number[] = [];
  for (let repeat = 0; repeat < 3; repeat++) {
    await page.goto(url);
    times.push(
      await page.evaluate(async () => {
        await (window as unknown as { musterApp: { idle(): Promise<void> } }).musterApp.idle();
        return performance.now();
      }),
    );
  }
  return median(times);
}

const KEYSTROKE_TARGET_MS = 300;
/** The ports the workbench opens, as the page ships them (examples/rules/). */
const WORKBENCH_PORTS = [
  'infinity-steps.mjs',
  'reserves-steps.mjs',
  'noctvale-steps.mjs',
  'deployment-steps.mjs',
  'warbands-steps.mjs',
  'fow-steps.mjs',
];

/** From a keystroke in the editor to the new exact answer shown, in the page's own clock. */
async function keystroke(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const app = (window as unknown as { musterApp: { idle(): Promise<void>; result: unknown } }).musterApp;
    const editor = document.getElementById('rule-source') as HTMLTextAreaElement;
    const before = app.result;
    const typed = performance.now();
    editor.value = editor.value.endsWith(' ') ? editor.value.slice(0, -1) : `${editor.value} `;
    editor.dispatchEvent(new Event('input', { bubbles: true }));
    await app.idle();
    if (app.result === before || app.result === null) throw new Error('no new answer after the keystroke');
    return performance.now() - typed;
  });
}

async function workbenchRows(page: Page): Promise<string[][]> {
  const rows: string[][] = [];
  for (const name of WORKBENCH_PORTS) {
    await page.goto(page.url().split('#')[0]);
    await page.evaluate(() => (window as unknown as { musterApp: { idle(): Promise<void> } }).musterApp.idle());
    if ((await page.locator(`#rule-files option[value="example:${name}"]`).count()) === 0) continue;
    await page.selectOption('#rule-files', `example:${name}`);
    await page.evaluate(() => (window as unknown as { musterApp: { idle(): Promise<void> } }).musterApp.idle());
    const times: number[] = [];
    for (let repeat = 0; repeat < WARM_UP + REPEATS; repeat++) {
      const time = await keystroke(page);
      if (repeat >= WARM_UP) times.push(time);
    }
    const typed = median(times);
    rows.push([name, `${typed.toFixed(1)} ms`, typed <= KEYSTROKE_TARGET_MS ? 'yes' : 'NO']);
  }
  return rows;
}

checkCoverage();
const folder = mkdtempSync(join(tmpdir(), 'muster-bench-app-'));
try {
  const file = join(folder, 'app.html');
  const ports = PORTS.map((id) => {
    const path = fileURLToPath(new URL(`../../../examples/rules/${id}.mjs`, import.meta.url));
    return { path, shown: `examples/rules/${id}.mjs`, id };
  });
  const { html } = await buildAppHtml({ ruleFiles: ports });
  writeFileSync(file, html);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  await page.addInitScript(() => {
    const counted = window as unknown as { workersMade: number };
    counted.workersMade = 0;
    const Original = window.Worker;
    window.Worker = class extends Original {
      constructor(url: string | URL, options?: WorkerOptions) {
        super(url, options);
        counted.workersMade += 1;
      }
    };
  });
  await page.goto(`file://${file}`);
  await page.evaluate(() => (window as unknown as { musterApp: { idle(): Promise<void> } }).musterApp.idle());
  const base = await baseline(page);
  const rows: string[][] = [];
  for (const benchCase of CASES) {
    const hash = formatHash(benchCase.rule, benchCase.set);
    const stepped = formatHash(benchCase.rule, [
      ...benchCase.set.filter(([name]) => name !== benchCase.step[0]),
      benchCase.step,
    ]);
    // Switching rule: to and fro with another, so every chart is drawn from nothing.
    const other = benchCase.rule === 'infinity' ? 'noctvale' : 'infinity';
    const stepRuns: Timings[] = [];
    const switchRuns: Timings[] = [];
    for (let repeat = 0; repeat < WARM_UP + REPEATS; repeat++) {
      await change(page, other);
      const switched = await change(page, hash);
      await change(page, stepped);
      const step = await change(page, hash);
      if (repeat >= WARM_UP) {
        switchRuns.push(switched);
        stepRuns.push(step);
      }
    }
    const first = median(stepRuns.map((run) => run.firstChart));
    rows.push([
      benchCase.label,
      `${median(stepRuns.map((run) => run.compute)).toFixed(1)} ms`,
      `${first.toFixed(1)} ms`,
      `${median(stepRuns.map((run) => run.total)).toFixed(1)} ms`,
      `${median(switchRuns.map((run) => run.firstChart)).toFixed(1)} ms`,
      `${(first / base).toFixed(1)}×`,
      `${first <= (benchCase.target ?? TARGET_MS) ? 'yes' : 'NO'}${
        benchCase.target ? ` (≤ ${benchCase.target} ` + `ms)` : ''
      }`,
    ]);
  }
  const simulatedRows: string[][] = [];
  for (const benchCase of CASES) if (!benchCase.target) simulatedRows.push(await simulatedRow(page, benchCase, base));
  const workersMade = await page.evaluate(() => (window as unknown as { workersMade: number }).workersMade);
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  const plain = join(folder, 'plain-app.html');
  const plainHtml = (await buildAppHtml()).html;
  writeFileSync(plain, plainHtml);
  const load = await loadTime(page, `file://${plain}`);
  const typedRows = await workbenchRows(page);
  const version = browser.version();
  await browser.close();
  process.stdout.write(
    `the calculator page in Chromium ${version}, median of ${REPEATS} changes after ${WARM_UP} warm-ups; baseline ` +
      `(one-mark vega-embed) ${base.toFixed(1)} ms\n`,
  );
  process.stdout.write(
    renderTable(
      ['question', 'exact', 'first chart', 'all charts', 'switched rule', 'first ÷ baseline', `≤ ${TARGET_MS} ms`],
      rows,
      200,
    ),
  );
  process.stdout.write(
    `\nsimulated in the page (simulate=1: ${PAGE_TRIALS.toLocaleString('en-US')} trials, seed "muster"), ` +
      `timed from the change; ${workersMade} Workers made over every change above (${cores} cores)\n`,
  );
  process.stdout.write(
    renderTable(
      [
        'question',
        'trials/s',
        'simulation',
        'first chart',
        'all charts',
        'first ÷ baseline',
        `≤ ${SIMULATED_TARGET_MS} ms at defaults`,
      ],
      simulatedRows,
      200,
    ),
  );
  const size = (text: string) => `${Math.round(Buffer.byteLength(text, 'utf8') / 1024).toLocaleString('en-US')} KB`;
  process.stdout.write(
    `\nthe page: ${size(plainHtml)}; loaded (navigation to its first answer shown) in ${load.toFixed(1)} ms, ` +
      `${(load / base).toFixed(1)}× baseline\n`,
  );
  process.stdout.write(
    `\nthe workbench (muster app, ${size(plainHtml)}; with the three ports bundled by --rule, ${size(html)}): a ` +
      `keystroke in a port's source to its new exact answer\n`,
  );
  process.stdout.write(
    renderTable(['rule file, at its defaults', 'keystroke to answer', `≤ ${KEYSTROKE_TARGET_MS} ms`], typedRows, 200),
  );
} finally {
  rmSync(folder, { recursive: true, force: true });
}
