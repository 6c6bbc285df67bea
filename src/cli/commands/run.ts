import { chooseMetrics } from '../../analysis/metrics.js';
import { asksForCall } from '../../analysis/reserves-call.js';
import { simulateRun, solveRun } from '../../analysis/run.js';
import type { MetricSpec, Params, Rule } from '../../contract/types.js';
import type { Checkpoint } from '../../engine/checkpoint.js';
import { SimulationPool } from '../../engine/pool.js';
import { Interrupted, UsageError } from '../../errors.js';
import { own } from '../../keyed.js';
import { checkDistinct, type InputFile } from '../../output/files.js';
import { interruptedStatus, interruption, withInterrupt } from '../../output/interrupt.js';
import type { Io } from '../../output/io.js';
import { toJson } from '../../output/json.js';
import type { RunResult } from '../../result.js';
import { isRulePath, loadRuleFileRef } from '../../rule-files/ref.js';
import { getRule } from '../../rules/index.js';
import { resolveParams } from '../../rules/params.js';
import { checkCounts } from '../../shards/tally-check.js';
import {
  type CheckpointOptions,
  openCheckpoint,
  type Resumed,
  ruleOfJob,
  savedTrials,
  streamOfJob,
} from '../checkpoint-option.js';
import { renderDecisions } from '../decisions-format.js';
import { renderDistribution } from '../distribution-table.js';
import { noteNoExact, orSimulate, warnFarFromExact } from '../exact-warning.js';
import { formatCount, renderRun, tableWidth } from '../format.js';
import { hiddenNote } from '../metrics.js';
import { checkOutputFile, DEFAULT_TRIALS, parseSeed } from '../options.js';
import { checkOutputNames } from '../output-names.js';
import { checkReportPaths, ruleFileInputs, writeReports } from '../output-paths.js';
import { ProgressBar } from '../progress.js';
import { reportIo } from '../report-io.js';
import { reservesCallCommand } from './reserves-call.js';

export interface RunOptions extends CheckpointOptions {
  set?: string[];
  trials?: string;
  seed?: string;
  stream?: string;
  threads?: string;
  precision?: string;
  maxTrials?: string;
  confidence?: string;
  exact?: boolean;
  json?: string;
  html?: string;
  svg?: string;
  csv?: string;
  timeout?: string;
  printDiagnostics?: boolean;
  quiet?: boolean;
  metric?: string[];
  all?: boolean;
  percentile?: string;
  /** A rule with decisions: the metric side a plays for (the parameter objective). */
  objective?: string;
}

export { DEFAULT_TRIALS };

import { withTails } from '../../analysis/tails.js';
import {
  DEFAULT_SEED,
  parsePercentiles,
  parseSimulationSettings,
  parseTimeout,
  type SimulationSettings,
} from '../../engine/settings.js';
import { withPercentiles } from '../../result-distribution.js';

export {
  DEFAULT_MAX_TRIALS,
  DEFAULT_SEED,
  parseSimulationSettings,
  parseTimeout,
  type SimulationSettings,
} from '../../engine/settings.js';

export { withInterrupt };

/** `muster run <rule>`: simulate (or, with --exact, solve) one rule at one set of parameters. */
export async function runCommand(ruleId: string, options: RunOptions, io: Io): Promise<RunResult> {
  // A built-in rule is found without an await, so nothing (such as a Ctrl-C listener) waits on a tick.
  const loaded = isRulePath(ruleId) ? await loadRuleFileRef(ruleId) : getRule(ruleId);
  if (asksForCall(loaded, options.set ?? [])) return reservesCallCommand(loaded, options, io);
  // A distribution's tail named by --metric (`arrived.by.2>=3`) is a probability metric like any other.
  const rule = withTails(loaded, options.metric ?? []);
  const params = resolveParams(rule, objectiveSet(rule, options));
  const choice = chooseMetrics(rule, rule.metrics(params), options.metric, { all: options.all, params });
  const percentiles = options.percentile === undefined ? [] : parsePercentiles(options.percentile);
  if (percentiles.length > 0 && !rule.metrics(params).some((metric) => metric.distribution))
    throw new UsageError(
      `--percentile: ${rule.id} has no distribution metric at these params; allowed: leave --percentile out`,
    );
  const jsonPath = options.json === undefined ? undefined : checkOutputFile('--json', options.json, { stdout: true });
  const reportPaths = checkReportPaths(options);
  const outputs = [
    { option: '--json', path: jsonPath },
    { option: '--html', path: reportPaths.html },
    { option: '--csv', path: reportPaths.csv },
    { option: '--svg', path: reportPaths.svgDir },
  ];
  // No output may replace the rule file the run reads.
  const inputs = ruleFileInputs([rule]);
  checkDistinct(outputs, inputs);
  checkOutputNames([
    { option: '--json', path: options.json, format: 'json' },
    { option: '--html', path: options.html, format: 'html' },
    { option: '--csv', path: options.csv, format: 'csv' },
  ]);
  const report = reportIo(io, jsonPath, reportPaths.csv);

  const { result, seconds, resumed } = options.exact
    ? { result: await exactRun(rule, params, options), seconds: null, resumed: undefined }
    : await simulatedRun(rule, params, options, io, { outputs, inputs });

  if (result.distributions) withPercentiles(result.distributions, result.trials, percentiles);
  const objective = rule.metrics(params).find((metric) => metric.name === result.objective?.metric);
  report.out(
    renderRun(result, choice.shown, seconds, {
      fold: choice.how === 'headline',
      note: hiddenNote(choice),
      width: tableWidth(io.columns),
      resumed,
    }) +
      distributionTables(result, choice.shown, tableWidth(io.columns)) +
      renderDecisions(result, {
        probability: objective?.probability ?? false,
        width: tableWidth(io.columns),
        all: options.all,
      }),
  );
  if (result.method === 'simulation') {
    warnFarFromExact(result, rule, io);
    // A rule file whose dice could not be enumerated here: say why the exact column is empty, and what fills it.
    if (!options.quiet) noteNoExact([result], io);
  }
  // Every output is rendered before any is written, so a failure leaves none half done.
  // The report modules (charts, page, CSV) load only when a report is asked for: a third of the modules a plain run
  // would load.
  const reports =
    reportPaths.html || reportPaths.svgDir || reportPaths.csv
      ? await (await import('../../../reports/run-report.js')).runReportFiles(rule, result, {
          ...reportPaths,
          printDiagnostics: options.printDiagnostics,
        })
      : [];
  const files = [...(jsonPath ? [{ path: jsonPath, contents: toJson(result), option: '--json' }] : []), ...reports];
  writeReports(files, io, options.quiet ?? false);
  if (result.partial) process.exitCode = interruptedStatus();
  return result;
}

/** `muster run --exact`: the rule's exact values, refused with any option of a simulation. */
async function exactRun(rule: Rule, params: Params, options: RunOptions): Promise<RunResult> {
  if (!rule.exact) throw new UsageError(`--exact: ${rule.id} has no exact solution; allowed: run it without --exact`);
  for (const option of ['trials', 'precision', 'maxTrials', 'threads', 'confidence', 'checkpoint', 'stream'] as const) {
    if (options[option] !== undefined)
      throw new UsageError(
        `--exact: cannot be combined with --${option.replace('T', '-t')}; allowed: --exact alone, or a simulation`,
      );
  }
  // --timeout stops a rule file's exact() or enumeration that runs past it (cli/supervisor.ts); checked here.
  if (options.timeout !== undefined) parseTimeout(options.timeout);
  const seed = parseSeed(options.seed ?? DEFAULT_SEED);
  const result = await orSimulate('leave out --exact', () => solveRun(rule, params, seed));
  // A signal heard while it was solved (solving has no pause in which to hear one): nothing is written.
  if (interruption()) throw new Interrupted('interrupted while the exact values were solved; nothing was written');
  return result;
}

/** The run simulated, resumed from --checkpoint when it holds chunks, and how long it took. */
async function simulatedRun(
  rule: Rule,
  params: Params,
  options: RunOptions,
  io: Io,
  { outputs, inputs }: { outputs: Array<{ option: string; path: string | undefined }>; inputs: InputFile[] },
): Promise<{ result: RunResult; seconds: number | null; resumed: Resumed | undefined }> {
  const settings = parseSimulationSettings(options);
  const checkpoint = openCheckpoint(
    options,
    runJob(rule, params, settings),
    (point) =>
      point === 0
        ? {
            tallyLength: rule.tally.length(params),
            totalAllowed: (total) =>
              settings.precision === undefined ? total === settings.trials : total <= (settings.maxTrials as number),
            checkTally: (tally, trials) => checkCounts(rule, params, tally, trials),
          }
        : undefined,
    null,
    { outputs, inputs },
  );
  // A resumed run says so, and counts only its own trials in its rate.
  const already = settings.precision === undefined ? savedTrials(checkpoint, 1, settings.trials) : 0;
  let resumed: Resumed | undefined;
  if (checkpoint && already > 0) {
    resumed = { path: checkpoint.path, trials: already };
    if (!options.quiet)
      io.err(
        `resuming from ${checkpoint.path}: ${formatCount(already)} of ${formatCount(settings.trials)} trials ` +
          `already done\n`,
      );
  }
  const started = performance.now();
  const result = await simulateOnce(rule, params, settings, io, options.quiet ?? false, checkpoint, already);
  return { result, seconds: (performance.now() - started) / 1000, resumed };
}

/** The --set assignments, with --objective METRIC as `objective=METRIC` (a rule with decisions only). */
function objectiveSet(rule: Rule, options: RunOptions): string[] {
  const set = options.set ?? [];
  if (options.objective === undefined) return set;
  if (!rule.exact?.decisions)
    throw new UsageError(
      `--objective: ${rule.id} has no decisions; allowed: a rule file with choices and choose ` +
        '(docs/custom-rules.md, "Decisions"), or reserves --set chosenRound=call, or leave --objective out',
    );
  if (set.some((assignment) => assignment.trim().startsWith('objective=') || /^objective\s*=/.test(assignment.trim())))
    throw new UsageError('--objective: objective is also set with --set; allowed: one of the two');
  return [...set, `objective=${options.objective}`];
}

/**
 * What a run's checkpoint must match: everything that decides its tally (not the thread count, which cannot change it).
 */
function runJob(rule: Rule, params: RunResult['params'], settings: SimulationSettings): Record<string, unknown> {
  const amount =
    settings.precision === undefined
      ? { trials: settings.trials }
      : { precision: settings.precision, maxTrials: settings.maxTrials, confidence: settings.confidence };
  return {
    command: 'run',
    ...ruleOfJob(rule),
    params,
    seed: settings.seed,
    ...streamOfJob(settings.stream),
    ...amount,
  };
}

async function simulateOnce(
  rule: Rule,
  params: RunResult['params'],
  settings: SimulationSettings,
  io: Io,
  quiet: boolean,
  checkpoint?: Checkpoint,
  already = 0,
): Promise<RunResult> {
  const pool = SimulationPool.take(settings.threads);
  const progress = new ProgressBar(io.err, io.errIsTTY && !quiet, undefined, { already });
  try {
    return await withInterrupt((signal) =>
      simulateRun(pool, rule, params, settings, {
        ledger: checkpoint?.ledger(0),
        signal,
        onProgress: (done, target) => progress.update(done, target),
      }),
    );
  } finally {
    checkpoint?.save();
    progress.finish();
    await pool.close();
  }
}

/** Each distribution metric shown, as its table of values (distribution-table.ts), after the metrics table. */
function distributionTables(result: RunResult, shown: readonly MetricSpec[], width: number): string {
  const distributions = result.distributions;
  if (!distributions) return '';
  let text = '';
  for (const metric of shown) {
    const distribution = own(distributions, metric.name);
    const mean = own(result.metrics, metric.name);
    if (distribution && mean)
      text += `\n${renderDistribution(metric.name, distribution, mean, result.method === 'simulation', width)}`;
  }
  return text;
}
