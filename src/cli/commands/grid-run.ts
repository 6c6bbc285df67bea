/**
 * What every grid command (sweep, balance, compare, matrix) did in the same
 * words, written once: evaluate on the pool under Ctrl-C with a progress
 * bar, and (sweep, balance, compare) hand a --shard run to runGridShard.
 *
 *   evaluateOnPool: take the pool (when simulating) ─► bar ─► withInterrupt(evaluate(hooks))
 *                   ─► always: save the checkpoint, finish the bar, close the pool
 *   shardOfGrid:    resolve the shard's place ─► the command's job ─► runGridShard (grid-shard.ts, loaded then)
 */
import type { GridAnalysis, GridArgs, RecordedFile } from '../../analysis/grid.js';
import type { Rule } from '../../contract/types.js';
import { SimulationPool } from '../../engine/pool.js';
import { withInterrupt } from '../../output/interrupt.js';
import type { Io } from '../../output/io.js';
import { resolveShard, type ShardPlace } from '../../shards/scheduler.js';
import { ProgressBar } from '../progress.js';
import type { GridShardFile, GridShardOptions } from './grid-shard.js';

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
  checkpoint?: { save(): void };
}

/** What the evaluation is handed: the pool (when simulating), the Ctrl-C signal and the bar's two hooks. */
export interface GridHooks {
  pool: SimulationPool | undefined;
  signal: AbortSignal;
  onTrials: (done: number) => void;
  onPoint: (done: number, total: number) => void;
}

/** Runs `evaluate` as a grid command does (see the file's header) and returns what it returns. */
export async function evaluateOnPool<T>(run: GridRun, io: Io, evaluate: (hooks: GridHooks) => Promise<T>): Promise<T> {
  const pool = run.simulating ? SimulationPool.take(run.threads) : undefined;
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

/** The rule file a one-rule grid records, by its hash, so that merge loads the very file the shards ran. */
export function recordedRuleFile(rule: Rule): RecordedFile[] {
  return rule.file ? [{ ref: '', path: rule.file.path, sha256: rule.file.sha256 }] : [];
}

/**
 * A grid command's --shard run: its place resolved first (so a bad --shard is the error named), then the
 * command's `job` (its own checks, the args and rule files to record), then this shard's points run.
 */
export async function shardOfGrid<Plan>(
  analysis: GridAnalysis<Plan, unknown>,
  options: GridShardOptions & { shard?: string; shards?: string },
  io: Io,
  env: NodeJS.ProcessEnv,
  job: () => { plan: Plan; args: GridArgs; ruleFiles: RecordedFile[] },
): Promise<GridShardFile> {
  const place = resolveShard(options.shard, options.shards, env, true) as ShardPlace;
  const { plan, args, ruleFiles } = job();
  const { runGridShard } = await import('./grid-shard.js');
  return runGridShard(analysis, analysis.job(plan, args, ruleFiles), place, options, io);
}
