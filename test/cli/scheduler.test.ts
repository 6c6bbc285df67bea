import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CHUNK_TRIALS } from '../../src/engine/chunks.js';
import { gridShardPieces } from '../../src/shards/grid-shards.js';
import { fillIndex, resolveShard } from '../../src/shards/scheduler.js';
import { cli, scratchFolder } from '../support/cli.js';

const folder = scratchFolder('scheduler');

// Slurm's environment for one task of `sbatch --array=…`, as Slurm sets it (MIN, MAX, STEP, COUNT).
const slurm = (id: number, min: number, max: number, step: number, count: number) => ({
  SLURM_ARRAY_JOB_ID: '4242',
  SLURM_ARRAY_TASK_ID: String(id),
  SLURM_ARRAY_TASK_MIN: String(min),
  SLURM_ARRAY_TASK_MAX: String(max),
  SLURM_ARRAY_TASK_STEP: String(step),
  SLURM_ARRAY_TASK_COUNT: String(count),
});

describe('the shard index from a scheduler', () => {
  it('--shard i/n is taken as given, and no --shard outside an array job means not sharded', () => {
    expect(resolveShard('2/5', undefined, {}, true)).toEqual({ index: 2, count: 5, source: 'option' });
    expect(resolveShard(undefined, undefined, {}, false)).toBeNull();
  });

  it('Slurm --array=0-15: task 5 is shard 5 of 16, with or without --shard auto', () => {
    expect(resolveShard('auto', undefined, slurm(5, 0, 15, 1, 16), true)).toMatchObject({
      index: 5,
      count: 16,
      source: 'slurm',
    });
    expect(resolveShard(undefined, undefined, slurm(5, 0, 15, 1, 16), true)).toMatchObject({ index: 5, count: 16 });
  });

  it('Slurm --array=1-31:2: ids 1, 3, …, 31 are shards 0 … 15 (task 7 is shard 3)', () => {
    expect(resolveShard('auto', undefined, slurm(7, 1, 31, 2, 16), true)).toMatchObject({ index: 3, count: 16 });
    expect(resolveShard('auto', undefined, slurm(31, 1, 31, 2, 16), true)).toMatchObject({ index: 15, count: 16 });
  });

  it('Slurm --array=0-30:2 without STEP: the step comes from COUNT (16 tasks, so id 30 is shard 15)', () => {
    const { SLURM_ARRAY_TASK_STEP: _, ...env } = slurm(30, 0, 30, 2, 16);
    expect(resolveShard('auto', undefined, env, true)).toMatchObject({ index: 15, count: 16 });
  });

  it('Slurm with only COUNT: ids from 0', () => {
    expect(
      resolveShard('auto', undefined, { SLURM_ARRAY_TASK_ID: '2', SLURM_ARRAY_TASK_COUNT: '3' }, true),
    ).toMatchObject({ index: 2, count: 3 });
  });

  it('Kubernetes Indexed Job: JOB_COMPLETION_INDEX with the count from --shards', () => {
    expect(resolveShard('auto', '8', { JOB_COMPLETION_INDEX: '7' }, true)).toEqual({
      index: 7,
      count: 8,
      source: 'kubernetes',
    });
    expect(resolveShard(undefined, '8', { JOB_COMPLETION_INDEX: '0' }, true)).toMatchObject({ index: 0, count: 8 });
  });

  it('refuses a missing or inconsistent environment in one line naming what is wrong', () => {
    const cases: Array<[string | undefined, string | undefined, Record<string, string>, RegExp]> = [
      [
        'auto',
        undefined,
        {},
        /^--shard auto: no scheduler's array index is set \(none of SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX, /,
      ],
      [undefined, undefined, {}, /^--shard: missing; allowed:/],
      ['auto', undefined, { SLURM_ARRAY_TASK_ID: '3' }, /lacks SLURM_ARRAY_TASK_MIN/],
      [
        'auto',
        undefined,
        { SLURM_ARRAY_TASK_ID: 'x', SLURM_ARRAY_TASK_COUNT: '4' },
        /^--shard auto: SLURM_ARRAY_TASK_ID: got "x"/,
      ],
      // --array=1,3,7: three ids from 1 to 7 are not evenly spaced.
      [
        'auto',
        undefined,
        { SLURM_ARRAY_TASK_ID: '3', SLURM_ARRAY_TASK_MIN: '1', SLURM_ARRAY_TASK_MAX: '7', SLURM_ARRAY_TASK_COUNT: '3' },
        /id off the array|not evenly spaced/,
      ],
      ['auto', undefined, slurm(4, 1, 31, 2, 16), /id off the array/],
      ['auto', undefined, slurm(5, 0, 15, 1, 12), /has 16 ids from MIN to MAX but COUNT 12/],
      ['auto', undefined, { SLURM_ARRAY_TASK_ID: '3', SLURM_ARRAY_TASK_COUNT: '3' }, /id not below COUNT/],
      ['auto', '4', slurm(1, 0, 3, 1, 4 + 1), /COUNT 5/],
      ['auto', '5', slurm(1, 0, 3, 1, 4), /^--shards: got 5 but the Slurm array has 4 tasks/],
      ['auto', undefined, { JOB_COMPLETION_INDEX: '2' }, /^--shards: missing; allowed: the Indexed Job's completions/],
      ['auto', '2', { JOB_COMPLETION_INDEX: '2' }, /JOB_COMPLETION_INDEX=2 is not below --shards 2/],
      ['auto', '0', { JOB_COMPLETION_INDEX: '0' }, /^--shards: got "0"/],
      [
        'auto',
        '2',
        { JOB_COMPLETION_INDEX: '0', ...slurm(0, 0, 1, 1, 2) },
        /SLURM_ARRAY_TASK_ID and JOB_COMPLETION_INDEX are both set/,
      ],
      ['1/2', '2', {}, /^--shards: only with --shard auto/],
      ['2/2', undefined, {}, /^--shard: got "2\/2"; allowed: i\/n/],
    ];
    for (const [shard, shards, env, message] of cases)
      expect(() => resolveShard(shard, shards, env, true), JSON.stringify({ shard, shards, env })).toThrow(message);
  });

  it('AWS Batch: AWS_BATCH_JOB_ARRAY_INDEX, the count from AWS_BATCH_JOB_ARRAY_SIZE or --shards', () => {
    expect(
      resolveShard('auto', undefined, { AWS_BATCH_JOB_ARRAY_INDEX: '3', AWS_BATCH_JOB_ARRAY_SIZE: '10' }, true),
    ).toEqual({ index: 3, count: 10, source: 'aws-batch' });
    expect(resolveShard(undefined, '10', { AWS_BATCH_JOB_ARRAY_INDEX: '9' }, true)).toEqual({
      index: 9,
      count: 10,
      source: 'aws-batch',
    });
    expect(
      resolveShard('auto', '10', { AWS_BATCH_JOB_ARRAY_INDEX: '0', AWS_BATCH_JOB_ARRAY_SIZE: '10' }, true),
    ).toMatchObject({ index: 0, count: 10 });
  });

  it('Cloud Run jobs: CLOUD_RUN_TASK_INDEX of CLOUD_RUN_TASK_COUNT, with or without --shard auto', () => {
    expect(resolveShard('auto', undefined, { CLOUD_RUN_TASK_INDEX: '0', CLOUD_RUN_TASK_COUNT: '4' }, true)).toEqual({
      index: 0,
      count: 4,
      source: 'cloud-run',
    });
    expect(
      resolveShard(undefined, undefined, { CLOUD_RUN_TASK_INDEX: '3', CLOUD_RUN_TASK_COUNT: '4' }, true),
    ).toMatchObject({ index: 3, count: 4 });
  });

  it('LSF arrays from 1: LSB_JOBINDEX 1 … END (stepping by LSB_JOBINDEX_STEP) are shards 0 … count − 1', () => {
    expect(resolveShard('auto', undefined, { LSB_JOBINDEX: '1', LSB_JOBINDEX_END: '16' }, true)).toEqual({
      index: 0,
      count: 16,
      source: 'lsf',
    });
    expect(resolveShard('auto', undefined, { LSB_JOBINDEX: '16', LSB_JOBINDEX_END: '16' }, true)).toMatchObject({
      index: 15,
      count: 16,
    });
    // -J "m[1-31:2]": 1, 3, …, 31 are 16 tasks; 7 is the fourth.
    expect(
      resolveShard('auto', undefined, { LSB_JOBINDEX: '7', LSB_JOBINDEX_END: '31', LSB_JOBINDEX_STEP: '2' }, true),
    ).toMatchObject({ index: 3, count: 16 });
    expect(resolveShard('auto', '5', { LSB_JOBINDEX: '5' }, true)).toMatchObject({ index: 4, count: 5 });
    // LSB_JOBINDEX=0 is LSF's word for "not an array": no shard without --shard, an error with --shard auto.
    expect(resolveShard(undefined, undefined, { LSB_JOBINDEX: '0' }, false)).toBeNull();
  });

  it('Nomad and GNU parallel: read only under --shard auto, as they set their index in every job', () => {
    expect(resolveShard('auto', '3', { NOMAD_ALLOC_INDEX: '2' }, true)).toEqual({
      index: 2,
      count: 3,
      source: 'nomad',
    });
    expect(resolveShard('auto', '3', { PARALLEL_SEQ: '1' }, true)).toEqual({
      index: 0,
      count: 3,
      source: 'gnu-parallel',
    });
    expect(resolveShard('auto', '3', { PARALLEL_SEQ: '3' }, true)).toMatchObject({ index: 2, count: 3 });
    expect(resolveShard(undefined, undefined, { PARALLEL_SEQ: '4', NOMAD_ALLOC_INDEX: '0' }, false)).toBeNull();
    // A GNU parallel job inside a Slurm array job: without --shard auto, Slurm's index alone.
    expect(resolveShard(undefined, undefined, { PARALLEL_SEQ: '2', ...slurm(1, 0, 3, 1, 4) }, true)).toMatchObject({
      index: 1,
      count: 4,
      source: 'slurm',
    });
  });

  it(
    'refuses two schedulers, an index outside the count and a missing count for the new schedulers, in one ' + 'line',
    () => {
      const cases: Array<[string | undefined, string | undefined, Record<string, string>, RegExp]> = [
        ['auto', undefined, { AWS_BATCH_JOB_ARRAY_INDEX: '1' }, /^--shards: missing; allowed: the array job's size/],
        [
          'auto',
          undefined,
          { AWS_BATCH_JOB_ARRAY_INDEX: '10', AWS_BATCH_JOB_ARRAY_SIZE: '10' },
          /^--shard auto: AWS_BATCH_JOB_ARRAY_INDEX=10 is not below AWS_BATCH_JOB_ARRAY_SIZE=10/,
        ],
        [
          'auto',
          '8',
          { AWS_BATCH_JOB_ARRAY_INDEX: '1', AWS_BATCH_JOB_ARRAY_SIZE: '10' },
          /^--shards: got 8 but AWS_BATCH_JOB_ARRAY_SIZE=10/,
        ],
        [
          'auto',
          undefined,
          { CLOUD_RUN_TASK_INDEX: '4', CLOUD_RUN_TASK_COUNT: '4' },
          /CLOUD_RUN_TASK_INDEX=4 is not below CLOUD_RUN_TASK_COUNT=4/,
        ],
        [
          'auto',
          undefined,
          { CLOUD_RUN_TASK_INDEX: '-1', CLOUD_RUN_TASK_COUNT: '4' },
          /^--shard auto: CLOUD_RUN_TASK_INDEX: got "-1"/,
        ],
        ['auto', undefined, { LSB_JOBINDEX: '3' }, /^--shards: missing; allowed: the array's task count/],
        [
          'auto',
          undefined,
          { LSB_JOBINDEX: '4', LSB_JOBINDEX_END: '31', LSB_JOBINDEX_STEP: '2' },
          /index off an array from 1/,
        ],
        ['auto', '3', { LSB_JOBINDEX: '5' }, /task 5, beyond the 3 tasks/],
        ['auto', '4', { LSB_JOBINDEX: '2', LSB_JOBINDEX_END: '16' }, /^--shards: got 4 but the LSF array has 16 tasks/],
        ['auto', undefined, { LSB_JOBINDEX: '0' }, /^--shard auto: no scheduler's array index is set/],
        ['auto', undefined, { NOMAD_ALLOC_INDEX: '0' }, /^--shards: missing; allowed: the group's count/],
        ['auto', '2', { NOMAD_ALLOC_INDEX: '2' }, /NOMAD_ALLOC_INDEX=2 is not below --shards 2/],
        ['auto', '2', { PARALLEL_SEQ: '0' }, /^--shard auto: PARALLEL_SEQ: got "0"; allowed: a whole number from 1/],
        ['auto', '2', { PARALLEL_SEQ: '3' }, /PARALLEL_SEQ=3 is above --shards 2/],
        [
          'auto',
          '4',
          { PARALLEL_SEQ: '2', ...slurm(1, 0, 3, 1, 4) },
          /^--shard auto: SLURM_ARRAY_TASK_ID and PARALLEL_SEQ are both set/,
        ],
        [
          'auto',
          undefined,
          {
            CLOUD_RUN_TASK_INDEX: '0',
            CLOUD_RUN_TASK_COUNT: '2',
            AWS_BATCH_JOB_ARRAY_INDEX: '0',
            AWS_BATCH_JOB_ARRAY_SIZE: '2',
          },
          /AWS_BATCH_JOB_ARRAY_INDEX and CLOUD_RUN_TASK_INDEX are both set/,
        ],
        [
          undefined,
          undefined,
          { LSB_JOBINDEX: '1', LSB_JOBINDEX_END: '2', JOB_COMPLETION_INDEX: '0' },
          /JOB_COMPLETION_INDEX and LSB_JOBINDEX are both set/,
        ],
      ];
      for (const [shard, shards, env, message] of cases)
        expect(() => resolveShard(shard, shards, env, true), JSON.stringify({ shard, shards, env })).toThrow(message);
    },
  );

  it('{index} in an output name becomes the shard index', () => {
    expect(fillIndex('out/shard-{index}.json', { index: 12, count: 16, source: 'slurm' })).toBe('out/shard-12.json');
    expect(fillIndex('plain.json', null)).toBe('plain.json');
    expect(() => fillIndex('s-{index}.json', null)).toThrow(/^--out: .*holds \{index\} but this is not a shard/);
  });

  it('from the command line: a malformed Slurm environment exits 2 with one line and writes nothing', async () => {
    const saved = { ...process.env };
    Object.assign(process.env, { SLURM_ARRAY_TASK_ID: '9', SLURM_ARRAY_TASK_MIN: '0', SLURM_ARRAY_TASK_MAX: '3' });
    try {
      const result = await cli(
        'shard',
        'reserves',
        '--trials',
        '100k',
        '--shard',
        'auto',
        '--out',
        `${folder}/s-{index}.json`,
      );
      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(
        /^muster: --shard auto: Slurm array environment SLURM_ARRAY_TASK_ID=9 MIN=0 MAX=3 has an id off the array; allowed: [^\n]*\n$/,
      );
      expect(readdirSync(folder)).toEqual([]);
    } finally {
      for (const key of ['SLURM_ARRAY_TASK_ID', 'SLURM_ARRAY_TASK_MIN', 'SLURM_ARRAY_TASK_MAX'])
        if (!(key in saved)) delete process.env[key];
    }
  });
});

describe('how sweep shards share the grid', () => {
  // Each chunk of each point in exactly one shard, counted by brute force over every (points, chunks, shards) here.
  it('every chunk of every point exactly once, for more and for fewer points than shards', () => {
    for (const points of [1, 2, 3, 7]) {
      for (const chunks of [1, 2, 5]) {
        for (const shards of [1, 2, 3, 4, 9, 20]) {
          const seen = Array.from({ length: points }, () => new Array<number>(chunks).fill(0));
          for (let index = 0; index < shards; index++) {
            for (const piece of gridShardPieces(points, chunks * CHUNK_TRIALS, index, shards))
              for (let k = piece.first; k < piece.end; k++) seen[piece.point][k]++;
          }
          expect(seen.flat(), `${points} points × ${chunks} chunks over ${shards} shards`).toEqual(
            new Array(points * chunks).fill(1),
          );
        }
      }
    }
  });

  it('3 points of 2 chunks over 4 shards: hand-worked blocks of the 6 chunks laid end to end', () => {
    // floor(i·6/4) for i = 0…4 gives block boundaries 0, 1, 3, 4, 6.
    expect([0, 1, 2, 3].map((i) => gridShardPieces(3, 2 * CHUNK_TRIALS, i, 4))).toEqual([
      [{ point: 0, first: 0, end: 1 }],
      [
        { point: 0, first: 1, end: 2 },
        { point: 1, first: 0, end: 1 },
      ],
      [{ point: 1, first: 1, end: 2 }],
      [{ point: 2, first: 0, end: 2 }],
    ]);
  });
});

describe('a retried array task resumes from its checkpoint', () => {
  it('Cloud Run task 1 of 2, killed after its first checkpoint and run again with the same index, ends as the ' +
    'uninterrupted shard', async () => {
    const muster = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
    const work = `${folder}/retry`;
    mkdirSync(work, { recursive: true });
    const args = [
      'shard',
      'reserves',
      '--trials',
      '40M',
      '--seed',
      'retry',
      '--threads',
      '1',
      '--shard',
      'auto',
      '--out',
      `${work}/shard-{index}.json`,
      '--checkpoint',
      `${work}/shard-{index}.ckpt`,
      '--checkpoint-every',
      '0.2',
      '--quiet',
    ];
    const env = (attempt: number) => ({
      ...process.env,
      CLOUD_RUN_TASK_INDEX: '1',
      CLOUD_RUN_TASK_COUNT: '2',
      CLOUD_RUN_TASK_ATTEMPT: String(attempt),
    });
    // The first attempt: stopped dead (as a preempted node is) once its checkpoint holds some chunks.
    const first = spawn(process.execPath, [muster, ...args], { env: env(0), stdio: 'ignore' });
    const exited = new Promise<void>((resolve) => first.on('exit', () => resolve()));
    const deadline = Date.now() + 30_000;
    while (!existsSync(`${work}/shard-1.ckpt`) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(existsSync(`${work}/shard-1.ckpt`), 'the first attempt wrote a checkpoint').toBe(true);
    first.kill('SIGKILL');
    await exited;
    expect(existsSync(`${work}/shard-1.json`), 'the first attempt did not finish').toBe(false);
    // The retry: the same index, so the same checkpoint, and it ends as an uninterrupted shard 1/2.
    const retry = spawn(process.execPath, [muster, ...args], { env: env(1), stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    retry.stderr?.on('data', (data: Buffer) => (stderr += data.toString()));
    const status = await new Promise<number | null>((resolve) => retry.on('exit', (code) => resolve(code)));
    expect(status, stderr).toBe(0);
    const whole = await cli(
      'shard',
      'reserves',
      '--trials',
      '40M',
      '--seed',
      'retry',
      '--threads',
      '1',
      '--shard',
      '1/2',
      '--out',
      `${work}/uninterrupted.json`,
      '--quiet',
    );
    expect(whole.status, whole.stderr).toBe(0);
    const tallyOf = (file: string) => JSON.parse(readFileSync(file, 'utf8')).tally;
    expect(tallyOf(`${work}/shard-1.json`)).toEqual(tallyOf(`${work}/uninterrupted.json`));
  }, 120_000);
});
