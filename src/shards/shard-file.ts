/**
 * The tally file of `muster shard`, and the checks `muster merge` makes
 * before it adds one: merge trusts nothing in a file. Every field is checked
 * as the CLI checks what a user types (rule, params, seed, trials), unknown
 * fields are refused, and the tally must be one the rule could have counted
 * in the shard's own trials: finite non-negative integer counts, no
 * proportion above its trials, no mean whose squares undercut its sum, and
 * the rule's own structure (rule.tally.check: a histogram sums to its trials).
 * A shard of another muster version is refused, and a shard is data: the
 * rule file it records is never imported, only one the person names with
 * --rule, matched by its hash first (namedRuleFiles).
 */
import { resolve } from 'node:path';
import type { Params, Rule, StreamVersion } from '../contract/types.js';
import { chunkCount, chunkTrials } from '../engine/chunks.js';
import { STREAM_LIST, STREAM_VERSIONS } from '../engine/random.js';
import { UsageError } from '../errors.js';
import { MAX_TRIALS } from '../input/limits.js';
import { readInputJson } from '../input/read-file.js';
import { Schema } from '../input/schema.js';
import { parseSeed } from '../input/seed.js';
import { type Envelope, envelope, RESULT_FORMAT } from '../result.js';
import { loadRuleFile, ruleFileSha256 } from '../rule-files/load.js';
import { getRule } from '../rules/index.js';
import { resolveParams } from '../rules/params.js';
import { packageVersion } from '../version.js';
import { MAX_SHARDS } from './scheduler.js';
import { checkCounts } from './tally-check.js';

export { checkCounts, MAX_SHARDS };

/** Threads one machine may have run a shard on. */
const MAX_THREADS = 256;

/** What one shard writes: enough to check that shards belong to the same run. */
export interface ShardFile extends Envelope {
  /** For a rule file's rule: the file and the sha256 of its contents; merge loads the same file. */
  ruleFile?: { path: string; sha256: string };
  params: Params;
  seed: string;
  /** The random stream its chunks drew from; a file without one was written before stream 2, on stream 1. */
  stream: StreamVersion;
  /** The whole run's trials; this shard ran chunks [first, end) of it. */
  trials: number;
  chunks: { first: number; end: number };
  threads: number;
  tally: number[];
}

const FIELDS = [
  'format',
  'kind',
  'version',
  'rule',
  'title',
  'params',
  'seed',
  'trials',
  'chunks',
  'threads',
  'tally',
] as const;
/**
 * Fields a shard may have besides: ruleFile, for a rule file's rule; stream, absent from files written on stream 1
 * before it was recorded.
 */
const OPTIONAL_FIELDS = ['ruleFile', 'stream'] as const;

/**
 * The stream a shard file (a run's or a grid's) records, or null when it
 * records none muster has. Only a file with no stream field at all is read
 * as stream 1, as written before streams were recorded; null or any other
 * value is not a stream.
 */
export function recordedStream(record: object): StreamVersion | null {
  const stream: unknown = Object.hasOwn(record, 'stream') ? (record as { stream: unknown }).stream : 1;
  return STREAM_VERSIONS.find((version) => version === stream) ?? null;
}

/** Merge's refusal of shards drawn from two streams: their counts come from different dice and cannot be added. */
export function mixedStreams(
  file: string,
  stream: StreamVersion,
  firstFile: string,
  firstStream: StreamVersion,
): UsageError {
  return new UsageError(
    `files: ${JSON.stringify(file)} drew its dice from stream ${stream}, ${JSON.stringify(firstFile)} from stream ` +
      `${firstStream}; allowed: shards of one stream (run every shard with the same --stream)`,
  );
}

/** What merge allows as its files, in every refusal of one. */
const SHARD_FILES = 'tally files written by muster shard, or by muster sweep or compare with --shard';

/**
 * A shard file (a run's or a grid's) read and parsed as JSON, strictly (input/read-file.ts): never a device or a FIFO,
 * no key twice.
 */
export function readShardJson(file: string): unknown {
  return readInputJson(file, 'files', SHARD_FILES);
}

/** Trials in chunks [first, end) of a run of `total`. */
export function shardTrials(chunks: { first: number; end: number }, total: number): number {
  let trials = 0;
  for (let chunk = chunks.first; chunk < chunks.end; chunk++) trials += chunkTrials(chunk, total);
  return trials;
}

/** A shard's value as its refusal quotes it: its JSON, cut at 60 characters, in quotes. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}...` : text);
}

/**
 * Checks a parsed shard file completely and returns it with its params
 * resolved; throws a one-line UsageError naming the file and the field.
 */
export function validateShard(file: string, parsed: unknown, fileRule?: Rule): ShardFile {
  // Each refusal names the file, then the field: `${file}: seed: got "…"; allowed: …`.
  const s: Schema = new Schema((what) => {
    throw new UsageError(`${file}: ${what}`);
  }, shown);
  const record = shardEnvelope(parsed, s);
  const rule = shardRule(record, fileRule, s);
  const params = shardParams(record, rule, s);

  if (typeof record.seed !== 'string') s.bad('seed', record.seed, 'text of 1 to 200 characters');
  try {
    parseSeed(record.seed as string);
  } catch {
    s.bad('seed', record.seed, 'text of 1 to 200 characters');
  }

  const stream = recordedStream(record) ?? s.bad('stream', record.stream, `${STREAM_LIST} (absent: 1)`);
  const { total, range } = shardChunks(record, s);
  const threads = s.integer('threads', record.threads, 1, MAX_THREADS);
  const counts = shardTally(record.tally, rule, params, shardTrials(range, total), s);
  const ruleFile = rule.file
    ? { path: (record.ruleFile as RecordedRuleFile).path, sha256: rule.file.sha256 }
    : undefined;
  return {
    ...envelope('shard', rule),
    ...(ruleFile ? { ruleFile } : {}),
    version: record.version as string,
    params,
    seed: record.seed as string,
    stream,
    trials: total,
    chunks: range,
    threads,
    tally: counts,
  };
}

/** The shard as an object of known fields, every required one present, of this format, kind and version. */
function shardEnvelope(parsed: unknown, s: Schema): Record<string, unknown> {
  const record = s.data('file', parsed, 'a tally file written by muster shard');
  s.only(record, [...FIELDS, ...OPTIONAL_FIELDS], (key) =>
    s.bad(
      JSON.stringify(key),
      record[key],
      `only the fields ${FIELDS.join(', ')} (an unknown field means the file was edited or is not a muster tally)`,
    ),
  );
  for (const key of FIELDS) if (!(key in record)) s.bad(key, undefined, 'present, as muster shard writes it');
  if (record.format !== RESULT_FORMAT) s.bad('format', record.format, JSON.stringify(RESULT_FORMAT));
  if (record.kind !== 'shard') s.bad('kind', record.kind, '"shard"');
  if (typeof record.version !== 'string' || record.version.length === 0 || record.version.length > 100)
    s.bad('version', record.version, 'the muster version that wrote it');
  // Another version may count differently (a rule fixed, a stream changed): its counts cannot be added to these.
  if (record.version !== packageVersion())
    s.bad(
      'version',
      record.version,
      `${JSON.stringify(packageVersion())}, the version of this muster (run the shard again with it)`,
    );
  return record;
}

/** The shard's rule: the built-in it names, or the rule file given (its hash and id those the shard records). */
function shardRule(record: Record<string, unknown>, fileRule: Rule | undefined, s: Schema): Rule {
  if (typeof record.rule !== 'string') s.bad('rule', record.rule, 'a rule id (see muster list)');
  let rule: Rule;
  if (record.ruleFile !== undefined) {
    // A rule file's shard: the caller loaded a file the person named, checked against the hash it records.
    if (!isRecordedRuleFile(record.ruleFile))
      return s.bad('ruleFile', record.ruleFile, '{ "path", "sha256" } as muster shard writes it');
    if (!fileRule?.file || record.ruleFile.sha256 !== fileRule.file.sha256)
      return s.bad(
        'ruleFile.sha256',
        record.ruleFile.sha256,
        `${
          fileRule?.file
            ? `${JSON.stringify(fileRule.file.sha256)}, the hash of the rule file ` + `given`
            : 'the hash ' + 'of the rule file given with --rule'
        }`,
      );
    if (fileRule.id !== record.rule)
      return s.bad('rule', record.rule, `${JSON.stringify(fileRule.id)}, the id the rule file given declares`);
    rule = fileRule;
  } else {
    try {
      rule = getRule(record.rule as string);
    } catch {
      return s.bad('rule', record.rule, 'a rule id (see muster list)');
    }
  }
  if (record.title !== rule.title)
    s.bad('title', record.title, `${JSON.stringify(rule.title)}, the title of ${rule.id}`);
  return rule;
}

/** The shard's params, resolved as a user's would be, every one present and in its canonical form. */
function shardParams(record: Record<string, unknown>, rule: Rule, s: Schema): Params {
  const rawParams = s.data('params', record.params, `an object of ${rule.id}'s parameters`);
  const entries = Object.entries(rawParams);
  for (const [name, value] of entries)
    if (!['string', 'number', 'boolean'].includes(typeof value))
      s.bad(`params.${JSON.stringify(name)}`, value, 'a number, true or false, or text');
  let params: Params;
  try {
    // As a user would have typed them, so a hand-edited file cannot carry impossible values.
    params = resolveParams(
      rule,
      entries.map(([name, value]) => `${name}=${value}`),
    );
  } catch (error) {
    if (error instanceof UsageError) s.refuse(`params: ${error.message}`);
    throw error;
  }
  // The file must hold every parameter as resolved, so its run is exactly the one named.
  for (const spec of rule.params)
    if (!(spec.name in rawParams))
      s.bad(`params.${spec.name}`, undefined, 'present: muster shard writes every parameter');
  for (const [name, value] of Object.entries(params))
    if (JSON.stringify(value) !== JSON.stringify((rawParams as Params)[name]))
      s.bad(
        `params.${name}`,
        (rawParams as Params)[name],
        `its canonical form ${JSON.stringify(value)}, as muster shard writes it`,
      );
  return params;
}

/** The run's trials and the shard's chunks of it, [first, end), at least one. */
function shardChunks(
  record: Record<string, unknown>,
  s: Schema,
): { total: number; range: { first: number; end: number } } {
  const total = s.integer('trials', record.trials, 1, MAX_TRIALS, `a whole number of trials from 1 to ${MAX_TRIALS}`);
  const count = chunkCount(total);
  const chunks = s.data('chunks', record.chunks, '{ "first": i, "end": j }');
  s.only(chunks, ['first', 'end'], (key) => s.bad(`chunks.${JSON.stringify(key)}`, chunks[key], 'only first and end'));
  for (const key of ['first', 'end'] as const)
    s.integer(`chunks.${key}`, chunks[key], 0, count, `an integer from 0 to ${count} (the run's ${count} chunks)`);
  if ((chunks.first as number) >= (chunks.end as number))
    s.bad('chunks.end', chunks.end, `greater than chunks.first (${chunks.first}): a shard has at least one chunk`);
  return { total, range: { first: chunks.first as number, end: chunks.end as number } };
}

/** The tally: the rule's length at these params, whole counts it could have made in the shard's `ran` trials. */
function shardTally(tally: unknown, rule: Rule, params: Params, ran: number, s: Schema): number[] {
  const length = rule.tally.length(params);
  if (!Array.isArray(tally) || tally.length !== length)
    s.bad(
      'tally',
      Array.isArray(tally) ? `${tally.length} entries` : tally,
      `${length} counts, the tally length of ${rule.id} at these params`,
    );
  const counts = tally as unknown[];
  // Sums of squares of per-trial observations stay below 2^53, where doubles count exactly.
  for (const [index, value] of counts.entries()) {
    // A rule file's means keep the whole part of their sums, which may be negative.
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || (value < 0 && !rule.file))
      s.bad(`tally[${index}]`, value, 'a whole number from 0 to 2^53 − 1 (a count)');
  }
  const problem = checkCounts(rule, params, Float64Array.from(counts as number[]), ran);
  if (problem) s.refuse(`tally: ${problem}; allowed: counts ${rule.id} could have made in this shard's ${ran} trials`);
  return counts as number[];
}

/**
 * A rule file as a shard records it: the path it was loaded from there, and the sha256 it is known by (rule-files/load.ts).
 */
interface RecordedRuleFile {
  path: string;
  sha256: string;
}

const SHA256 = /^[0-9a-f]{64}$/;
/** Longer than any path a file system takes. */
const MAX_PATH = 4096;

/** Whether `value` is a { path, sha256 } record as muster writes it. */
export function isRecordedRuleFile(value: unknown): value is RecordedRuleFile {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { path, sha256 } = value as Record<string, unknown>;
  return (
    Object.keys(value).length === 2 &&
    typeof path === 'string' &&
    path.length > 0 &&
    path.length <= MAX_PATH &&
    typeof sha256 === 'string' &&
    SHA256.test(sha256)
  );
}

/**
 * The rules of the rule files `file` records, in the same order, each
 * loaded from a file the person named with --rule. A shard is data: the
 * path it records is never imported, nor even read (a forger can deliver a
 * script and record its own hash). Each --rule file is hashed without
 * running it and matched to a recorded file by that hash; only a match is
 * imported, and the loader hashes it again before the import.
 */
export async function namedRuleFiles(
  recorded: readonly RecordedRuleFile[],
  given: readonly string[] | undefined,
  file: string,
): Promise<Rule[]> {
  const named = given ?? [];
  const shard = JSON.stringify(file);
  if (recorded.length === 0) {
    if (named.length === 0) return [];
    throw new UsageError(
      `--rule: ${file} is a shard of a built-in rule; allowed: --rule only for shards of a rule file`,
    );
  }
  if (named.length === 0) {
    const one = recorded.length === 1;
    const paths = recorded.map((entry) => JSON.stringify(entry.path)).join(', ');
    const why = `which merge does not import because a shard names ${one ? 'it' : 'them'}`;
    const allowed =
      `--rule PATH naming ${one ? 'that file' : 'each file'} yourself (its sha256 is checked before ` +
      `it is imported)`;
    throw new UsageError(
      `files: ${shard} was run with the rule file${one ? '' : 's'} ${paths}, ${why}; allowed: ${allowed}`,
    );
  }
  // One file each way: the loader's own refusal says how the hashes differ.
  if (recorded.length === 1 && named.length === 1)
    return [await loadRuleFile(resolve(named[0]), named[0], recorded[0].sha256)];
  const hashes: string[] = [];
  for (const path of named) hashes.push(await ruleFileSha256(resolve(path), path));
  const unused = named.findIndex((_, index) => !recorded.some((entry) => entry.sha256 === hashes[index]));
  if (unused >= 0) {
    const what =
      `${JSON.stringify(named[unused])} is none of the rule files ${shard} was run with (its sha256 is ` +
      `${hashes[unused].slice(0, 12)}…)`;
    throw new UsageError(`--rule: ${what}; allowed: only those files, unchanged`);
  }
  const loaded: Rule[] = [];
  for (const entry of recorded) {
    const index = hashes.indexOf(entry.sha256);
    if (index < 0) {
      const what =
        `no file given is the rule file ${JSON.stringify(entry.path)} ${shard} was run with (sha256 ` +
        `${entry.sha256.slice(0, 12)}…)`;
      throw new UsageError(`--rule: ${what}; allowed: --rule for each rule file the shards were run with, unchanged`);
    }
    loaded.push(await loadRuleFile(resolve(named[index]), named[index], entry.sha256));
  }
  return loaded;
}
