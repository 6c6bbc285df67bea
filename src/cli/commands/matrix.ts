import { UsageError } from '../../errors.js';
import { SimulationPool } from '../../engine/pool.js';
import { simulate } from '../../engine/simulate.js';
import { bestOf, buildResult, envelope, type Envelope, type MetricResult, type RunResult } from '../../result.js';
import { getRule } from '../../rules/index.js';
import { resolveParams } from '../../rules/params.js';
import type { ParamValue, Params, Rule } from '../../rules/types.js';
import { formatParams, renderTable } from '../format.js';
import type { Io } from '../io.js';
import { checkOutputFile } from '../options.js';
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
  /** values[i][j]: the metric with the row parameter at rows[i] and the column parameter at cols[j]. */
  values: number[][];
  lo: number[][] | null;
  hi: number[][] | null;
}

/** The result JSON of `muster matrix` (docs/json.md). */
export interface MatrixResult extends Envelope {
  source: string;
  params: Params;
  method: 'exact' | 'simulation';
  seed: string | null;
  trials: number | null;
  confidence: number | null;
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
  const jsonPath = options.json === undefined ? undefined : checkOutputFile('--json', options.json);
  const htmlPath = options.html === undefined ? undefined : checkOutputFile('--html', options.html);
  const useExact = rule.exact !== undefined && !options.simulate;
  const settings = useExact ? null : parseSimulationSettings(options);

  let cells: RunResult[][];
  let baseResult: RunResult;
  if (settings === null) {
    cells = cellParams.map((row) => row.map((params) => exactResult(rule, params)));
    baseResult = exactResult(rule, base);
  } else {
    const pool = new SimulationPool(settings.threads);
    const progress = new ProgressBar(io.err, io.errIsTTY && !options.quiet);
    const total = values.length * values.length + 1;
    let finished = 0;
    try {
      const run = async (params: Params): Promise<RunResult> => {
        const outcome = await withInterrupt((signal) => simulate(pool, { rule, params, seed: settings.seed, confidence: settings.confidence, trials: settings.trials, signal }));
        if (outcome.partial) throw new UsageError('interrupted: the matrix was not finished and nothing was written');
        progress.update(++finished, total);
        return buildResult({ rule, params, seed: settings.seed, threads: settings.threads, confidence: settings.confidence, trials: outcome.trials, tally: outcome.tally });
      };
      cells = [];
      for (const row of cellParams) {
        const results: RunResult[] = [];
        for (const params of row) results.push(await run(params));
        cells.push(results);
      }
      baseResult = await run(base);
    } finally {
      progress.finish();
      await pool.close();
    }
  }

  const pick = (metric: string, field: 'lo' | 'hi') => cells.map((row) => row.map((cell) => cell.metrics[metric][field] as number));
  const tables: MatrixTable[] = spec.metrics.map((metric) => ({
    metric,
    values: cells.map((row) => row.map((cell) => (useExact ? bestOf(cell.metrics[metric]) : (cell.metrics[metric].estimate as number)))),
    lo: useExact ? null : pick(metric, 'lo'),
    hi: useExact ? null : pick(metric, 'hi'),
  }));
  const result: MatrixResult = {
    ...envelope('matrix', rule),
    source: rule.source,
    params: base,
    method: useExact ? 'exact' : 'simulation',
    seed: settings?.seed ?? null,
    trials: settings?.trials ?? null,
    confidence: settings?.confidence ?? null,
    matrix: { row: spec.row, col: spec.col, rows: values, cols: values, tables },
    metrics: baseResult.metrics,
  };

  const describeMetric = new Map(rule.metrics(base).map((m) => [m.name, m]));
  const parts = [`${rule.id} — ${rule.title}: ${useExact ? 'exact' : `simulated, ${settings?.trials} trials a cell, seed ${settings?.seed}`}`, `params: ${formatParams(base)}`];
  for (const table of tables) {
    const percent = describeMetric.get(table.metric)?.probability ?? false;
    parts.push(`\n${table.metric} (%s), rows ${spec.row}, columns ${spec.col}`.replace('(%s)', percent ? '(%)' : ''));
    const label = (value: ParamValue) => spec.label?.(value) ?? String(value);
    const header = [`${spec.row} \\ ${spec.col}`, ...values.map(label)];
    const rows = table.values.map((row, i) => [label(values[i]), ...row.map((v) => (percent ? (v * 100).toFixed(1) : v.toFixed(3)))]);
    parts.push(renderTable(header, rows).trimEnd());
  }
  io.out(`${parts.join('\n')}\n`);
  const files = [
    ...(jsonPath ? [{ path: jsonPath, contents: `${JSON.stringify(result, null, 2)}\n` }] : []),
    ...(htmlPath ? [{ path: htmlPath, contents: matrixPage({ rule, base, row: spec.row, col: spec.col, values, metrics: spec.metrics, cells }) }] : []),
  ];
  writeReports(files, io, options.quiet ?? false);
  return result;
}

function exactResult(rule: Rule, params: Params): RunResult {
  return buildResult({ rule, params, seed: '', threads: 0, confidence: 1, trials: 0, tally: null });
}
