/** `--checkpoint FILE` and `--checkpoint-every SECONDS`, shared by run, shard and sweep. */

import type { Rule, StreamVersion } from '../contract/types.js';
import { Checkpoint, type CheckpointJob, type PointLimits } from '../engine/checkpoint.js';
import { chunkCount, chunkTrials } from '../engine/chunks.js';
import { UsageError } from '../errors.js';
import { checkDistinct, checkOutputFile } from '../output/files.js';
import { fillIndex, type ShardPlace } from '../shards/scheduler.js';
import { checkOutputNames } from './output-names.js';

export interface CheckpointOptions {
  checkpoint?: string;
  checkpointEvery?: string;
}

/** Seconds between checkpoint writes when --checkpoint-every is not given. */
const DEFAULT_CHECKPOINT_SECONDS = 5;

/**
 * A checkpoint job's stream field: absent for stream 1, as every checkpoint
 * written before streams were recorded is, so those still resume (with
 * --stream 1); present for any other, so no run resumes on another stream.
 */
export function streamOfJob(stream: StreamVersion | null): { stream?: StreamVersion } {
  return stream === 1 || stream === null ? {} : { stream };
}

/**
 * A checkpoint job's rule: its id, and for a rule file the sha256 it is
 * known by, so a checkpoint never resumes with a rule file (or a file it
 * imports) that changed since it was saved.
 */
export function ruleOfJob(rule: Rule): { rule: string; ruleSha256?: string } {
  return rule.file ? { rule: rule.id, ruleSha256: rule.file.sha256 } : { rule: rule.id };
}

/** The command's other outputs and its inputs, which the checkpoint (an output written as the run goes) must not be. */
interface CheckpointNeighbours {
  outputs: ReadonlyArray<{ option: string; path: string | undefined }>;
  inputs: ReadonlyArray<{ name: string; path: string }>;
}

/**
 * Opens the checkpoint the options ask for (checking a saved one against
 * `job`), or undefined without --checkpoint. For a shard, `{index}` in the
 * name becomes the shard index, as in --out. The path is checked as every
 * output is (a regular file or a new one, in a folder that can be written),
 * and refused when it is the same file as another output of the command or
 * one of its inputs (the rule file), however spelled or linked. A checkpoint
 * reached through a symlink is written through it: the link is kept and the
 * file it points to replaced, as for every output.
 */
export function openCheckpoint(
  options: CheckpointOptions,
  job: CheckpointJob,
  limits: (point: number) => PointLimits | undefined,
  place: ShardPlace | null,
  neighbours: CheckpointNeighbours,
): Checkpoint | undefined {
  const seconds = parseSeconds(options.checkpointEvery);
  if (options.checkpoint === undefined) {
    if (options.checkpointEvery !== undefined)
      throw new UsageError(
        '--checkpoint-every: only with --checkpoint; allowed: --checkpoint FILE --checkpoint-every SECONDS',
      );
    return undefined;
  }
  const path = checkOutputFile('--checkpoint', fillIndex(options.checkpoint, place, '--checkpoint'));
  checkDistinct([...neighbours.outputs, { option: '--checkpoint', path }], neighbours.inputs);
  checkOutputNames([{ option: '--checkpoint', path: options.checkpoint, format: 'json' }]);
  return Checkpoint.open(path, job, limits, seconds);
}

function parseSeconds(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_CHECKPOINT_SECONDS;
  const value = raw.trim() === '' ? Number.NaN : Number(raw);
  if (!Number.isFinite(value) || value < 0 || value > 86_400)
    throw new UsageError(
      `--checkpoint-every: got ${JSON.stringify(raw)}; allowed: seconds from 0 (after every finished task) to 86400`,
    );
  return value;
}

/**
 * Trials a checkpoint already holds for the given points of a run of `total`
 * trials each: what a resumed run says it picked up, and leaves out of its
 * trials per second.
 */
export function savedTrials(checkpoint: Checkpoint | undefined, points: number, total: number): number {
  if (!checkpoint || !(total > 0)) return 0;
  let trials = 0;
  for (let point = 0; point < points; point++) {
    for (const range of checkpoint.ledger(point).finished(total, 0, chunkCount(total))) {
      for (let chunk = range.first; chunk < range.end; chunk++) trials += chunkTrials(chunk, total);
    }
  }
  return trials;
}

/** What a resumed run's header says: "resumed from run.ckpt: 400,000 trials already done". */
export interface Resumed {
  path: string;
  trials: number;
}
