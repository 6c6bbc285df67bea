import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { scratchFolder } from '../support/cli.js';

const folder = scratchFolder('startup');
const entry = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const recorder = fileURLToPath(new URL('../fixtures/record-imports.mjs', import.meta.url));
let runs = 0;

/** The packages a CLI command loads, in a process of its own (the built CLI, as a user runs it). */
async function packagesLoaded(...argv: string[]): Promise<Set<string>> {
  const log = join(folder, `imports-${runs++}.log`);
  await promisify(execFile)(process.execPath, ['--import', recorder, entry, ...argv], {
    env: { ...process.env, MUSTER_IMPORT_LOG: log },
  });
  return new Set(existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []);
}

describe('a command loads only what it uses', () => {
  it.each([
    ['list', ['list']],
    ['describe', ['describe', 'fow']],
    ['an exact run', ['run', 'reserves', '--exact', '--quiet']],
    [
      'a run with --html and --csv',
      [
        'run',
        'infinity',
        '--trials',
        '2000',
        '--quiet',
        '--html',
        join(folder, 'page.html'),
        '--csv',
        join(folder, 'table.csv'),
      ],
    ],
  ])('%s loads neither vega nor vega-lite in Node (the page inlines their browser builds as text)', async (_, argv) => {
    const loaded = await packagesLoaded(...argv);
    expect(loaded.has('commander')).toBe(true); // the recorder works
    expect([...loaded].filter((name) => name.startsWith('vega'))).toEqual([]);
  });

  it('a run of a few chunks starts no worker pool: piscina is never loaded', async () => {
    const loaded = await packagesLoaded('run', 'warbands', '--trials', '100000', '--quiet');
    expect(loaded.has('piscina')).toBe(false);
  });

  it('--svg draws with vega in Node, so it loads vega and vega-lite (and a large run loads piscina)', async () => {
    const loaded = await packagesLoaded('run', 'infinity', '--trials', '2e6', '--quiet', '--svg', join(folder, 'svg'));
    expect(loaded.has('vega')).toBe(true);
    expect(loaded.has('vega-lite')).toBe(true);
    expect(loaded.has('piscina')).toBe(true);
  });
});
