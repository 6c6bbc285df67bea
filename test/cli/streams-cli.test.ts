import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildResult } from '../../src/analysis/result-of.js';
import type { StreamVersion } from '../../src/contract/types.js';
import { CHUNK_TRIALS } from '../../src/engine/chunks.js';
import { DEFAULT_STREAM } from '../../src/engine/random.js';
import { fow } from '../../src/rules/fow/fow.js';
import { resolveParams } from '../../src/rules/params.js';
import { reserves } from '../../src/rules/reserves/reserves.js';
import { cli, scratchFolder } from '../support/cli.js';
import { wholeRunTally } from '../support/whole-run.js';

const folder = scratchFolder('streams');
const file = (name: string) => join(folder, name);
const json = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

/**
 * What the engine gives in this thread for chunks 0–2 of a 3-chunk run of reserves at `set`: the expected metrics,
 * computed without the CLI.
 */
function inProcess(stream: StreamVersion, set: string[], seed: string, trials: number) {
  const params = resolveParams(reserves, set);
  const tally = wholeRunTally({ ruleId: 'reserves', params, seed, stream, trials });
  return buildResult({ rule: reserves, params, seed, stream, threads: 0, confidence: 0.95, trials, tally }).metrics;
}

describe('--stream chooses the random stream, and every result says which', () => {
  const trials = 3 * CHUNK_TRIALS - 100;
  const set = ['chosenRound=3', 'command=3', 'leaderLoss=0.2', 'fallbackCommand=1'];

  it(
    'seed "streams": run --json records the default stream unasked and another when asked; each is the engine’s own ' +
      'stream, through the pool',
    async () => {
      for (const [argv, stream] of [
        [[], DEFAULT_STREAM],
        [['--stream', '5'], 5],
        [['--stream', '4'], 4],
        [['--stream', '3'], 3],
        [['--stream', '2'], 2],
        [['--stream', '1'], 1],
      ] as const) {
        const out = file(`run-${argv.join('')}.json`);
        const result = await cli(
          'run',
          'reserves',
          ...set.flatMap((s) => ['--set', s]),
          '--trials',
          String(trials),
          '--seed',
          'streams',
          '--threads',
          '2',
          '--quiet',
          ...argv,
          '--json',
          out,
        );
        expect(result.status, result.stderr).toBe(0);
        const written = json(out);
        expect(written.stream).toBe(stream);
        expect(written.metrics).toEqual(inProcess(stream, set, 'streams', trials));
      }
      // Streams 1 and 2 are different dice: their estimates differ (and both are checked against exact values elsewhere).
      expect(json(file('run---stream1.json')).metrics['all.by.4'].estimate).not.toBe(
        json(file('run---stream2.json')).metrics['all.by.4'].estimate,
      );
      // Stream 3 is stream 2's dice for every rule but fow.
      expect(json(file('run---stream3.json')).metrics).toEqual(json(file('run---stream2.json')).metrics);
    },
  );

  it(
    'seed "streams-fow": fow reads stream 3 by its plan, so streams 2 and 3 give it different dice, each the ' +
      'engine’s own',
    async () => {
      const runs = [];
      for (const stream of [2, 3] as const) {
        const out = file(`fow-${stream}.json`);
        const result = await cli(
          'run',
          'fow',
          '--trials',
          String(trials),
          '--seed',
          'streams-fow',
          '--threads',
          '2',
          '--quiet',
          '--stream',
          String(stream),
          '--json',
          out,
        );
        expect(result.status, result.stderr).toBe(0);
        const params = resolveParams(fow, []);
        const tally = wholeRunTally({ ruleId: 'fow', params, seed: 'streams-fow', stream, trials, chunks: 3 });
        const expected = buildResult({
          rule: fow,
          params,
          seed: 'streams-fow',
          stream,
          threads: 0,
          confidence: 0.95,
          trials,
          tally,
        }).metrics;
        expect(json(out).stream).toBe(stream);
        expect(json(out).metrics).toEqual(expected);
        runs.push(json(out).metrics['attacker.allIn.by.3'].estimate);
      }
      expect(runs[0]).not.toBe(runs[1]);
    },
  );

  it('an exact result records no stream', async () => {
    const out = file('exact.json');
    expect((await cli('run', 'reserves', '--exact', '--quiet', '--json', out)).status).toBe(0);
    expect(json(out).stream).toBeNull();
  });

  it('refuses a stream it does not have, and --stream with --exact, in one line, exit 2', async () => {
    for (const bad of ['6', '0', 'two', '', '1.0e0x', '3.5']) {
      const result = await cli('run', 'reserves', '--stream', bad, '--quiet');
      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(/^muster: --stream: got ".*"; allowed: 5 \(the default\), 4 \(.*\) or 1 \(/);
      expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
    const exact = await cli('run', 'reserves', '--exact', '--stream', '1');
    expect(exact.status).toBe(2);
    expect(exact.stderr).toMatch(/^muster: --exact: cannot be combined with --stream/);
  });
});

describe('merge never adds counts of two streams', () => {
  const base = [
    'shard',
    'reserves',
    '--trials',
    String(4 * CHUNK_TRIALS),
    '--seed',
    'mixed',
    '--threads',
    '1',
    '--quiet',
  ];

  it(
    'seed "mixed": shards of stream 1 and stream 3, or 2 and 3, are refused, naming both files and ' + 'streams',
    async () => {
      expect((await cli(...base, '--shard', '0/2', '--stream', '1', '--out', file('s1-0.json'))).status).toBe(0);
      expect((await cli(...base, '--shard', '1/2', '--stream', '3', '--out', file('s3-1.json'))).status).toBe(0);
      expect((await cli(...base, '--shard', '0/2', '--stream', '2', '--out', file('s2-0.json'))).status).toBe(0);
      expect(json(file('s1-0.json')).stream).toBe(1);
      expect(json(file('s3-1.json')).stream).toBe(3);
      expect(json(file('s2-0.json')).stream).toBe(2);
      const merged = await cli('merge', file('s1-0.json'), file('s3-1.json'));
      expect(merged.status).toBe(2);
      expect(merged.stderr).toMatch(
        /^muster: files: ".*s3-1\.json" drew its dice from stream 3, ".*s1-0\.json" from stream 1; allowed: shards of one stream/,
      );
      expect(merged.stderr.trimEnd().split('\n')).toHaveLength(1);
      // Reserves draws the same dice on streams 2 and 3, but a shard says which stream it was made for, and merge holds
      // to it.
      const close = await cli('merge', file('s2-0.json'), file('s3-1.json'));
      expect(close.status).toBe(2);
      expect(close.stderr).toMatch(
        /^muster: files: ".*s3-1\.json" drew its dice from stream 3, ".*s2-0\.json" from stream 2; allowed: shards of one stream/,
      );
    },
  );

  it(
    'a shard written before streams were recorded is stream 1: it merges with stream-1 shards, to the stream-1 ' +
      'run, and not with stream 2',
    async () => {
      expect((await cli(...base, '--shard', '1/2', '--stream', '1', '--out', file('s1-1.json'))).status).toBe(0);
      const legacy = json(file('s1-0.json'));
      delete legacy.stream;
      writeFileSync(file('legacy-0.json'), JSON.stringify(legacy));
      const out = file('merged.json');
      expect((await cli('merge', file('legacy-0.json'), file('s1-1.json'), '--json', out)).status).toBe(0);
      const whole = file('whole.json');
      expect(
        (
          await cli(
            'run',
            'reserves',
            '--trials',
            String(4 * CHUNK_TRIALS),
            '--seed',
            'mixed',
            '--stream',
            '1',
            '--threads',
            '2',
            '--quiet',
            '--json',
            whole,
          )
        ).status,
      ).toBe(0);
      expect(json(out).stream).toBe(1);
      expect(json(out).metrics).toEqual(json(whole).metrics);
      expect((await cli('merge', file('legacy-0.json'), file('s3-1.json'))).stderr).toMatch(
        /drew its dice from stream 3, .* from stream 1/,
      );
    },
  );

  it('a shard claiming a stream muster does not have is refused, null included', async () => {
    for (const [name, value] of [
      ['six', 6],
      ['zero', 0],
      ['null', null],
      ['text', '1'],
    ] as const) {
      const forged = json(file('s1-0.json'));
      forged.stream = value;
      writeFileSync(file(`forged-${name}.json`), JSON.stringify(forged));
      const result = await cli('merge', file(`forged-${name}.json`), file('s1-1.json'));
      expect(result.status, name).toBe(2);
      // The value is shown as JSON text, quoted: 3 as "3", the string "1" as "\"1\"".
      expect(result.stderr, name).toContain(
        `forged-${name}.json": stream: got ${JSON.stringify(JSON.stringify(value))}; allowed: 1, 2, 3, 4 or 5 (absent: 1)`,
      );
    }
  });

  it('a sweep shard claiming no stream (null) or another is refused', async () => {
    const sweep = [
      'sweep',
      'reserves',
      '--vary',
      'command=1..2',
      '--trials',
      '70000',
      '--seed',
      'forged-sweep',
      '--threads',
      '1',
      '--quiet',
    ];
    expect((await cli(...sweep, '--shard', '0/2', '--out', file('fs-0.json'))).status).toBe(0);
    expect((await cli(...sweep, '--shard', '1/2', '--out', file('fs-1.json'))).status).toBe(0);
    for (const value of [null, 6, '2']) {
      const forged = json(file('fs-1.json'));
      forged.stream = value;
      writeFileSync(file('fs-forged.json'), JSON.stringify(forged));
      const result = await cli('merge', file('fs-0.json'), file('fs-forged.json'));
      expect(result.status, String(value)).toBe(2);
      expect(result.stderr, String(value)).toMatch(/fs-forged\.json"? has a stream that is not 1, 2, 3, 4 or 5/);
    }
  });

  it(
    'seed "mixed-sweep": sweep shards of two streams are refused too; of one stream they merge to the whole sweep ' +
      'on it',
    async () => {
      const sweep = [
        'sweep',
        'reserves',
        '--vary',
        'command=1..3',
        '--set',
        'chosenRound=2',
        '--trials',
        '70000',
        '--seed',
        'mixed-sweep',
        '--threads',
        '1',
        '--quiet',
      ];
      expect((await cli(...sweep, '--shard', '0/2', '--stream', '1', '--out', file('g1-0.json'))).status).toBe(0);
      expect((await cli(...sweep, '--shard', '1/2', '--stream', '3', '--out', file('g3-1.json'))).status).toBe(0);
      expect((await cli(...sweep, '--shard', '1/2', '--stream', '1', '--out', file('g1-1.json'))).status).toBe(0);
      const mixed = await cli('merge', file('g1-0.json'), file('g3-1.json'));
      expect(mixed.status).toBe(2);
      expect(mixed.stderr).toMatch(
        /^muster: files: ".*g3-1\.json" drew its dice from stream 3, ".*g1-0\.json" from stream 1; allowed: shards of one stream/,
      );
      const out = file('sweep-merged.json');
      expect((await cli('merge', file('g1-0.json'), file('g1-1.json'), '--json', out)).status).toBe(0);
      const whole = file('sweep-whole.json');
      expect((await cli(...sweep, '--stream', '1', '--json', whole)).status).toBe(0);
      expect(json(out).points.map((p: { metrics: unknown }) => p.metrics)).toEqual(
        json(whole).points.map((p: { metrics: unknown }) => p.metrics),
      );
    },
  );
});
