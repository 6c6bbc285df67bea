import { bestPoints } from '../../analysis/best.js';
import type { MetricChoice } from '../../analysis/metrics.js';
import { asksForCall } from '../../analysis/reserves-call.js';
import { planSweep, type SweepPlan, type SweepResult, sweepGrid } from '../../analysis/sweep.js';
import { evaluateSweep } from '../../analysis/sweep-evaluate.js';
import { varyValuesText } from '../../analysis/vary.js';
import type { MetricSpec, Rule } from '../../contract/types.js';
import type { Checkpoint } from '../../engine/checkpoint.js';
import { UsageError } from '../../errors.js';
import { own } from '../../keyed.js';
import { type OutputFile, STDOUT, writeOutputs } from '../../output/files.js';
import { interruptedStatus } from '../../output/interrupt.js';
import type { Io } from '../../output/io.js';
import { toJson } from '../../output/json.js';
import { terminalLine } from '../../output/terminal.js';
import type { MetricResult } from '../../result.js';
import { isRulePath, loadRuleFileRef } from '../../rule-files/ref.js';
import { pastQuickBudgetOnly } from '../../rules/exact-of.js';
import { getRule } from '../../rules/index.js';
import { checkCounts } from '../../shards/tally-check.js';
import { BEST_MARK, bestVerdict } from '../best.js';
import {
  type CheckpointOptions,
  openCheckpoint,
  type Resumed,
  ruleOfJob,
  savedTrials,
  streamOfJob,
} from '../checkpoint-option.js';
import { noteNoExact, orSimulate } from '../exact-warning.js';
import {
  formatCertain,
  formatCount,
  formatExact,
  formatParams,
  formatValue,
  renderTable,
  resumedLine,
  tableWidth,
  wrapLines,
  wrapText,
} from '../format.js';
import { hiddenNote } from '../metrics.js';
import { checkGridPaths, ruleFileInputs } from '../output-paths.js';
import { reportIo } from '../report-io.js';
import { evaluateOnPool, recordedRuleFile, shardOfGrid } from './grid-run.js';
import type { GridShardFile, GridView } from './grid-shard.js';
import { type CallSweepResult, reservesCallSweepCommand } from './reserves-call-sweep.js';
import type { RunOptions } from './run.js';

export interface SweepOptions extends RunOptions {
  vary?: string[];
  metric?: string[];
  all?: boolean;
  best?: string;
  html?: string;
  csv?: string;
  /** With --shard: this shard's share of the sweep, for muster merge. */
  shard?: string;
  shards?: string;
  out?: string;
}

/**
 * `muster sweep <rule> --vary …`: every combination of the varied
 * parameters, simulated on one pool with the same seed (or solved exactly
 * with --exact), as a table, JSON, CSV and an HTML report with lines or
 * heatmaps.
 */
export async function sweepCommand(ruleId: string, options: SweepOptions, io: Io): Promise<SweepResult> {
  if (options.shard !== undefined || options.shards !== undefined)
    throw new Error('sweepCommand runs a whole sweep; sweepOrShardCommand takes --shard');
  const plan = planSweep(isRulePath(ruleId) ? await loadRuleFileRef(ruleId) : getRule(ruleId), options);
  if (options.out !== undefined)
    throw new UsageError('--out: only with --shard; allowed: --json, --csv or --html for a whole sweep');
  const { rule, grid, settings } = plan;
  const inputs = ruleFileInputs([rule]);
  const paths = checkGridPaths(options, inputs);
  if (options.exact && options.checkpoint !== undefined)
    throw new UsageError('--checkpoint: an exact sweep simulates nothing; allowed: leave out --checkpoint');
  const checkpoint = openGridCheckpoint('sweep', plan, options, [
    { option: '--json', path: paths.json },
    { option: '--html', path: paths.html },
    { option: '--csv', path: paths.csv },
  ]);

  const simulating = settings.method === 'simulation';
  const totalTrials = grid.length * settings.trials;
  // A resumed sweep says so, and counts only its own trials in its rate.
  const already = savedTrials(checkpoint, grid.length, settings.trials);
  const resumed = checkpoint && already > 0 ? { path: checkpoint.path, trials: already } : undefined;
  // The points run at once: the bar counts trials done over all of them, or points solved.
  const run = { simulating, threads: settings.threads, totalTrials, exactUnit: 'points', already, checkpoint };
  const sweep = await evaluateOnPool({ ...run, quiet: options.quiet, resumeLine: 'of total' }, io, (hooks) =>
    orSimulate('leave out --exact', () =>
      evaluateSweep(plan, { ...hooks, ledgerFor: checkpoint && ((index) => checkpoint.ledger(index)) }),
    ),
  );
  // Interrupted before any combination finished, every output asked for is still written, empty and marked PARTIAL:
  // a script reading them learns that the run was cut short rather than finding last time's files.
  await writeSweep(plan, sweep, paths, options.quiet ?? false, io, resumed);
  // Points of a rule file whose dice could not be enumerated beside the simulation: why, named by what varies.
  if (simulating && !options.quiet && !sweep.partial)
    noteNoExact(
      sweep.points,
      io,
      plan.varies.map((vary) => vary.name),
    );
  if (sweep.partial) process.exitCode = interruptedStatus();
  return sweep;
}

/**
 * The checkpoint of a whole sweep (or a balance, whose points are a sweep's), when --checkpoint asks for one: each
 * point's finished chunks, checked as a tally of its rule, so the same command run again resumes.
 */
export function openGridCheckpoint(
  command: 'sweep' | 'balance',
  plan: SweepPlan,
  options: CheckpointOptions,
  outputs: Array<{ option: string; path: string | undefined }>,
): Checkpoint | undefined {
  const { rule, grid, settings } = plan;
  return openCheckpoint(
    options,
    {
      command,
      ...ruleOfJob(rule),
      seed: settings.seed,
      ...streamOfJob(settings.stream),
      trials: settings.trials,
      points: grid,
    },
    (point) =>
      point < grid.length
        ? {
            tallyLength: rule.tally.length(grid[point]),
            totalAllowed: (total) => total === settings.trials,
            checkTally: (tally, trials) => checkCounts(rule, grid[point], tally, trials),
          }
        : undefined,
    null,
    { outputs, inputs: ruleFileInputs([rule]) },
  );
}

/** `muster sweep`: the whole sweep, or with --shard (or --shards) this shard's share of it, for muster merge. */
export async function sweepOrShardCommand(
  ruleId: string,
  options: SweepOptions,
  io: Io,
  env: NodeJS.ProcessEnv = process.env,
): Promise<SweepResult | GridShardFile | CallSweepResult> {
  // reserves --set chosenRound=call: best play solved at each point (./reserves-call-sweep.ts).
  if (!isRulePath(ruleId) && asksForCall(getRule(ruleId), options.set ?? []))
    return reservesCallSweepCommand(getRule(ruleId), { ...options }, io);
  if (options.shard === undefined && options.shards === undefined) return sweepCommand(ruleId, options, io);
  const plan = planSweep(isRulePath(ruleId) ? await loadRuleFileRef(ruleId) : getRule(ruleId), options);
  return shardOfGrid(sweepGrid, options, io, env, () => ({
    plan,
    args: { set: options.set ?? [], vary: options.vary ?? [] },
    ruleFiles: recordedRuleFile(plan.rule),
  }));
}

/** The sweep as merge writes it, once its shards are added up. */
export const sweepView: GridView<SweepPlan, SweepResult> = { analysis: sweepGrid, write: writeSweep };

/** The terminal table, then every output file asked for (all rendered before any is written). */
async function writeSweep(
  plan: SweepPlan,
  sweep: SweepResult,
  paths: { json?: string; html?: string; csv?: string },
  quiet: boolean,
  io: Io,
  resumed?: Resumed,
): Promise<void> {
  const { rule, metrics, choice, bestSpec } = plan;
  reportIo(io, paths.json, paths.csv).out(
    renderSweep(rule, sweep, metrics, choice, tableWidth(io.columns), bestSpec?.metric, resumed, {
      solvable: pastQuickBudgetOnly(sweep.points.map((point) => point.noExact)),
    }),
  );
  const files: OutputFile[] = [];
  const allMetrics = plan.gridMetrics;
  if (paths.json) files.push({ path: paths.json, contents: toJson(sweep), option: '--json' });
  // The page, its charts and the CSV load only when asked for.
  if (paths.html || paths.csv) {
    const { sweepCsv, sweepPage } = await import('../../../reports/sweep.js');
    if (paths.html) files.push({ path: paths.html, contents: sweepPage(rule, sweep, metrics).html, option: '--html' });
    if (paths.csv) files.push({ path: paths.csv, contents: sweepCsv(sweep, allMetrics), option: '--csv' });
  }
  writeOutputs(files, io.out);
  if (!quiet) for (const file of files) if (file.path !== STDOUT) io.err(`wrote ${terminalLine(file.path)}\n`);
}

/** The lines above a sweep's table: what was swept, what was fixed, how, and what is missing. */
function sweepHeading(rule: Rule, sweep: SweepResult, resumed: Resumed | undefined): string[] {
  const perPoint = sweep.perPoint ?? [];
  const lines = [
    `${rule.id} — ${rule.title}: sweep of ${sweep.points.length} point${sweep.points.length === 1 ? '' : 's'}`,
    `fixed: ${formatParams(sweep.params) || '(none)'}`,
    `varied: ${sweep.vary.map((vary) => `${vary.name} = ${varyValuesText(vary.values)}`).join(' · ')}`,
    ...(perPoint.length > 0
      ? [
          `per point: ${perPoint.join(', ')} (${perPoint.length === 1 ? 'its default depends' : 'their defaults depend'} ` +
            'on the varied values; each row shows the value used)',
        ]
      : []),
    sweep.method === 'simulation'
      ? `seed ${sweep.seed} (every point) · stream ${sweep.stream} · ${formatCount(sweep.trials)} trials a point · ` +
        `${+(sweep.confidence * 100).toFixed(4)}% intervals`
      : 'exact values (no simulation)',
  ];
  if (resumed) lines.push(resumedLine(resumed));
  if (sweep.partial)
    lines.push(`PARTIAL: interrupted after ${sweep.points.length} of the combinations; only finished ones are shown`);
  if (sweep.skipped.length > 0)
    lines.push(`skipped ${sweep.skipped.length} combination(s) the rule rejects, e.g. ${sweep.skipped[0].reason}`);
  return lines;
}

function renderSweep(
  rule: Rule,
  sweep: SweepResult,
  metrics: readonly MetricSpec[],
  choice: MetricChoice,
  width: number,
  bestMetric: MetricSpec | undefined,
  resumed: Resumed | undefined,
  /** Whether --exact may still solve the points a simulated --best could not tell apart (pastQuickBudgetOnly). */
  { solvable }: { solvable: boolean },
): string {
  const simulated = sweep.method === 'simulation';
  const perPoint = sweep.perPoint ?? [];
  const lines = sweepHeading(rule, sweep, resumed);
  // Interrupted before any finished: no table of empty columns.
  if (sweep.points.length === 0) return `${wrapLines(lines, width).join('\n')}\n`;
  // Metrics the same at every point (all of them certain, or exactly equal) fold into one line in the default view.
  const constant = (metric: MetricSpec) => {
    const values = sweep.points.map((point) => own(point.metrics, metric.name));
    if (values.some((value) => !value)) return false;
    const present = values as MetricResult[];
    const key = (value: MetricResult) =>
      value.exact !== null ? String(value.exact) : `${value.estimate}|${value.lo}|${value.hi}`;
    return (
      new Set(present.map(key)).size === 1 &&
      (!simulated || present.every((value) => value.exact !== null || value.lo === value.hi))
    );
  };
  const folded = choice.how === 'asked' || sweep.points.length < 2 ? [] : metrics.filter(constant);
  const tabled = folded.length < metrics.length ? metrics.filter((metric) => !folded.includes(metric)) : [...metrics];
  if (bestMetric && !tabled.includes(bestMetric)) tabled.unshift(bestMetric);
  // The mark sits beside the best value in the --best metric's own column (every tied value marked), the cell it was
  // ranked by.
  const marked = sweep.best ? bestPoints(sweep, sweep.best) : new Set<number>();
  const rankedByExact =
    sweep.best !== undefined &&
    sweep.points.every((point) => (own(point.metrics, sweep.best!.metric) as MetricResult | undefined)?.exact !== null);
  const mark = (metric: MetricSpec, index: number, text: string, exactCell: boolean) => {
    if (!sweep.best || metric.name !== sweep.best.metric || exactCell !== (rankedByExact || !simulated)) return text;
    return marked.has(index) ? `${text} ${BEST_MARK}` : `${text}  `;
  };
  const header = [...sweep.vary.map((vary) => vary.name), ...perPoint];
  for (const metric of tabled) {
    header.push(metric.name);
    if (simulated) header.push('±', 'exact');
  }
  const rows = sweep.points.map((point, index) => {
    const cells = [...sweep.vary.map((vary) => vary.name), ...perPoint].map((name) => String(own(point.params, name)));
    for (const metric of tabled) {
      const value = own(point.metrics, metric.name);
      if (!value) {
        cells.push(...(simulated ? ['—', '—', '—'] : ['—']));
      } else if (simulated) {
        const half = value.hi === null || value.lo === null ? null : (value.hi - value.lo) / 2;
        cells.push(
          mark(metric, index, formatValue(value.estimate, metric.probability), false),
          formatValue(half, metric.probability),
          mark(metric, index, formatExact(value, metric.probability), true),
        );
      } else {
        cells.push(mark(metric, index, formatExact(value, metric.probability), true));
      }
    }
    return cells;
  });
  // The question's answer comes first, in words; the tables follow.
  const verdict =
    sweep.best && bestMetric ? `${wrapText(bestVerdict(sweep, sweep.best, bestMetric, solvable), width, '')}\n` : '';
  const layout = { keep: header.length - tabled.length * (simulated ? 3 : 1), group: simulated ? 3 : 1 };
  const table = renderTable(header, rows, width, layout);
  let text = `${wrapLines(lines, width).join('\n')}\n\n${verdict ? `${verdict}\n` : ''}${table}`;
  if (folded.length > 0 && folded.length < metrics.length) {
    const first = sweep.points[0];
    text += `${wrapText(
      `the same at every point: ` +
        `${folded
          .map((m) => `${m.name} ` + `${formatCertain(own(first.metrics, m.name) as MetricResult, m.probability)}`)
          .join(', ')}`,
      width,
      '',
    )}\n`;
  }
  return text + hiddenNote(choice);
}
