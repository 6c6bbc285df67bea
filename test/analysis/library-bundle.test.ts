/**
 * The library's browser entry (src/library/browser.ts) in Node: it bundles
 * for the browser platform with no Node module reachable; a rule file's
 * default export passed as a value is checked as `muster run FILE` checks
 * the file, in the same words; a run on the calling thread is the CLI's
 * `--threads 1 --json` result; an abort keeps the chunks that finished.
 * The independent sources are the CLI (run as a user runs it) and, for the
 * roll-off, brute force over its dice (support/inline-rolloff.ts). Chromium
 * runs the bundle itself in test/browser/library-browser.test.ts.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { describe, expect, it } from 'vitest';
import {
  exact,
  getRule,
  type RuleInput,
  type RunOptions,
  ruleFile,
  run,
  UsageError,
} from '../../src/library/browser.js';
import { PACKAGE_VERSION } from '../../src/version.js';
import { cli, scratchFolder } from '../support/cli.js';
import { ROLL_OFF_FILE, ROLL_OFF_SOURCE, rollOffBruteForce } from '../support/inline-rolloff.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const folder = scratchFolder('library-bundle');
const rollOffPath = join(folder, 'rolloff.mjs');
writeFileSync(rollOffPath, ROLL_OFF_FILE);
/** A rule file's default export, imported as a page's bundler would import it. */
const defaultExport = async (path: string): Promise<unknown> =>
  ((await import(pathToFileURL(path).href)) as { default: unknown }).default;

/** Every Node module the bundle asks for (each left out, so the build goes on), with the file that asks. */
async function nodeImports(entry: string): Promise<string[]> {
  const builtins = new Set(builtinModules);
  const asked: string[] = [];
  const recordNode: Plugin = {
    name: 'record-node',
    setup(bundler) {
      bundler.onResolve({ filter: /.*/ }, (args) => {
        const bare = args.path.replace(/^node:/, '').split('/')[0];
        if (!args.path.startsWith('node:') && !builtins.has(bare)) return undefined;
        asked.push(`${args.path} from ${args.importer.slice(root.length)}`);
        return { path: args.path, external: true };
      });
    },
  };
  await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    platform: 'browser',
    format: 'esm',
    target: 'es2020',
    logLevel: 'silent',
    plugins: [recordNode],
  });
  return asked;
}

describe('the browser entry', () => {
  it('bundles for the browser with no Node module reachable, from the sources and from dist/', async () => {
    expect(await nodeImports(join(root, 'src/library/browser.ts'))).toEqual([]);
    expect(await nodeImports(join(root, 'dist/src/library/browser.js'))).toEqual([]);
    // The guard guards: the Node entry does pull Node in.
    expect((await nodeImports(join(root, 'src/library/node.ts'))).length).toBeGreaterThan(0);
  }, 60_000);

  it('knows the version package.json gives without reading package.json (a bundle has no files)', () => {
    expect(PACKAGE_VERSION).toBe(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version);
  });

  it('solves the built-in rules as muster run --exact does', async () => {
    const result = await exact('infinity', { set: { wipA: 13, wipB: 15 } });
    expect(result.metrics['a.wins'].fraction).toBe('145/352');
    const cliJson = await cli('run', 'infinity', '--exact', '--set', 'wipA=13', '--set', 'wipB=15', '--json', '-');
    expect(result).toEqual(JSON.parse(cliJson.stdout));
  });

  it("enumerates a rule file's default export: brute force's values, muster run FILE --exact's result", async () => {
    const result = await exact(ruleFile(await defaultExport(rollOffPath), rollOffPath), { set: { bonus: 1 } });
    expect(Object.fromEntries(Object.entries(result.metrics).map(([name, m]) => [name, m.fraction]))).toEqual(
      rollOffBruteForce(1),
    );
    const cliJson = await cli('run', rollOffPath, '--exact', '--set', 'bonus=1', '--json', '-');
    expect(result).toEqual(JSON.parse(cliJson.stdout));
  });

  it("refuses a broken default export in muster run's words, the name standing for the file", async () => {
    // A misspelt field: the same mistake on disk and as a value.
    const misspelt = ROLL_OFF_SOURCE.replace('trial(dice, p, out) {', 'trail(dice, p, out) {');
    const brokenPath = join(folder, 'broken.mjs');
    writeFileSync(brokenPath, `export default ${misspelt};\n`);
    const broken = await defaultExport(brokenPath);
    const printed = await cli('run', brokenPath, '--exact');
    expect(printed.status).toBe(2);
    expect(() => ruleFile(broken, brokenPath)).toThrow(UsageError);
    expect(() => ruleFile(broken, brokenPath)).toThrow(printed.stderr.replace(/^muster: /, '').trim());
    await expect(exact(broken as RuleInput)).rejects.toThrow(
      /^rule object \(rule inline-rolloff\): unknown field "trail"; allowed: /,
    );
    await expect(exact('./rolloff.mjs')).rejects.toThrow(/^rule: got "\.\/rolloff\.mjs"; allowed: a built-in rule/);
    expect(() => getRule('reservez')).toThrow(/^rule: got "reservez" \(did you mean "reserves"\?\)/);
  });

  it('simulates on this thread: the CLI run with --threads 1, a built-in and a rule file (seed "bundle")', async () => {
    // 150,000 trials: two whole chunks of 65,536 and a short third.
    const reserves = await run('reserves', { set: { squads: 4 }, trials: 150_000, seed: 'bundle' });
    const cliReserves = await cli(
      ...['run', 'reserves', '--set', 'squads=4', '--trials', '150000', '--seed', 'bundle', '--threads', '1'],
      ...['--json', '-'],
    );
    expect(reserves).toEqual(JSON.parse(cliReserves.stdout));
    const file = await run(ruleFile(await defaultExport(rollOffPath), rollOffPath), {
      set: { bonus: -1 },
      trials: 150_000,
      seed: 'bundle',
    });
    const cliFile = await cli(
      ...['run', rollOffPath, '--set', 'bonus=-1', '--trials', '150000', '--seed', 'bundle', '--threads', '2'],
      ...['--json', '-'],
    );
    // On two threads too: the figures never depend on the threads, only the field that records them.
    expect(file).toEqual({ ...JSON.parse(cliFile.stdout), threads: 1 });
  }, 60_000);

  it('stops between chunks on an abort, keeping the chunks that finished (seed "abort")', async () => {
    const controller = new AbortController();
    const seen: number[] = [];
    const partial = await run('reserves', {
      trials: 200_000,
      seed: 'abort',
      signal: controller.signal,
      onProgress: (done, target) => {
        seen.push(done, target);
        controller.abort();
      },
    });
    expect(seen).toEqual([65_536, 200_000]);
    expect(partial.partial).toBe(true);
    expect(partial.trials).toBe(65_536);
    // The first chunk's trials are those of a whole run of 65,536: chunk 0 is the same wherever it runs.
    const whole = await run('reserves', { trials: 65_536, seed: 'abort' });
    expect(partial).toEqual({ ...whole, partial: true });
    // Aborted before it starts: nothing simulated, as the pool's run gives it.
    const { run: runOnPool } = await import('../../src/library/node.js');
    const none = await run('reserves', { trials: 1000, seed: 'abort', signal: AbortSignal.abort() });
    const noneOnPool = await runOnPool('reserves', {
      trials: 1000,
      seed: 'abort',
      signal: AbortSignal.abort(),
      threads: 2,
    });
    expect([none.trials, none.partial]).toEqual([0, true]);
    expect(none).toEqual({ ...noneOnPool, threads: 1 });
  });

  it("a trial that throws is the rule's fault, in muster run's words", async () => {
    const throwing = join(folder, 'throwing.mjs');
    writeFileSync(
      throwing,
      ROLL_OFF_FILE.replace(
        "out['a.wins'] = a > b;",
        "if (a === 12) throw new Error('no double six');\n    out['a.wins'] = a > b;",
      ),
    );
    const printed = await cli('run', throwing, '--trials', '70000', '--seed', 'fault', '--threads', '1');
    expect(printed.status).toBe(2);
    const simulated = run(ruleFile(await defaultExport(throwing), throwing), { trials: 70_000, seed: 'fault' });
    await expect(simulated).rejects.toThrow(UsageError);
    await expect(simulated).rejects.toThrow(printed.stderr.replace(/^muster: /, '').trim());
  });
});

describe("the library's run checks its options as the CLI's flags are checked", () => {
  // An aborted signal: a run that wrongly starts resolves at once (partial) instead of running for hours.
  const stopped = AbortSignal.abort();
  it('refuses more trials than a tally counts exactly (4e9), confidence past six nines, in both entries', async () => {
    const { run: runOnPool } = await import('../../src/library/node.js');
    const entries = [
      (options: RunOptions) => run('reserves', options),
      (options: RunOptions) => runOnPool('reserves', { ...options, threads: 1 }),
    ];
    for (const simulate of entries) {
      await expect(simulate({ trials: 5e9, signal: stopped })).rejects.toThrow(
        /^trials: got 5000000000; allowed: a whole number from 1 to 4000000000$/,
      );
      await expect(simulate({ confidence: 0.9999999, signal: stopped })).rejects.toThrow(
        /^confidence: got 0\.9999999; allowed: a number greater than 0 and at most 0\.999999, such as 0\.95$/,
      );
    }
  });
});
