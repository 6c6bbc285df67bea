/**
 * Runs split across machines. `muster shard` runs one block of a run's
 * chunks and writes its tally; `muster merge` adds the tallies of all the
 * blocks. Chunk k draws from the same stream wherever it runs, so the merged
 * result is bit-identical to the run on one machine.
 */
import { readFileSync } from 'node:fs';
import { UsageError } from '../../errors.js';
import { chunkCount, shardChunks } from '../../engine/chunks.js';
import { SimulationPool } from '../../engine/pool.js';
import { mergeTally } from '../../engine/run-chunks.js';
import { simulate } from '../../engine/simulate.js';
import { buildResult, envelope, RESULT_FORMAT, type Envelope, type RunResult } from '../../result.js';
import { getRule } from '../../rules/index.js';
import { resolveParams } from '../../rules/params.js';
import type { Params } from '../../rules/types.js';
import { renderRun } from '../format.js';
import type { Io } from '../io.js';
import { checkOutputFile, parseOpenInterval } from '../options.js';
import { ProgressBar } from '../progress.js';
import { writeFileAtomic } from '../write-file.js';
import { parseSimulationSettings, withInterrupt, type RunOptions } from './run.js';

/** What one shard writes: enough to check that shards belong to the same run. */
export interface ShardFile extends Envelope {
  params: Params;
  seed: string;
  /** The whole run's trials; this shard ran chunks [first, end) of it. */
  trials: number;
  chunks: { first: number; end: number };
  threads: number;
  tally: number[];
}

export interface ShardOptions extends RunOptions {
  shard?: string;
  out?: string;
}

/** `muster shard <rule> --shard i/n --out FILE`: one block of a run, for another machine to merge. */
export async function shardCommand(ruleId: string, options: ShardOptions, io: Io): Promise<ShardFile> {
  const rule = getRule(ruleId);
  const params = resolveParams(rule, options.set ?? []);
  if (options.precision !== undefined) throw new UsageError('--precision: a shard runs a fixed block of trials; allowed: --trials N');
  const match = /^(\d+)\/(\d+)$/.exec(options.shard ?? '');
  const index = match ? Number(match[1]) : Number.NaN;
  const shards = match ? Number(match[2]) : Number.NaN;
  if (!(shards >= 1 && shards <= 10_000 && index >= 0 && index < shards)) {
    throw new UsageError(`--shard: got ${JSON.stringify(options.shard ?? '')}; allowed: i/n with 0 ≤ i < n ≤ 10000, such as 0/4`);
  }
  if (options.out === undefined) throw new UsageError('--out: missing; allowed: the file to write this shard’s tally to');
  const out = checkOutputFile('--out', options.out);
  const settings = parseSimulationSettings(options);
  const chunks = shardChunks(settings.trials, index, shards);

  const pool = new SimulationPool(settings.threads);
  const progress = new ProgressBar(io.err, io.errIsTTY && !options.quiet);
  try {
    const outcome = await withInterrupt((signal) =>
      simulate(pool, { rule, params, seed: settings.seed, confidence: settings.confidence, trials: settings.trials, chunks, signal, onProgress: (done) => progress.update(done, settings.trials) }),
    );
    if (outcome.partial) throw new UsageError('interrupted: the shard was not finished and nothing was written');
    const file: ShardFile = { ...envelope('shard', rule), params, seed: settings.seed, trials: settings.trials, chunks, threads: settings.threads, tally: Array.from(outcome.tally) };
    writeFileAtomic(out, `${JSON.stringify(file)}\n`);
    io.out(`shard ${index}/${shards}: chunks ${chunks.first}–${chunks.end - 1} of ${chunkCount(settings.trials)} (${outcome.trials.toLocaleString('en-US')} trials) → ${out}\n`);
    return file;
  } finally {
    progress.finish();
    await pool.close();
  }
}

export interface MergeOptions {
  json?: string;
  confidence?: string;
}

/** `muster merge FILE…`: adds shard tallies into the result of the whole run. */
export async function mergeCommand(files: readonly string[], options: MergeOptions, io: Io): Promise<RunResult> {
  if (files.length === 0) throw new UsageError('files: none given; allowed: the tally files written by muster shard');
  const jsonPath = options.json === undefined ? undefined : checkOutputFile('--json', options.json);
  const confidence = options.confidence === undefined ? 0.95 : parseOpenInterval('--confidence', options.confidence, 0, 1);
  const shards = files.map(readShard);
  const first = shards[0];
  const rule = getRule(first.rule);
  const sameRun = (shard: ShardFile) =>
    shard.rule === first.rule && shard.seed === first.seed && shard.trials === first.trials && JSON.stringify(shard.params) === JSON.stringify(first.params);
  const stranger = shards.findIndex((shard) => !sameRun(shard));
  if (stranger >= 0) throw new UsageError(`files: ${files[stranger]} is from another run (rule, params, seed or trials differ); allowed: shards of one run`);

  const covered = new Uint8Array(chunkCount(first.trials));
  for (const [i, shard] of shards.entries()) {
    for (let chunk = shard.chunks.first; chunk < shard.chunks.end; chunk++) {
      if (covered[chunk]) throw new UsageError(`files: chunk ${chunk} is in two shards (again in ${files[i]}); allowed: each shard once`);
      covered[chunk] = 1;
    }
  }
  const missing = covered.indexOf(0);
  if (missing >= 0) throw new UsageError(`files: chunk ${missing} of ${covered.length} is in no shard; allowed: every shard of the run`);

  const tally = new Float64Array(rule.tallyLength(first.params));
  for (const shard of shards) mergeTally(tally, Float64Array.from(shard.tally));
  const result = buildResult({
    rule,
    params: first.params,
    seed: first.seed,
    threads: shards.reduce((sum, shard) => sum + shard.threads, 0),
    confidence,
    trials: first.trials,
    tally,
  });
  io.out(renderRun(result, rule.metrics(first.params), null));
  if (jsonPath) writeFileAtomic(jsonPath, `${JSON.stringify(result, null, 2)}\n`);
  return result;
}

function readShard(file: string): ShardFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    throw new UsageError(`files: cannot read ${file} as a tally; allowed: files written by muster shard`);
  }
  const shard = parsed as ShardFile;
  if (shard?.format !== RESULT_FORMAT || shard.kind !== 'shard' || !Array.isArray(shard.tally)) throw new UsageError(`files: ${file} is not a muster tally; allowed: files written by muster shard`);
  // The params are checked again as a user would have typed them, so a hand-edited file cannot carry impossible values.
  const rule = getRule(shard.rule);
  const params = resolveParams(rule, Object.entries(shard.params).map(([name, value]) => `${name}=${value}`));
  if (shard.tally.length !== rule.tallyLength(params)) throw new UsageError(`files: ${file} has a tally of the wrong length for its parameters; allowed: files written by muster shard`);
  return { ...shard, params };
}
