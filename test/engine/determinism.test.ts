import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHUNK_TRIALS, planTasks } from '../../src/engine/chunks.js';
import { SimulationPool } from '../../src/engine/pool.js';
import { chunkStream, STREAM_VERSIONS } from '../../src/engine/random.js';
import { mergeTally } from '../../src/engine/run-chunks.js';
import { simulate } from '../../src/engine/simulate.js';
import { fow } from '../../src/rules/fow/fow.js';
import { runBuiltinChunks } from '../../src/rules/index.js';
import { resolveParams } from '../../src/rules/params.js';
import { reserves } from '../../src/rules/reserves/reserves.js';
import { wholeRunTally } from '../support/whole-run.js';

const params = resolveParams(reserves, ['chosenRound=3', 'command=3', 'leaderLoss=0.2', 'fallbackCommand=1']);
// Five chunks, the last one short, so the partial-chunk path is covered.
const TRIALS = 4 * CHUNK_TRIALS + 12_345;

describe('the same seed gives bit-identical tallies whatever the thread count', () => {
  let one: SimulationPool;
  let two: SimulationPool;
  let seven: SimulationPool; // more threads than cores, as on a machine of another size: only the schedule changes
  beforeAll(() => {
    one = new SimulationPool(1);
    two = new SimulationPool(2);
    seven = new SimulationPool(7);
  });
  afterAll(async () => {
    await one.close();
    await two.close();
    await seven.close();
  });

  it('seed "threads": --threads 1, 2 and 7 agree entry for entry, and with an in-process run', async () => {
    const request = { rule: reserves, params, seed: 'threads', stream: 2 as const, confidence: 0.95, trials: TRIALS };
    const onOne = await simulate(one, request);
    const onTwo = await simulate(two, request);
    const onSeven = await simulate(seven, request);
    const inProcess = wholeRunTally({
      ruleId: 'reserves',
      params,
      seed: 'threads',
      stream: 2,
      trials: TRIALS,
      chunks: 5,
    });
    expect(onOne.trials).toBe(TRIALS);
    expect(onTwo.trials).toBe(TRIALS);
    expect(Array.from(onTwo.tally)).toEqual(Array.from(onOne.tally));
    expect(Array.from(onSeven.tally)).toEqual(Array.from(onOne.tally));
    expect(Array.from(onOne.tally)).toEqual(Array.from(inProcess));
  });

  it(
    'seed "plans": fow on stream 3, two settings in turn, agrees on 1, 2 and 7 threads and in process (each ' +
      'worker keeps its own plans)',
    async () => {
      for (const set of [[], ['hit=6', 'guarantee=4', 'turns=12', 'attackerStart=4'], []]) {
        const fowParams = resolveParams(fow, set);
        const request = {
          rule: fow,
          params: fowParams,
          seed: 'plans',
          stream: 3 as const,
          confidence: 0.95,
          trials: TRIALS,
        };
        const inProcess = wholeRunTally({
          ruleId: 'fow',
          params: fowParams,
          seed: 'plans',
          stream: 3,
          trials: TRIALS,
          chunks: 5,
        });
        for (const pool of [one, two, seven])
          expect(Array.from((await simulate(pool, request)).tally), set.join(' ')).toEqual(Array.from(inProcess));
      }
    },
  );

  it('seed "adaptive": --precision stops at the same trial count with the same tally on 1 and 2 threads', async () => {
    const request = {
      rule: reserves,
      params,
      seed: 'adaptive',
      stream: 2 as const,
      confidence: 0.95,
      precision: 0.0007,
      maxTrials: 1e8,
    };
    const onOne = await simulate(one, request);
    const onTwo = await simulate(two, request);
    expect(onOne.precisionReached).toBe(true);
    // 0.0007 needs about 1.96²·¼/0.0007² ≈ 2.0M trials for a proportion near ½: more than the first batch of 1,048,576.
    expect(onOne.trials).toBeGreaterThan(16 * CHUNK_TRIALS);
    expect(onTwo.trials).toBe(onOne.trials);
    expect(Array.from(onTwo.tally)).toEqual(Array.from(onOne.tally));
  });

  it('--max-trials caps an adaptive run and says the precision was not reached', async () => {
    const capped = await simulate(one, {
      rule: reserves,
      params,
      seed: 'cap',
      stream: 2 as const,
      confidence: 0.95,
      precision: 0.00001,
      maxTrials: 100_000,
    });
    expect(capped.trials).toBe(100_000);
    expect(capped.precisionReached).toBe(false);
  });
});

describe('merging tallies', () => {
  it('seed "merge": chunks merged in any order give the tally of one pass', () => {
    const whole = wholeRunTally({ ruleId: 'reserves', params, seed: 'merge', stream: 2, trials: TRIALS, chunks: 5 });
    const parts = [0, 1, 2, 3, 4].map((chunk) =>
      runBuiltinChunks({
        ruleId: 'reserves',
        params,
        seed: 'merge',
        stream: 2,
        firstChunk: chunk,
        endChunk: chunk + 1,
        totalTrials: TRIALS,
      }),
    );
    for (const order of [
      [0, 1, 2, 3, 4],
      [4, 3, 2, 1, 0],
      [2, 4, 0, 3, 1],
    ]) {
      const merged = new Float64Array(whole.length);
      for (const index of order) mergeTally(merged, parts[index]);
      expect(Array.from(merged)).toEqual(Array.from(whole));
    }
  });

  it('task plans differ by thread count but cover the same chunks once each', () => {
    for (const threads of [1, 2, 7, 64]) {
      const ranges = planTasks(0, 100 * CHUNK_TRIALS + 5, threads);
      expect(ranges[0].first).toBe(0);
      for (let i = 1; i < ranges.length; i++) expect(ranges[i].first).toBe(ranges[i - 1].end);
      expect(ranges.at(-1)!.end).toBe(101);
      expect(ranges.reduce((sum, range) => sum + range.trials, 0)).toBe(100 * CHUNK_TRIALS + 5);
    }
  });
});

describe('random streams', () => {
  it('depend on stream, seed, rule and chunk, and on nothing else', () => {
    for (const stream of STREAM_VERSIONS) {
      const draw = (seed: string, rule: string, chunk: number, version = stream) => {
        const rng = chunkStream(seed, rule, chunk, version);
        return [rng(), rng(), rng()];
      };
      expect(draw('s', 'reserves', 3)).toEqual(draw('s', 'reserves', 3));
      expect(draw('s', 'reserves', 3)).not.toEqual(draw('s', 'reserves', 4));
      expect(draw('s', 'reserves', 3)).not.toEqual(draw('t', 'reserves', 3));
      expect(draw('s', 'reserves', 3)).not.toEqual(draw('s', 'infinity', 3));
      expect(draw('s', 'reserves', 3)).not.toEqual(draw('s', 'reserves', 3, stream === 1 ? 2 : 1));
    }
  });
});
