/**
 * Runs split across machines. `muster shard` runs one block of a run's
 * chunks and writes its tally; `muster merge` adds the tallies of all the
 * blocks. Chunk k draws from the same stream wherever it runs, so the merged
 * result is bit-identical to the run on one machine.
 */

import { randomInt } from 'node:crypto';
import { checkDistinct, ruleFileInputs, STDOUT, writeOutputs } from '../../output/files.js';
import { formatCount } from '../../output/format.js';
import { interruptedStatus } from '../../output/interrupt.js';
import { toJson } from '../../output/json.js';
import { terminalLine } from '../../output/terminal.js';
import {
  checkCounts,
  isRecordedRuleFile,
  mixedStreams,
  namedRuleFiles,
  readShardJson,
  type ShardFile,
  shardTrials,
  validateShard,
} from '../../shards/shard-file.js';
import { reportIo } from '../report-io.js';

export type { ShardFile };

import type { CompareResult } from '../../analysis/compare.js';
import { buildResult, withDecisions } from '../../analysis/result-of.js';
import type { SweepResult } from '../../analysis/sweep.js';
import type { Params, Rule } from '../../contract/types.js';
import { chunkCount, shardChunks } from '../../engine/chunks.js';
import { SimulationPool } from '../../engine/pool.js';
import { mergeTally } from '../../engine/run-chunks.js';
import { parseTimeout, type SimulationSettings } from '../../engine/settings.js';
import { simulate } from '../../engine/simulate.js';
import { Interrupted, UsageError } from '../../errors.js';
import type { Io } from '../../output/io.js';
import { envelope, type RunResult } from '../../result.js';
import { isRulePath, loadRule } from '../../rule-files/load.js';
import { getRule } from '../../rules/index.js';
import { resolveParams } from '../../rules/params.js';
import { fillIndex, resolveShard, type ShardPlace } from '../../shards/scheduler.js';
import { openCheckpoint, ruleOfJob, savedTrials, streamOfJob } from '../checkpoint-option.js';
import { renderDecisions } from '../decisions-format.js';
import { renderRun, tableWidth } from '../format.js';
import { checkOutputFile, parseConfidence, parseIntegerOption, parseThreads } from '../options.js';
import { checkOutputNames } from '../output-names.js';
import { evaluateOnPool } from './grid-pool.js';
import { type GridMergeOptions, type GridView, isGridShard, mergeGridShards } from './grid-shard.js';
import { parseSimulationSettings, type RunOptions, withInterrupt } from './run.js';

interface ShardOptions extends RunOptions {
  shard?: string;
  /** The shard count where the scheduler does not export it (--shard auto). */
  shards?: string;
  out?: string;
}

/**
 * `muster shard <rule> --shard i/n --out FILE`: one block of a run, for
 * another machine to merge. `--shard auto` (or no --shard inside an array
 * job) takes i and n from the scheduler's environment (shards/scheduler.ts).
 */
export async function shardCommand(
  ruleId: string,
  options: ShardOptions,
  io: Io,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ShardFile> {
  // A built-in rule is found without an await, so nothing (such as a Ctrl-C listener) waits on a tick.
  const rule = isRulePath(ruleId) ? await loadRule(ruleId) : getRule(ruleId);
  const params = resolveParams(rule, options.set ?? []);
  if (options.precision !== undefined)
    throw new UsageError('--precision: a shard runs a fixed block of trials; allowed: --trials N');
  const place = resolveShard(options.shard, options.shards, env, true) ?? {
    index: 0,
    count: 1,
    source: 'option' as const,
  };
  const { index, count: shards } = place;
  if (options.json !== undefined)
    throw new UsageError(
      `--json: got ${JSON.stringify(options.json)}; allowed: no --json for a shard (its tally goes to --out; ` +
        `muster merge --json writes the result)`,
    );
  if (options.out === undefined)
    throw new UsageError(
      '--out: missing; allowed: the file to write this shard’s tally to ({index} becomes the shard index)',
    );
  const out = checkOutputFile('--out', fillIndex(options.out, place));
  checkDistinct([{ option: '--out', path: out }], ruleFileInputs([rule]));
  checkOutputNames([{ option: '--out', path: options.out, format: 'json' }]);
  const settings = parseSimulationSettings(options);
  const chunks = shardChunks(settings.trials, index, shards);
  const count = chunkCount(settings.trials);
  if (chunks.first >= chunks.end) {
    throw new UsageError(
      `--shard: got ${JSON.stringify(options.shard ?? `${index}/${shards}`)}: shard ${index} of ${shards} has no ` +
        `chunks, as ${settings.trials} trials make ${count} chunk${count === 1 ? '' : 's'}; allowed: at most ` +
        `${count} ` +
        `shards (n ≤ ${count}), or more --trials`,
    );
  }
  const checkpoint = openShardCheckpoint(options, rule, params, settings, chunks, place, out);

  // A resumed shard says so, and counts only its own trials in its rate.
  const already = savedTrials(checkpoint, 1, settings.trials);
  const target = shardTrials(chunks, settings.trials);
  const run = { simulating: true, threads: settings.threads, totalTrials: target, already, checkpoint };
  const outcome = await evaluateOnPool(
    { ...run, quiet: options.quiet, resumeLine: 'own' },
    io,
    ({ pool, signal, onTrials }) =>
      // Simulating, so the pool is taken.
      simulate(pool as SimulationPool, {
        rule,
        params,
        seed: settings.seed,
        stream: settings.stream,
        confidence: settings.confidence,
        trials: settings.trials,
        chunks,
        timeout: settings.timeout,
        ledger: checkpoint?.ledger(0),
        signal,
        onProgress: onTrials,
      }),
  );
  const file: ShardFile = {
    ...envelope('shard', rule),
    ...(rule.file ? { ruleFile: { path: rule.file.path, sha256: rule.file.sha256 } } : {}),
    params,
    seed: settings.seed,
    stream: settings.stream,
    trials: settings.trials,
    chunks,
    threads: settings.threads,
    tally: Array.from(outcome.tally),
  };
  if (outcome.partial) {
    // A shard's chunks must all be counted for merge to add it; the chunks that finished cannot be told apart in one
    // tally.
    io.out(
      `PARTIAL: interrupted after ${formatCount(outcome.trials)} of ${formatCount(target)} trials of shard ` +
        `${index}/${shards}; a shard is merged whole, so nothing was written (run it again)\n`,
    );
    process.exitCode = interruptedStatus();
    return file;
  }
  writeOutputs([{ path: out, contents: toJson(file, undefined), option: '--out' }], io.out);
  io.out(
    `shard ${index}/${shards}: chunks ${chunks.first}–${chunks.end - 1} of ${count} ` +
      `(${formatCount(outcome.trials)} trials) → ${terminalLine(out)}\n`,
  );
  return file;
}

/** The shard's checkpoint (--checkpoint), its job the rule, parameters, stream, trials and chunks of this shard. */
function openShardCheckpoint(
  options: ShardOptions,
  rule: Rule,
  params: Params,
  settings: SimulationSettings,
  chunks: { first: number; end: number },
  place: ShardPlace,
  out: string,
) {
  return openCheckpoint(
    options,
    {
      command: 'shard',
      ...ruleOfJob(rule),
      params,
      seed: settings.seed,
      ...streamOfJob(settings.stream),
      trials: settings.trials,
      chunks,
    },
    (point) =>
      point === 0
        ? {
            tallyLength: rule.tally.length(params),
            totalAllowed: (total) => total === settings.trials,
            chunks,
            checkTally: (tally, trials) => checkCounts(rule, params, tally, trials),
          }
        : undefined,
    place,
    { outputs: [{ option: '--out', path: out }], inputs: ruleFileInputs([rule]) },
  );
}

interface MergeOptions extends GridMergeOptions {
  json?: string;
  confidence?: string;
  /**
   * Re-run this many shards (of a sweep or a comparison: pieces), chosen at random, and refuse the merge if any differs
   * from its file.
   */
  verify?: string;
  threads?: string;
  /** Checked here; the supervisor stops a rule file's call that runs past it (cli/supervisor.ts). */
  timeout?: string;
}

/**
 * `muster merge FILE…`: the shards of a run (muster shard), or of a sweep or a comparison (--shard), added into the
 * whole.
 */
export async function mergeAnyCommand(
  files: readonly string[],
  options: MergeOptions,
  io: Io,
): Promise<RunResult | SweepResult | CompareResult> {
  if (options.timeout !== undefined) parseTimeout(options.timeout);
  let grid = false;
  try {
    grid = files.length > 0 && isGridShard(readShardJson(files[0]));
  } catch {
    // Not readable as JSON: mergeCommand checks its options first, then says what is wrong with the file.
  }
  if (!grid) return mergeCommand(files, options, io);
  // The analyses a grid shard can be of, each with how its command writes the merged result.
  const views = [
    (await import('./sweep.js')).sweepView,
    (await import('./compare.js')).compareView,
    (await import('./balance.js')).balanceView,
  ];
  return (await mergeGridShards(files, options, io, views as GridView<unknown, unknown>[])) as
    | SweepResult
    | CompareResult;
}

/** `muster merge FILE…` of `muster shard` files: adds shard tallies into the result of the whole run. */
export async function mergeCommand(files: readonly string[], options: MergeOptions, io: Io): Promise<RunResult> {
  if (files.length === 0) throw new UsageError('files: none given; allowed: the tally files written by muster shard');
  for (const option of ['html', 'csv', 'metric'] as const) {
    if (options[option] !== undefined)
      throw new UsageError(
        `--${option}: only when merging the shards of a sweep or a comparison; allowed: --json and --confidence ` +
          `for a run`,
      );
  }
  const jsonPath = options.json === undefined ? undefined : checkOutputFile('--json', options.json, { stdout: true });
  checkOutputNames([{ option: '--json', path: options.json, format: 'json' }]);
  const verify = options.verify === undefined ? 0 : parseIntegerOption('--verify', options.verify, 0, files.length);
  const threads = parseThreads(options.threads);
  // The result must never replace a shard (merge a.json b.json --json a.json), nor one shard be given twice.
  const shardInputs = files.map((file) => ({ name: 'files', path: file }));
  checkDistinct(
    [{ option: '--json', path: jsonPath }],
    [...shardInputs, ...(options.rule ?? []).map((path) => ({ name: '--rule', path }))],
  );
  const confidence = options.confidence === undefined ? 0.95 : parseConfidence(options.confidence);
  const parsed = files.map((file) => readShardJson(file));
  // The rule file is the one the person names, matched to the first shard's record; every shard must record the same.
  const recorded = (parsed[0] as { ruleFile?: unknown } | null)?.ruleFile;
  if (recorded !== undefined && !isRecordedRuleFile(recorded)) {
    throw new UsageError(
      `files: ${JSON.stringify(files[0])}: ruleFile: got ${JSON.stringify(recorded)?.slice(0, 60)}; allowed: { ` +
        `"path", "sha256" } as muster shard writes them`,
    );
  }
  const [fileRule] = await namedRuleFiles(recorded === undefined ? [] : [recorded], options.rule, files[0]);
  const shards = parsed.map((record, index) =>
    validateShard(`files: ${JSON.stringify(files[index])}`, record, fileRule),
  );
  const first = shards[0];
  const rule = fileRule ?? getRule(first.rule);
  // The rule file, now loaded, is an input too.
  checkDistinct([{ option: '--json', path: jsonPath }], [...shardInputs, ...ruleFileInputs([rule])]);
  const otherStream = shards.findIndex((shard) => shard.stream !== first.stream);
  if (otherStream >= 0) throw mixedStreams(files[otherStream], shards[otherStream].stream, files[0], first.stream);
  const sameRun = (shard: ShardFile) =>
    shard.stream === first.stream &&
    shard.rule === first.rule &&
    shard.ruleFile?.sha256 === first.ruleFile?.sha256 &&
    shard.seed === first.seed &&
    shard.trials === first.trials &&
    JSON.stringify(shard.params) === JSON.stringify(first.params);
  const stranger = shards.findIndex((shard) => !sameRun(shard));
  if (stranger >= 0)
    throw new UsageError(
      `files: ${files[stranger]} is from another run (rule, params, seed or trials differ); allowed: shards of one run`,
    );

  const covered = new Uint8Array(chunkCount(first.trials));
  for (const [i, shard] of shards.entries()) {
    for (let chunk = shard.chunks.first; chunk < shard.chunks.end; chunk++) {
      if (covered[chunk])
        throw new UsageError(`files: chunk ${chunk} is in two shards (again in ${files[i]}); allowed: each shard once`);
      covered[chunk] = 1;
    }
  }
  const missing = covered.indexOf(0);
  if (missing >= 0)
    throw new UsageError(
      `files: chunk ${missing} of ${covered.length} is in no shard; allowed: every shard of the run`,
    );

  if (verify > 0) await verifyShards(rule, shards, files, verify, threads, options.quiet ?? false, io);

  const tally = new Float64Array(rule.tally.length(first.params));
  for (const shard of shards) mergeTally(tally, Float64Array.from(shard.tally));
  // A rule with decisions: its objective and policy under best play, as `muster run` gives them (result.ts).
  const result = withDecisions(
    rule,
    first.params,
    buildResult({
      rule,
      params: first.params,
      seed: first.seed,
      stream: first.stream,
      threads: shards.reduce((sum, shard) => sum + shard.threads, 0),
      confidence,
      trials: first.trials,
      tally,
    }),
  );
  reportIo(io, jsonPath).out(
    renderRun(result, rule.metrics(first.params), null) +
      renderDecisions(result, {
        probability:
          rule.metrics(first.params).find((metric) => metric.name === result.objective?.metric)?.probability ?? false,
        width: tableWidth(io.columns),
      }),
  );
  if (jsonPath) writeOutputs([{ path: jsonPath, contents: toJson(result), option: '--json' }], io.out);
  if (jsonPath && jsonPath !== STDOUT && !options.quiet) io.err(`wrote ${terminalLine(jsonPath)}\n`);
  return result;
}

/**
 * `merge --verify K`: re-runs K of the shards, chosen with the operating
 * system's randomness so a forger cannot know which, and refuses the merge
 * if any differs from its file by a single count. The checks above catch
 * every inconsistent shard; only a re-run catches a consistent hand edit
 * (counts moved between outcomes so every sum still holds). A forged share
 * f of N shards escapes with probability C(N − f, K) / C(N, K), at the cost
 * of re-running K / N of the run.
 */
async function verifyShards(
  rule: Rule,
  shards: readonly ShardFile[],
  files: readonly string[],
  count: number,
  threads: number,
  quiet: boolean,
  io: Io,
): Promise<void> {
  const order = shards.map((_, index) => index);
  for (let i = order.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [order[i], order[j]] = [order[j], order[i]];
  }
  const pool = SimulationPool.take(threads);
  try {
    for (const index of order.slice(0, count)) {
      const shard = shards[index];
      const outcome = await withInterrupt((signal) =>
        simulate(pool, {
          rule,
          params: shard.params,
          seed: shard.seed,
          stream: shard.stream,
          confidence: 0.95,
          trials: shard.trials,
          chunks: shard.chunks,
          signal,
        }),
      );
      if (outcome.partial)
        throw new Interrupted('--verify: interrupted before the shards were checked; nothing was written');
      const differs = outcome.tally.findIndex((value, i) => value !== shard.tally[i]);
      if (differs >= 0) {
        throw new UsageError(
          `files: ${JSON.stringify(files[index])}: tally[${differs}]: got ${shard.tally[differs]}, a re-run of its ` +
            `chunks ${shard.chunks.first}–${shard.chunks.end - 1} gives ${outcome.tally[differs]}; allowed: the ` +
            `tally muster ` +
            `shard computes (the file was edited, or written by another build)`,
        );
      }
      if (!quiet)
        io.err(
          `verified ${terminalLine(files[index])}: a re-run of chunks ${shard.chunks.first}–${shard.chunks.end - 1} ` +
            `gives the same tally\n`,
        );
    }
  } finally {
    await pool.close();
  }
}
