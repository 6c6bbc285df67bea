/**
 * What the grid commands (sweep, balance, compare) did in the same words,
 * written once: hand a --shard run to runGridShard. Every grid command
 * evaluates on evaluateOnPool (grid-pool.ts, exported here too).
 *
 *   shardOfGrid: resolve the shard's place ─► the command's job ─► runGridShard (grid-shard.ts, loaded then)
 */
import type { GridAnalysis, GridArgs, RecordedFile } from '../../analysis/grid.js';
import type { Rule } from '../../contract/types.js';
import type { Io } from '../../output/io.js';
import { resolveShard, type ShardPlace } from '../../shards/scheduler.js';
import type { GridShardFile, GridShardOptions } from './grid-shard.js';

// The shards import it from grid-pool.ts, as grid-run.ts loads grid-shard.ts: an import cycle otherwise.
export { evaluateOnPool } from './grid-pool.js';

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
