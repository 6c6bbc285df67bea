/**
 * A rule file's code that never returns, ends its thread or exhausts the
 * heap, on the real command line. Before, exact(), validate(), metrics() and
 * top-level code ran on the main thread: a loop there ignored --timeout, Ctrl-C
 * and SIGTERM (the test had to SIGKILL it); a top-level await that never
 * settled exited 13 with no word; process.exit(0) in a small in-process trial
 * exited 0 as if the run had succeeded; a leak was a V8 fatal error with its
 * GC log (exit 134); and a pool worker's process.exit or heap exhaustion was
 * "a bug" of muster's (exit 1). Now each is one line naming the file and the
 * function, exit 2 (the user's rule is bad input), or 130/143 after a signal.
 *
 * Every child runs with a hard deadline (SIGKILL): a regression fails the
 * test, it cannot hang the suite.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { scratchFolder } from '../support/cli.js';

const folder = scratchFolder('watchdog');
const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
/** A child still running after this is killed, and the test fails on its status. */
const HARD_DEADLINE_MS = 45_000;
const ONE_CHILD = { timeout: HARD_DEADLINE_MS + 5000 };
const TWO_CHILDREN = { timeout: 2 * HARD_DEADLINE_MS + 5000 };

interface Finished {
  status: number | null;
  killedBy: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** From the signal (or from the start, when none is sent) to the exit. */
  ms: number;
}

/**
 * A rule file in the scratch folder: the hostile parts spliced into an
 * otherwise sound rule. `ready()` writes the file READY names, so a test
 * signals the child only once the rule's code has begun its loop.
 */
function ruleFile(name: string, parts: { top?: string; fields?: string; trial?: string; metrics?: string }): string {
  const path = join(folder, `${name}.mjs`);
  const lines = [
    "import { writeFileSync } from 'node:fs';",
    "const ready = () => { if (process.env.READY) writeFileSync(process.env.READY, 'ready'); };",
    parts.top ?? '',
    'export default {',
    "  id: 'hostile', title: 'A hostile rule',",
    "  params: [{ name: 'n', type: 'integer', default: 1, min: 1, max: 5 }],",
    `  metrics: ${parts.metrics ?? "[{ name: 'win', probability: true }]"},`,
    parts.fields ?? '',
    `  trial(dice, p, out) { ${parts.trial ?? ''} out.win = dice.d(6) >= 4; },`,
    '};',
    '',
  ];
  writeFileSync(path, lines.join('\n'));
  return path;
}

const forever = 'ready(); for (;;) {}';

/** A TypeScript rule file (compiled by esbuild, imported from a data: URL) whose top level loops. */
function typescriptLoop(): string {
  const path = join(folder, 'top-loop-ts.ts');
  const trial = 'trial(d: unknown, p: unknown, out: { win: number }) { out.win = 1; }';
  const rule = `{ id: 'ts', title: 'T', metrics: [{ name: 'win', probability: true }], ${trial} }`;
  writeFileSync(path, `const spins: number = 1;\nwhile (spins > 0) {}\nexport default ${rule};\n`);
  return path;
}

const files = {
  exact: ruleFile('exact-loop', { fields: `  exact(p) { ${forever} },` }),
  validate: ruleFile('validate-loop', { fields: `  validate(p) { ${forever} },` }),
  metrics: ruleFile('metrics-loop', { metrics: `function metrics(p) { ${forever} }` }),
  headline: ruleFile('headline-loop', { fields: `  headline(p) { ${forever} },` }),
  wait: ruleFile('exact-wait', {
    fields: '  exact(p) { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); },',
  }),
  // Blocked in a native call, which no thread can be stopped inside: it is stopped once the call returns.
  native: ruleFile('exact-native', {
    top: "import { execSync } from 'node:child_process';",
    fields: "  exact(p) { execSync('sleep 4'); },",
  }),
  setup: ruleFile('setup-loop', { fields: `  setup(p) { ${forever} },` }),
  // Counting outcomes: the trial returns one, read(outcome, …) writes its metrics, and loops.
  read: ruleFile('read-loop', {
    fields: `  outcomes() { return 2; },\n  read(outcome, p, out) { ${forever} },`,
    trial: 'return dice.d(2) - 1;',
  }),
  top: ruleFile('top-loop', { top: forever }),
  topTyped: typescriptLoop(),
  topAwait: ruleFile('top-await', { top: 'await new Promise(() => {});' }),
  topSleep: ruleFile('top-sleep', { top: 'ready(); await new Promise((resolve) => setTimeout(resolve, 3_600_000));' }),
  trialExit: ruleFile('trial-exit', { trial: 'process.exit(0);' }),
  trialLeak: ruleFile('trial-leak', { top: 'const kept = [];', trial: 'kept.push(new Array(1e6).fill(1));' }),
  trialLoop: ruleFile('trial-loop', { trial: forever }),
  lateThrow: ruleFile('late-throw', { top: "setTimeout(() => { throw new RangeError('thrown late'); }, 0);" }),
  sound: ruleFile('sound', { top: "console.log('a line the rule prints');" }),
  // Loops only when HANG is set: its shards are made without it, then merged with it (same contents, same hash).
  hangsLater: ruleFile('hangs-later', { top: `if (process.env.HANG) { ${forever} }` }),
};

let runs = 0;

interface Launch {
  /** Sent to the process alone, once the rule's code has said it is looping. */
  signal?: NodeJS.Signals;
  env?: Record<string, string>;
  /** Options for node itself, before the CLI. */
  node?: string[];
}

/** Runs `muster argv` in its own process group, under the hard deadline. */
async function muster(argv: string[], launch: Launch = {}): Promise<Finished> {
  const ready = join(folder, `ready-${runs++}`);
  const child = spawn(process.execPath, [...(launch.node ?? []), CLI, ...argv], {
    cwd: folder,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, READY: ready, ...launch.env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  let from = performance.now();
  const deadline = setTimeout(() => child.kill('SIGKILL'), HARD_DEADLINE_MS);
  const exited = new Promise<Finished>((resolve) =>
    child.on('close', (status, killedBy) => {
      clearTimeout(deadline);
      resolve({ status, killedBy, stdout, stderr, ms: performance.now() - from });
    }),
  );
  if (launch.signal) {
    const waiting = () => !existsSync(ready) && child.exitCode === null && performance.now() - from < HARD_DEADLINE_MS;
    while (waiting()) await new Promise((resolve) => setTimeout(resolve, 20));
    from = performance.now();
    child.kill(launch.signal);
  }
  return exited;
}

/** One line on stderr, nothing on stdout, no stack trace: what every fault below must look like. */
function expectOneLine(result: Finished, status: number, line: RegExp): void {
  const { status: got, killedBy, stdout } = result;
  expect({ status: got, killedBy, stdout }).toEqual({ status, killedBy: null, stdout: '' });
  expect(result.stderr).toMatch(/^muster: [^\n]+\n$/);
  expect(result.stderr).toMatch(line);
  expect(result.stderr).not.toMatch(/\n\s+at |internal error|this is a bug/);
}

const small = ['--trials', '10', '--quiet'];
const pooled = ['--trials', '1e6', '--threads', '1', '--quiet'];
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const TRIAL = 'trial\\(dice, params, out\\)';

describe('--timeout stops rule code that never returns: one line naming the file and the function, exit 2', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['exact()', files.exact, /exact\(params\) did not return within --timeout 2 s; it was stopped and nothing was/],
    ['validate()', files.validate, /validate\(params\) did not return within --timeout 2 s/],
    ['metrics()', files.metrics, /metrics\(params\) did not return within --timeout 2 s/],
    ['headline()', files.headline, /headline\(params\) did not return within --timeout 2 s/],
    ['exact() in Atomics.wait', files.wait, /exact\(params\) did not return within --timeout 2 s/],
    ['top-level while (true) {}', files.top, /its top-level code did not finish within --timeout 2 s/],
    ["a TypeScript file's top-level", files.topTyped, /top-loop-ts\.ts: its top-level code did not finish within/],
  ];
  for (const [what, file, line] of cases) {
    it.concurrent(`${what} looping, --timeout 2`, ONE_CHILD, async () => {
      const json = join(folder, `never-${runs}.json`);
      const result = await muster(['run', file, ...small, '--timeout', '2', '--json', json]);
      expectOneLine(result, 2, new RegExp(`^muster: ${escaped(file)}`));
      expect(result.stderr).toMatch(line);
      expect(existsSync(json)).toBe(false);
    });
  }

  // Under --timeout a small run goes to the pool, whose watchdog counts from the batch's start (the worker's
  // start-up included): 3 s leaves a loaded machine room to start the thread, as test/engine/workers.test.ts does.
  it.concurrent(
    "trial() looping in a small run and a pooled one: the pool's watchdog names it",
    TWO_CHILDREN,
    async () => {
      for (const trials of ['10', '1e6']) {
        const argv = ['--trials', trials, '--threads', '1', '--quiet', '--timeout', '3'];
        const result = await muster(['run', files.trialLoop, ...argv]);
        const line = `${TRIAL} did not return within --timeout 3 s \\(chunks? [\\d–]+ still running\\); it was stopped`;
        expectOneLine(result, 2, new RegExp(line));
      }
    },
  );

  it.concurrent('trial() looping as --exact enumerates its dice: named as enumerated', ONE_CHILD, async () => {
    const result = await muster(['run', files.trialLoop, '--exact', '--quiet', '--timeout', '2']);
    const line = `${TRIAL} \\(enumerating its dice\\) did not return within --timeout 2 s; it was stopped`;
    expectOneLine(result, 2, new RegExp(line));
  });

  it.concurrent(
    "setup() and read() looping in a pool worker: the pool's watchdog names them",
    TWO_CHILDREN,
    async () => {
      const setup = await muster(['run', files.setup, ...small, '--timeout', '3']);
      expectOneLine(setup, 2, /setup-loop\.mjs \(rule hostile\): setup\(params\) did not return within --timeout 3 s/);
      const read = await muster(['run', files.read, ...pooled, '--timeout', '3']);
      expectOneLine(read, 2, /read-loop\.mjs \(rule hostile\): read\(outcome, params, out, prepared\) did not return/);
    },
  );

  it.concurrent('exact() blocked in execSync: stopped once the call returns, in one line', ONE_CHILD, async () => {
    const result = await muster(['run', files.native, ...small, '--timeout', '1']);
    expectOneLine(result, 2, /exact-native\.mjs \(rule hostile\): exact\(params\) did not return within --timeout 1 s/);
    expect(result.ms).toBeGreaterThan(3500);
  });

  it.concurrent('a rule file named by a variant, found after the command began: the same', ONE_CHILD, async () => {
    const variants = ['--variant', 'a: wipA=13', '--variant', `b: rule=${files.exact}`];
    const result = await muster(['compare', 'infinity', ...variants, '--trials', '10', '--quiet', '--timeout', '2']);
    expectOneLine(result, 2, /exact-loop\.mjs \(rule hostile\): exact\(params\) did not return within --timeout 2 s/);
  });
});

describe('a rule file that ends its thread or fills the heap: one line, exit 2, never success nor a crash', () => {
  it.concurrent('a top-level await that never settles (Node alone: exit 13, no message)', ONE_CHILD, async () => {
    const result = await muster(['run', files.topAwait, ...small]);
    expectOneLine(result, 2, /top-await\.mjs: its top-level code never finished: it awaits a promise that never/);
  });

  it.concurrent(
    'trial() calling process.exit(0), in a small in-process run and in a pooled one',
    TWO_CHILDREN,
    async () => {
      const named = `trial-exit\\.mjs \\(rule hostile\\): ${TRIAL} called process\\.exit\\(0\\)`;
      const inProcess = await muster(['run', files.trialExit, ...small]);
      expectOneLine(inProcess, 2, new RegExp(`${named}; a rule's code must return`));
      const onPool = await muster(['run', files.trialExit, ...pooled]);
      expectOneLine(onPool, 2, new RegExp(`${named} in chunks? [\\d–]+;`));
    },
  );

  // A 96 MB heap (every thread inherits it), so a leak of 8 MB a trial fills it in a fraction of a second.
  it.concurrent('trial() leaking memory, in a small in-process run and in a pooled one', TWO_CHILDREN, async () => {
    for (const argv of [['--trials', '1000', '--quiet'], pooled]) {
      const result = await muster(['run', files.trialLeak, ...argv], { node: ['--max-old-space-size=96'] });
      expectOneLine(result, 2, new RegExp(`trial-leak\\.mjs \\(rule hostile\\): ${TRIAL} ran out of memory`));
    }
  });

  it.concurrent(
    "an error thrown from the rule's own timer: one line (before: a stack trace, exit 1)",
    ONE_CHILD,
    async () => {
      const result = await muster(['describe', files.lateThrow]);
      // describe may have printed before the timer fired; the fault is the only line on stderr.
      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(/^muster: \S+late-throw\.mjs[^:]*: RangeError: thrown late was thrown outside/);
      expect(result.stderr).toMatch(/^[^\n]+\n$/);
    },
  );
});

describe('SIGINT and SIGTERM reach rule code that never returns: exit 130 / 143 within seconds, one line', () => {
  const cases: Array<[string, string, NodeJS.Signals, RegExp]> = [
    ['exact() looping', files.exact, 'SIGINT', /exact\(params\) had not returned 1 s after Ctrl-C \(SIGINT\), so/],
    ['validate() looping', files.validate, 'SIGTERM', /validate\(params\) had not returned 1 s after SIGTERM/],
    ['metrics() looping', files.metrics, 'SIGINT', /metrics\(params\) had not returned 1 s after Ctrl-C/],
    ['top-level while (true) {}', files.top, 'SIGTERM', /its top-level code had not finished 1 s after SIGTERM/],
    ['a top-level await on an hour-long timer', files.topSleep, 'SIGINT', /its top-level code had not finished 1 s/],
    ['trial() looping in a small in-process run', files.trialLoop, 'SIGINT', new RegExp(`${TRIAL} had not`)],
    ['trial() looping in a small in-process run', files.trialLoop, 'SIGTERM', new RegExp(`${TRIAL} .* SIGTERM`)],
  ];
  for (const [what, file, signal, line] of cases) {
    it.concurrent(`${what}, ${signal}`, ONE_CHILD, async () => {
      const result = await muster(['run', file, ...small], { signal });
      expectOneLine(result, signal === 'SIGINT' ? 130 : 143, line);
      // 1 s of grace, then the thread is stopped; 8 s leaves a loaded machine room.
      expect(result.ms).toBeLessThan(8000);
    });
  }

  it.concurrent(
    'trial() looping on the pool: stopped as any interrupted run is, PARTIAL, exit 130',
    ONE_CHILD,
    async () => {
      const result = await muster(['run', files.trialLoop, '--trials', '1e6', '--threads', '1'], { signal: 'SIGINT' });
      expect({ status: result.status, killedBy: result.killedBy }).toEqual({ status: 130, killedBy: null });
      expect(result.stdout).toContain('PARTIAL: interrupted; only the finished chunks are counted');
      expect(result.ms).toBeLessThan(8000);
    },
  );

  // Signalled the moment the main thread holds the signals, before the rule thread exists: the hand-off's window.
  it.concurrent('a Ctrl-C as the command moves to the rule thread is not lost: PARTIAL, 130', ONE_CHILD, async () => {
    const fixture = join(folder, 'ready-on-main.mjs');
    const source = readFileSync(fileURLToPath(new URL('../fixtures/signal-ready.mjs', import.meta.url)), 'utf8');
    // The rule thread inherits --import: the fixture speaks on fd 3 from the main thread only.
    const url = `data:text/javascript,${encodeURIComponent(source)}`;
    const guard = "import { isMainThread } from 'node:worker_threads';";
    writeFileSync(fixture, `${guard}\nif (isMainThread) await import(${JSON.stringify(url)});\n`);
    const argv = ['--import', fixture, CLI, 'run', files.sound, '--trials', '4e9', '--threads', '1', '--quiet'];
    const child = spawn(process.execPath, argv, { cwd: folder, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout!.on('data', (chunk) => (stdout += chunk));
    child.stdio[3]!.once('data', () => child.kill('SIGINT'));
    const deadline = setTimeout(() => child.kill('SIGKILL'), HARD_DEADLINE_MS);
    const [status, killedBy] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.on('close', (...end) => resolve(end)),
    );
    clearTimeout(deadline);
    expect({ status, killedBy }).toEqual({ status: 130, killedBy: null });
    expect(stdout).toContain('PARTIAL: interrupted');
  });

  it.concurrent('merge of shards whose rule file, named with --rule, hangs only now', TWO_CHILDREN, async () => {
    const shard = join(folder, 'hangs-later.json');
    const made = await muster(['shard', files.hangsLater, '--shard', '0/1', '--trials', '1000', '--out', shard]);
    expect(made.status).toBe(0);
    // merge imports only the rule file named with --rule (never one a shard names), checked against the shard's hash
    // first.
    const result = await muster(['merge', shard, '--rule', files.hangsLater], { signal: 'SIGINT', env: { HANG: '1' } });
    expectOneLine(result, 130, /hangs-later\.mjs: its top-level code had not finished 1 s after Ctrl-C/);
  });
});

describe('on the rule thread a sound rule file runs as before', () => {
  it.concurrent(
    "output, the rule's own console.log, --json - and the exit status arrive whole",
    ONE_CHILD,
    async () => {
      const result = await muster(['run', files.sound, '--trials', '20000', '--quiet', '--json', '-']);
      expect(result.status).toBe(0);
      // With the JSON on stdout the table goes to stderr.
      expect(result.stderr).toMatch(/^hostile — A hostile rule\n[\s\S]*\nwin {6}\d+\.\d+% /);
      const lines = result.stdout.split('\n');
      expect(lines).toContain('a line the rule prints');
      const json = JSON.parse(lines.filter((line) => line !== 'a line the rule prints').join('\n'));
      expect(json).toMatchObject({ rule: 'hostile', trials: 20000, partial: false });
    },
  );

  it.concurrent('a bad option is still the one-line usage error, exit 2', ONE_CHILD, async () => {
    const result = await muster(['run', files.hangsLater, '--trials', 'many']);
    expectOneLine(result, 2, /^muster: --trials: got "many"/);
  });
});

describe('built-in rules never leave the main thread', () => {
  // A resolve hook that logs every file of muster's bundled CLI loaded (dist/bundle/, the chunks named after the
  // module each begins with: cli-….js, supervisor-….js, rule-thread.js), so the test sees whether the rule
  // thread started.
  const log = join(folder, 'modules.log');
  const hooks = `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (/\\/dist\\/bundle\\//.test(resolved.url)) appendFileSync(${JSON.stringify(log)}, resolved.url + '\\n');
  return resolved;
}`;
  const recorder = join(folder, 'record.mjs');
  mkdirSync(folder, { recursive: true });
  const url = `data:text/javascript,${encodeURIComponent(hooks)}`;
  writeFileSync(recorder, `import { register } from 'node:module';\nregister(${JSON.stringify(url)});\n`);

  const loaded = async (argv: string[]) => {
    writeFileSync(log, '');
    expect((await muster(argv, { node: ['--import', recorder] })).status).toBe(0);
    return readFileSync(log, 'utf8');
  };

  it("list, an exact run, a small run: neither supervisor nor rule thread; a rule file's run: both", {
    timeout: 4 * HARD_DEADLINE_MS,
  }, async () => {
    const exact = ['run', 'reserves', '--exact', '--quiet'];
    const builtIn = [['list'], exact, ['run', 'infinity', '--trials', '1e5', '--quiet']];
    for (const argv of builtIn) {
      const modules = await loaded(argv);
      expect(modules).toMatch(/\/bundle\/cli-\w+\.js/); // the recorder works
      expect(modules).not.toMatch(/supervisor|rule-thread/);
    }
    expect(await loaded(['run', files.sound, ...small])).toMatch(/\/supervisor-\w+\.js[\s\S]*\/rule-thread\.js/);
  });
});
