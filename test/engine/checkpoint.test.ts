import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { chunkCount } from '../../src/engine/chunks.js';
import { DEFAULT_STREAM } from '../../src/engine/random.js';
import { sealCheckpoint } from '../support/checkpoint-seal.js';
import { cli, scratchFolder } from '../support/cli.js';

const folder = scratchFolder('checkpoint');
const muster = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

interface Saved {
  format: string;
  job: Record<string, unknown>;
  ranges: Array<{ point: number; total: number; first: number; end: number; tally: number[] }>;
}
const readSaved = (path: string): Saved => JSON.parse(readFileSync(path, 'utf8')) as Saved;
const savedChunks = (saved: Saved) => saved.ranges.reduce((sum, range) => sum + range.end - range.first, 0);

/**
 * Starts `muster …` as a child process and kills it with SIGKILL as soon as
 * its checkpoint holds a finished range: the way a crash or a preempted
 * node stops a run, with no chance to clean up.
 */
async function killOnceCheckpointed(argv: string[], checkpoint: string): Promise<void> {
  const child = spawn(process.execPath, [muster, ...argv], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  let finished = false;
  void exited.then(() => (finished = true));
  while (!finished && !existsSync(checkpoint)) await new Promise((resolve) => setTimeout(resolve, 10));
  child.kill('SIGKILL');
  const { signal } = await exited;
  // Killed, not finished on its own: otherwise the test would not be resuming anything.
  expect(signal, `the run ended before it could be killed: ${stderr}`).toBe('SIGKILL');
}

describe('--checkpoint: a run killed with SIGKILL resumes to the uninterrupted result', () => {
  // 6M trials are 92 chunks in 16 tasks on 2 threads (engine/chunks.ts), a checkpoint after every task:
  // the child is killed after its first write, with most tasks still to run.
  const trials = 6_000_000;
  const run = [
    'run',
    'reserves',
    '--set',
    'command=3',
    '--trials',
    String(trials),
    '--seed',
    'preempted',
    '--threads',
    '2',
    '--quiet',
  ];

  it('seed "preempted": resumed after kill -9, the JSON is byte for byte the uninterrupted run’s', async () => {
    const checkpoint = join(folder, 'run.ckpt');
    await killOnceCheckpointed([...run, '--checkpoint', checkpoint, '--checkpoint-every', '0'], checkpoint);
    const saved = readSaved(checkpoint);
    const chunks = savedChunks(saved);
    expect(chunks).toBeGreaterThan(0);
    expect(chunks).toBeLessThan(chunkCount(trials));

    // Tampered copies: counts moved between two outcomes (every sum kept, so the tally checks pass), an outcome's
    // count raised, a range dropped. Each resumes to numbers no uninterrupted run gives, and each is refused.
    const text = readFileSync(checkpoint, 'utf8');
    const tampered: Array<[string, (saved: Saved) => void]> = [
      [
        'counts moved',
        (saved) => {
          const tally = saved.ranges[0].tally;
          const from = tally.findIndex((count) => count > 100);
          tally[from] -= 100;
          tally[from + 1] += 100;
        },
      ],
      ['a count raised', (saved) => void (saved.ranges[0].tally[0] += 1)],
      ['a range dropped', (saved) => void saved.ranges.pop()],
    ];
    for (const [what, edit] of tampered) {
      const saved = JSON.parse(text) as Saved;
      edit(saved);
      const copy = join(folder, `tampered-${what.replace(/ /g, '-')}.ckpt`);
      writeFileSync(copy, JSON.stringify(saved));
      const refused = await cli(...run, '--checkpoint', copy, '--json', join(folder, 'never.json'));
      expect([refused.status, refused.stderr], what).toEqual([
        2,
        expect.stringMatching(
          /^muster: --checkpoint: .*tampered.* has been edited or damaged since muster wrote it \(its contents do not match the sha256 it carries\); allowed: /,
        ),
      ]);
    }
    expect(existsSync(join(folder, 'never.json'))).toBe(false);
    expect(readFileSync(checkpoint, 'utf8')).toBe(text);

    expect((await cli(...run, '--checkpoint', checkpoint, '--json', join(folder, 'resumed.json'))).status).toBe(0);
    expect((await cli(...run, '--json', join(folder, 'whole.json'))).status).toBe(0);
    expect(readFileSync(join(folder, 'resumed.json'), 'utf8')).toBe(readFileSync(join(folder, 'whole.json'), 'utf8'));
    // Byte for byte includes each distribution's histogram: every value's count, resumed as counted.
    const { distributions } = JSON.parse(readFileSync(join(folder, 'whole.json'), 'utf8')) as {
      distributions: Record<string, { values: Array<{ count: number }> }>;
    };
    expect(Object.keys(distributions)).toEqual(expect.arrayContaining(['arrived.by.2.mean', 'last.arrival']));
    const counted = distributions['last.arrival'].values.reduce((sum, { count }) => sum + count, 0);
    expect(counted).toBe(trials);
    // When done, the checkpoint holds every chunk once.
    expect(savedChunks(readSaved(checkpoint))).toBe(chunkCount(trials));
  });

  it(
    'seed "preempted": a --precision run grows batch by batch, and resumes to the same batches and ' + 'result',
    async () => {
      // ± 0.05% needs about (1.96 · 0.5 / 0.0005)² ≈ 3.8M trials at p = ½: a first batch of 1M, then more
      // (engine/simulate.ts).
      const adaptive = ['run', 'reserves', '--precision', '0.0005', '--seed', 'preempted', '--threads', '2', '--quiet'];
      const checkpoint = join(folder, 'precision.ckpt');
      await killOnceCheckpointed([...adaptive, '--checkpoint', checkpoint, '--checkpoint-every', '0'], checkpoint);
      expect(
        (await cli(...adaptive, '--checkpoint', checkpoint, '--json', join(folder, 'precision-resumed.json'))).status,
      ).toBe(0);
      expect((await cli(...adaptive, '--json', join(folder, 'precision-whole.json'))).status).toBe(0);
      const whole = readFileSync(join(folder, 'precision-whole.json'), 'utf8');
      expect(readFileSync(join(folder, 'precision-resumed.json'), 'utf8')).toBe(whole);
      // More than one batch was run, each saved under its own total.
      expect(new Set(readSaved(checkpoint).ranges.map((range) => range.total)).size).toBeGreaterThan(1);
      expect((JSON.parse(whole) as { trials: number }).trials).toBeGreaterThan(16 * 65_536);
    },
  );

  it('a sweep killed mid-way resumes to the uninterrupted sweep, JSON and CSV byte for byte', async () => {
    const sweep = [
      'sweep',
      'reserves',
      '--vary',
      'chosenRound=0..2',
      '--set',
      'command=3',
      '--trials',
      '2M',
      '--seed',
      'preempted',
      '--threads',
      '2',
      '--quiet',
    ];
    const checkpoint = join(folder, 'sweep.ckpt');
    await killOnceCheckpointed([...sweep, '--checkpoint', checkpoint, '--checkpoint-every', '0'], checkpoint);
    expect(savedChunks(readSaved(checkpoint))).toBeLessThan(3 * chunkCount(2_000_000));
    const outputs = (name: string) => ['--json', join(folder, `${name}.json`), '--csv', join(folder, `${name}.csv`)];
    expect((await cli(...sweep, '--checkpoint', checkpoint, ...outputs('sweep-resumed'))).status).toBe(0);
    expect((await cli(...sweep, ...outputs('sweep-whole'))).status).toBe(0);
    for (const ext of ['json', 'csv'])
      expect(readFileSync(join(folder, `sweep-resumed.${ext}`), 'utf8')).toBe(
        readFileSync(join(folder, `sweep-whole.${ext}`), 'utf8'),
      );
  });

  it('a shard with a checkpoint writes the same tally, and a second run finds every chunk saved', async () => {
    const shard = [
      'shard',
      'reserves',
      '--trials',
      '1M',
      '--seed',
      'preempted',
      '--threads',
      '1',
      '--shard',
      '1/3',
      '--quiet',
    ];
    const checkpoint = join(folder, 'shard.ckpt');
    expect((await cli(...shard, '--checkpoint', checkpoint, '--out', join(folder, 'shard-a.json'))).status).toBe(0);
    expect((await cli(...shard, '--checkpoint', checkpoint, '--out', join(folder, 'shard-b.json'))).status).toBe(0);
    expect((await cli(...shard, '--out', join(folder, 'shard-c.json'))).status).toBe(0);
    const a = readFileSync(join(folder, 'shard-a.json'), 'utf8');
    expect(readFileSync(join(folder, 'shard-b.json'), 'utf8')).toBe(a);
    expect(readFileSync(join(folder, 'shard-c.json'), 'utf8')).toBe(a);
    // Shard 1 of 3 of 16 chunks runs chunks 5–9 (floor(16/3) = 5, floor(32/3) = 10).
    expect(readSaved(checkpoint).ranges.map(({ first, end }) => [first, end])).toEqual([[5, 10]]);
  });
});

describe('--checkpoint refuses what is not this run’s, in one line, exit 2, the file untouched', () => {
  const base = ['run', 'reserves', '--trials', '200k', '--seed', 'mine', '--threads', '1', '--quiet'];
  const baseWith = (option: string, value: string) => [
    ...base.filter((_, i) => base[i] !== option && base[i - 1] !== option),
    option,
    value,
  ];
  const checkpoint = join(folder, 'mine.ckpt');

  it('a different rule, seed, stream, parameter or trial count', async () => {
    expect((await cli(...base, '--checkpoint', checkpoint)).status).toBe(0);
    const before = readFileSync(checkpoint, 'utf8');
    const cases: Array<[string[], RegExp]> = [
      [
        ['run', 'infinity', '--trials', '200k', '--seed', 'mine', '--threads', '1'],
        /rule "reserves" there, "infinity" now/,
      ],
      [baseWith('--seed', 'yours'), /seed "mine" there, "yours" now/],
      [[...base, '--set', 'command=4'], /params.command 2 there, 4 now/],
      [baseWith('--trials', '300k'), /trials 200000 there, 300000 now/],
      // Written on the default stream; stream 1's dice are others, so its chunks cannot be added (a stream-1 job
      // records no stream).
      [[...base, '--stream', '1'], new RegExp(`stream ${DEFAULT_STREAM} there, none now`)],
      // Stream 2 draws reserves' dice as stream 3 does, but a checkpoint resumes only on the stream it was made on.
      [[...base, '--stream', '2'], new RegExp(`stream ${DEFAULT_STREAM} there, 2 now`)],
      [
        [
          'shard',
          'reserves',
          '--trials',
          '200k',
          '--seed',
          'mine',
          '--threads',
          '1',
          '--shard',
          '0/2',
          '--out',
          join(folder, 'x.json'),
        ],
        /command "run" there, "shard" now/,
      ],
    ];
    for (const [argv, message] of cases) {
      const result = await cli(...argv, '--checkpoint', checkpoint);
      expect(result.status, argv.join(' ')).toBe(2);
      expect(result.stderr).toMatch(
        new RegExp(
          `^muster: --checkpoint: ${checkpoint.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is from another run \\(`,
        ),
      );
      expect(result.stderr).toMatch(message);
      expect(result.stderr.split('\n')).toHaveLength(2);
    }
    expect(readFileSync(checkpoint, 'utf8')).toBe(before);
    expect(existsSync(join(folder, 'x.json'))).toBe(false);
  });

  it(
    'a damaged file: not JSON, an unknown field, a range outside the run, a tally of the wrong length or not ' +
      'whole',
    async () => {
      const good = readSaved(checkpoint);
      // Each edit sealed with a recomputed hash, so the checks behind the hash are reached; one edit is left unsealed.
      const positive = good.ranges[0].tally.findIndex((count) => count > 0);
      const sealed = (edited: object) => sealCheckpoint(edited as Record<string, unknown>);
      const variants: Array<[string, string, RegExp]> = [
        [
          'not json',
          '{"format": "muster-checkpoint/2", ',
          /is not JSON as muster writes it \(the text ends too early at line 1, column 35\)/,
        ],
        ['other format', sealed({ ...good, format: 'muster-tally/1' }), /is not a muster checkpoint/],
        ['unknown field', sealed({ ...good, extra: 1 }), /missing or unknown fields/],
        [
          'range outside',
          sealed({ ...good, ranges: [{ ...good.ranges[0], end: 9 }] }),
          /range 0 has chunks 0–8, outside 0–3/,
        ],
        [
          'short tally',
          sealed({ ...good, ranges: [{ ...good.ranges[0], tally: good.ranges[0].tally.slice(1) }] }),
          /tally that is not \d+ whole numbers/,
        ],
        [
          'fractional count',
          sealed({
            ...good,
            ranges: [{ ...good.ranges[0], tally: good.ranges[0].tally.map((c, i) => (i === 0 ? c + 0.5 : c)) }],
          }),
          /tally that is not/,
        ],
        ['overlap', sealed({ ...good, ranges: [good.ranges[0], good.ranges[0]] }), /range 1 overlaps another/],
        // The whole run's counts claimed for its first two chunks: the checks merge makes of a shard's tally refuse them.
        [
          'counts beyond the trials',
          sealed({ ...good, ranges: [{ ...good.ranges[0], end: 2 }] }),
          /range 0 has a tally the rule could not have counted in its 131072 trials/,
        ],
        [
          'other total',
          sealed({ ...good, ranges: [{ ...good.ranges[0], total: 100_000 }] }),
          /run of 100000 trials, which this command never runs/,
        ],
        [
          'a negative count',
          sealed({
            ...good,
            ranges: [{ ...good.ranges[0], tally: good.ranges[0].tally.map((c, i) => (i === positive ? -c : c)) }],
          }),
          new RegExp(`could not have counted .*entry ${positive}: -\\d+ is a count below zero`),
        ],
        [
          'edited, hash not rewritten',
          JSON.stringify({ ...good, ranges: [{ ...good.ranges[0], end: 2 }] }),
          /has been edited or damaged since muster wrote it/,
        ],
      ];
      for (const [name, text, message] of variants) {
        const path = join(folder, `damaged-${name.replace(/ /g, '-')}.ckpt`);
        writeFileSync(path, text);
        const result = await cli(...base, '--checkpoint', path, '--json', join(folder, 'never.json'));
        expect(result.status, name).toBe(2);
        expect(result.stderr, name).toMatch(message);
        expect(result.stderr.split('\n'), name).toHaveLength(2);
        expect(readFileSync(path, 'utf8')).toBe(text);
      }
      expect(existsSync(join(folder, 'never.json'))).toBe(false);
    },
  );

  it('bad --checkpoint-every, and --checkpoint with --exact', async () => {
    expect((await cli(...base, '--checkpoint', join(folder, 'e.ckpt'), '--checkpoint-every', 'soon')).stderr).toMatch(
      /^muster: --checkpoint-every: got "soon"; allowed: seconds from 0/,
    );
    expect((await cli(...base, '--checkpoint-every', '3')).stderr).toMatch(
      /^muster: --checkpoint-every: only with --checkpoint/,
    );
    expect((await cli('run', 'reserves', '--exact', '--checkpoint', join(folder, 'e.ckpt'))).stderr).toMatch(
      /^muster: --exact: cannot be combined with --checkpoint/,
    );
  });
});
