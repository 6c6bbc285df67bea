/**
 * How every grid command (sweep, balance, compare, matrix) and every shard
 * (muster shard, a grid's --shard run) evaluates, written once: say that a
 * run resumes, then evaluate on the pool under Ctrl-C with a progress bar.
 *
 *   evaluateOnPool: say a resumed run (when asked) ─► take the pool (started by the first task) ─► bar
 *                   ─► withInterrupt(evaluate(hooks)) ─► always: save the checkpoint, finish the bar, close the pool
 */
import { defaultThreads, SimulationPool } from '../../engine/pool.js';
import { formatCount } from '../../output/format.js';
import { withInterrupt } from '../../output/interrupt.js';
import type { Io } from '../../output/io.js';
import { terminalLine } from '../../output/terminal.js';
import { ProgressBar } from '../progress.js';

/** How one grid command's evaluation runs. */
export interface GridRun {
  simulating: boolean;
  threads: number;
  /** Trials over every point: the bar's total while simulating. */
  totalTrials: number;
  /** What the bar counts when the command solves exactly (points or variants, told by onPoint). */
  exactUnit?: string;
  /** Trials a checkpoint already holds, left out of the bar's rate. */
  already?: number;
  quiet?: boolean;
  /** Saved however the evaluation ends. */
  checkpoint?: { save(): void; readonly path: string };
  /**
   * Whether a resumed run says so on stderr before the evaluation (when the checkpoint holds trials, `already`, and
   * not quiet): "resuming from PATH: N of TOTAL trials already done", or with `own` (a shard, whose total is only its
   * share) "resuming from PATH: N trials already done".
   */
  resumeLine?: 'of total' | 'own';
}

/** What the evaluation is handed: the pool (its threads start with its first task), the Ctrl-C signal and the bar's two hooks. */
export interface GridHooks {
  pool: SimulationPool | undefined;
  signal: AbortSignal;
  onTrials: (done: number) => void;
  onPoint: (done: number, total: number) => void;
}

/** Runs `evaluate` as a grid command does (see the file's header) and returns what it returns. */
export async function evaluateOnPool<T>(run: GridRun, io: Io, evaluate: (hooks: GridHooks) => Promise<T>): Promise<T> {
  sayResumed(run, io);
  // Solving exactly, a grid's long tail goes to the threads (analysis/exact-grid.ts); one that never does starts none.
  const pool = run.simulating ? SimulationPool.take(run.threads) : new SimulationPool(defaultThreads());
  const progress = new ProgressBar(io.err, io.errIsTTY && !run.quiet, undefined, {
    unit: run.simulating ? 'trials' : run.exactUnit,
    already: run.already,
  });
  try {
    return await withInterrupt((signal) =>
      evaluate({
        pool,
        signal,
        onTrials: (done) => progress.update(done, run.totalTrials),
        onPoint: (done, total) => {
          if (!run.simulating) progress.update(done, total);
        },
      }),
    );
  } finally {
    run.checkpoint?.save();
    progress.finish();
    await pool?.close();
  }
}

/** The resumed run's line (GridRun.resumeLine). */
function sayResumed(run: GridRun, io: Io): void {
  const already = run.already ?? 0;
  if (!run.resumeLine || !run.checkpoint || already <= 0 || run.quiet) return;
  const of = run.resumeLine === 'own' ? '' : ` of ${formatCount(run.totalTrials)}`;
  io.err(`resuming from ${terminalLine(run.checkpoint.path)}: ${formatCount(already)}${of} trials already done\n`);
}
