/**
 * The file a sweep's or comparison's shard writes (`muster-grid-tally/1`), and
 * its reading by merge: every field checked as strictly as the CLI checks
 * its own input, the command's recorded options by the analysis they belong
 * to (src/analysis/grid.ts). A file is data: nothing in it picks code to run.
 */

import type { GridAnalysis, GridArgs, GridCommand, RecordedFile } from '../analysis/grid.js';
import type { StreamVersion } from '../contract/types.js';
import { STREAM_LIST } from '../engine/random.js';
import { UsageError } from '../errors.js';
import { isCount, Schema } from '../input/schema.js';
import { packageVersion } from '../version.js';
import { readShardJson, recordedStream } from './shard-file.js';

export const GRID_SHARD_FORMAT = 'muster-grid-tally/1';

/** What one shard of a sweep or a comparison writes. */
export interface GridShardFile {
  format: typeof GRID_SHARD_FORMAT;
  /** The muster version that wrote it: merge adds only shards of its own version. */
  version: string;
  command: GridCommand;
  rule: string;
  args: GridArgs;
  seed: string;
  /** The random stream; absent in files written on stream 1 before it was recorded (read as 1). */
  stream: StreamVersion;
  trials: number;
  confidence: number;
  shard: { index: number; count: number };
  threads: number;
  /** Chunks [first, end) of point `point` (in the command's order), and their tally. */
  pieces: Array<{ point: number; first: number; end: number; tally: number[] }>;
  /**
   * The rule files the command named, each with the sha256 of its contents; merge loads the same files
   * (as for run shards). `ref` is the reference as typed: "" for the command's own rule, else a
   * comparison variant's rule=… text.
   */
  ruleFiles?: RecordedFile[];
}

/** True when the parsed JSON claims to be a sweep or comparison shard (merge then reads it as one). */
export function isGridShard(parsed: unknown): boolean {
  return parsed !== null && typeof parsed === 'object' && (parsed as { format?: unknown }).format === GRID_SHARD_FORMAT;
}

const FILE_KEYS = [
  'format',
  'version',
  'command',
  'rule',
  'args',
  'seed',
  'trials',
  'confidence',
  'shard',
  'threads',
  'pieces',
];
/**
 * Fields a shard may have besides: ruleFiles, when the command named rule files; stream, absent from files written
 * before it was recorded.
 */
const OPTIONAL_KEYS = ['ruleFiles', 'stream'];

export function readGridShard(file: string, analyses: readonly GridAnalysis<unknown, unknown>[]): GridShardFile {
  // The file is refused as a whole, in one sentence: `files: x has …; allowed: …`.
  const s: Schema = new Schema((why) => {
    throw new UsageError(
      `files: ${file} ${why}; allowed: files written by muster sweep, compare or balance with --shard`,
    );
  });
  const parsed = readShardJson(file);
  const incomplete = `is not a complete ${GRID_SHARD_FORMAT} file, or has unknown fields`;
  if (!isGridShard(parsed)) s.refuse(incomplete);
  const optional = OPTIONAL_KEYS.filter((key) => Object.hasOwn(parsed as object, key));
  const shard = s.exactly(parsed, [...FILE_KEYS, ...optional], incomplete) as unknown as GridShardFile;
  // Another version may count differently (a rule fixed, a stream changed): its counts cannot be added to these.
  if (shard.version !== packageVersion())
    s.refuse(
      `was written by muster ${JSON.stringify(String(shard.version).slice(0, 40))}, not by this muster ` +
        `${JSON.stringify(packageVersion())} (run the shard again with it)`,
    );
  const recorded: unknown = shard.ruleFiles;
  if (recorded !== undefined) {
    const why = 'has ruleFiles that are not a list of distinct { ref, path, sha256 }';
    if (!Array.isArray(recorded) || recorded.length === 0) s.refuse(why);
    const refs = new Set<unknown>();
    for (const entry of recorded as unknown[]) {
      const { ref, path, sha256 } = s.exactly(entry, ['ref', 'path', 'sha256'], why);
      if (typeof ref !== 'string' || typeof path !== 'string' || typeof sha256 !== 'string') s.refuse(why);
      if (!/^[0-9a-f]{64}$/.test(sha256 as string) || refs.has(ref)) s.refuse(why);
      refs.add(ref);
    }
  }
  // The command is data: matched against the analyses merge knows, never used as a key.
  const analysis = analyses.find((candidate) => candidate.command === shard.command);
  const argsOk = analysis?.isArgs(shard.args);
  if (!argsOk) s.refuse('has a command that is not sweep, compare or balance, or options that are not its own');
  if (typeof shard.rule !== 'string' || typeof shard.seed !== 'string') s.refuse('has a rule or seed that is not text');
  const stream = recordedStream(shard);
  if (stream === null) s.refuse(`has a stream that is not ${STREAM_LIST}`);
  shard.stream = stream;
  // Threads as --threads allows them (1 to 256); trials and confidence are checked when merge plans the command again.
  if (
    !isCount(shard.trials) ||
    typeof shard.confidence !== 'number' ||
    !isCount(shard.threads) ||
    shard.threads < 1 ||
    shard.threads > 256
  )
    s.refuse('has trials, confidence or threads of the wrong type or out of range');
  const unplaced = 'has a shard that is not {index, count} with index below count';
  const place = s.exactly(shard.shard, ['index', 'count'], unplaced);
  if (!isCount(place.index) || !isCount(place.count) || place.index >= place.count) s.refuse(unplaced);
  if (!Array.isArray(shard.pieces)) s.refuse('has no list of pieces');
  for (const piece of shard.pieces as unknown[]) {
    const { point, first, end, tally } = s.exactly(
      piece,
      ['point', 'first', 'end', 'tally'],
      'has a piece with missing or unknown fields',
    );
    // A tally's entries are whole numbers; a rule file's mean may sum below zero, so their signs are the rule's to
    // check (checkCounts).
    if (
      !isCount(point) ||
      !isCount(first) ||
      !isCount(end) ||
      !Array.isArray(tally) ||
      !tally.every((entry) => Number.isSafeInteger(entry))
    )
      s.refuse('has a piece whose point or chunks are not whole counts, or a tally not of whole numbers');
  }
  return shard;
}
