/**
 * The tally file of `muster shard`, and the checks `muster merge` makes
 * before it adds one: merge trusts nothing in a file. Every field is checked
 * as the CLI checks what a user types (rule, params, seed, trials), unknown
 * fields are refused, and the tally must be one the rule could have counted
 * in the shard's own trials: finite non-negative integer counts, no
 * proportion above its trials, no mean whose squares undercut its sum, and
 * the rule's own structure (Rule.checkTally: a histogram sums to its trials).
 */
import { resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { chunkCount, chunkTrials } from '../engine/chunks.js';
import { getRule } from '../rules/index.js';
import { loadRuleFile } from '../rules/load-rule.js';
import { resolveParams } from '../rules/params.js';
import type { Params, Rule, StreamVersion } from '../rules/types.js';
import { STREAM_LIST, STREAM_VERSIONS } from '../engine/random.js';
import { envelope, RESULT_FORMAT, type Envelope } from '../result.js';
import { MAX_TRIALS, parseSeed } from './options.js';
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

const FIELDS = ['format', 'kind', 'version', 'rule', 'title', 'params', 'seed', 'trials', 'chunks', 'threads', 'tally'] as const;
/** Fields a shard may have besides: ruleFile, for a rule file's rule; stream, absent from files written on stream 1 before it was recorded. */
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
export function mixedStreams(file: string, stream: StreamVersion, firstFile: string, firstStream: StreamVersion): UsageError {
  return new UsageError(
    `files: ${JSON.stringify(file)} drew its dice from stream ${stream}, ${JSON.stringify(firstFile)} from stream ${firstStream}; allowed: shards of one stream (run every shard with the same --stream)`,
  );
}

/** Trials in chunks [first, end) of a run of `total`. */
export function shardTrials(chunks: { first: number; end: number }, total: number): number {
  let trials = 0;
  for (let chunk = chunks.first; chunk < chunks.end; chunk++) trials += chunkTrials(chunk, total);
  return trials;
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}...` : text);
}

/**
 * Checks a parsed shard file completely and returns it with its params
 * resolved; throws a one-line UsageError naming the file and the field.
 */
export function validateShard(file: string, parsed: unknown, fileRule?: Rule): ShardFile {
  const fail = (field: string, value: unknown, allowed: string): never => {
    throw new UsageError(`${file}: ${field}: got ${shown(value)}; allowed: ${allowed}`);
  };
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return fail('file', parsed, 'a tally file written by muster shard');
  const record = parsed as Record<string, unknown>;
  for (const key of Object.keys(record)) if (![...FIELDS, ...OPTIONAL_FIELDS].includes(key as never)) fail(JSON.stringify(key), record[key], `only the fields ${FIELDS.join(', ')} (an unknown field means the file was edited or is not a muster tally)`);
  for (const key of FIELDS) if (!(key in record)) fail(key, undefined, 'present, as muster shard writes it');
  if (record.format !== RESULT_FORMAT) fail('format', record.format, JSON.stringify(RESULT_FORMAT));
  if (record.kind !== 'shard') fail('kind', record.kind, '"shard"');
  if (typeof record.version !== 'string' || record.version.length === 0 || record.version.length > 100) fail('version', record.version, "the muster version that wrote it");

  if (typeof record.rule !== 'string') fail('rule', record.rule, 'a rule id (see muster list)');
  let rule: Rule;
  if (record.ruleFile !== undefined) {
    // A rule file's shard: the caller loaded the file it records, checked by its hash.
    if (!fileRule || fileRule.id !== record.rule) return fail('ruleFile', record.ruleFile, 'the rule file the shard was run with');
    rule = fileRule;
  } else {
    try {
      rule = getRule(record.rule as string);
    } catch {
      return fail('rule', record.rule, 'a rule id (see muster list)');
    }
  }

  if (record.title !== rule.title) fail('title', record.title, JSON.stringify(rule.title) + `, the title of ${rule.id}`);

  const rawParams = record.params;
  if (typeof rawParams !== 'object' || rawParams === null || Array.isArray(rawParams)) fail('params', rawParams, `an object of ${rule.id}'s parameters`);
  const entries = Object.entries(rawParams as Record<string, unknown>);
  for (const [name, value] of entries) if (!['string', 'number', 'boolean'].includes(typeof value)) fail(`params.${JSON.stringify(name)}`, value, 'a number, true or false, or text');
  let params: Params;
  try {
    // As a user would have typed them, so a hand-edited file cannot carry impossible values.
    params = resolveParams(rule, entries.map(([name, value]) => `${name}=${value}`));
  } catch (error) {
    if (error instanceof UsageError) throw new UsageError(`${file}: params: ${error.message}`);
    throw error;
  }
  // The file must hold every parameter as resolved, so its run is exactly the one named.
  for (const spec of rule.params) if (!(spec.name in (rawParams as object))) fail(`params.${spec.name}`, undefined, 'present: muster shard writes every parameter');
  for (const [name, value] of Object.entries(params)) if (JSON.stringify(value) !== JSON.stringify((rawParams as Params)[name])) fail(`params.${name}`, (rawParams as Params)[name], `its canonical form ${JSON.stringify(value)}, as muster shard writes it`);

  if (typeof record.seed !== 'string') fail('seed', record.seed, 'text of 1 to 200 characters');
  try {
    parseSeed(record.seed as string);
  } catch {
    fail('seed', record.seed, 'text of 1 to 200 characters');
  }

  const stream = recordedStream(record) ?? fail('stream', record.stream, `${STREAM_LIST} (absent: 1)`);

  const trials = record.trials;
  if (typeof trials !== 'number' || !Number.isInteger(trials) || trials < 1 || trials > MAX_TRIALS) fail('trials', trials, `a whole number of trials from 1 to ${MAX_TRIALS}`);
  const total = trials as number;
  const chunks = record.chunks as Record<string, unknown>;
  const count = chunkCount(total);
  if (typeof chunks !== 'object' || chunks === null || Array.isArray(chunks)) fail('chunks', chunks, '{ "first": i, "end": j }');
  for (const key of Object.keys(chunks)) if (key !== 'first' && key !== 'end') fail(`chunks.${JSON.stringify(key)}`, chunks[key], 'only first and end');
  for (const key of ['first', 'end'] as const) {
    const value = chunks[key];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > count) fail(`chunks.${key}`, value, `an integer from 0 to ${count} (the run's ${count} chunks)`);
  }
  if ((chunks.first as number) >= (chunks.end as number)) fail('chunks.end', chunks.end, `greater than chunks.first (${chunks.first}): a shard has at least one chunk`);
  const range = { first: chunks.first as number, end: chunks.end as number };

  const threads = record.threads;
  if (typeof threads !== 'number' || !Number.isInteger(threads) || threads < 1 || threads > MAX_THREADS) fail('threads', threads, `an integer from 1 to ${MAX_THREADS}`);

  const tally = record.tally;
  const length = rule.tallyLength(params);
  if (!Array.isArray(tally) || tally.length !== length) fail('tally', Array.isArray(tally) ? `${tally.length} entries` : tally, `${length} counts, the tally length of ${rule.id} at these params`);
  const counts = tally as unknown[];
  // Sums of squares of per-trial observations stay below 2^53, where doubles count exactly.
  for (const [index, value] of counts.entries()) {
    // A rule file's means keep the whole part of their sums, which may be negative.
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || (value < 0 && !rule.file)) fail(`tally[${index}]`, value, 'a whole number from 0 to 2^53 − 1 (a count)');
  }
  const ran = shardTrials(range, total);
  const problem = checkCounts(rule, params, Float64Array.from(counts as number[]), ran);
  if (problem) throw new UsageError(`${file}: tally: ${problem}; allowed: counts ${rule.id} could have made in this shard's ${ran} trials`);
  const ruleFile = rule.file ? { path: (record.ruleFile as { path: string }).path, sha256: rule.file.sha256 } : undefined;
  return { ...envelope('shard', rule), ...(ruleFile ? { ruleFile } : {}), version: record.version as string, params, seed: record.seed as string, stream, trials: total, chunks: range, threads: threads as number, tally: counts as number[] };
}

/**
 * The rule a shard was run with: a built-in by id, or the rule file it
 * records (or the one --rule names, when the file has moved), which must
 * hash to the same contents.
 */
export async function recordedRule(shard: { rule: string; ruleFile?: unknown }, file: string, ruleOverride: string | undefined): Promise<Rule> {
  if (shard.ruleFile === undefined) return getRule(shard.rule);
  const rule = await loadRecordedFile(shard.ruleFile, file, ruleOverride);
  if (rule.id !== shard.rule) throw new UsageError(`files: ${JSON.stringify(file)} is a shard of rule ${JSON.stringify(shard.rule)} but ${ruleOverride ?? (shard.ruleFile as { path: string }).path} declares ${JSON.stringify(rule.id)}; allowed: the rule file the shard was run with`);
  return rule;
}

/** A rule file a shard recorded as { path, sha256 }, loaded from there (or from `ruleOverride`) and refused if its contents differ. */
export async function loadRecordedFile(recorded: unknown, file: string, ruleOverride: string | undefined): Promise<Rule> {
  const { path, sha256 } = (recorded ?? {}) as { path?: unknown; sha256?: unknown };
  if (typeof path !== 'string' || typeof sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(sha256)) {
    throw new UsageError(`files: ${JSON.stringify(file)}: ruleFile: got ${JSON.stringify(recorded)?.slice(0, 60)}; allowed: { "path", "sha256" } as muster writes them`);
  }
  return loadRuleFile(ruleOverride === undefined ? path : resolve(ruleOverride), ruleOverride ?? path, sha256);
}
