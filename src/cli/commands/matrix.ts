import { UsageError } from '../../errors.js';
import { SimulationPool } from '../../engine/pool.js';
import { simulate } from '../../engine/simulate.js';
import { buildResult, type MetricResult, type RunResult } from '../../result.js';
import { getRule } from '../../rules/index.js';
import { resolveParams } from '../../rules/params.js';
import type { ParamValue, Params, Rule } from '../../rules/types.js';
import { formatParams, renderTable } from '../format.js';
import type { Io } from '../io.js';
import { checkOutputFile, parseSeed } from '../options.js';
import { interruptedStatus } from '../interrupt.js';
import { checkDistinct } from '../../output/files.js';
import { toJson } from '../../output/json.js';
import { reportIo } from '../report-io.js';
import { ProgressBar } from '../progress.js';
import { parseSimulationSettings, withInterrupt, type RunOptions } from './run.js';
import { writeReports } from '../../../reports/cli-outputs.js';
import { matrixPage } from '../../../reports/matrix-report.js';

export interface MatrixOptions extends RunOptions {
  range?: string;
  simulate?: boolean;
  html?: string;
}

export interface MatrixTable {
  metric: string;
  /** values[i][j]: the metric with the row parameter at rows[i] and the column parameter at cols[j]; null for a cell an interruption left unfinished. */
  values: (number | null)[][];
  lo: (number | null)[][] | null;
  hi: (number | null)[][] | null;
}

export interface MatrixResult {
  rule: string;
  params: Params;
  method: 'exact' | 'simulation';
  seed: string | null;
  trials: number | null;
  confidence: number | null;
  /** True when Ctrl-C stopped the matrix: unfinished cells are null. */
  partial: boolean;
  matrix: { row: string; col: string; rows: ParamValue[]; cols: ParamValue[]; tables: MatrixTable[] };
  /** Every metric at the base parameters, as `muster run` reports them. */
  metrics: RunResult['metrics'];
}

/**
 * `muster matrix <rule>`: the rule's declared two-parameter table — exact
 * where the rule has an exact solution, simulated per cell otherwise or with
 * --simulate (one pool serves every cell).
 */
export async function matrixCommand(ruleId: string, options: MatrixOptions, io: Io): Promise<MatrixResult> {
  const rule = getRule(ruleId);
  const spec = rule.matrix;
  if (!spec) throw new UsageError(`rule: ${rule.id} declares no matrix; allowed: a rule listed with a matrix in muster describe`);
  const base = resolveParams(rule, options.set ?? []);
  let values = spec.defaultValues(base);
  if (options.range !== undefined) {
    if (!spec.parseRange) throw new UsageError(`--range: ${rule.id}'s matrix has a fixed axis; allowed: no --range`);
    values = spec.parseRange(options.range);
  }
  const cellParams = values.map((rowValue) => values.map((colValue) => resolveParams(rule, options.set ?? [], { [spec.row]: rowValue, [spec.col]: colValue })));
  const jsonPath = options.json === undefined ? undefined : checkOutputFile('--json', options.json, { stdout: true });
  const htmlPath = options.html === undefined ? undefined : checkOutputFile('--html', options.html);
  checkDistinct([
    { option: '--json', path: jsonPath },
    { option: '--html', path: htmlPath },
  ]);
  const useExact = rule.exact !== undefined && !options.simulate;
  if (useExact) {
    // Parsed options are checked in every command that accepts them: here they would be ignored, so they are refused.
    for (const option of ['trials', 'threads', 'confidence', 'timeout', 'maxTrials'] as const) {
      if (options[option] !== undefined) throw new UsageError(`--${option.replace('T', '-t')}: ${rule.id}'s matrix is exact; allowed: add --simulate to simulate every cell, or leave it out`);
    }
    if (options.seed !== undefined) parseSeed(options.seed);
  }
  const settings = useExact ? null : parseSimulationSettings(options);

  let cells: (RunResult | null)[][];
  let baseResult: RunResult | null = null;
  let interrupted = false;
  if (settings === null) {
    cells = cellParams.map((row) => row.map((params) => exactResult(rule, params)));
    baseResult = exactResult(rule, base);
  } else {
    const pool = new SimulationPool(settings.threads);
    const progress = new ProgressBar(io.err, io.errIsTTY && !options.quiet);
    const total = values.length * values.length + 1;
    let finished = 0;
    cells = cellParams.map((row) => row.map(() => null));
    try {
      await withInterrupt(async (signal) => {
        const run = async (params: Params): Promise<RunResult | null> => {
          const outcome = await simulate(pool, { rule, params, seed: settings.seed, confidence: settings.confidence, trials: settings.trials, timeout: settings.timeout, signal });
          if (outcome.partial) return null;
          progress.update(++finished, total);
          return buildResult({ rule, params, seed: settings.seed, threads: settings.threads, confidence: settings.confidence, trials: outcome.trials, tally: outcome.tally });
        };
        baseResult = await run(base);
        if (baseResult === null) return void (interrupted = true);
        for (const [i, row] of cellParams.entries()) {
          for (const [j, params] of row.entries()) {
            const cell = await run(params);
            if (cell === null) return void (interrupted = true);
            cells[i][j] = cell;
          }
        }
      });
    } finally {
      progress.finish();
      await pool.close();
    }
  }
  if (baseResult === null) {
    io.err('muster: PARTIAL: interrupted before any cell finished; nothing was written\n');
    process.exitCode = interruptedStatus();
    return { rule: rule.id, params: base, method: 'simulation', seed: settings?.seed ?? null, trials: settings?.trials ?? null, confidence: settings?.confidence ?? null, partial: true, matrix: { row: spec.row, col: spec.col, rows: values, cols: values, tables: [] }, metrics: {} };
  }
  const finalBase: RunResult = baseResult;

  const pick = (metric: string, field: keyof MetricResult) => cells.map((row) => row.map((cell) => (cell ? (cell.metrics[metric][field] as number) : null)));
  const tables: MatrixTable[] = spec.metrics.map((metric) => ({
    metric,
    values: pick(metric, 'estimate'),
    lo: useExact ? null : pick(metric, 'lo'),
    hi: useExact ? null : pick(metric, 'hi'),
  }));
  const result: MatrixResult = {
    rule: rule.id,
    params: base,
    method: useExact ? 'exact' : 'simulation',
    seed: settings?.seed ?? null,
    trials: settings?.trials ?? null,
    confidence: settings?.confidence ?? null,
    partial: interrupted,
    matrix: { row: spec.row, col: spec.col, rows: values, cols: values, tables },
    metrics: finalBase.metrics,
  };

  const describeMetric = new Map(rule.metrics(base).map((m) => [m.name, m]));
  const parts = [`${rule.id} — ${rule.title}: ${useExact ? 'exact' : `simulated, ${settings?.trials} trials a cell, seed ${settings?.seed}`}`, `params: ${formatParams(base)}`];
  if (interrupted) parts.push('PARTIAL: interrupted; unfinished cells are shown as —');
  for (const table of tables) {
    const percent = describeMetric.get(table.metric)?.probability ?? false;
    parts.push(`\n${table.metric} (%s), rows ${spec.row}, columns ${spec.col}`.replace('(%s)', percent ? '(%)' : ''));
    const label = (value: ParamValue) => spec.label?.(value) ?? String(value);
    const header = [`${spec.row} \\ ${spec.col}`, ...values.map(label)];
    const rows = table.values.map((row, i) => [label(values[i]), ...row.map((v) => (v === null ? '—' : percent ? (v * 100).toFixed(1) : v.toFixed(3)))]);
    parts.push(renderTable(header, rows).trimEnd());
  }
  reportIo(io, jsonPath).out(`${parts.join('\n')}\n`);
  const complete = cells.every((row) => row.every((cell) => cell !== null)) ? (cells as RunResult[][]) : null;
  // The printable page needs every cell: an interrupted matrix keeps its finished cells in the terminal table and the JSON only.
  if (htmlPath && !complete) io.err(`muster: PARTIAL: --html ${htmlPath} not written, as a printable matrix needs every cell\n`);
  const files = [
    ...(jsonPath ? [{ path: jsonPath, contents: toJson(result), option: '--json' }] : []),
    ...(htmlPath && complete ? [{ path: htmlPath, contents: matrixPage({ rule, base, row: spec.row, col: spec.col, values, metrics: spec.metrics, cells: complete }), option: '--html' }] : []),
  ];
  writeReports(files, io, options.quiet ?? false);
  if (interrupted) process.exitCode = interruptedStatus();
  return result;
}

function exactResult(rule: Rule, params: Params): RunResult {
  return buildResult({ rule, params, seed: '', threads: 0, confidence: 1, trials: 0, tally: null });
}
