/**
 * `muster balance <rule> --metric M --target T --vary …`: the settings of the
 * varied parameters that bring M nearest to T, over the grid a sweep with the
 * same --vary computes (exactly where the rule has exact values), with the
 * sensitivity at that setting, the cliffs, and the metric as a map.
 */

import {
  balanceVerdict,
  cliffLines,
  formatFigure,
  rowLines,
  sensitivityLines,
  withinLines,
} from '../../../reports/balance-words.js';
import { assembleBalance, type BalancePlan, type BalanceResult, planBalance } from '../../analysis/balance.js';
import { balanceArgs, balanceGrid } from '../../analysis/balance-grid.js';
import { evaluateSweep } from '../../analysis/sweep-evaluate.js';
import { UsageError } from '../../errors.js';
import { own } from '../../keyed.js';
import { type OutputFile, STDOUT, writeOutputs } from '../../output/files.js';
import { interruptedStatus } from '../../output/interrupt.js';
import type { Io } from '../../output/io.js';
import { toJson } from '../../output/json.js';
import { terminalLine } from '../../output/terminal.js';
import type { MetricResult } from '../../result.js';
import { isRulePath, loadRuleFileRef } from '../../rule-files/ref.js';
import { getRule } from '../../rules/index.js';
import { savedTrials } from '../checkpoint-option.js';
import { formatCount, formatParams, formatValue, renderTable, tableWidth, wrapLines } from '../format.js';
import { checkGridPaths, ruleFileInputs } from '../output-paths.js';
import { reportIo } from '../report-io.js';
import { evaluateOnPool, recordedRuleFile, shardOfGrid } from './grid-run.js';
import type { GridShardFile, GridView } from './grid-shard.js';
import { openGridCheckpoint } from './sweep.js';

export interface BalanceOptions {
  vary?: string[];
  set?: string[];
  metric?: string;
  target?: string;
  keep?: string[];
  cliff?: string;
  within?: string;
  exact?: boolean;
  simulate?: boolean;
  trials?: string;
  seed?: string;
  stream?: string;
  threads?: string;
  confidence?: string;
  timeout?: string;
  precision?: string;
  maxTrials?: string;
  json?: string;
  html?: string;
  quiet?: boolean;
  /** With --shard: this shard's share of the balance's points, for muster merge. */
  shard?: string;
  shards?: string;
  out?: string;
  checkpoint?: string;
  checkpointEvery?: string;
}

/** The mark beside the nearest settings in the map; `WITHIN_MARK` beside the others within --within. */
export const NEAREST_MARK = '◆';
export const WITHIN_MARK = '◇';

/** Answers the balance question: words, a map, and the JSON and page asked for. */
export async function balanceCommand(ruleId: string, options: BalanceOptions, io: Io): Promise<BalanceResult> {
  if (options.shard !== undefined || options.shards !== undefined)
    throw new Error('balanceCommand answers a whole balance; balanceOrShardCommand takes --shard');
  const rule = isRulePath(ruleId) ? await loadRuleFileRef(ruleId) : getRule(ruleId);
  const plan = planBalance(rule, options);
  if (options.out !== undefined)
    throw new UsageError('--out: only with --shard; allowed: --json or --html for a whole balance');
  const paths = checkGridPaths({ json: options.json, html: options.html }, ruleFileInputs([rule]));
  const { grid, settings } = plan.sweep;
  const simulating = settings.method === 'simulation';
  if (!simulating && options.checkpoint !== undefined)
    throw new UsageError(
      '--checkpoint: an exact balance simulates nothing; allowed: leave out --checkpoint, or add --simulate',
    );
  const checkpoint = openGridCheckpoint('balance', plan.sweep, options, [
    { option: '--json', path: paths.json },
    { option: '--html', path: paths.html },
  ]);
  const totalTrials = grid.length * settings.trials;
  // A resumed balance says so, and counts only its own trials in its rate.
  const already = savedTrials(checkpoint, grid.length, settings.trials);
  const run = { simulating, threads: settings.threads, totalTrials, exactUnit: 'points', already, checkpoint };
  const result = await evaluateOnPool({ ...run, quiet: options.quiet, resumeLine: 'of total' }, io, async (hooks) =>
    assembleBalance(
      plan,
      await evaluateSweep(plan.sweep, { ...hooks, ledgerFor: checkpoint && ((index) => checkpoint.ledger(index)) }),
    ),
  );
  await writeBalance(plan, result, paths, options.quiet ?? false, io);
  if (result.partial) process.exitCode = interruptedStatus();
  return result;
}

/** `muster balance`: the whole balance, or with --shard (or --shards) this shard's share of its points. */
export async function balanceOrShardCommand(
  ruleId: string,
  options: BalanceOptions,
  io: Io,
  env: NodeJS.ProcessEnv = process.env,
): Promise<BalanceResult | GridShardFile> {
  if (options.shard === undefined && options.shards === undefined) return balanceCommand(ruleId, options, io);
  const plan = planBalance(isRulePath(ruleId) ? await loadRuleFileRef(ruleId) : getRule(ruleId), options);
  return shardOfGrid(balanceGrid, options, io, env, () => ({
    plan,
    args: balanceArgs(options),
    ruleFiles: recordedRuleFile(plan.sweep.rule),
  }));
}

/** The balance as merge writes it, once its shards are added up. */
export const balanceView: GridView<BalancePlan, BalanceResult> = { analysis: balanceGrid, write: writeBalance };

/** The words and the map on the terminal, then the JSON and page asked for (all rendered before any is written). */
async function writeBalance(
  plan: BalancePlan,
  result: BalanceResult,
  paths: { json?: string; html?: string; csv?: string },
  quiet: boolean,
  io: Io,
): Promise<void> {
  if (paths.csv !== undefined)
    throw new UsageError('--csv: not for a balance; allowed: --json or --html (nothing was written)');
  reportIo(io, paths.json).out(renderBalance(plan, result, tableWidth(io.columns)));
  const files: OutputFile[] = [];
  if (paths.json) files.push({ path: paths.json, contents: toJson(result), option: '--json' });
  // The page and its charts load only when asked for.
  if (paths.html) {
    const { balancePage } = await import('../../../reports/balance.js');
    files.push({
      path: paths.html,
      contents: balancePage(plan.sweep.rule, result, plan.metric).html,
      option: '--html',
    });
  }
  writeOutputs(files, io.out);
  if (!quiet) for (const file of files) if (file.path !== STDOUT) io.err(`wrote ${terminalLine(file.path)}\n`);
}

/** The header, the answer in words, the map, then sensitivity and cliffs. */
export function renderBalance(plan: BalancePlan, result: BalanceResult, width: number): string {
  const { rule } = plan.sweep;
  const metric = plan.metric;
  const { balance } = result;
  const simulated = result.method === 'simulation';
  const header = [
    `${rule.id} — ${rule.title}: balance of ${metric.name} at ${balance.target.text} over ` +
      `${result.points.length} setting${result.points.length === 1 ? '' : 's'}`,
    `${metric.name}: ${metric.doc}`,
    `fixed: ${formatParams(result.params) || '(none)'}`,
    `varied: ${result.vary.map((vary) => `${vary.name} = ${vary.values.map(String).join(', ')}`).join('; ')}`,
    simulated
      ? `seed ${result.seed} (every point) · stream ${result.stream} · ${formatCount(result.trials)} trials a point · ` +
        `${+(result.confidence * 100).toFixed(4)}% intervals`
      : 'exact values (no simulation)',
  ];
  if (balance.keep.length > 0)
    header.push(`keep: ${balance.keep.join(', ')} (${balance.excluded} setting(s) left out)`);
  if (result.partial)
    header.push(`PARTIAL: interrupted after ${result.points.length} of the settings; only finished ones are weighed`);
  if (result.skipped.length > 0)
    header.push(`skipped ${result.skipped.length} combination(s) the rule rejects, e.g. ${result.skipped[0].reason}`);
  const sections = [
    wrapLines(header, width).join('\n'),
    wrapWords([balanceVerdict(balance, metric, simulated)], width),
  ];
  const map = renderMap(plan, result, width);
  if (map) sections.push(map.trimEnd());
  const words = [
    ...withinLines(balance, metric),
    ...rowLines(balance, metric, result.vary[0].name),
    ...sensitivityLines(balance, metric),
    ...cliffLines(balance, metric),
  ];
  sections.push(wrapWords(words, width));
  return `${sections.join('\n\n')}\n`;
}

/**
 * Lines of words wrapped to the width: an item (a line that starts with two spaces) continues four spaces in, and a
 * figure keeps its unit ("−34.036 pp") on its line.
 */
function wrapWords(lines: readonly string[], width: number): string {
  const glued = (line: string) => line.replace(/ pp\b/g, '\u00a0pp');
  return lines
    .map((line) => {
      const item = line.startsWith('  ');
      const wrapped = wrapLines([glued(item ? line.trimStart() : line)], width - (item ? 2 : 0));
      return wrapped.map((part) => `${item ? '  ' : ''}${part}`).join('\n');
    })
    .join('\n')
    .replace(/\u00a0pp/g, ' pp');
}

/** Most settings listed when three or more parameters vary (no map then). */
const LISTED = 20;

/**
 * The metric over the grid: one parameter as a column, two as a table (the first down, the second across), the
 * nearest settings marked ◆ and the others within --within ◇. Three or more: the nearest settings, best first.
 */
function renderMap(plan: BalancePlan, result: BalanceResult, width: number): string | null {
  const metric = plan.metric;
  const { balance, vary } = result;
  const key = (params: Record<string, unknown>) => formatParams(params as BalanceResult['params']);
  const nearest = new Set(balance.nearest.map((point) => key(point.params)));
  const within = new Set((balance.within?.points ?? []).map((point) => key(point.params)));
  const cell = (point: BalanceResult['points'][number] | undefined) => {
    if (!point) return '';
    const value = own(point.metrics, metric.name) as MetricResult | undefined;
    if (!value) return '—';
    const shown = balance.exact
      ? formatValue(value.exact, metric.probability)
      : formatValue(value.estimate, metric.probability);
    const mark = nearest.has(key(point.params)) ? NEAREST_MARK : within.has(key(point.params)) ? WITHIN_MARK : ' ';
    return `${shown} ${mark}`;
  };
  const marks = [
    ...(balance.nearest.length > 0 ? [`${NEAREST_MARK} nearest`] : []),
    ...(balance.within && balance.within.points.length > 0
      ? [`${WITHIN_MARK} within ${balance.within.distance.text}`]
      : []),
  ];
  const legend = marks.length > 0 ? `${marks.join(', ')}\n` : '';

  if (vary.length === 1) {
    const rows = result.points.map((point) => {
      const value = own(point.metrics, metric.name) as MetricResult | undefined;
      const fraction = value?.fraction ?? '';
      return [
        String(own(point.params, vary[0].name)),
        cell(point),
        ...(balance.exact ? [fraction.includes('/') && fraction.length <= 11 ? fraction : ''] : []),
      ];
    });
    const head = [vary[0].name, metric.name, ...(balance.exact ? ['exactly'] : [])];
    return `${renderTable(head, rows, width, { keep: 1 })}${legend}`;
  }
  if (vary.length === 2) {
    const [down, across] = vary;
    // Each point by its place in the grid: row and column as positions in the --vary lists.
    const place = (point: BalanceResult['points'][number]) =>
      `${down.values.findIndex((v) => String(v) === String(own(point.params, down.name)))},` +
      `${across.values.findIndex((v) => String(v) === String(own(point.params, across.name)))}`;
    const at = new Map(result.points.map((point) => [place(point), point]));
    const rows = down.values.map((row, i) => [String(row), ...across.values.map((_, j) => cell(at.get(`${i},${j}`)))]);
    const head = [`${down.name} ╲ ${across.name}`, ...across.values.map(String)];
    return `${renderTable(head, rows, width, { keep: 1 })}${legend}`;
  }
  if (balance.nearest.length === 0) return null;
  const listed = balance.nearest.slice(0, LISTED);
  const rows = listed.map((point) => [formatParams(point.params), formatFigure(point.value, metric.probability)]);
  const more = balance.nearest.length > LISTED ? `… and ${balance.nearest.length - LISTED} more tied\n` : '';
  return `${renderTable(['setting', metric.name], rows, width, { keep: 1 })}${more}`;
}
