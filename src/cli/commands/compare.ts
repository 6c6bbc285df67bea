import { compareCsv, comparePage, formatDifference, formatP, significanceNote } from '../../../reports/compare.js';
import {
  builtInCompareRules,
  type ComparePlan,
  type CompareResult,
  compareGrid,
  compareRules,
  evaluateCompare,
  loadsFiles,
  planCompare,
  testedMetrics,
  variantMetricLists,
} from '../../analysis/compare.js';
import type { MetricChoice } from '../../analysis/metrics.js';
import {
  type CallCompareResult,
  callVariants,
  checkCallCompare,
  compareCalls,
  withoutCall,
} from '../../analysis/reserves-call-compare.js';
import { variantRuleRef } from '../../analysis/variant.js';
import type { MetricSpec, ParamSpec, Params, Rule } from '../../contract/types.js';
import { UsageError } from '../../errors.js';
import { own } from '../../keyed.js';
import { type OutputFile, STDOUT, writeOutputs } from '../../output/files.js';
import { interruptedStatus } from '../../output/interrupt.js';
import type { Io } from '../../output/io.js';
import { toJson } from '../../output/json.js';
import { terminalLine } from '../../output/terminal.js';
import type { MetricResult } from '../../result.js';
import { refusalText } from '../../rules/exact-of.js';
import { resolveParams } from '../../rules/params.js';
import { renderDistributionDifference } from '../distribution-compare-table.js';
import { orSimulate } from '../exact-warning.js';
import {
  formatCertain,
  formatCount,
  formatExact,
  formatParams,
  formatValue,
  renderTable,
  ruleDefaults,
  sharedChanges,
  tableWidth,
  wrapLines,
  wrapText,
} from '../format.js';
import { hiddenNote } from '../metrics.js';
import { checkGridPaths, ruleFileInputs } from '../output-paths.js';
import { reportIo } from '../report-io.js';
import { evaluateOnPool, shardOfGrid } from './grid-run.js';
import type { GridShardFile, GridView, RecordedFile } from './grid-shard.js';
import type { RunOptions } from './run.js';

export interface CompareOptions extends RunOptions {
  variant?: string[];
  seedPerVariant?: boolean;
  simulate?: boolean;
  html?: string;
  csv?: string;
  /** With --shard: this shard's share of the variants' chunks, for muster merge. */
  shard?: string;
  shards?: string;
  out?: string;
}

/**
 * `muster compare <rule> --variant "label: name=value,…" …`: every metric
 * of every variant, the differences from the first, and which differences
 * are statistically significant after Holm's adjustment.
 */
export async function compareCommand(ruleId: string, options: CompareOptions, io: Io): Promise<CompareResult> {
  if (options.shard !== undefined || options.shards !== undefined)
    throw new Error('compareCommand runs a whole comparison; compareOrShardCommand takes --shard');
  const rules = loadsFiles(ruleId, options)
    ? await compareRules(ruleId, options)
    : builtInCompareRules(ruleId, options.variant ?? []);
  const calls = callVariants(rules.rules, options);
  if (calls !== null) return compareCallsCommand(rules, calls, options, io);
  if (options.objective !== undefined)
    throw new UsageError(
      '--objective: only with a reserves variant that sets chosenRound=call; allowed: leave --objective out',
    );
  const plan = planCompare(rules, options);
  if (options.out !== undefined)
    throw new UsageError('--out: only with --shard; allowed: --json, --csv or --html for a whole comparison');
  if (options.checkpoint !== undefined)
    throw new UsageError('--checkpoint: not available in a comparison; allowed: --checkpoint on run, shard and sweep');
  const { paramsList, base } = plan;
  const paths = checkGridPaths(options, ruleFileInputs([plan.rule, ...plan.rules]));

  const simulating = base.method === 'simulation';
  const run = {
    simulating,
    threads: base.threads,
    totalTrials: paramsList.length * base.trials,
    exactUnit: 'variants',
  };
  // Every variant at once on the pool; after Ctrl-C, the baseline and the variants after it that all finished.
  // Exact only when asked (--exact) can a rule file's dice be past the budget here: planCompare tried them.
  const result = await evaluateOnPool({ ...run, quiet: options.quiet }, io, (hooks) =>
    orSimulate('leave out --exact', () => evaluateCompare(plan, hooks)),
  );
  const interrupted = result.partial === true;
  if (interrupted && result.variants.length < 2) {
    // A comparison needs the baseline and one other variant; fewer is nothing to show.
    io.err(
      `muster: PARTIAL: interrupted after ${result.variants.length} of ${paramsList.length} variants, too few to ` +
        `compare; nothing was written\n`,
    );
    process.exitCode = interruptedStatus();
    return result;
  }
  writeCompare(plan, result, paths, options.quiet ?? false, io);
  // Simulated where it would have been exact but for a rule file's dice: which variant, and why.
  if (plan.notExact && !options.quiet)
    io.err(
      `muster: note: simulated, as the variant ${JSON.stringify(plan.notExact.label)} has no exact values: ` +
        `${refusalText(plan.notExact.refused)}\n`,
    );
  if (interrupted) process.exitCode = interruptedStatus();
  return result;
}

/**
 * A comparison with a chosenRound=call variant (analysis/reserves-call-compare.ts): solved exactly, the differences
 * as any exact comparison's, then the objective under each variant and what each call is worth.
 */
function compareCallsCommand(
  rules: { rule: Rule; rules: Rule[] },
  calls: readonly boolean[],
  options: CompareOptions,
  io: Io,
): CallCompareResult {
  checkCallCompare(options as Record<string, unknown>);
  if (options.out !== undefined)
    throw new UsageError(
      '--out: only with --shard, which a comparison with a chosenRound=call variant does not take; allowed: --json, ' +
        '--csv or --html',
    );
  const plan = planCompare(rules, {
    ...options,
    exact: true,
    set: withoutCall(options.set),
    variant: withoutCall(options.variant),
  });
  const paths = checkGridPaths(options, ruleFileInputs([plan.rule, ...plan.rules]));
  const result = compareCalls(plan, calls, options.variant ?? [], options.set ?? [], options.objective);
  writeCompare(plan, result, paths, options.quiet ?? false, io, callLines(result, tableWidth(io.columns)));
  return result;
}

/** Under the comparison: the objective under each variant, best play for a call, and each call's answer in words. */
function callLines(result: CallCompareResult, width: number): string {
  const show = (value: { exact: number; fraction: string }) =>
    value.fraction.includes('/') ? `${value.exact.toFixed(6)} = ${value.fraction}` : value.fraction;
  const rows = result.calls.variants.map((variant) => [
    variant.label,
    variant.call ? 'called in play' : 'declared',
    show(variant.value),
  ]);
  const words = result.calls.variants
    .filter((variant) => variant.call)
    .flatMap((variant) => (variant.summary ?? []).map((line) => `${variant.label}: ${line}`));
  return [
    '',
    ...wrapLines(
      [`${result.calls.objective} under each variant (best play where the round is called in play):`],
      width,
    ),
    renderTable(['variant', 'chosen round', result.calls.objective], rows, width).trimEnd(),
    '',
    ...wrapLines(words, width),
    '',
  ].join('\n');
}

/** `muster compare`: the whole comparison, or with --shard (or --shards) this shard's share of it, for muster merge. */
export async function compareOrShardCommand(
  ruleId: string,
  options: CompareOptions,
  io: Io,
  env: NodeJS.ProcessEnv = process.env,
): Promise<CompareResult | GridShardFile> {
  if (options.shard === undefined && options.shards === undefined) return compareCommand(ruleId, options, io);
  const plan = planCompare(
    loadsFiles(ruleId, options)
      ? await compareRules(ruleId, options)
      : builtInCompareRules(ruleId, options.variant ?? []),
    options,
  );
  return shardOfGrid(compareGrid, options, io, env, () => {
    if (options.checkpoint !== undefined)
      throw new UsageError(
        '--checkpoint: not available in a comparison; allowed: --checkpoint on run, shard and sweep',
      );
    const args = { set: options.set ?? [], variant: options.variant ?? [], seedPerVariant: plan.seedPerVariant };
    return { plan, args, ruleFiles: comparedRuleFiles(plan, args.variant) };
  });
}

/**
 * Every rule file the command names, by the reference as typed ("" for the command's own rule), with its
 * contents' hash: merge plans the comparison again from the same text and loads the very same files.
 */
function comparedRuleFiles(plan: ComparePlan, variants: readonly string[]): RecordedFile[] {
  const ruleFiles: RecordedFile[] = [];
  const record = (ref: string, rule: Rule) => {
    if (rule.file && !ruleFiles.some((entry) => entry.ref === ref))
      ruleFiles.push({ ref, path: rule.file.path, sha256: rule.file.sha256 });
  };
  record('', plan.rule);
  variants.forEach((text, index) => {
    const ref = variantRuleRef(text);
    if (ref !== undefined) record(ref, plan.rules[index]);
  });
  return ruleFiles;
}

/** The comparison as merge writes it, once its shards are added up. */
export const compareView: GridView<ComparePlan, CompareResult> = { analysis: compareGrid, write: writeCompare };

/** The terminal tables, then every output file asked for (all rendered before any is written). */
function writeCompare(
  plan: ComparePlan,
  result: CompareResult,
  paths: { json?: string; html?: string; csv?: string },
  quiet: boolean,
  io: Io,
  after = '',
): void {
  const { rule, choice } = plan;
  // The variants' resolved params (a call variant's result says chosenRound "call"; its metrics are the rule's).
  const paramsList = plan.paramsList.slice(0, result.variants.length);
  const tested = testedMetrics(plan, paramsList);
  const metricLists = variantMetricLists(plan, paramsList);
  const defaults = plan.rules.map((variantRule) => ruleDefaults(variantRule, (r) => resolveParams(r)));
  const shared = sharedChanges(paramsList, defaults.slice(0, paramsList.length));
  reportIo(io, paths.json, paths.csv).out(
    renderCompare(result, choice, tableWidth(io.columns), shared) + metricsOnlySome(result, metricLists) + after,
  );
  const files: OutputFile[] = [];
  if (paths.json) files.push({ path: paths.json, contents: toJson(result), option: '--json' });
  // Variants of several rules: the page lists every parameter any of them has, and each variant's readings from its own
  // rule
  // (found by its params, which the page passes back as they are).
  const readingsOf = (params: Params) => {
    const index = paramsList.indexOf(params);
    return index >= 0 ? (plan.rules[index].presentation?.readings?.(params) ?? []) : [];
  };
  const pageRule: Rule = plan.rules.every((r) => r === rule)
    ? rule
    : { ...rule, params: unionParams(plan.rules), presentation: { ...rule.presentation, readings: readingsOf } };
  if (paths.html)
    files.push({ path: paths.html, contents: comparePage(pageRule, result, tested).html, option: '--html' });
  if (paths.csv) files.push({ path: paths.csv, contents: compareCsv(result, tested), option: '--csv' });
  writeOutputs(files, io.out);
  if (!quiet) for (const file of files) if (file.path !== STDOUT) io.err(`wrote ${terminalLine(file.path)}\n`);
}

function renderCompare(result: CompareResult, choice: MetricChoice, width: number, shared: Params): string {
  const simulated = result.method === 'simulation';
  const metrics = choice.shown;
  const folded = choice.how === 'asked' ? [] : metrics.filter((metric) => sameEverywhere(result, metric));
  const tabled = folded.length < metrics.length ? metrics.filter((metric) => !folded.includes(metric)) : metrics;
  const shownNames = new Set(tabled.map((metric) => metric.name));
  let text = `${wrapLines(compareHeader(result, shared), width).join('\n')}\n\n`;
  text += simulated
    ? simulatedTables(result, tabled, new Map(metrics.map((m) => [m.name, m.probability])), width)
    : exactTable(result, tabled, width);
  if (folded.length > 0 && folded.length < metrics.length) {
    const first = result.variants[0];
    text += `${wrapText(
      `the same in every variant: ` +
        `${folded
          .map((m) => `${m.name} ` + `${formatCertain(own(first.metrics, m.name) as MetricResult, m.probability)}`)
          .join(', ')}`,
      width,
      '',
    )}\n`;
  }
  // A distribution compared value by value, under the tables (only those whose metric the table shows).
  for (const d of result.distributions ?? [])
    if (shownNames.has(d.metric) || choice.how === 'asked')
      text += `\n${renderDistributionDifference(d, simulated, width)}`;
  text += hiddenNote(choice);
  if (simulated) {
    const significant = result.differences.filter((d) => d.significant && shownNames.has(d.metric));
    text +=
      significant.length === 0
        ? 'No difference shown is significant.\n'
        : `${wrapText(
            `Significant (${significant.length} of the ${result.tests} tests): ` +
              `${significant.map((d) => `${d.metric} (${d.variant})`).join(', ')}`,
            width,
            '',
          )}\n`;
    text += `${wrapText(significanceNote(result), width, '')}\n`;
  }
  return text;
}

/** The comparison's header: the rule, each variant's settings, and how the figures were made. */
function compareHeader(result: CompareResult, shared: Params): string[] {
  const simulated = result.method === 'simulation';
  return [
    `${result.rule} — ${result.title}: ${result.variants.length} variants`,
    // What every variant shares away from the defaults (--set, or the same value in each), so the header says what was
    // compared.
    ...(Object.keys(shared).length > 0 ? [`every variant: ${formatParams(shared)}`] : []),
    ...result.variants.map(
      (v, i) => `  ${v.label}${i === 0 ? ' (baseline)' : ''}: ${v.assignments.join('; ') || '(defaults)'}`,
    ),
    ...(result.partial ? [`PARTIAL: interrupted; only the ${result.variants.length} variants listed finished`] : []),
    simulated
      ? `${formatCount(result.trials)} trials a variant · seed ${result.seed} ` +
        `(${result.seeds === 'shared' ? 'same for every variant' : 'one per variant'}) · stream ${result.stream} · ` +
        `${+(result.confidence * 100).toFixed(4)}% intervals`
      : 'exact values (no simulation; --simulate to simulate)',
  ];
}

/** Whether every variant has `metric` with the same value (exactly, or the same tally on a shared seed): one line. */
function sameEverywhere(result: CompareResult, metric: MetricSpec): boolean {
  const values = result.variants.map((v) => own(v.metrics, metric.name));
  if (values.some((value) => !value)) return false;
  const key = (value?: MetricResult) =>
    value === undefined ? '' : value.exact !== null ? String(value.exact) : `${value.estimate}|${value.lo}|${value.hi}`;
  return new Set(values.map(key)).size === 1;
}

/** A variant's value of `metric` as its table shows it: the estimate, or the exact value; — when it has none. */
function variantValue(result: CompareResult, v: CompareResult['variants'][number], metric: MetricSpec): string {
  const value = own(v.metrics, metric.name);
  if (!value) return '—';
  return result.method === 'simulation'
    ? formatValue(value.estimate, metric.probability)
    : formatExact(value, metric.probability);
}

/** Exact: one table, each variant's value and its exact difference from the baseline. */
function exactTable(result: CompareResult, tabled: readonly MetricSpec[], width: number): string {
  const others = result.variants.slice(1);
  const header = [
    'metric',
    ...result.variants.map((v) => v.label),
    ...others.map((v) => (others.length === 1 ? 'difference' : `${v.label} − ${result.variants[0].label}`)),
  ];
  const rows = tabled.map((metric) => [
    metric.name,
    ...result.variants.map((v) => variantValue(result, v, metric)),
    ...others.map((v) => {
      const d = result.differences.find((x) => x.metric === metric.name && x.variant === v.label);
      return formatDifference(d?.exactDifference ?? null, metric.probability);
    }),
  ]);
  return renderTable(header, rows, width);
}

/** Simulated: the values, then each difference from the baseline with its interval, p and significance. */
function simulatedTables(
  result: CompareResult,
  tabled: readonly MetricSpec[],
  probability: ReadonlyMap<string, boolean>,
  width: number,
): string {
  const shownNames = new Set(tabled.map((metric) => metric.name));
  const valueHeader = ['metric', ...result.variants.map((v) => v.label)];
  const valueRows = tabled.map((metric) => [
    metric.name,
    ...result.variants.map((v) => variantValue(result, v, metric)),
  ]);
  // One variant against the baseline needs no variant column; a metric only one side has has no difference to show.
  const many = result.variants.length > 2;
  const shownDifferences = result.differences.filter(
    (d) => shownNames.has(d.metric) && (d.difference !== null || d.exactDifference !== null),
  );
  // The exact column only where some difference is known exactly: a column of dashes says nothing.
  const anyExact = shownDifferences.some((d) => d.exactDifference !== null);
  const diffHeader = [
    ...(many ? ['metric', 'variant'] : ['metric']),
    'difference',
    `${+(result.confidence * 100).toFixed(4)}% interval`,
    'p (Holm)',
    'sig.',
    ...(anyExact ? ['exact'] : []),
  ];
  const diffRows = shownDifferences.map((d) => {
    const isProbability = probability.get(d.metric) ?? false;
    return [
      ...(many ? [d.metric, d.variant] : [d.metric]),
      formatDifference(d.difference, isProbability),
      `${formatDifference(d.lo, isProbability)} … ${formatDifference(d.hi, isProbability)}`,
      formatP(d.pAdjusted),
      d.significant === null ? '—' : d.significant ? 'yes' : 'no',
      ...(anyExact ? [formatDifference(d.exactDifference, isProbability)] : []),
    ];
  });
  return (
    `${renderTable(valueHeader, valueRows, width)}\nDifferences from ` +
    `${JSON.stringify(result.variants[0].label)}\n` +
    renderTable(diffHeader, diffRows, width, { keep: many ? 2 : 1 })
  );
}

function metricsOnlySome(result: CompareResult, metricLists: ReadonlyArray<readonly MetricSpec[]>): string {
  const names = metricLists.map((list) => new Set(list.map((m) => m.name)));
  const lines = result.variants.flatMap((variant, index) => {
    const own = [...names[index]].filter((name) => names.some((other) => !other.has(name)));
    return own.length > 0 ? [`  ${variant.label}: ${own.join(', ')}`] : [];
  });
  return lines.length > 0
    ? `Metrics not every variant has (no difference is computed for them):\n${lines.join('\n')}\n`
    : '';
}

function unionParams(rules: readonly Rule[]): ParamSpec[] {
  const seen = new Map<string, ParamSpec>();
  for (const r of rules) for (const spec of r.params) if (!seen.has(spec.name)) seen.set(spec.name, spec);
  return [...seen.values()];
}
