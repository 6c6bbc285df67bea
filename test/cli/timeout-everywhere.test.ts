/**
 * `--timeout` on every command that runs a rule file's code, and signals
 * that act within a second, exact arithmetic included. Before, `run
 * --exact`, `sweep --exact`, `compare --exact`, `matrix`, `card`, `check`,
 * `describe`, `app` and `merge` refused --timeout or had none; an exact()
 * returning two 31,000-digit numbers took seconds of reduction outside any
 * call the supervisor watches; an exact sweep of slow points ran on to its
 * last point after Ctrl-C (each point a new call, so the supervisor's grace
 * never ran out). Now: one line, exit 2 (the rule's fault) within the
 * timeout and the start-up, nothing on disk; an exact value whose numerator
 * or denominator passes 1,000 digits is refused in one line naming the
 * member; a signal stops an exact command within a second.
 *
 * On the real command line (the supervisor runs only there), each child
 * under a hard deadline, so a regression fails rather than hangs.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { scratchFolder } from '../support/cli.js';

const folder = scratchFolder('timeout');
const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const HARD_DEADLINE_MS = 30_000;
/**
 * --timeout 1 plus the margin a loaded two-core machine needs: node and the
 * rule thread start in about 0.5 s idle and up to 3 s with both cores busy,
 * the supervisor polls every 0.1 s; a stop that ignored --timeout would take
 * the hard deadline.
 */
const TIMEOUT_BOUND_MS = 8000;
/** A signal: 1 s of grace for the rule's call, 0.1 s polling, and the exit, on a loaded machine. */
const SIGNAL_BOUND_MS = 4000;

interface Finished {
  status: number | null;
  stderr: string;
  /** From the start, or from the signal when one is sent. */
  ms: number;
}

function ruleFile(name: string, fields: string): string {
  const path = join(folder, `${name}.mjs`);
  writeFileSync(
    path,
    [
      "import { writeFileSync } from 'node:fs';",
      "const ready = () => { if (process.env.READY) writeFileSync(process.env.READY, 'ready'); };",
      'export default {',
      "  id: 'slow', title: 'A slow rule',",
      "  params: [{ name: 'n', type: 'integer', default: 1, min: 1, max: 99 }],",
      "  metrics: [{ name: 'win', probability: true }],",
      '  trial(dice, p, out) { out.win = dice.d(6) >= 4; },',
      fields,
      '};',
      '',
    ].join('\n'),
  );
  return `./${name}.mjs`;
}

const forever = 'ready(); for (;;) {}';
const loopingExact = ruleFile('exact-loop', `  exact(p) { ${forever} },`);
const loopingMetrics = ruleFile('metrics-loop', `  readings(p) { ${forever} },`);
const loopingTop = join(folder, 'top-loop.mjs');
writeFileSync(loopingTop, `${forever.replace('ready(); ', '')}\nexport default {};\n`);
/** 40,000 digits each: past the bound, and seconds of reduction before. */
const hugeExact = ruleFile(
  'huge-exact',
  '  exact(p) { const n = 7n ** 47000n, d = 7n ** 47001n + 2n; return { win: `${n}/${d}` }; },',
);
/** Each point 0.3 s: an exact sweep of 60 takes 18 s unless a signal stops it. */
const slowExact = ruleFile(
  'slow-exact',
  '  exact(p) { ready(); const end = Date.now() + 300; while (Date.now() < end); return { win: "1/2" }; },',
);
const longExact = ruleFile(
  'long-exact',
  '  exact(p) { ready(); const end = Date.now() + 25_000; while (Date.now() < end); return { win: "1/2" }; },',
);

let runs = 0;

async function muster(argv: string[], signal?: NodeJS.Signals): Promise<Finished> {
  const ready = join(folder, `ready-${runs++}`);
  const child = spawn(process.execPath, [CLI, ...argv], {
    cwd: folder,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, READY: ready },
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  let from = performance.now();
  const deadline = setTimeout(() => child.kill('SIGKILL'), HARD_DEADLINE_MS);
  const exited = new Promise<Finished>((resolve) =>
    child.on('close', (status) => {
      clearTimeout(deadline);
      resolve({ status, stderr, ms: performance.now() - from });
    }),
  );
  if (signal) {
    while (!existsSync(ready) && child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 20));
    from = performance.now();
    child.kill(signal);
  }
  return exited;
}

/** The files in the scratch folder, to show that a command wrote nothing. */
const onDisk = () => readdirSync(folder).filter((name) => !name.startsWith('ready-'));

function expectStopped(got: Finished, call: RegExp): void {
  expect(got.stderr, got.stderr).toMatch(/^muster: [^\n]*\n$/);
  expect(got.stderr).toMatch(call);
  expect(got.stderr).toContain('nothing was written');
  expect(got.status, got.stderr).toBe(2);
  expect(got.ms).toBeLessThan(TIMEOUT_BOUND_MS);
}

describe('--timeout 1 stops a rule file whose code loops, on every command that runs it', () => {
  const cases: Array<[string, string[], RegExp]> = [
    ['run --exact', ['run', loopingExact, '--exact', '--json', 'out.json'], /exact\(params\) did not return within/],
    [
      'sweep --exact',
      ['sweep', loopingExact, '--vary', 'n=1..3', '--exact', '--json', 'out.json'],
      /exact\(params\) did not return within/,
    ],
    [
      'compare (exact)',
      ['compare', loopingExact, '--variant', 'a: n=1', '--variant', 'b: n=2', '--csv', 'out.csv'],
      /exact\(params\) did not return within/,
    ],
    ['card', ['card', loopingExact, '--out', 'card.html'], /exact\(params\) did not return within/],
    ['check', ['check', loopingExact], /exact\(params\) did not return within/],
    ['describe', ['describe', loopingMetrics], /readings\(params\) did not return within/],
    ['app', ['app', '--rule', loopingTop, '--out', 'app.html'], /top-level code did not finish within/],
  ];
  for (const [name, argv, call] of cases) {
    it(`${name}: one line, exit 2, within the bound, nothing on disk`, async () => {
      const before = onDisk();
      expectStopped(await muster([...argv, '--timeout', '1']), call);
      expect(onDisk()).toEqual(before);
    }, 40_000);
  }

  it('a --timeout that is not a number of seconds is one line naming it, on the commands that newly take it', async () => {
    for (const argv of [
      ['describe', 'rolloff'],
      ['run', 'rolloff', '--exact'],
      ['sweep', 'rolloff', '--vary', 'bonusA=0..1', '--exact'],
    ]) {
      const got = await muster([...argv, '--timeout', 'soon']);
      expect(got.status, got.stderr).toBe(2);
      expect(got.stderr).toMatch(/^muster: --timeout: got "soon"; allowed: [^\n]*\n$/);
    }
  }, 40_000);
});

describe('an exact value too long to reduce in time is refused by its size', () => {
  it('run --exact and sweep --exact: one line naming exact(params) and the metric, exit 2, at once', async () => {
    for (const argv of [
      ['run', hugeExact, '--exact', '--json', 'out.json'],
      ['sweep', hugeExact, '--vary', 'n=1..4', '--exact', '--json', 'out.json'],
    ]) {
      const before = onDisk();
      const got = await muster(argv);
      expect(got.stderr).toMatch(
        /^muster: \.\/huge-exact\.mjs \(rule slow\): exact\(params\): metric "win": got a fraction with a part of more than 1000 digits; allowed: [^\n]*\n$/,
      );
      expect(got.status).toBe(2);
      expect(got.ms).toBeLessThan(TIMEOUT_BOUND_MS);
      expect(onDisk()).toEqual(before);
    }
  }, 40_000);
});

describe('a signal stops an exact command within a second of grace', () => {
  it('SIGTERM while exact() computes: 143, one line, nothing written', async () => {
    const before = onDisk();
    const got = await muster(['run', longExact, '--exact', '--json', 'out.json'], 'SIGTERM');
    expect(got.status, got.stderr).toBe(143);
    expect(got.stderr).toMatch(
      /^muster: interrupted: [^\n]*exact\(params\) had not returned 1 s after SIGTERM[^\n]*\n$/,
    );
    expect(got.ms).toBeLessThan(SIGNAL_BOUND_MS);
    expect(onDisk()).toEqual(before);
  }, 40_000);

  it('Ctrl-C in an exact sweep of slow points: 130 at the next point, not after the last', async () => {
    // Each point is a new call, so the supervisor's grace never ran out: the sweep itself now hears the signal.
    const got = await muster(['sweep', slowExact, '--vary', 'n=1..60', '--exact'], 'SIGINT');
    expect(got.status, got.stderr).toBe(130);
    expect(got.ms).toBeLessThan(SIGNAL_BOUND_MS);
  }, 40_000);
});
