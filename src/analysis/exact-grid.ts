/**
 * A grid's exact points (a sweep's, a comparison's, a balance's) solved by a command: on its own thread while
 * that is quick, the long tail on the pool's threads.
 *
 *   solveExactGrid ─► solveUntilInterrupted (this thread) ─► until handOffMs solved and worthMs to come
 *                  ─► the rest in batches of about batchMs on the pool (exact-points-task.ts), every thread busy
 *
 * A point is solved by the same function wherever it runs (solve-point.ts), so the grid is the same point for
 * point, fraction for fraction, as solved on one thread; an error is that of the first point (in grid order) that
 * failed, as on one thread. A grid that is over in a moment never starts the pool: its threads' start (about
 * 100 ms, and each thread imports the rule file again) would cost more than they save. `times` (HandOffTimes)
 * are the defaults but in tests.
 */

import type { Params, Rule } from '../contract/types.js';
import type { SimulationPool } from '../engine/pool.js';
import { isLoadedRuleFile } from '../rule-files/load.js';
import { rules } from '../rules/index.js';
import type { Evaluated, EvaluateOptions, GridSettings } from './evaluate-types.js';
import { type ExactPointsAnswer, exactPointsTask, readExactPoints } from './exact-points-task.js';
import { solveUntilInterrupted } from './solve-points.js';

/** When a grid moves to the pool's threads. */
export interface HandOffTimes {
  /** Solving on this thread for this long first: long enough to know what a point costs. */
  handOffMs: number;
  /** The least work the rest must hold, by that measure, to be worth the threads' start. */
  worthMs: number;
  /** About how long a batch of points takes on a thread: a message each this often, not one a point. */
  batchMs: number;
}

const HAND_OFF: HandOffTimes = { handOffMs: 250, worthMs: 2000, batchMs: 50 };

/** Every point solved (see the file's header), or the points solved when `options.signal` stopped it. */
export async function solveExactGrid(
  rule: Rule,
  paramsList: readonly Params[],
  settings: Extract<GridSettings, { method: 'exact' }>,
  options: EvaluateOptions,
  times: HandOffTimes = HAND_OFF,
): Promise<{ evaluated: Evaluated[]; interrupted: boolean; indices: number[] }> {
  const { pool } = options;
  const ruleOf = (index: number) => options.rules?.[index] ?? rule;
  // A thread finds a built-in by its id and a rule file by its path and hash; any other rule (one wrapped since it
  // was loaded, such as with a distribution's tails as metrics) stays here.
  const travels = (index: number) => rules.includes(ruleOf(index)) || isLoadedRuleFile(ruleOf(index));
  const movable = pool !== undefined && pool.threads >= 2 && paramsList.every((_, index) => travels(index));
  // --timeout watches a rule file's calls on this thread (the CLI's supervisor), so those stay here when it is given.
  const watched = settings.timeout !== undefined && paramsList.some((_, index) => ruleOf(index).file !== undefined);
  let cost = 0;
  const here = await solveUntilInterrupted(rule, paramsList, settings, {
    ...options,
    handOff:
      movable && !watched
        ? (solved, elapsed) => {
            cost = elapsed / solved;
            return elapsed >= times.handOffMs && cost * (paramsList.length - solved) >= times.worthMs;
          }
        : undefined,
  });
  if (here.next === paramsList.length || options.signal?.aborted || !pool) return here;
  const points: Array<Evaluated | undefined> = paramsList.map((_, index) => here.evaluated[index]);
  await solveOnPool(
    pool,
    here.next,
    Math.max(1, Math.round(times.batchMs / Math.max(cost, 1e-3))),
    points,
    (index) => ({
      rule: ruleOf(index),
      params: paramsList[index],
      seed: options.seeds?.[index] ?? settings.seed,
    }),
    options,
  );
  const indices = points.flatMap((point, index) => (point ? [index] : []));
  return {
    evaluated: indices.map((index) => points[index] as Evaluated),
    interrupted: indices.length < paramsList.length,
    indices,
  };
}

/**
 * The points from `from` on solved on the pool, `size` a batch, into `points`. The batches start in grid order, one
 * a thread at a time (a lane takes the next batch as its last ends), so every thread is busy until the last and the
 * points solved are those a thread reached first, as on one thread: sent all at once, the pool ran them out of order,
 * and a later point whose rule loops could hold every thread while the point that fails before it waited. After an
 * interruption the points solved are kept; after a failure, the batches past it are stopped (a thread inside one is
 * ended) and none is started, those before it finish, and the error of the first point that failed is thrown.
 */
async function solveOnPool(
  pool: SimulationPool,
  from: number,
  size: number,
  points: Array<Evaluated | undefined>,
  pointOf: (index: number) => { rule: Rule; params: Params; seed: string },
  options: EvaluateOptions,
): Promise<void> {
  const total = points.length;
  // At least four batches a thread, so that threads finishing early find work while the slowest batch ends.
  const batchSize = Math.min(size, Math.ceil((total - from) / (pool.threads * 4)));
  const batches: Array<{ first: number; end: number; stop: AbortController }> = [];
  for (let first = from; first < total; first += batchSize)
    batches.push({ first, end: Math.min(first + batchSize, total), stop: new AbortController() });
  let solved = from;
  // The first point that failed so far: no batch past it is started, and those running are stopped.
  let failedAt = Number.POSITIVE_INFINITY;
  const failures: Array<{ index: number; error: unknown }> = [];
  const failAt = (index: number, error: unknown) => {
    failures.push({ index, error });
    failedAt = Math.min(failedAt, index);
    for (const batch of batches) if (batch.first > index) batch.stop.abort();
  };
  const stopAll = () => {
    for (const batch of batches) batch.stop.abort();
  };
  options.signal?.addEventListener('abort', stopAll, { once: true });
  const shape = {
    resultsOnly: options.resultsOnly ?? false,
    bestPlay: options.bestPlay ?? true,
    withoutDistributions: options.withoutDistributions,
  };
  const runBatch = async ({ first, end, stop }: (typeof batches)[number]): Promise<void> => {
    const these = Array.from({ length: end - first }, (_, offset) => pointOf(first + offset));
    let answer: ExactPointsAnswer;
    try {
      answer = (await pool.runOther(
        exactPointsTask(these, first, shape),
        {
          rule: these[0].rule.id,
          work: end - first === 1 ? `point ${first + 1}` : `points ${first + 1}–${end}`,
          ruleFile: these.some((point) => point.rule.file !== undefined),
        },
        stop.signal,
      )) as ExactPointsAnswer;
    } catch (error) {
      // Stopped: by the caller's signal, or because a point before these failed.
      if (stop.signal.aborted) return;
      return failAt(first, error);
    }
    const { evaluated, error } = readExactPoints(
      answer,
      these.map((point) => point.params),
    );
    for (const [offset, point] of evaluated.entries()) points[first + offset] = point;
    solved += evaluated.length;
    options.onPoint?.(solved, total);
    if (error) failAt(first + evaluated.length, error);
  };
  let next = 0;
  const lane = async (): Promise<void> => {
    for (;;) {
      const batch = batches[next];
      if (batch === undefined || batch.stop.signal.aborted || batch.first > failedAt) return;
      next++;
      await runBatch(batch);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(pool.threads, batches.length) }, lane));
  } finally {
    options.signal?.removeEventListener('abort', stopAll);
  }
  if (failures.length > 0) throw failures.reduce((a, b) => (b.index < a.index ? b : a)).error;
}
