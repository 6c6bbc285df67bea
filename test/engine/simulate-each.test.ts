import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CHUNK_TRIALS } from '../../src/engine/chunks.js';
import { SimulationPool } from '../../src/engine/pool.js';
import { runChunks } from '../../src/engine/run-chunks.js';
import {
  planParts,
  simulateEach,
  simulateMany,
  TASK_TALLY_ENTRIES,
  type ManyRequest,
} from '../../src/engine/simulate-many.js';
import { getRule } from '../../src/rules/index.js';
import { resolveParams } from '../../src/rules/params.js';

/**
 * A sweep's memory: each run's tally exists from its first finished task to
 * its last, then goes to onOutcome and is let go. The observable is onHeld,
 * the count of tallies the call holds, reported at every change.
 */
describe('simulateEach: a run’s tally is held only while the run is under way', () => {
  let pool: SimulationPool;
  beforeAll(() => {
    pool = new SimulationPool(2);
  });
  afterAll(async () => {
    await pool.close();
  });

  const rule = getRule('reserves');
  // 40 runs of three chunks: 120 chunks cut into tasks of 8 (chunksPerTask(120, 2)), so runs straddle tasks.
  const list: ManyRequest[] = Array.from({ length: 40 }, (_, index) => ({
    rule,
    params: resolveParams(rule, [`command=${index % 5}`, `chosenRound=${index % 4}`]),
    seed: `each-${index}`,
    stream: 3,
    trials: 3 * CHUNK_TRIALS,
  }));

  it('seeds "each-0…39": 40 runs on two threads never hold more than 9 tallies, and none once done', async () => {
    const held: number[] = [];
    const finished: number[] = [];
    const left = await simulateEach(pool, list, {
      onHeld: (count) => held.push(count),
      onOutcome: (index) => finished.push(index),
    });
    // Bound: 4 tasks in flight (2 a thread). A run is held when some of its parts are back and some are
    // not; its parts are consecutive in the queue, which starts in order, so such a run either has a part
    // in a task in flight and reaches past that task's first or last part (2 a task: 8), or it straddles
    // the point up to which tasks have started (1). Holding every run from the start, as simulateMany
    // did, is 40.
    expect(Math.max(...held)).toBeLessThanOrEqual(9);
    expect(Math.max(...held)).toBeGreaterThan(0);
    expect(held.at(-1)).toBe(0);
    expect(left.size).toBe(0);
    expect(finished.slice().sort((a, b) => a - b)).toEqual(list.map((_, index) => index));
  });

  it('and each outcome it hands over is the run’s in-process tally, entry for entry', async () => {
    const outcomes = new Map<number, Float64Array>();
    await simulateEach(pool, list.slice(0, 6), {
      onOutcome: (index, outcome) => outcomes.set(index, outcome.tally.slice()),
    });
    for (const [index, request] of list.slice(0, 6).entries()) {
      const alone = runChunks({
        ruleId: rule.id,
        params: request.params,
        seed: request.seed,
        stream: 3,
        firstChunk: 0,
        endChunk: 3,
        totalTrials: request.trials,
      });
      expect(Array.from(outcomes.get(index)!)).toEqual(Array.from(alone));
    }
  });

  it(
    'aborted before it starts: every run comes back unfinished, with no trials, as simulateMany reports ' + 'it',
    async () => {
      const controller = new AbortController();
      controller.abort();
      const left = await simulateEach(pool, list.slice(0, 3), { signal: controller.signal });
      expect([...left.keys()]).toEqual([0, 1, 2]);
      for (const outcome of left.values())
        expect({
          partial: outcome.partial,
          trials: outcome.trials,
          sum: outcome.tally.reduce((a, b) => a + b, 0),
        }).toEqual({ partial: true, trials: 0, sum: 0 });
      const many = await simulateMany(pool, list.slice(0, 3), { signal: controller.signal });
      expect(many.map((outcome) => outcome.partial)).toEqual([true, true, true]);
    },
  );
});

describe('planParts: large tallies travel a few to a task', () => {
  it(
    'fast-check: no task of two or more parts sends back more than TASK_TALLY_ENTRIES entries; every chunk in one ' +
      'part',
    () => {
      fc.assert(
        fc.property(
          fc.array(
            fc.record({
              chunks: fc.integer({ min: 0, max: 40 }),
              tallyLength: fc.integer({ min: 1, max: 2 * TASK_TALLY_ENTRIES }),
            }),
            { minLength: 1, maxLength: 60 },
          ),
          fc.integer({ min: 1, max: 16 }),
          (runs, threads) => {
            const segments = runs.map(({ chunks }, index) => ({ index, first: 0, end: chunks }));
            const tasks = planParts(
              segments,
              runs.map(({ chunks, tallyLength }) => ({ trials: chunks * CHUNK_TRIALS, tallyLength })),
              threads,
            );
            const seen = runs.map(() => [] as number[]);
            for (const task of tasks) {
              const entries = task.reduce((sum, part) => sum + runs[part.index].tallyLength, 0);
              if (task.length > 1) expect(entries).toBeLessThanOrEqual(TASK_TALLY_ENTRIES);
              for (const { index, range } of task)
                for (let chunk = range.first; chunk < range.end; chunk++) seen[index].push(chunk);
            }
            seen.forEach((chunks, index) =>
              expect(chunks).toEqual(Array.from({ length: runs[index].chunks }, (_, k) => k)),
            );
          },
        ),
        { seed: 20261201, numRuns: 200 },
      );
    },
  );

  it(
    '100 one-chunk runs of 248,832-entry tallies (reserves at 11 squads): one to a task, where small ones go ' +
      'seven',
    () => {
      const segments = Array.from({ length: 100 }, (_, index) => ({ index, first: 0, end: 1 }));
      const tasks = planParts(
        segments,
        segments.map(() => ({ trials: CHUNK_TRIALS, tallyLength: 12 ** 5 })),
        2,
      );
      // ⌊2^18 / 248,832⌋ = 1 tally a task; of 61,051 entries, ⌊2^18 / 61,051⌋ = 4.
      expect(tasks.map((task) => task.length)).toEqual(Array.from({ length: 100 }, () => 1));
      const smaller = planParts(
        segments,
        segments.map(() => ({ trials: CHUNK_TRIALS, tallyLength: 61_051 })),
        2,
      );
      expect(smaller.map((task) => task.length)).toEqual(Array.from({ length: 25 }, () => 4));
    },
  );
});

describe('runChunks into a buffer a worker reuses', () => {
  it('seed "reuse": a buffer left full by an earlier task gives the tally a fresh one gives', () => {
    const rule = getRule('reserves');
    const params = resolveParams(rule);
    const task = {
      ruleId: rule.id,
      params,
      seed: 'reuse',
      stream: 3 as const,
      firstChunk: 0,
      endChunk: 1,
      totalTrials: 5_000,
    };
    const used = new Float64Array(rule.tallyLength(params)).fill(7);
    const fresh = runChunks(task, rule);
    const reused = runChunks(task, rule, undefined, used);
    expect(reused).toBe(used);
    expect(Array.from(reused)).toEqual(Array.from(fresh));
    // A buffer of another length is not used.
    expect(runChunks(task, rule, undefined, new Float64Array(3))).toHaveLength(fresh.length);
  });
});
