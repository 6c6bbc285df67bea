import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHUNK_TRIALS, planTasks } from '../../src/engine/chunks.js';
import { IN_PROCESS_CHUNKS, SimulationPool, WorkerError } from '../../src/engine/pool.js';
import type { ChunkTask } from '../../src/engine/run-chunks.js';
import { simulate } from '../../src/engine/simulate.js';
import { type ManyRequest, planParts, simulateMany } from '../../src/engine/simulate-many.js';
import { getRule, runBuiltinChunks } from '../../src/rules/index.js';
import { resolveParams } from '../../src/rules/params.js';
import { poolForSuite } from '../support/pool.js';
import { wholeRunTally } from '../support/whole-run.js';

/** Every rule, with runs of different sizes and seeds: one chunk, a short one, several, none. */
function requests(): ManyRequest[] {
  const list: ManyRequest[] = [];
  const sizes = [CHUNK_TRIALS, 1_000, 3 * CHUNK_TRIALS + 17, 0, 2 * CHUNK_TRIALS];
  let n = 0;
  for (const id of ['reserves', 'deployment', 'infinity', 'noctvale', 'warbands', 'fow']) {
    const rule = getRule(id);
    for (const trials of sizes)
      list.push({ rule, params: resolveParams(rule), seed: `many-${n % 3}`, stream: n++ % 2 === 0 ? 2 : 1, trials });
  }
  return list;
}

/** The tally of a whole run computed in this thread, chunk range by chunk range as no pool would split it. */
function inProcess(request: ManyRequest): number[] {
  const end = Math.ceil(request.trials / CHUNK_TRIALS);
  return Array.from(
    wholeRunTally({
      ruleId: request.rule.id,
      params: request.params,
      seed: request.seed,
      stream: request.stream,
      trials: request.trials,
      chunks: end,
    }),
  );
}

describe('simulateMany: many runs at once, each exactly as alone', () => {
  let two: SimulationPool;
  poolForSuite(2, (made) => {
    two = made;
  });

  it(
    'seeds "many-0/1/2": 30 runs of every rule, on both streams, interleaved on two threads give each run’s ' +
      'in-process tally, entry for entry',
    async () => {
      const list = requests();
      const finished: number[] = [];
      const outcomes = await simulateMany(two, list, { onOutcome: (index) => finished.push(index) });
      expect(two.started).toBe(true);
      expect(finished.slice().sort((a, b) => a - b)).toEqual(list.map((_, index) => index));
      outcomes.forEach((outcome, index) => {
        expect({ index, partial: outcome.partial, trials: outcome.trials }).toEqual({
          index,
          partial: false,
          trials: list[index].trials,
        });
        expect({ index, tally: Array.from(outcome.tally) }).toEqual({ index, tally: inProcess(list[index]) });
      });
    },
  );

  it('and what simulate gives for the same request on the same pool', async () => {
    const list = requests()
      .filter((request) => request.trials > 0)
      .slice(0, 8);
    const many = await simulateMany(two, list);
    for (const [index, request] of list.entries()) {
      const alone = await simulate(two, { ...request, confidence: 0.95 });
      expect(Array.from(many[index].tally)).toEqual(Array.from(alone.tally));
    }
  });

  it(
    'seed "piece": runs of chunks [first, end) only (a shard’s pieces) count those chunks, as runChunks does over ' +
      'the same range',
    async () => {
      const rule = getRule('warbands');
      const params = resolveParams(rule);
      const trials = 5 * CHUNK_TRIALS + 99;
      const pieces = [
        { first: 0, end: 1 },
        { first: 1, end: 4 },
        { first: 4, end: 6 },
      ];
      const outcomes = await simulateMany(
        two,
        pieces.map((chunks) => ({ rule, params, seed: 'piece', stream: 2, trials, chunks })),
      );
      pieces.forEach((chunks, i) => {
        const alone = runBuiltinChunks({
          ruleId: rule.id,
          params,
          seed: 'piece',
          stream: 2,
          firstChunk: chunks.first,
          endChunk: chunks.end,
          totalTrials: trials,
        });
        expect({ i, partial: outcomes[i].partial, trials: outcomes[i].trials }).toEqual({
          i,
          partial: false,
          trials: Math.min(chunks.end * CHUNK_TRIALS, trials) - chunks.first * CHUNK_TRIALS,
        });
        expect(Array.from(outcomes[i].tally)).toEqual(Array.from(alone));
      });
    },
  );

  it('aborted before it starts: every run partial, none reported finished, no trials counted', async () => {
    const controller = new AbortController();
    controller.abort();
    const reported: number[] = [];
    const outcomes = await simulateMany(two, requests().slice(0, 5), {
      signal: controller.signal,
      onOutcome: (index) => reported.push(index),
    });
    // The one zero-trial run needs no task, so it is finished at once.
    expect(reported).toEqual([3]);
    expect(outcomes.filter((outcome) => outcome.partial)).toHaveLength(4);
    expect(outcomes.reduce((sum, outcome) => sum + outcome.trials, 0)).toBe(0);
  });
});

describe('a run of a few chunks does not start the pool', () => {
  it(
    `seed "small": ${IN_PROCESS_CHUNKS} chunks run in this thread with the tally the workers give; one more ` +
      `starts them`,
    async () => {
      const rule = getRule('fow');
      const params = resolveParams(rule);
      const trials = IN_PROCESS_CHUNKS * CHUNK_TRIALS - 5;
      const fresh = new SimulationPool(2);
      const started = new SimulationPool(2);
      try {
        const here = await simulate(fresh, { rule, params, seed: 'small', stream: 2, confidence: 0.95, trials });
        expect(fresh.started).toBe(false);
        // Start the other pool's workers first, so the same run goes to them.
        await simulate(started, {
          rule,
          params,
          seed: 'warm',
          stream: 2,
          confidence: 0.95,
          trials: (IN_PROCESS_CHUNKS + 1) * CHUNK_TRIALS,
        });
        expect(started.started).toBe(true);
        const onWorkers = await simulate(started, { rule, params, seed: 'small', stream: 2, confidence: 0.95, trials });
        expect(here.trials).toBe(trials);
        expect(Array.from(here.tally)).toEqual(Array.from(onWorkers.tally));
        const many = await simulateMany(fresh, [{ rule, params, seed: 'small', stream: 2, trials }]);
        expect(fresh.started).toBe(false);
        expect(Array.from(many[0].tally)).toEqual(Array.from(here.tally));
      } finally {
        await fresh.close();
        await started.close();
      }
    },
  );
});

describe('simulateMany with a failing worker', () => {
  const FIXTURE = fileURLToPath(new URL('../fixtures/faulty-worker.mjs', import.meta.url));
  const rule = getRule('reserves');
  const params = resolveParams(rule);
  // Four chunks a run, two runs: eight chunks on one thread are eight tasks of one chunk, so the failing chunk is named
  // alone.
  const runs = (seed: string): ManyRequest[] =>
    [0, 1].map(() => ({ rule, params, seed, stream: 2, trials: 4 * CHUNK_TRIALS }));

  it('seed "throw": a task that throws fails the whole call with a WorkerError naming the chunk', async () => {
    const pool = new SimulationPool(1, FIXTURE);
    try {
      await expect(simulateMany(pool, runs('throw'))).rejects.toThrow(
        /^reserves: the simulation failed in chunk 2 \(boom\); this is a bug, nothing was written$/,
      );
    } finally {
      await pool.close();
    }
  });

  it('seed "hang", timeout 1 s: the watchdog fails the call naming the chunk still running', async () => {
    const pool = new SimulationPool(1, FIXTURE);
    try {
      const failure = simulateMany(pool, runs('hang'), { timeout: 1 });
      await expect(failure).rejects.toBeInstanceOf(WorkerError);
      await expect(failure).rejects.toThrow(
        /^reserves: no chunk finished within --timeout 1 s \(chunk 1 still running\); nothing was written$/,
      );
    } finally {
      await pool.close();
    }
  });

  it(
    'seed "throw0" in one of 20 one-chunk runs sent three to a message: the part that threw is named, not its ' +
      'batch',
    async () => {
      const pool = new SimulationPool(1, FIXTURE);
      try {
        const list: ManyRequest[] = Array.from({ length: 20 }, (_, index) => ({
          rule,
          params,
          seed: index === 7 ? 'throw0' : `fine-${index}`,
          stream: 2,
          trials: CHUNK_TRIALS,
        }));
        await expect(simulateMany(pool, list)).rejects.toThrow(
          /^reserves: the simulation failed in chunk 0 \(boom\); this is a bug, nothing was written$/,
        );
      } finally {
        await pool.close();
      }
    },
  );

  it('a replaced worker gets even a run of one chunk (never computed in this thread)', async () => {
    const pool = new SimulationPool(1, FIXTURE);
    try {
      await expect(
        simulateMany(pool, [{ rule, params, seed: 'exit', stream: 2, trials: 2 * CHUNK_TRIALS }]),
      ).rejects.toBeInstanceOf(WorkerError);
      expect(pool.started).toBe(true);
    } finally {
      await pool.close();
    }
  });
});

describe('planParts: how the runs are cut into tasks', () => {
  const segmentsOf = (chunks: number[]) => chunks.map((count, index) => ({ index, first: 0, end: count }));
  const requestsOf = (chunks: number[]) => chunks.map((count) => ({ trials: count * CHUNK_TRIALS }));

  it(
    'fast-check: every chunk of every run in exactly one part, in order, no task above the size, a lone run cut ' +
      'as planTasks cuts it',
    () => {
      fc.assert(
        fc.property(
          fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 1, maxLength: 40 }),
          fc.integer({ min: 1, max: 64 }),
          (chunks, threads) => {
            const tasks = planParts(segmentsOf(chunks), requestsOf(chunks), threads);
            const total = chunks.reduce((a, b) => a + b, 0);
            // The size planTasks gives one run of `total` chunks, written out again from its rule.
            const size =
              total === 0 ? 0 : Math.ceil(total / Math.min(total, Math.max(threads * 8, Math.ceil(total / 16))));
            const seen = chunks.map(() => [] as number[]);
            for (const task of tasks) {
              expect(task.length).toBeGreaterThan(0);
              expect(task.reduce((sum, part) => sum + part.range.end - part.range.first, 0)).toBeLessThanOrEqual(size);
              for (const { index, range } of task) {
                expect(range.trials).toBe((range.end - range.first) * CHUNK_TRIALS);
                for (let chunk = range.first; chunk < range.end; chunk++) seen[index].push(chunk);
              }
            }
            seen.forEach((list, index) => expect(list).toEqual(Array.from({ length: chunks[index] }, (_, k) => k)));
            if (chunks.length === 1 && total > 0) {
              expect(tasks.map((task) => task[0].range)).toEqual(planTasks(0, total * CHUNK_TRIALS, threads));
            }
          },
        ),
        { seed: 20261130, numRuns: 300 },
      );
    },
  );

  it(
    '100 runs of one chunk on two threads: 15 tasks of at most 7 runs, as one run of 100 chunks is 15 tasks of at ' +
      'most 7 chunks',
    () => {
      const chunks = Array.from({ length: 100 }, () => 1);
      const tasks = planParts(segmentsOf(chunks), requestsOf(chunks), 2);
      expect(tasks.map((task) => task.length)).toEqual([...Array.from({ length: 14 }, () => 7), 2]);
      expect(planTasks(0, 100 * CHUNK_TRIALS, 2).map((range) => range.end - range.first)).toEqual([
        ...Array.from({ length: 14 }, () => 7),
        2,
      ]);
    },
  );
});

describe('a pool started ahead of its command', () => {
  it(
    'take hands over the prestarted pool of the same size, started; another size gets a fresh pool; an unclaimed ' +
      'one is dropped',
    async () => {
      SimulationPool.prestart(2);
      const taken = SimulationPool.take(2);
      expect(taken.started).toBe(true);
      expect(SimulationPool.take(2).started).toBe(false); // claimed once only
      SimulationPool.prestart(2);
      const other = SimulationPool.take(1);
      expect({ threads: other.threads, started: other.started }).toEqual({ threads: 1, started: false });
      SimulationPool.prestart(1);
      await SimulationPool.dropPrestarted();
      expect(SimulationPool.take(1).started).toBe(false);
      // The prestarted pool computes what any pool computes.
      const rule = getRule('noctvale');
      const params = resolveParams(rule);
      const [outcome] = await simulateMany(taken, [
        { rule, params, seed: 'early', stream: 2, trials: 6 * CHUNK_TRIALS },
      ]);
      expect(Array.from(outcome.tally)).toEqual(
        Array.from(
          wholeRunTally({ ruleId: rule.id, params, seed: 'early', stream: 2, trials: 6 * CHUNK_TRIALS, chunks: 6 }),
        ),
      );
      await taken.close();
    },
  );
});

describe('simulateMany tells the workers the longest tally of its runs', () => {
  /** A pool that notes every task it sends. */
  class NotingPool extends SimulationPool {
    readonly sent: ChunkTask[] = [];
    override runBatch(parts: readonly ChunkTask[], signal?: AbortSignal) {
      this.sent.push(...parts);
      return super.runBatch(parts, signal);
    }
  }

  it('seed "room": reserves at 3, 9 and 11 squads: every task says 12^5, the outcome codes of 11 squads', async () => {
    const pool = new NotingPool(2);
    try {
      const rule = getRule('reserves');
      // (S+1)^(R+1) outcome codes at 4 rounds: 4^5, 10^5 and 12^5 entries.
      const list = [3, 9, 11].map((squads) => ({
        rule,
        params: resolveParams(rule, [`squads=${squads}`]),
        seed: 'room',
        stream: 5 as const,
        trials: 2 * CHUNK_TRIALS,
      }));
      const outcomes = await simulateMany(pool, list, { timeout: 60 });
      expect(pool.sent.length).toBeGreaterThan(0);
      expect(new Set(pool.sent.map((task) => task.tallyRoom))).toEqual(new Set([12 ** 5]));
      expect(outcomes.map((outcome) => outcome.tally.length)).toEqual([4 ** 5, 10 ** 5, 12 ** 5]);
      for (const [index, request] of list.entries())
        expect(Array.from(outcomes[index].tally)).toEqual(inProcess(request));
    } finally {
      await pool.close();
    }
  });
});
