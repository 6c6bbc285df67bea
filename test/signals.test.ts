/**
 * Signals, on the real command line: the built CLI in its own process group,
 * signalled as a terminal's Ctrl-C (or `timeout -s INT`) signals it — the
 * whole group, and twice, the second while the first is winding down.
 * Before, the handler was removed after the first signal, so the second
 * killed the process before it printed; matrix, compare, shard and book had
 * no PARTIAL result at all.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratchFolder } from './support/cli.js';

const folder = scratchFolder('signals');
const CLI = new URL('../dist/cli.js', import.meta.url).pathname;

/** Preloaded into the child: writes "ready" on fd 3 once muster holds the signals. */
const READY = new URL('./fixtures/signal-ready.mjs', import.meta.url).href;

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
  const child = spawn(process.execPath, ['--import', READY, CLI, ...argv], { detached: true, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
  const ready = new Promise<void>((resolve) => child.stdio[3]!.once('data', () => resolve()));
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<Finished>((resolve) => child.on('close', (status, killedBy) => resolve({ status, killedBy, stdout, stderr })));
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
    ['sweep', ['sweep', 'reserves', '--vary', 'chosenRound=0..4', '--trials', '4e9', '--threads', '1', '--json', file('sweep.json')], ({ stderr }) => expect(stderr).toContain('PARTIAL')],
    ['compare', ['compare', 'reserves', '--variant', 'A: target=7', '--variant', 'B: target=6', '--trials', '4e9', '--threads', '1'], ({ stderr }) => expect(stderr).toContain('PARTIAL')],
    ['matrix', ['matrix', 'infinity', '--simulate', '--range', '8..9', '--trials', '4e9', '--threads', '1'], ({ stdout, stderr }) => expect(stdout + stderr).toContain('PARTIAL')],
    [
      'shard',
      ['shard', 'reserves', '--shard', '0/2', '--trials', '4e9', '--threads', '1', '--out', file('shard.json')],
      ({ stdout }) => {
        expect(stdout).toMatch(/^PARTIAL: interrupted after [\d,]+ of [\d,]+ trials of shard 0\/2; a shard is merged whole, so nothing was written/);
        expect(existsSync(file('shard.json'))).toBe(false);
      },
    ],
    ['book', ['book', '--trials', '4e9', '--threads', '1', '--out', file('book')], ({ stdout, stderr }) => expect(stdout + stderr).toContain('PARTIAL')],
  ];
  for (const [what, argv, check] of cases) {
    it.concurrent(what, async () => {
      const result = await interrupt(argv, 'SIGINT', what === 'book' ? /simulating/ : undefined);
      expect({ status: result.status, killedBy: result.killedBy, stderr: result.stderr.split('\n').filter((line) => !line.startsWith('muster: PARTIAL') && !line.startsWith('book ') && !line.startsWith('wrote ') && line !== '') }).toEqual({
        status: 130,
        killedBy: null,
        stderr: [],
      });
      check(result);
    });
  }

  it.concurrent('SIGTERM: the same, with exit 143', async () => {
    mkdirSync(folder, { recursive: true });
    const result = await interrupt(['run', 'reserves', '--trials', '4e9', '--threads', '1', '--json', file('term.json')], 'SIGTERM');
    expect(result.status).toBe(143);
    expect(result.stdout).toContain('PARTIAL');
    expect(JSON.parse(readFileSync(file('term.json'), 'utf8')).partial).toBe(true);
  });
});
