/**
 * A worker that throws, exits or hangs: one line naming the rule and the
 * chunk, exit status 1 (a bug, not bad input), and no file written. Before,
 * a throwing worker printed piscina's stack trace, and a hung one ran for
 * ever; --timeout is the watchdog the user can ask for.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { cli, scratchFolder } from '../support/cli.js';

const FIXTURE = new URL('../fixtures/faulty-worker.mjs', import.meta.url).pathname;

vi.mock('../../src/engine/pool.js', async (original) => {
  const actual = await original<typeof import('../../src/engine/pool.js')>();
  class FaultyPool extends actual.SimulationPool {
    constructor(threads: number) {
      super(threads, FIXTURE);
    }
  }
  return { ...actual, SimulationPool: FaultyPool };
});

const folder = scratchFolder('workers');

describe('a failing worker', () => {
  const cases: Array<[string, string[], RegExp]> = [
    [
      'throws in chunk 2',
      ['--seed', 'throw'],
      /^muster: reserves: the simulation failed in chunk 2 \(boom\); this is a bug, nothing was written\n$/,
    ],
    [
      'exits its thread in chunk 1',
      ['--seed', 'exit'],
      /^muster: reserves: the simulation failed in chunk 1 \(.*exit.*\); this is a bug, nothing was written\n$/,
    ],
    // 3 s, not 1: on a loaded machine the worker threads' start-up alone can take a second, and chunk 0 must have
    // finished.
    [
      'hangs, with --timeout 3',
      ['--seed', 'hang', '--timeout', '3'],
      /^muster: reserves: no chunk finished within --timeout 3 s \(chunk 1 still running\); nothing was written\n$/,
    ],
  ];
  // 300,000 trials are 5 chunks of 65,536 (the last short); on 2 threads each task is one chunk, so the failing one is
  // named alone.
  for (const [what, argv, message] of cases) {
    it(`${what}: one line naming rule and chunk, exit 1, no files`, async () => {
      const json = join(folder, `${argv[1]}.json`);
      const html = join(folder, `${argv[1]}.html`);
      const { status, stdout, stderr } = await cli(
        'run',
        'reserves',
        '--trials',
        '300000',
        '--threads',
        '2',
        '--json',
        json,
        '--html',
        html,
        '--quiet',
        ...argv,
      );
      expect(status).toBe(1);
      expect(stderr).toMatch(message);
      expect(stdout).toBe('');
      expect(existsSync(json) || existsSync(html)).toBe(false);
    });
  }

  it('the same in a sweep: nothing kept, nothing written', async () => {
    const csv = join(folder, 'sweep.csv');
    const { status, stderr } = await cli(
      'sweep',
      'reserves',
      '--vary',
      'chosenRound=0..1',
      '--trials',
      '300000',
      '--threads',
      '1',
      '--seed',
      'throw',
      '--csv',
      csv,
      '--quiet',
    );
    expect(status).toBe(1);
    expect(stderr).toMatch(/^muster: reserves: the simulation failed in chunk/);
    expect(existsSync(csv)).toBe(false);
  });

  it('the fixture is otherwise the real worker: a run with another seed succeeds', async () => {
    const { status } = await cli(
      'run',
      'reserves',
      '--trials',
      '100000',
      '--threads',
      '1',
      '--seed',
      'fine',
      '--quiet',
    );
    expect(status).toBe(0);
  });
});
