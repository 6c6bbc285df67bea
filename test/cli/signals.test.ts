/**
 * Signals, on the real command line: the built CLI in its own process group,
 * signalled as a terminal's Ctrl-C (or `timeout -s INT`) signals it — the
 * whole group, and twice, the second while the first is winding down.
 * Before, the handler was removed after the first signal, so the second
 * killed the process before it printed; matrix, compare, shard and book had
 * no PARTIAL result at all.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratchFolder } from '../support/cli.js';

const folder = scratchFolder('signals');
const CLI = new URL('../../dist/cli.js', import.meta.url).pathname;

/** Preloaded into the child: writes "ready" on fd 3 once muster holds the signals. */
const READY = new URL('../fixtures/signal-ready.mjs', import.meta.url).href;

interface Finished {
  status: number | null;
  killedBy: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `muster argv` in a new process group; once the command has started, sends it to the whole group twice, 5 ms
 * apart, and waits for the exit.
 */
async function interrupt(argv: string[], signal: NodeJS.Signals = 'SIGINT', startedWhen?: RegExp): Promise<Finished> {
  const child = spawn(process.execPath, ['--import', READY, CLI, ...argv], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  const ready = new Promise<void>((resolve) => child.stdio[3]!.once('data', () => resolve()));
  let stdout = '';
  let stderr = '';
  let said = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  child.stdio[3]!.on('data', (chunk) => (said += chunk));
  // A second signal this process sends late (a busy machine runs its timer tens of ms after it is due) can land
  // after the command has finished and set its status, as Node lets go of the signals on the way out; the child
  // then dies of the signal's default. It said "exit <code>" first (the fixture): that code is the command's.
  const exited = new Promise<Finished>((resolve) =>
    child.on('close', (status, killedBy) => {
      const left = /^exit (\d+)$/m.exec(said);
      resolve(
        killedBy === signal && left
          ? { status: Number(left[1]), killedBy: null, stdout, stderr }
          : { status, killedBy, stdout, stderr },
      );
    }),
  );
  const pid = child.pid!;
  // (20 s at most: a build that never holds the signals is signalled anyway, and fails the checks.)
  await Promise.race([ready, new Promise((resolve) => setTimeout(resolve, 20_000).unref())]);
  // A command with a first step that is not a simulation (the book bundles its calculator page first) is signalled once
  // its stderr says the simulation has begun.
  if (startedWhen) {
    const deadline = Date.now() + 20_000;
    while (!startedWhen.test(stderr) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  // Let the simulation start, then Ctrl-C twice, to the group as a terminal does.
  await new Promise((resolve) => setTimeout(resolve, 300));
  process.kill(-pid, signal);
  // 5 ms: well inside the wind-down (stopping workers, printing, writing). A second signal that came after the
  // process had finished would race its exit, where no handler is left and the signal's default ends it.
  await new Promise((resolve) => setTimeout(resolve, 5));
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
  return exited;
}

describe('one Ctrl-C (twice to the group): PARTIAL, exit 130, what finished kept', () => {
  const file = (name: string) => join(folder, name);
  const cases: Array<[string, string[], (result: Finished) => void]> = [
    [
      'run',
      ['run', 'reserves', '--trials', '4e9', '--threads', '1', '--json', file('run.json'), '--csv', file('run.csv')],
      ({ stdout }) => {
        expect(stdout).toContain('PARTIAL: interrupted; only the finished chunks are counted');
        expect(JSON.parse(readFileSync(file('run.json'), 'utf8')).partial).toBe(true);
        // The CSV says it is partial on every row.
        const [header, ...rows] = readFileSync(file('run.csv'), 'utf8').trimEnd().split('\r\n');
        expect(header.endsWith(',partial')).toBe(true);
        for (const row of rows) expect(row.endsWith(',true')).toBe(true);
      },
    ],
    [
      'run --precision',
      ['run', 'reserves', '--precision', '0.00001', '--max-trials', '4e9', '--threads', '1'],
      ({ stdout }) => {
        expect(stdout).toMatch(/precision ±0\.00001 not reached: interrupted after [\d,]+ trials/);
        expect(stdout).not.toContain('--max-trials');
      },
    ],
    [
      'run, every output asked for',
      [
        'run',
        'reserves',
        '--trials',
        '4e9',
        '--threads',
        '1',
        '--json',
        file('every.json'),
        '--csv',
        file('every.csv'),
        '--html',
        file('every.html'),
        '--svg',
        file('every-svg'),
      ],
      ({ stdout }) => {
        expect(stdout).toContain('PARTIAL');
        expect(JSON.parse(readFileSync(file('every.json'), 'utf8')).partial).toBe(true);
        expect(readFileSync(file('every.csv'), 'utf8').split('\r\n')[0].endsWith(',partial')).toBe(true);
        expect(readFileSync(file('every.html'), 'utf8')).toContain('PARTIAL');
        const svgs = readdirSync(file('every-svg')).filter((name) => name.endsWith('.svg'));
        expect(svgs.length).toBeGreaterThan(0);
        for (const svg of svgs) expect(readFileSync(join(file('every-svg'), svg), 'utf8')).toContain('PARTIAL');
      },
    ],
    [
      // 4e9 trials a point: no combination finishes, and every output is still written, empty and marked PARTIAL.
      'sweep, before any combination finished: every output written, marked PARTIAL',
      [
        'sweep',
        'reserves',
        '--vary',
        'chosenRound=0..4',
        '--trials',
        '4e9',
        '--threads',
        '1',
        '--json',
        file('sweep.json'),
        '--csv',
        file('sweep.csv'),
        '--html',
        file('sweep.html'),
      ],
      ({ stderr, stdout }) => {
        expect(stdout).toContain('PARTIAL: interrupted after 0 of the combinations');
        expect(stderr).not.toContain('nothing was written');
        expect(JSON.parse(readFileSync(file('sweep.json'), 'utf8'))).toMatchObject({
          kind: 'sweep',
          partial: true,
          points: [],
        });
        expect(readFileSync(file('sweep.csv'), 'utf8')).toBe(
          'chosenRound,metric,kind,estimate,lo,hi,exact,partial\r\n',
        );
        expect(readFileSync(file('sweep.html'), 'utf8')).toContain('PARTIAL');
      },
    ],
    [
      'compare',
      [
        'compare',
        'reserves',
        '--variant',
        'A: target=7',
        '--variant',
        'B: target=6',
        '--trials',
        '4e9',
        '--threads',
        '1',
      ],
      ({ stderr }) => expect(stderr).toContain('PARTIAL'),
    ],
    [
      'matrix',
      ['matrix', 'infinity', '--simulate', '--range', '8..9', '--trials', '4e9', '--threads', '1'],
      ({ stdout, stderr }) => expect(stdout + stderr).toContain('PARTIAL'),
    ],
    [
      'shard',
      ['shard', 'reserves', '--shard', '0/2', '--trials', '4e9', '--threads', '1', '--out', file('shard.json')],
      ({ stdout }) => {
        expect(stdout).toMatch(
          /^PARTIAL: interrupted after [\d,]+ of [\d,]+ trials of shard 0\/2; a shard is merged whole, so nothing was written/,
        );
        expect(existsSync(file('shard.json'))).toBe(false);
      },
    ],
    [
      'sweep --shard: nothing written, as merge needs a shard whole, and 130 rather than 2',
      [
        'sweep',
        'reserves',
        '--vary',
        'chosenRound=0..1',
        '--trials',
        '4e9',
        '--threads',
        '1',
        '--shard',
        '0/2',
        '--out',
        file('grid-shard.json'),
      ],
      ({ stdout }) => {
        expect(stdout).toBe('');
        expect(existsSync(file('grid-shard.json'))).toBe(false);
      },
    ],
    [
      'compare --shard: the same',
      [
        'compare',
        'reserves',
        '--variant',
        'A: target=7',
        '--variant',
        'B: target=6',
        '--trials',
        '4e9',
        '--threads',
        '1',
        '--shard',
        '1/2',
        '--out',
        file('compare-shard.json'),
      ],
      () => expect(existsSync(file('compare-shard.json'))).toBe(false),
    ],
    [
      'book',
      ['book', '--trials', '4e9', '--threads', '1', '--out', file('book')],
      ({ stdout, stderr }) => expect(stdout + stderr).toContain('PARTIAL'),
    ],
  ];
  for (const [what, argv, check] of cases) {
    it.concurrent(what, async () => {
      const result = await interrupt(argv, 'SIGINT', what === 'book' ? /simulating/ : undefined);
      expect({
        status: result.status,
        killedBy: result.killedBy,
        stderr: result.stderr
          .split('\n')
          .filter(
            (line) =>
              !line.startsWith('muster: PARTIAL') &&
              !line.startsWith('book ') &&
              !line.startsWith('wrote ') &&
              line !== '',
          ),
      }).toEqual({
        status: 130,
        killedBy: null,
        stderr: [],
      });
      check(result);
    });
  }

  it.concurrent(
    'merge --verify interrupted while it re-runs a shard: one PARTIAL line, exit 130, nothing ' + 'written',
    async () => {
      mkdirSync(folder, { recursive: true });
      // 4e7 trials: a few seconds of re-run on one thread, long enough to be interrupted in.
      const shard = file('verify-shard.json');
      const made = spawnSync(
        process.execPath,
        [CLI, 'shard', 'reserves', '--trials', '4e7', '--shard', '0/1', '--out', shard, '--quiet'],
        { encoding: 'utf8' },
      );
      expect(made.status).toBe(0);
      const result = await interrupt([
        'merge',
        shard,
        '--verify',
        '1',
        '--threads',
        '1',
        '--json',
        file('verified.json'),
      ]);
      expect({ status: result.status, stderr: result.stderr }).toEqual({
        status: 130,
        stderr: 'muster: PARTIAL: --verify: interrupted before the shards were checked; nothing was written\n',
      });
      expect(existsSync(file('verified.json'))).toBe(false);
    },
  );

  it.concurrent('sweep --shard after SIGTERM: exit 143', async () => {
    mkdirSync(folder, { recursive: true });
    const result = await interrupt(
      [
        'sweep',
        'reserves',
        '--vary',
        'chosenRound=0..1',
        '--trials',
        '4e9',
        '--threads',
        '1',
        '--shard',
        '1/2',
        '--out',
        file('term-shard.json'),
      ],
      'SIGTERM',
    );
    expect({ status: result.status, stderr: result.stderr }).toEqual({
      status: 143,
      stderr:
        'muster: PARTIAL: interrupted before shard 1/2 finished; a shard is merged whole, so nothing was written ' +
        '(run it again)\n',
    });
  });

  it.concurrent('SIGTERM: the same, with exit 143', async () => {
    mkdirSync(folder, { recursive: true });
    const result = await interrupt(
      ['run', 'reserves', '--trials', '4e9', '--threads', '1', '--json', file('term.json')],
      'SIGTERM',
    );
    expect(result.status).toBe(143);
    expect(result.stdout).toContain('PARTIAL');
    expect(JSON.parse(readFileSync(file('term.json'), 'utf8')).partial).toBe(true);
  });
});
