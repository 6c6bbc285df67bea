/**
 * Sweeps and comparisons split across machines. `muster sweep … --shard
 * i/n --out FILE` (or `muster compare …`) runs this shard's share of the
 * points' chunks (shards/grid-shards.ts) and writes their tallies; `muster
 * merge` adds the shards' tallies point by point into the same sweep or
 * comparison, table, JSON, CSV and HTML, as on one machine. A shard records
 * the command as it was asked for (--set, --vary or --variant, seed,
 * trials), and merge plans it again from that text exactly as the CLI
 * would, so a shard cannot smuggle in points the CLI would refuse.
 */

import type { Evaluated } from '../../analysis/evaluate.js';
import type { GridAnalysis, GridArgs, GridJob, RecordedFile } from '../../analysis/grid.js';
import { buildResult } from '../../analysis/result-of.js';
import type { Rule } from '../../contract/types.js';
import { chunkCount } from '../../engine/chunks.js';
import type { SimulationPool } from '../../engine/pool.js';
import { mergeTally } from '../../engine/run-chunks.js';
import { simulateMany } from '../../engine/simulate-many.js';
import { Interrupted, UsageError } from '../../errors.js';
import { checkDistinct, ruleFileInputs, writeOutputs } from '../../output/files.js';
import type { Io } from '../../output/io.js';
import { toJson } from '../../output/json.js';
import { terminalLine } from '../../output/terminal.js';
import { isRulePath } from '../../rule-files/load.js';
import { getRule } from '../../rules/index.js';
import { GRID_SHARD_FORMAT, type GridShardFile, readGridShard } from '../../shards/grid-shard-file.js';
import { type GridPiece, gridShardPieces } from '../../shards/grid-shards.js';
import { type GridToVerify, PiecesToVerify } from '../../shards/grid-verify.js';
import { fillIndex, type ShardPlace } from '../../shards/scheduler.js';
import { checkCounts, mixedStreams, namedRuleFiles, shardTrials } from '../../shards/shard-file.js';
import { packageVersion } from '../../version.js';
import { type CheckpointOptions, openCheckpoint, ruleOfJob, savedTrials, streamOfJob } from '../checkpoint-option.js';
import { checkOutputFile, parseConfidence } from '../options.js';
import { checkOutputNames } from '../output-names.js';
import { checkGridPaths, type GridPaths } from '../output-paths.js';
import { evaluateOnPool } from './grid-pool.js';

export { GRID_SHARD_FORMAT, type GridShardFile, isGridShard } from '../../shards/grid-shard-file.js';
export type { GridArgs, GridJob, RecordedFile };

/**
 * An analysis over a grid as the CLI shows it: the analysis (plan, assemble) and how its command writes the
 * result (table, --json, --csv, --html). Merge is generic over these; each command module exports its own.
 */
export interface GridView<Plan, Result> {
  analysis: GridAnalysis<Plan, Result>;
  write(plan: Plan, result: Result, paths: GridPaths, quiet: boolean, io: Io): void | Promise<void>;
}

export interface GridShardOptions extends CheckpointOptions {
  json?: string;
  html?: string;
  csv?: string;
  out?: string;
  quiet?: boolean;
}

/** Runs this shard's pieces of the points and writes them to --out. */
export async function runGridShard(
  analysis: GridAnalysis<unknown, unknown>,
  job: GridJob,
  place: ShardPlace,
  options: GridShardOptions,
  io: Io,
): Promise<GridShardFile> {
  const { rule, points, seeds, settings } = job;
  const ruleOf = (point: number) => job.rules?.[point] ?? rule;
  if (settings.method === 'exact')
    throw new UsageError(
      `--shard: an exact ${job.command} takes no time worth splitting; allowed: leave out --shard and --out, or simulate ` +
        // A sweep is exact only under --exact; a comparison is exact by default, and --simulate asks it to simulate.
        (job.command === 'sweep' ? '(leave out --exact)' : '(--simulate, without --exact)'),
    );
  for (const option of ['json', 'html', 'csv'] as const) {
    if (options[option] !== undefined)
      throw new UsageError(`--${option}: a shard writes its tallies to --out; allowed: --${option} on muster merge`);
  }
  if (options.out === undefined)
    throw new UsageError(
      '--out: missing; allowed: the file to write this shard’s tallies to ({index} becomes the shard index)',
    );
  const out = checkOutputFile('--out', fillIndex(options.out, place));
  const inputs = ruleFileInputs([rule, ...(job.rules ?? [])]);
  checkDistinct([{ option: '--out', path: out }], inputs);
  checkOutputNames([{ option: '--out', path: options.out, format: 'json' }]);
  const pieces = gridShardPieces(points.length, settings.trials, place.index, place.count);
  const checkpoint = openGridShardCheckpoint(options, job, pieces, place, out, inputs);

  // A resumed shard says so, and counts only its own trials in its rate.
  const already = savedTrials(checkpoint, points.length, settings.trials);
  const total = pieces.reduce((sum, piece) => sum + shardTrials(piece, settings.trials), 0);
  const run = { simulating: true, threads: settings.threads, totalTrials: total, already, checkpoint };
  const done: GridShardFile['pieces'] = [];
  await evaluateOnPool({ ...run, quiet: options.quiet, resumeLine: 'own' }, io, async ({ pool, signal, onTrials }) => {
    // Every piece at once on the pool, as the points of a sweep run: small pieces travel together.
    const outcomes = await simulateMany(
      // Simulating, so the pool is taken.
      pool as SimulationPool,
      pieces.map((piece) => ({
        rule: ruleOf(piece.point),
        params: points[piece.point],
        seed: seeds[piece.point],
        stream: settings.stream,
        trials: settings.trials,
        chunks: piece,
        ledger: checkpoint?.ledger(piece.point),
      })),
      { signal, timeout: settings.timeout, onProgress: onTrials },
    );
    if (outcomes.some((outcome) => outcome.partial))
      throw new Interrupted(
        `interrupted before shard ${place.index}/${place.count} finished; a shard is merged whole, so nothing ` +
          `was written (run it again)`,
      );
    pieces.forEach((piece, i) => done.push({ ...piece, tally: Array.from(outcomes[i].tally) }));
  });
  const file: GridShardFile = {
    format: GRID_SHARD_FORMAT,
    version: packageVersion(),
    command: job.command,
    rule: rule.id,
    args: job.args,
    seed: settings.seed,
    stream: settings.stream,
    trials: settings.trials,
    confidence: settings.confidence,
    shard: { index: place.index, count: place.count },
    threads: settings.threads,
    pieces: done,
    ...(job.ruleFiles.length > 0 ? { ruleFiles: job.ruleFiles } : {}),
  };
  writeOutputs([{ path: out, contents: toJson(file, undefined), option: '--out' }], io.out);
  const noun = analysis.noun;
  const span =
    pieces.length === 0
      ? 'nothing (more shards than chunks)'
      : `${noun} ${pieces[0].point + 1}–${pieces[pieces.length - 1].point + 1} of ${points.length}`;
  io.out(`${job.command} shard ${place.index}/${place.count}: ${span} → ${terminalLine(out)}\n`);
  return file;
}

/** The grid shard's checkpoint (--checkpoint), its job the rules, seeds, stream, trials, points and this shard's pieces. */
function openGridShardCheckpoint(
  options: GridShardOptions,
  job: GridJob,
  pieces: GridPiece[],
  place: ShardPlace,
  out: string,
  inputs: ReturnType<typeof ruleFileInputs>,
) {
  const { rule, points, seeds, settings } = job;
  const ruleOf = (point: number) => job.rules?.[point] ?? rule;
  return openCheckpoint(
    options,
    {
      command: `${job.command} shard`,
      ...ruleOfJob(rule),
      ...(job.rules ? { rules: job.rules.map((r) => ruleOfJob(r)) } : {}),
      seeds,
      ...streamOfJob(settings.stream),
      trials: settings.trials,
      points,
      pieces,
    },
    (point) => {
      const piece = pieces.find((p) => p.point === point);
      return (
        piece && {
          tallyLength: ruleOf(point).tally.length(points[point]),
          totalAllowed: (total) => total === settings.trials,
          chunks: piece,
          checkTally: (tally, trials) => checkCounts(ruleOf(point), points[point], tally, trials),
        }
      );
    },
    place,
    { outputs: [{ option: '--out', path: out }], inputs },
  );
}

export interface GridMergeOptions {
  /** The rule files the shards were run with, as the person names them (a shard's own record is never imported). */
  rule?: string[];
  json?: string;
  html?: string;
  csv?: string;
  metric?: string[];
  confidence?: string;
  /**
   * Re-run this many pieces (a point's chunks in one shard), chosen at random, and refuse the merge if any differs
   * (shards/grid-verify.ts).
   */
  verify?: string;
  threads?: string;
  quiet?: boolean;
}

/** `muster merge` of sweep or comparison shards: every chunk of every point exactly once, added point by point. */
export async function mergeGridShards(
  files: readonly string[],
  options: GridMergeOptions,
  io: Io,
  views: readonly GridView<unknown, unknown>[],
): Promise<unknown> {
  const analyses = views.map((view) => view.analysis);
  // Files are read one at a time and only their tallies kept, so memory does not grow with the number of shards.
  const first = readGridShard(files[0], analyses);
  const view = views.find((candidate) => candidate.analysis.command === first.command)!;
  const { analysis } = view;
  const recorded = checkRecordedFiles(first, analysis, files[0]);
  const rules = await shardRules(first, recorded, options.rule, files[0]);
  const confidence = options.confidence === undefined ? first.confidence : parseConfidence(options.confidence);
  if (!analysis.metricOnMerge && options.metric !== undefined)
    throw new UsageError(`--metric: only when merging a sweep; allowed: leave it out for ${analysis.what}`);
  const plan = replanShard(first, analysis, files[0], confidence, options.metric, rules);
  const job = analysis.job(plan, first.args, recorded);
  const { rule, points, seeds } = job;
  // A comparison's variants may each have a rule of their own.
  const ruleAt = (point: number) => job.rules?.[point] ?? rule;
  // No output may replace a shard or a rule file, nor two outputs share a file.
  const paths = checkGridPaths(options, [
    ...files.map((file) => ({ name: 'files', path: file })),
    ...ruleFileInputs([rule, ...(job.rules ?? [])]),
  ]);
  const grid: GridToVerify = {
    command: first.command,
    ruleAt,
    points,
    seeds,
    stream: first.stream,
    trials: first.trials,
    shards: first.shard.count,
  };
  const verify = new PiecesToVerify(grid, options.verify);
  const merged = new MergedShards(first, grid, verify);
  for (const [i, path] of files.entries()) merged.add(i === 0 ? first : readGridShard(path, analyses), path, files[0]);
  merged.checkComplete();
  await verify.check(grid, options.threads, options.quiet ?? false, io);
  const evaluated: Evaluated[] = points.map((params, point) => {
    const tallied = ruleAt(point).tally.summarize(params, merged.tallies[point], first.trials);
    const result = buildResult({
      rule: ruleAt(point),
      params,
      seed: seeds[point],
      stream: first.stream,
      threads: merged.threads,
      confidence,
      trials: first.trials,
      tally: merged.tallies[point],
      tallied,
    });
    return { result, tallied };
  });
  const result = analysis.assemble(plan, evaluated, merged.threads);
  await view.write(plan, result, paths, options.quiet ?? false, io);
  return result;
}

/** Every file a shard records must be one its command names (its own rule "", or a variant's rule=… as typed), and
 * every rule file it names must be recorded. */
function checkRecordedFiles(
  first: GridShardFile,
  analysis: GridAnalysis<unknown, unknown>,
  firstPath: string,
): RecordedFile[] {
  const recorded = first.ruleFiles ?? [];
  const named = new Set([...analysis.ruleRefs(first.args), '']);
  const stray = recorded.find((entry) => !named.has(entry.ref) || (entry.ref !== '' && !isRulePath(entry.ref)));
  if (stray)
    throw new UsageError(
      `files: ${firstPath} records the rule file ${JSON.stringify(stray.path)} under ${JSON.stringify(stray.ref)}, ` +
        `which the ${first.command} does not name as a rule file; allowed: files written by muster ` +
        `${first.command} --shard`,
    );
  const unrecorded = [...named].find(
    (ref) => typeof ref === 'string' && ref !== '' && isRulePath(ref) && !recorded.some((entry) => entry.ref === ref),
  );
  if (unrecorded !== undefined)
    throw new UsageError(
      `files: ${firstPath} names the rule file ${JSON.stringify(unrecorded)} without recording it; allowed: files ` +
        `written by muster ${first.command} --shard`,
    );
  return recorded;
}

interface ShardRules {
  own: () => Rule;
  named: (ref: string | undefined, own: Rule) => Rule;
}

/** The rules a shard's command names: each rule file loaded from one the person names with --rule, matched by its
 * hash before it is imported. */
async function shardRules(
  first: GridShardFile,
  recorded: RecordedFile[],
  ruleOptions: GridMergeOptions['rule'],
  firstPath: string,
): Promise<ShardRules> {
  const fileRules = await namedRuleFiles(recorded, ruleOptions, firstPath);
  const loaded = new Map<string, Rule>(recorded.map((entry, index) => [entry.ref, fileRules[index]]));
  const named = (ref: string | undefined, own: Rule): Rule => {
    if (ref === undefined) return own;
    if (!isRulePath(ref)) return getRule(ref);
    const rule = loaded.get(ref);
    if (!rule)
      throw new UsageError(
        `files: ${firstPath} names the rule file ${JSON.stringify(ref)} without recording it; allowed: files ` +
          `written by muster ${first.command} --shard`,
      );
    return rule;
  };
  const own = (): Rule => {
    const rule = loaded.get('') ?? getRule(first.rule);
    if (rule.id !== first.rule)
      throw new UsageError(
        `files: ${JSON.stringify(firstPath)} is a shard of rule ${JSON.stringify(first.rule)} but its rule file ` +
          `declares ${JSON.stringify(rule.id)}; allowed: the rule file the shards were run with`,
      );
    return rule;
  };
  return { own, named };
}

/** The command planned again from the shard's own text, exactly as the CLI plans it: what it would refuse is
 * refused here. */
function replanShard(
  first: GridShardFile,
  analysis: GridAnalysis<unknown, unknown>,
  firstPath: string,
  confidence: number,
  metric: GridMergeOptions['metric'],
  rules: ShardRules,
): unknown {
  const settings = {
    seed: first.seed,
    stream: String(first.stream),
    trials: String(first.trials),
    confidence: String(confidence),
  };
  try {
    return analysis.replan(first.args, { ...settings, metric }, rules);
  } catch (error) {
    // A problem with the files themselves (a rule file not recorded, or not the one declared) is said as it is.
    if (error instanceof UsageError && !error.message.startsWith('--metric') && !error.message.startsWith('files:'))
      throw new UsageError(
        `files: ${firstPath} describes a ${first.command} the CLI refuses (${error.message}); allowed: files ` +
          `written by muster ${first.command} --shard`,
      );
    throw error;
  }
}

/** The shards of one grid added as they are read: each shard once, each chunk of each point exactly once. */
class MergedShards {
  readonly tallies: Float64Array[];
  threads = 0;
  private readonly covered: Uint8Array[];
  private readonly seen = new Set<number>();
  private readonly identity: string;

  constructor(
    private readonly first: GridShardFile,
    private readonly grid: GridToVerify,
    private readonly verify: PiecesToVerify,
  ) {
    this.tallies = grid.points.map((params, point) => new Float64Array(grid.ruleAt(point).tally.length(params)));
    this.covered = grid.points.map(() => new Uint8Array(chunkCount(first.trials)));
    this.identity = MergedShards.identity(first);
  }

  /** Shards of one command on several machines may record a file at different paths: its reference and contents
   * must agree. */
  private static identity(shard: GridShardFile): string {
    return JSON.stringify([
      shard.command,
      shard.rule,
      (shard.ruleFiles ?? []).map((f) => [f.ref, f.sha256]),
      shard.args,
      shard.seed,
      shard.stream,
      shard.trials,
      shard.confidence,
      shard.shard.count,
    ]);
  }

  add(shard: GridShardFile, path: string, firstPath: string): void {
    const { first } = this;
    if (shard.stream !== first.stream) throw mixedStreams(path, shard.stream, firstPath, first.stream);
    if (MergedShards.identity(shard) !== this.identity)
      throw new UsageError(
        `files: ${path} is from another ${first.command} (command, rule, options, seed, trials, confidence or ` +
          `shard count differ); allowed: shards of one ${first.command}`,
      );
    this.threads += shard.threads;
    if (this.seen.has(shard.shard.index))
      throw new UsageError(
        `files: shard ${shard.shard.index} given twice (again in ${path}); allowed: each shard once`,
      );
    this.seen.add(shard.shard.index);
    // A shard holds exactly the pieces its index is given, so a hand-edited file cannot shift work between shards.
    const expected = gridShardPieces(this.grid.points.length, first.trials, shard.shard.index, shard.shard.count);
    const { pieces } = shard;
    if (
      pieces.length !== expected.length ||
      pieces.some(
        (piece, k) =>
          piece.point !== expected[k].point || piece.first !== expected[k].first || piece.end !== expected[k].end,
      )
    )
      throw new UsageError(
        `files: ${path} does not hold the chunks of shard ${shard.shard.index}/${shard.shard.count}; allowed: ` +
          `files written by muster ${first.command} --shard`,
      );
    for (const piece of pieces) this.addPiece(piece, shard.shard.index, path);
  }

  private addPiece(piece: GridShardFile['pieces'][number], index: number, path: string): void {
    const { first, grid } = this;
    if (piece.tally.length !== this.tallies[piece.point].length)
      throw new UsageError(
        `files: ${path} has a tally of the wrong length for point ${piece.point + 1}; allowed: files written ` +
          `by muster ${first.command} --shard`,
      );
    // The same checks as a run's shard: counts the rule could have made in this piece's trials.
    const problem = checkCounts(
      grid.ruleAt(piece.point),
      grid.points[piece.point],
      Float64Array.from(piece.tally),
      shardTrials(piece, first.trials),
    );
    if (problem)
      throw new UsageError(
        `files: ${path}: tally of point ${piece.point + 1}: ${problem}; allowed: counts ` +
          `${grid.ruleAt(piece.point).id} could have made in this piece's trials`,
      );
    this.covered[piece.point].fill(1, piece.first, piece.end);
    this.verify.keep(index, piece, path);
    mergeTally(this.tallies[piece.point], Float64Array.from(piece.tally));
  }

  /** Every shard given, and so every chunk of every point covered. */
  checkComplete(): void {
    const { first } = this;
    for (let index = 0; index < first.shard.count; index++)
      if (!this.seen.has(index))
        throw new UsageError(
          `files: shard ${index} of ${first.shard.count} is missing; allowed: every shard of the ${first.command}`,
        );
    if (this.covered.some((chunks) => chunks.includes(0)))
      throw new Error('merge: the shards are all here but a chunk is not covered');
  }
}
