/**
 * The CLI's entry (src/cli/entry.ts): a command any of whose arguments names
 * a rule file goes to the rule thread before the main thread loads the
 * command line, decided once from argv. Before, such a file anywhere but
 * right after the command's name was found only as the command loaded it:
 * the main thread had loaded commander and the built-in rules and parsed
 * argv, and an exception (HandOff) thrown up from the loader moved the
 * command to the rule thread, which loaded them all again.
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { RULE_COMMANDS, startsOnRuleThread } from '../../src/cli/entry.js';
import { buildProgram, main } from '../../src/cli.js';
import { UsageError } from '../../src/errors.js';
import { withoutRuleFiles } from '../../src/guard/main-thread.js';
import { loadRuleFile } from '../../src/rule-files/load.js';
import { cli, scratchFolder } from '../support/cli.js';
import { bufferIo } from '../support/io.js';

const folder = scratchFolder('entry');
const entry = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const recorder = fileURLToPath(new URL('../fixtures/record-main-thread.mjs', import.meta.url));
const infinity = fileURLToPath(new URL('../../examples/rules/infinity-steps.mjs', import.meta.url));
let runs = 0;

/** The built CLI in a process of its own: its status, output, and the commander files each thread loaded. */
async function muster(...argv: string[]) {
  const log = join(folder, `threads-${runs++}.log`);
  const done = await promisify(execFile)(process.execPath, ['--import', recorder, entry, ...argv], {
    env: { ...process.env, MUSTER_THREAD_LOG: log },
  }).catch((error: { code: number; stdout: string; stderr: string }) => error);
  const threads = readFileSync(log, 'utf8').trim().split('\n').sort();
  return { status: 'code' in done ? done.code : 0, stdout: done.stdout, stderr: done.stderr, threads };
}

describe('which commands go to the rule thread at once', () => {
  it('the commands whose first argument is <rule>, as the parser declares them', () => {
    const program = buildProgram(bufferIo());
    const takesRule = program.commands
      .filter((command) => command.registeredArguments[0]?.name() === 'rule')
      .map((command) => command.name());
    expect([...RULE_COMMANDS].sort()).toEqual(takesRule.sort());
  });

  it.each([
    [['run', './my-rule.mjs'], true],
    [['run', 'rules/my-rule.ts', '--exact'], true],
    [['sweep', 'C:\\rules\\mine.js', '--vary', 'a=1..2'], true],
    [['describe', 'my-rule.mjs'], true],
    [['run', 'reserves', '--exact'], false],
    [['run', 'rules/my-rule'], true],
    [['run', '--help', './my-rule.mjs'], true],
    [['run', '--', './my-rule.mjs'], true],
    [['run', '--exact', './my-rule.mjs'], true],
    [['check', './my-rule.mjs'], true],
    [['merge', 'a.json', '--rule', './my-rule.mjs'], true],
    [['merge', 'a.json', '--rule=./my-rule.CJS'], true],
    [['app', '--rule', 'my-rule.mts'], true],
    [['compare', 'reserves', '--variant', 'b: rule=./b.mjs,target=6'], true],
    [['compare', 'reserves', '--variant=b: target=6; rule=C:\\b.ts'], true],
    [['compare', 'reserves', '--variant', 'b:rule=./b.cts'], true],
    [['./my-rule.mjs'], true],
    [['run', 'reserves', '--exact'], false],
    [['run', 'infinity', '--html', 'out/wip.html', '--json', 'out/wip.json'], false],
    [['sweep', 'reserves', '--vary', 'a=1..2', '--csv', 'sweep.tsv'], false],
    [['compare', 'reserves', '--variant', 'b: rule=fow'], false],
    [['merge', 'a.json', 'b.json'], false],
    [['new-rule', 'rules/my-rule'], false],
    [['run'], false],
    [[], false],
  ])('%j: %s', (argv, expected) => {
    expect(startsOnRuleThread(argv)).toBe(expected);
  });
});

describe('on the real process', () => {
  it(
    "a rule file's run: only the rule thread loads commander, and it prints what the CLI prints " + 'in-process',
    async () => {
      const argv = ['run', infinity, '--exact', '--set', 'wipA=13', '--set', 'wipB=15', '--json', '-'];
      const real = await muster(...argv);
      expect(real.status, real.stderr).toBe(0);
      expect(real.threads).toEqual(['main -', 'thread commander']);
      const inProcess = await cli(...argv);
      expect(JSON.parse(real.stdout)).toEqual(JSON.parse(inProcess.stdout));
      expect(JSON.parse(real.stdout).metrics['a.wins'].fraction).toBe('145/352'); // Infinity N4, as the port's test
    },
  );

  it("a parser error in a rule file's command: the same one line and exit 2, from the rule thread", async () => {
    const real = await muster('run', infinity, '--exact', '--trails', '5');
    expect(real.status).toBe(2);
    expect(real.stderr).toBe((await cli('run', infinity, '--exact', '--trails', '5')).stderr);
    expect(real.stderr).toMatch(/^muster: option: got "--trails" \(did you mean "--trials"\?\)/);
    expect(real.threads).toEqual(['main -', 'thread commander']);
  });

  it("a built-in rule parses on the main thread; a rule file after an option, or a variant's, on the rule thread only", async () => {
    expect((await muster('run', 'infinity', '--exact')).threads).toEqual(['main commander']);
    const late = await muster('run', '--exact', infinity);
    expect(late.status, late.stderr).toBe(0);
    expect(late.threads).toEqual(['main -', 'thread commander']);
    const variant = await muster(
      'compare',
      'infinity',
      '--exact',
      '--variant',
      'N4: wipA=13',
      '--variant',
      `mine: rule=${infinity},wipA=13`,
      '--quiet',
    );
    expect(variant.status, variant.stderr).toBe(0);
    expect(variant.threads).toEqual(['main -', 'thread commander']);
  });
});

describe('on the main thread, a rule file is refused, never run', () => {
  it('a command run within withoutRuleFiles (as the entry runs one) refuses the file in one line', async () => {
    const refused = withoutRuleFiles(() => loadRuleFile(infinity, './infinity-steps.mjs'));
    await expect(refused).rejects.toThrow(UsageError);
    await expect(refused).rejects.toThrow(
      /^rule: \.\/infinity-steps\.mjs is a rule file the command's arguments did not name, so it is not run; allowed: /,
    );
    const io = bufferIo();
    const status = await withoutRuleFiles(() => main(['describe', infinity], io));
    expect(status).toBe(2);
    expect(io.stderr()).toMatch(
      /^muster: rule: \S+infinity-steps\.mjs is a rule file the command's arguments [^\n]*\n$/,
    );
  });

  it('outside it (a test, the library, the rule thread) the same file loads', async () => {
    expect((await loadRuleFile(infinity, './infinity-steps.mjs')).file?.origin).toBe('./infinity-steps.mjs');
  });
});

describe('the bundle (scripts/write-entry.mjs)', () => {
  // A resolve hook that logs every file a process loads, from every thread; the test keeps muster's own (dist/).
  const dist = new URL('../../dist/', import.meta.url).href;
  const bundled = (url: string) => url === `${dist}cli.js` || /^bundle\/[\w-]+\.js$/.test(url.slice(dist.length));
  const log = join(folder, 'files.log');
  const hooks = `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (resolved.url.startsWith('file:')) appendFileSync(${JSON.stringify(log)}, resolved.url + '\\n');
  return resolved;
}`;
  const files = async (...argv: string[]) => {
    const recorder = join(folder, 'record-files.mjs');
    const url = `data:text/javascript,${encodeURIComponent(hooks)}`;
    writeFileSync(recorder, `import { register } from 'node:module';\nregister(${JSON.stringify(url)});\n`);
    writeFileSync(log, '');
    await promisify(execFile)(process.execPath, ['--import', recorder, entry, ...argv]);
    return readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .filter((url) => url.startsWith(dist));
  };

  it("a rule file's exact run, on both threads, loads only the bundle's files: none of tsc's dist/src", async () => {
    const loaded = await files('run', infinity, '--exact', '--quiet');
    expect(loaded.filter((url) => /\/dist\/bundle\/rule-thread\.js$/.test(url))).toHaveLength(1);
    expect(loaded.filter((url) => !bundled(url))).toEqual([]);
  });

  it('a built-in exact run loads only the bundle too', async () => {
    const loaded = await files('run', 'infinity', '--exact', '--quiet');
    expect(loaded.length).toBeGreaterThan(1);
    expect(loaded.filter((url) => !bundled(url))).toEqual([]);
  });

  it(
    "a pooled run finds the pool's worker from the pool's own place in dist/ (a file the bundle does not " + 'hold)',
    async () => {
      // 3e6 trials are 46 chunks: more than a run computes in-process (4), so they go to the pool's thread.
      const argv = [entry, 'run', 'infinity', '--trials', '3e6', '--threads', '1', '--quiet', '--json', '-'];
      const result = JSON.parse((await promisify(execFile)(process.execPath, argv)).stdout);
      expect(result.trials).toBe(3_000_000);
      expect(result.metrics['a.wins'].fraction).toBe('1/2'); // WIP 13 against 13 at the defaults: even by symmetry
    },
  );

  it("--version reads the package's version from package.json, as the unbundled module did", async () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    const printed = await promisify(execFile)(process.execPath, [entry, '--version']);
    expect(printed.stdout.trim()).toBe(pkg.version);
    expect(pkg.version).toMatch(/^\d+\.\d+\.\d+/);
  });
});
