/**
 * Checkpoints: the finished chunk ranges of a run (or of every point of a
 * sweep) and their tallies, written as the run goes so the same command run
 * again after a crash, a `kill -9` or a preempted node picks up where it
 * stopped. Tallies are integer counts, so adding the saved ones to the rest
 * gives the uninterrupted run's tally exactly, whatever was saved when.
 *
 * A range is saved with the run's total trials it belongs to (an adaptive
 * --precision run grows its total batch by batch, and a run's final chunk
 * is short only for its own total), so a resumed batch takes exactly the
 * ranges it would have run itself.
 *
 * A checkpoint is read back as strictly as a shard: the muster version that
 * wrote it must be this one (another may count differently), every field is
 * checked, every tally must be one the rule could have counted, and the
 * file carries the sha256 of its own contents (canonical JSON of format,
 * version, job and ranges), so a file edited by hand, truncated or
 * corrupted on disk is refused rather than resumed into numbers no
 * uninterrupted run gives. The hash is a check of integrity, not a
 * signature: a checkpoint is the machine's own working file, and one from
 * elsewhere is a shard's job (merge --verify re-runs those).
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { UsageError } from '../errors.js';
import { readInputJson } from '../input/read-file.js';
import { hasExactly, isCount, isData, Schema } from '../input/schema.js';
import { writeOutputs } from '../output/files.js';
import { packageVersion } from '../version.js';
import { chunkCount, chunkTrials } from './chunks.js';

const CHECKPOINT_FORMAT = 'muster-checkpoint/2';
/** Written before checkpoints carried their version and hash: refused, as nothing in them can be checked. */
const UNHASHED_FORMAT = 'muster-checkpoint/1';

/** What identifies the work: a checkpoint saved for anything else is refused. */
export type CheckpointJob = Record<string, unknown>;

interface SavedRange {
  /** The point of a sweep (0 for a run or a shard). */
  point: number;
  /** The run's total trials this range belongs to. */
  total: number;
  first: number;
  end: number;
  tally: number[];
}

interface CheckpointFileShape {
  format: typeof CHECKPOINT_FORMAT;
  version: string;
  job: CheckpointJob;
  ranges: SavedRange[];
  /** sha256 of the canonical JSON of the fields above (contentHash). */
  sha256: string;
}

/** What one point of the work allows, for checking a saved file. */
export interface PointLimits {
  tallyLength: number;
  /** Whether a range may belong to a run of this many trials. */
  totalAllowed(total: number): boolean;
  /** Chunks the point may run at all (a shard's block); the whole run when absent. */
  chunks?: { first: number; end: number };
  /**
   * What is inconsistent in a saved tally of `trials` trials, or null (the checks merge makes of a shard's
   * tally, the signs of its entries included); without it, every entry must be a count (0 or more).
   */
  checkTally?: (tally: Float64Array, trials: number) => string | null;
}

/** The finished chunks of one point, as the engine sees them. */
export interface ChunkLedger {
  /** Saved ranges of a run of `total` trials inside [first, end), in order. */
  finished(total: number, first: number, end: number): { first: number; end: number; tally: Float64Array }[];
  /** A range has finished. */
  record(total: number, first: number, end: number, tally: Float64Array): void;
}

const FILE_KEYS = ['format', 'version', 'job', 'ranges', 'sha256'];
const RANGE_KEYS = ['point', 'total', 'first', 'end', 'tally'];

export class Checkpoint {
  readonly path: string;
  readonly #job: CheckpointJob;
  readonly #intervalMs: number;
  #ranges: SavedRange[];
  #lastSave: number;
  #dirty = false;

  private constructor(path: string, job: CheckpointJob, ranges: SavedRange[], intervalMs: number) {
    this.path = path;
    this.#job = job;
    this.#ranges = ranges;
    this.#intervalMs = intervalMs;
    this.#lastSave = Date.now();
  }

  /**
   * Opens `path` for `job`: a missing file starts afresh; an existing one
   * must be a checkpoint of this same job, every field checked.
   */
  static open(
    path: string,
    job: CheckpointJob,
    limits: (point: number) => PointLimits | undefined,
    intervalSeconds: number,
  ): Checkpoint {
    if (!existsSync(path)) return new Checkpoint(path, job, [], intervalSeconds * 1000);
    return new Checkpoint(path, job, readCheckpoint(path, job, limits), intervalSeconds * 1000);
  }

  ledger(point: number): ChunkLedger {
    return {
      finished: (total, first, end) =>
        this.#ranges
          .filter((range) => range.point === point && range.total === total && range.first >= first && range.end <= end)
          .sort((a, b) => a.first - b.first)
          .map((range) => ({ first: range.first, end: range.end, tally: Float64Array.from(range.tally) })),
      record: (total, first, end, tally) => {
        this.#add({ point, total, first, end, tally: Array.from(tally) });
        this.#dirty = true;
        if (Date.now() - this.#lastSave >= this.#intervalMs) this.save();
      },
    };
  }

  /** Writes the file now if anything changed since the last write. */
  save(): void {
    if (!this.#dirty) return;
    const content = {
      format: CHECKPOINT_FORMAT,
      version: packageVersion(),
      job: this.#job,
      ranges: this.#ranges,
    } as const;
    const file: CheckpointFileShape = { ...content, sha256: contentHash(content) };
    writeDurably(this.path, `${JSON.stringify(file)}\n`);
    this.#dirty = false;
    this.#lastSave = Date.now();
  }

  /** Adds a range, joining it to a neighbour of the same point and total: tallies are counts, so their sum is exact. */
  #add(range: SavedRange): void {
    const before = this.#ranges.find(
      (r) => r.point === range.point && r.total === range.total && r.end === range.first,
    );
    const after = this.#ranges.find((r) => r.point === range.point && r.total === range.total && r.first === range.end);
    let joined = range;
    for (const neighbour of [before, after]) {
      if (!neighbour) continue;
      this.#ranges = this.#ranges.filter((r) => r !== neighbour);
      joined = {
        point: joined.point,
        total: joined.total,
        first: Math.min(joined.first, neighbour.first),
        end: Math.max(joined.end, neighbour.end),
        tally: joined.tally.map((count, i) => count + neighbour.tally[i]),
      };
    }
    this.#ranges.push(joined);
    this.#ranges.sort((a, b) => a.point - b.point || a.total - b.total || a.first - b.first);
  }
}

/**
 * Write, flush to disk, rename, as every output is written (src/output/files.ts): a reader (or a resumed run
 * after a crash) sees the old file or the new one, whole; the temporary file has a random name opened
 * exclusively, so nothing planted beside the checkpoint is followed; and a checkpoint reached through a
 * symlink is written through it, the link kept, rather than replaced by a regular file.
 */
function writeDurably(path: string, contents: string): void {
  writeOutputs([{ path, contents, option: '--checkpoint' }]);
}

/**
 * The hash a checkpoint carries: of its fields but the hash, as canonical JSON, so it does not depend on how the file
 * is spaced.
 */
function contentHash(content: Omit<CheckpointFileShape, 'sha256'>): string {
  return createHash('sha256').update(canonical(content)).digest('hex');
}

/** Canonical JSON: keys sorted at every level, so two equal jobs compare equal as text. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

function readCheckpoint(
  path: string,
  job: CheckpointJob,
  limits: (point: number) => PointLimits | undefined,
): SavedRange[] {
  // The file is refused as a whole, in one sentence: `--checkpoint: x has …; allowed: …`.
  const s: Schema = new Schema((why) => {
    throw new UsageError(`--checkpoint: ${path} ${why}; allowed: a checkpoint this same command wrote, or a new file`);
  });
  // Never a device or a FIFO, no key twice, no prototype keys, bounded nesting (input/read-file.ts).
  const parsed = readInputJson(path, '--checkpoint', 'a checkpoint this same command wrote, or a new file');
  if (isData(parsed) && parsed.format === UNHASHED_FORMAT)
    s.refuse(
      `was written by an earlier muster, without the hash that shows it unedited (${UNHASHED_FORMAT}); delete it ` +
        `and run again`,
    );
  if (!isData(parsed) || parsed.format !== CHECKPOINT_FORMAT)
    s.refuse(`is not a muster checkpoint (${CHECKPOINT_FORMAT})`);
  if (
    !hasExactly(parsed, FILE_KEYS) ||
    !isData(parsed.job) ||
    !Array.isArray(parsed.ranges) ||
    typeof parsed.version !== 'string' ||
    typeof parsed.sha256 !== 'string'
  )
    s.refuse('has missing or unknown fields');
  if (parsed.version !== packageVersion())
    s.refuse(
      `was written by muster ${JSON.stringify(parsed.version.slice(0, 40))}, not this muster ` +
        `${JSON.stringify(packageVersion())}, which may count differently; delete it and run again`,
    );
  const { sha256, ...content } = parsed;
  if (contentHash(content as Omit<CheckpointFileShape, 'sha256'>) !== sha256)
    s.refuse('has been edited or damaged since muster wrote it (its contents do not match the sha256 it carries)');
  const saved = parsed.job;
  if (canonical(saved) !== canonical(job)) {
    const shown = differences(saved, job, '')
      .slice(0, 3)
      .map(({ name, there, now }) => `${name} ${clip(there)} there, ${clip(now)} now`);
    throw new UsageError(
      `--checkpoint: ${path} is from another run (${shown.join('; ')}); allowed: the same command as the ` +
        `checkpoint's, or a new file`,
    );
  }
  const ranges: SavedRange[] = [];
  for (const [i, range] of parsed.ranges.entries()) {
    const where = `range ${i}`;
    const { point, total, first, end, tally } = s.exactly(range, RANGE_KEYS, `${where} has missing or unknown fields`);
    if (!isCount(point) || !isCount(total) || !isCount(first) || !isCount(end))
      s.refuse(`${where} has a point, total, first or end that is not a whole number`);
    const limit = limits(point);
    if (!limit) s.refuse(`${where} names point ${point}, which this command does not have`);
    if (total < 1 || !limit.totalAllowed(total))
      s.refuse(`${where} belongs to a run of ${total} trials, which this command never runs`);
    const block = limit.chunks ?? { first: 0, end: chunkCount(total) };
    if (!(first < end && first >= block.first && end <= Math.min(block.end, chunkCount(total))))
      s.refuse(`${where} has chunks ${first}–${end - 1}, outside ${block.first}–${block.end - 1}`);
    // Whole numbers; their signs are the rule's to check (a rule file's mean may sum below zero).
    const whole = limit.checkTally ? (entry: unknown) => Number.isSafeInteger(entry) : isCount;
    if (!Array.isArray(tally) || tally.length !== limit.tallyLength || !tally.every(whole))
      s.refuse(`${where} has a tally that is not ${limit.tallyLength} whole numbers`);
    let trials = 0;
    for (let chunk = first; chunk < end; chunk++) trials += chunkTrials(chunk, total);
    const problem = limit.checkTally?.(Float64Array.from(tally as number[]), trials);
    if (problem) s.refuse(`${where} has a tally the rule could not have counted in its ${trials} trials (${problem})`);
    for (const other of ranges) {
      if (other.point === point && other.first < end && first < other.end)
        s.refuse(`${where} overlaps another range of point ${point}`);
    }
    ranges.push({ point, total, first, end, tally: tally as number[] });
  }
  return ranges;
}

/**
 * The fields where two jobs differ, as dotted names (params.command), descending into objects so the message names the
 * setting.
 */
function differences(
  there: Record<string, unknown>,
  now: Record<string, unknown>,
  prefix: string,
): Array<{ name: string; there: string; now: string }> {
  const found: Array<{ name: string; there: string; now: string }> = [];
  for (const name of [...new Set([...Object.keys(there), ...Object.keys(now)])]) {
    const [a, b] = [there[name], now[name]];
    if (canonical(a) === canonical(b)) continue;
    if (isData(a) && isData(b)) found.push(...differences(a, b, `${prefix}${name}.`));
    else
      found.push({
        name: `${prefix}${name}`,
        there: a === undefined ? 'none' : canonical(a),
        now: b === undefined ? 'none' : canonical(b),
      });
  }
  return found;
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}
