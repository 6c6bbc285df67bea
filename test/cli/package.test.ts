/**
 * The package as a user gets it: `npm pack`, the tarball installed into an
 * empty folder (its dependencies from npm's cache, which `npm ci` filled),
 * then imported from plain Node ESM, compiled against from TypeScript with
 * --strict, and run as the `muster` command. The numbers are held against
 * this checkout's own CLI: what is tested here is the packaging, not the
 * arithmetic (the rules' tests do that).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../src/rules/index.js';
import { cli, scratchFolder } from '../support/cli.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const folder = scratchFolder('package');
const consumer = join(folder, 'consumer');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

beforeAll(() => {
  // --ignore-scripts: the test run has built dist/ already, and a second build here would empty it under other tests.
  execFileSync(npm, ['pack', '--ignore-scripts', '--silent', '--pack-destination', folder], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const tarball = readdirSync(folder).find((name) => name.endsWith('.tgz'));
  if (!tarball) throw new Error('npm pack wrote no tarball');
  mkdirSync(consumer);
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  execFileSync(
    npm,
    ['install', join(folder, tarball), '--prefer-offline', '--no-audit', '--no-fund', '--silent', '--omit=dev'],
    { cwd: consumer, stdio: ['ignore', 'ignore', 'inherit'] },
  );
}, 240_000);

describe('the packed package', () => {
  it('ships no test, source map of tests, or devDependency', () => {
    const installed = join(consumer, 'node_modules');
    const names = readdirSync(installed);
    for (const dev of ['vitest', 'typescript', 'playwright-core', 'fast-check', 'ajv', 'simple-statistics'])
      expect(names, dev).not.toContain(dev);
    const own = readdirSync(join(installed, 'muster-odds'), { recursive: true, encoding: 'utf8' });
    expect(own.filter((name) => /^test\b|\.test\.|^dist\/test\b/.test(name))).toEqual([]);
    expect(own).toContain('dist/src/library/node.d.ts');
    expect(own).toContain('dist/src/library/browser.d.ts');
  });

  it('bundles muster-odds/browser for the browser platform, with no Node module, and the bundle answers', async () => {
    const { build } = await import('esbuild');
    writeFileSync(
      join(consumer, 'page.mjs'),
      `import { exact, run } from 'muster-odds/browser';
const odds = await exact('infinity', { set: { wipA: 13, wipB: 15 } });
const simulated = await run('reserves', { trials: 70000, seed: 'packed' });
console.log(JSON.stringify({ odds, simulated }));
`,
    );
    // Resolved from the consumer's install, as a page's bundler resolves it; a Node module would fail the build.
    await build({
      entryPoints: [join(consumer, 'page.mjs')],
      absWorkingDir: consumer,
      bundle: true,
      platform: 'browser',
      format: 'esm',
      target: 'es2022',
      outfile: join(consumer, 'page-bundle.mjs'),
      logLevel: 'silent',
    });
    const printed = spawnSync(process.execPath, [join(consumer, 'page-bundle.mjs')], { encoding: 'utf8' });
    expect(printed.status, printed.stderr).toBe(0);
    const { odds, simulated } = JSON.parse(printed.stdout);
    expect(odds.metrics['a.wins'].fraction).toBe('145/352');
    const cliRun = JSON.parse(
      (await cli('run', 'reserves', '--trials', '70000', '--seed', 'packed', '--threads', '1', '--json', '-')).stdout,
    );
    expect(simulated).toEqual(cliRun);
  }, 60_000);

  it('imports from plain Node ESM and answers as the CLI does', async () => {
    const script = join(consumer, 'odds.mjs');
    writeFileSync(
      script,
      `import { exact, run, listRules, UsageError } from 'muster-odds';
const odds = await exact('infinity', { set: { wipA: 13, wipB: 15 } });
const simulated = await run('reserves', { trials: 70000, seed: 'packed', threads: 1 });
let refused = '';
try { await run('reserves', { set: { squads: 999 } }); } catch (error) { refused = error instanceof UsageError ? ` +
        `error.message : 'not a UsageError'; }
console.log(JSON.stringify({ odds, simulated, rules: listRules().map((r) => r.id), refused }));
`,
    );
    const printed = spawnSync(process.execPath, [script], { cwd: consumer, encoding: 'utf8' });
    expect(printed.status, printed.stderr).toBe(0);
    const { odds, simulated, rules, refused } = JSON.parse(printed.stdout);
    const cliExact = JSON.parse(
      (await cli('run', 'infinity', '--exact', '--set', 'wipA=13', '--set', 'wipB=15', '--json', '-')).stdout,
    );
    expect(odds).toEqual(cliExact);
    const cliRun = JSON.parse(
      (await cli('run', 'reserves', '--trials', '70000', '--seed', 'packed', '--threads', '1', '--json', '-')).stdout,
    );
    expect(simulated).toEqual(cliRun);
    expect(rules).toEqual(registry.map(({ rule }) => rule.id));
    expect(refused).toMatch(/^squads: got "999"; allowed: /);
  }, 60_000);

  it('compiles against its types with tsc --strict', () => {
    writeFileSync(
      join(consumer, 'pairings.ts'),
      `import { exact, Pool, run, type RunResult } from 'muster-odds';
export async function pairing(wipA: number, wipB: number): Promise<number> {
  const result: RunResult = await exact('infinity', { set: { wipA, wipB } });
  const value: number | null = result.metrics['a.wins'].exact;
  return value ?? Number.NaN;
}
export async function simulated(pool: Pool, signal: AbortSignal): Promise<boolean> {
  const result = await run('reserves', { pool, signal, trials: 1000, stream: 3, onProgress: (done: number, target: ` +
        `number) => void (done / target) });
  return result.partial;
}
`,
    );
    writeFileSync(
      join(consumer, 'page.ts'),
      `import { exact, ruleFile, run, type RunResult } from 'muster-odds/browser';
export async function rollOff(spec: unknown): Promise<string | null> {
  const result: RunResult = await exact(ruleFile(spec, 'rolloff.mjs'), { set: { bonus: 1 } });
  const simulated = await run('infinity', { trials: 1000, seed: 'page', stream: 3 });
  return simulated.partial ? null : result.metrics['a.wins'].fraction;
}
`,
    );
    // A call the types must refuse: a stream that does not exist.
    writeFileSync(
      join(consumer, 'wrong.ts'),
      `import { run } from 'muster-odds';\nvoid run('reserves', { stream: 6 });\n`,
    );
    const tsc = join(root, 'node_modules/typescript/bin/tsc');
    const flags = [
      '--strict',
      '--noEmit',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      '--target',
      'es2022',
      '--types',
      'node',
      '--typeRoots',
      join(root, 'node_modules/@types'),
    ];
    const good = spawnSync(process.execPath, [tsc, ...flags, 'pairings.ts', 'page.ts'], {
      cwd: consumer,
      encoding: 'utf8',
    });
    expect(good.status, good.stdout + good.stderr).toBe(0);
    const wrong = spawnSync(process.execPath, [tsc, ...flags, 'wrong.ts'], { cwd: consumer, encoding: 'utf8' });
    expect(wrong.status).not.toBe(0);
    expect(wrong.stdout).toMatch(/wrong\.ts\(2,.*Type '6' is not assignable/);
  }, 60_000);

  it('runs as the muster command from the install', async () => {
    const muster = join(consumer, 'node_modules/.bin/muster');
    const printed = spawnSync(muster, ['run', 'fow', '--exact', '--json', '-'], { cwd: consumer, encoding: 'utf8' });
    expect(printed.status, printed.stderr).toBe(0);
    expect(JSON.parse(printed.stdout)).toEqual(JSON.parse((await cli('run', 'fow', '--exact', '--json', '-')).stdout));
    // The report modules ship too: a page needs vega, inlined from the installed dependencies.
    const page = spawnSync(muster, ['card', 'infinity', '--out', join(folder, 'card.html')], {
      cwd: consumer,
      encoding: 'utf8',
    });
    expect(page.status, page.stderr).toBe(0);
  }, 60_000);
});
