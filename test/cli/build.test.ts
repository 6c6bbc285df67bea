/**
 * The build (scripts/build.mjs) as a newcomer meets it: `npm ci` builds dist/ once through `prepare`, and npm
 * runs `prepare` again on `npx .`, which must then return at once instead of deleting a working dist/ and
 * building it again. A build never leaves dist/ missing or half written: it builds beside it and a failed build
 * leaves the old one as it was. Each case runs on a scratch dist/ (`--dist`), never on the checkout's own, which
 * other test files are using; the one full build is the one `npm test` runs before this file.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BUILD_STAMP, buildInputsHash } from '../../scripts/build-inputs.mjs';
import { scratchFolder } from '../support/cli.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const script = join(root, 'scripts/build.mjs');
const folder = scratchFolder('build');

function build(...args: string[]) {
  const started = performance.now();
  const done = spawnSync(process.execPath, [script, ...args], { cwd: root, encoding: 'utf8' });
  return {
    status: done.status,
    stdout: done.stdout,
    stderr: done.stderr,
    seconds: (performance.now() - started) / 1000,
  };
}

/** A dist/ folder with a marker entry and the given stamp: what a finished build leaves, for these tests. */
function fakeDist(name: string, stamp: string): string {
  const dist = join(folder, name);
  mkdirSync(dist);
  writeFileSync(join(dist, 'cli.js'), '// the old build\n');
  writeFileSync(join(dist, BUILD_STAMP), `${stamp}\n`);
  return dist;
}

describe('npm run prepare (build.mjs --if-stale)', () => {
  it('is what package.json runs on prepare, and build never deletes dist/ before it has another', () => {
    const scripts = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts;
    expect(scripts.prepare).toBe('node scripts/build.mjs --if-stale');
    expect(scripts.build).toBe('node scripts/build.mjs');
  });

  it('returns at once and touches nothing when dist/ was built from the sources as they are', () => {
    const dist = fakeDist('current', buildInputsHash(root));
    const before = statSync(join(dist, 'cli.js'));
    const done = build('--if-stale', '--dist', dist);
    expect(done.status, done.stderr).toBe(0);
    expect(done.stderr).toMatch(/is current .*npm run build rebuilds it/);
    // Hashing the sources takes tens of milliseconds; a build takes 10 s or more. 5 s leaves room for a busy machine.
    expect(done.seconds).toBeLessThan(5);
    const after = statSync(join(dist, 'cli.js'));
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
    expect(readFileSync(join(dist, 'cli.js'), 'utf8')).toBe('// the old build\n');
  });

  it('the checkout npm test built is current', () => {
    const done = build('--check');
    expect(done.stdout, 'run npm run build before this test').toBe('dist: current\n');
    expect(done.status).toBe(0);
  });

  it('--check calls a dist/ stale when its stamp is another build inputs, or it has no entry', () => {
    const other = fakeDist('other-sources', '0'.repeat(64));
    expect(build('--check', '--dist', other)).toMatchObject({ status: 3, stdout: 'other-sources: stale\n' });
    const noEntry = join(folder, 'no-entry');
    mkdirSync(noEntry);
    writeFileSync(join(noEntry, BUILD_STAMP), buildInputsHash(root));
    expect(build('--check', '--dist', noEntry)).toMatchObject({ status: 3, stdout: 'no-entry: stale\n' });
  });
});

describe('the inputs hash', () => {
  /** A tree shaped like the checkout: the folders and files the build reads. */
  function tree(name: string): string {
    const top = join(folder, name);
    for (const sub of ['src/cli', 'workers', 'reports', 'scripts']) mkdirSync(join(top, sub), { recursive: true });
    writeFileSync(join(top, 'src/cli/a.ts'), 'export const a = 1;\n');
    writeFileSync(join(top, 'tsconfig.json'), '{}\n');
    writeFileSync(join(top, 'package.json'), '{}\n');
    return top;
  }

  it('changes with a source, a new file or the configuration, and not with a file touched unchanged', () => {
    const top = tree('inputs');
    const first = buildInputsHash(top);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    utimesSync(join(top, 'src/cli/a.ts'), new Date(0), new Date(0));
    expect(buildInputsHash(top)).toBe(first);
    writeFileSync(join(top, 'src/cli/a.ts'), 'export const a = 2;\n');
    const edited = buildInputsHash(top);
    expect(edited).not.toBe(first);
    writeFileSync(join(top, 'reports/b.ts'), '');
    const added = buildInputsHash(top);
    expect(added).not.toBe(edited);
    writeFileSync(join(top, 'tsconfig.json'), '{"compilerOptions":{}}\n');
    expect(buildInputsHash(top)).not.toBe(added);
  });
});

describe('a build that fails', () => {
  it('leaves the old dist/ as it was, and nothing beside it', () => {
    const dist = fakeDist('failing', '0'.repeat(64));
    const project = join(folder, 'broken');
    mkdirSync(project);
    writeFileSync(join(project, 'bad.ts'), 'export const n: number = "not a number";\n');
    // No lib: tsc reads one file, emits it, and fails on it in well under a second, as a broken build would.
    const options = { noLib: true, types: [] };
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions: options, files: ['bad.ts'] }));
    const done = build('--dist', dist, '--tsconfig', join(project, 'tsconfig.json'));
    expect(done.status).not.toBe(0);
    expect(done.stderr).toContain('build: failed; failing/ is left as it was');
    expect(done.stdout).toContain('error TS');
    expect(readFileSync(join(dist, 'cli.js'), 'utf8')).toBe('// the old build\n');
    expect(readdirSync(folder).filter((name) => name.startsWith('failing.'))).toEqual([]);
  });

  it('refuses an unknown option in one line', () => {
    const done = build('--watch');
    expect(done).toMatchObject({ status: 2, stdout: '' });
    expect(done.stderr).toBe('build: got "--watch"; allowed: --if-stale, --check, --dist, --tsconfig\n');
  });
});
