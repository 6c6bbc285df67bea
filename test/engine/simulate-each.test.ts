import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHUNK_TRIALS } from '../../src/engine/chunks.js';
import type { SimulationPool } from '../../src/engine/pool.js';
import { runChunks } from '../../src/engine/run-chunks.js';
import {
  type ManyRequest,
  planParts,
  simulateEach,
  simulateMany,
  TASK_TALLY_ENTRIES,
} from '../../src/engine/simulate-many.js';
import { getRule } from '../../src/rules/index.js';
import { resolveParams } from '../../src/rules/params.js';
import { poolForSuite } from '../support/pool.js';
import { wholeRunTally } from '../support/whole-run.js';

/**
 * A sweep's memory: each run's tally exists from its first finished task to
 * its last, then goes to onOutcome and is let go. The observable is onHeld,
 * the count of tallies the call holds, reported at every change.
 */
describe('simulateEach: a run’s tally is held only while the run is under way', () => {
  let pool: SimulationPool;
  poolForSuite(2, (made) => {
    pool = made;
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
      const alone = wholeRunTally({
        ruleId: rule.id,
        params: request.params,
        seed: request.seed,
        stream: 3,
        trials: request.trials,
        chunks: 3,
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

/**
 * The tally onOutcome is given is lent: a later run of the same length adds
 * into the same buffer, zeroed, instead of allocating its own (reserves at 11
 * squads: 2 MB a point). The observable is the buffers handed over, counted
 * by identity, and each run's tally against the in-process one.
 */
describe('simulateEach: finished runs’ tallies are reused, zeroed, by the runs after them', () => {
  let pool: SimulationPool;
  poolForSuite(2, (made) => {
    pool = made;
  });

  const rule = getRule('reserves');
  const inProcess = (request: ManyRequest) =>
    wholeRunTally({
      ruleId: rule.id,
      params: request.params,
      seed: request.seed,
      stream: request.stream,
      trials: request.trials,
    });
  /** The tally's bytes, compared at once (whole counts: the same bytes are the same numbers). */
  const bytes = (tally: Float64Array) => Buffer.from(tally.buffer, tally.byteOffset, tally.byteLength);

  it('seeds "lent-0…19": 20 one-chunk runs at 11 squads add into one buffer, each its in-process tally', async () => {
    const list: ManyRequest[] = Array.from({ length: 20 }, (_, index) => ({
      rule,
      params: resolveParams(rule, ['squads=11', `command=${index % 5}`]),
      seed: `lent-${index}`,
      stream: 3,
      trials: CHUNK_TRIALS,
    }));
    const buffers = new Set<ArrayBufferLike>();
    const tallies = new Map<number, Float64Array>();
    await simulateEach(pool, list, {
      onOutcome: (index, outcome) => {
        buffers.add(outcome.tally.buffer);
        tallies.set(index, outcome.tally.slice());
      },
    });
    // Each task is one run (248,832 entries: planParts' test above), sent packed (at most 1,365 of its
    // codes can happen), so each run is begun and finished by the same task's answer: one buffer serves
    // all 20. Allocating a tally a run, as before, hands over 20.
    expect(buffers.size).toBe(1);
    for (const [index, request] of list.entries())
      expect(bytes(tallies.get(index)!).equals(bytes(inProcess(request))), `run ${index}`).toBe(true);
  });

  it(
    'seed "lengths": runs of 1 to 16 squads in turn (tallies of 3 to 248,832 entries, packed and not, written ' +
      'into views of a worker’s longer buffer) each give the in-process tally',
    async () => {
      const squads = [11, 3, 12, 5, 11, 1, 16, 9, 11, 4, 15, 2];
      const list: ManyRequest[] = squads.flatMap((count, index) =>
        [0, 4].map((command) => ({
          rule,
          params: resolveParams(rule, [`squads=${count}`, `command=${command}`]),
          seed: 'lengths',
          stream: 3 as const,
          trials: index % 3 === 0 ? 2 * CHUNK_TRIALS + 5 : 1_000,
        })),
      );
      const tallies = new Map<number, Float64Array>();
      await simulateEach(pool, list, { onOutcome: (index, outcome) => tallies.set(index, outcome.tally.slice()) });
      for (const [index, request] of list.entries()) {
        const alone = inProcess(request);
        expect(tallies.get(index)!.length, `run ${index}`).toBe(alone.length);
        expect(bytes(tallies.get(index)!).equals(bytes(alone)), `run ${index}`).toBe(true);
      }
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
    const used = new Float64Array(rule.tally.length(params)).fill(7);
    const fresh = runChunks(task, rule);
    const reused = runChunks(task, rule, undefined, used);
    expect(reused).toBe(used);
    expect(Array.from(reused)).toEqual(Array.from(fresh));
    // A buffer of another length is not used.
    expect(runChunks(task, rule, undefined, new Float64Array(3))).toHaveLength(fresh.length);
  });
});
