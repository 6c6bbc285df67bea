import { keyedRecord, own } from '../../keyed.js';
import { UsageError } from '../../errors.js';
import { SimulationPool } from '../../engine/pool.js';
import { simulateEach } from '../../engine/simulate-many.js';
import { bestOf, buildResult, envelope, type Envelope, type MetricResult, type RunResult } from '../../result.js';
import { getRule, rules } from '../../rules/index.js';
import { isRulePath, loadRule } from '../../rules/load-rule.js';
import { findParam, parseParamOrLabel, resolveParams } from '../../rules/params.js';
import type { ParamValue, Params, Rule, StreamVersion } from '../../rules/types.js';
import { formatParams, renderTable, tableWidth, wrapLines } from '../format.js';
import { chooseMetrics } from '../../analysis/metrics.js';
import type { Io } from '../io.js';
import { checkOutputFile, parseSeed } from '../options.js';
import { ruleWord, withRangeHint } from '../../text/suggest.js';
import { checkOutputNames } from '../output-names.js';
import { interruptedStatus } from '../interrupt.js';
import { checkDistinct, ruleFileInputs } from '../../output/files.js';
import { toJson } from '../../output/json.js';
import { reportIo } from '../report-io.js';
import { ProgressBar } from '../progress.js';
import { parseSimulationSettings, withInterrupt, type RunOptions } from './run.js';
import { writeReports } from '../output-paths.js';
import { matrixPage } from '../../../reports/matrix-report.js';

export interface MatrixOptions extends RunOptions {
  range?: string;
  simulate?: boolean;
  against?: string;
  html?: string;
}

export interface MatrixTable {
  metric: string;
  /**
   * values[i][j]: the metric with the row parameter at rows[i] and the column parameter at cols[j]; null for a cell an
   * interruption left unfinished.
   */
  values: (number | null)[][];
  lo: (number | null)[][] | null;
  hi: (number | null)[][] | null;
}

/** The result JSON of `muster matrix` (docs/json.md). */
export interface MatrixResult extends Envelope {
  source: string;
  params: Params;
  method: 'exact' | 'simulation';
  seed: string | null;
  /** The random stream of every cell; null when solved exactly. */
  stream: StreamVersion | null;
  trials: number | null;
  confidence: number | null;
  /** True when Ctrl-C stopped the matrix: unfinished cells are null. */
  partial: boolean;
  matrix: { row: string; col: string; rows: ParamValue[]; cols: ParamValue[]; tables: MatrixTable[] };
  /** Every metric at the base parameters, as `muster run` reports them. */
  metrics: RunResult['metrics'];
  /**
   * With --against: every row value against the given column value, best first, and which are on the trade-off
   * frontier.
   */
  against?: { opponent: ParamValue; ranking: AgainstRow[] };
}

export interface AgainstRow {
  strategy: ParamValue;
  label: string;
  /** The trade-off metrics (and the matrix's own) at this row against the opponent. */
  metrics: Record<string, number>;
  /** No other row is at least as good on every trade-off metric and better on one. */
  pareto: boolean;
}

/**
 * `muster matrix <rule>`: the rule's declared two-parameter table — exact
 * where the rule has an exact solution, simulated per cell otherwise or with
 * --simulate (one pool serves every cell).
 */
export async function matrixCommand(ruleId: string, options: MatrixOptions, io: Io): Promise<MatrixResult> {
  // A built-in rule is found without an await, so nothing (such as a Ctrl-C listener) waits on a tick.
  const rule = isRulePath(ruleId) ? await loadRule(ruleId) : getRule(ruleId);
  const spec = rule.matrix;
  if (!spec)
    throw new UsageError(
      `rule: ${rule.id} declares no matrix (muster describe ${ruleWord(rule)} lists what it has); allowed: a rule with a matrix, such as ${rules
        .filter((r) => r.matrix)
        .map((r) => r.id)
        .join(', ')}`,
    );
  const base = resolveParams(rule, options.set ?? []);
  let values = spec.defaultValues(base);
  if (options.range !== undefined) {
    if (!spec.parseRange) throw new UsageError(`--range: ${rule.id}'s matrix has a fixed axis; allowed: no --range`);
    values = withRangeHint(options.range, () => spec.parseRange!(options.range!));
  }
  // --against fixes the column: one column of the matrix, ranked.
  const colSpec = findParam(rule, spec.col);
  const cols =
    options.against === undefined
      ? values
      : [
          parseParamOrLabel(
            rule,
            colSpec,
            options.against.replace(/^[^=]*=/, (prefix) => (prefix === `${spec.col}=` ? '' : prefix)),
          ),
        ];
  if (
    options.against !== undefined &&
    (options.set ?? []).some((assignment) => assignment.trim().startsWith(`${spec.col}=`))
  ) {
    throw new UsageError(`--against: cannot be combined with --set ${spec.col}=…; allowed: one of the two`);
  }
  const everyMetric = rule.metrics(base);
  const tableMetrics =
    options.metric && options.metric.length > 0
      ? chooseMetrics(rule, everyMetric, options.metric).shown.map((m) => m.name)
      : [...spec.metrics];
  const stray = tableMetrics.find((name) => !everyMetric.some((metric) => metric.name === name));
  if (stray !== undefined)
    throw new UsageError(
      `${rule.id}: matrix.metrics: got ${JSON.stringify(stray)}, which is not a metric at these parameters; allowed: ${everyMetric.map((m) => m.name).join(', ')}`,
    );
  const cellParams = values.map((rowValue) =>
    cols.map((colValue) => resolveParams(rule, options.set ?? [], { [spec.row]: rowValue, [spec.col]: colValue })),
  );
  const jsonPath = options.json === undefined ? undefined : checkOutputFile('--json', options.json, { stdout: true });
  if (options.against !== undefined && options.html !== undefined)
    throw new UsageError('--html: not available with --against; allowed: --json, or the whole matrix with --html');
  const htmlPath = options.html === undefined ? undefined : checkOutputFile('--html', options.html);
  checkDistinct(
    [
      { option: '--json', path: jsonPath },
      { option: '--html', path: htmlPath },
    ],
    ruleFileInputs([rule]),
  );
  checkOutputNames([
    { option: '--json', path: options.json, format: 'json' },
    { option: '--html', path: options.html, format: 'html' },
  ]);
  const useExact = rule.exact !== undefined && !options.simulate;
  if (useExact) {
    // Parsed options are checked in every command that accepts them: here they would be ignored, so they are refused.
    for (const option of ['trials', 'threads', 'confidence', 'timeout', 'maxTrials'] as const) {
      if (options[option] !== undefined)
        throw new UsageError(
          `--${option.replace('T', '-t')}: ${rule.id}'s matrix is exact; allowed: add --simulate to simulate every cell, or leave it out`,
        );
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
    const pool = SimulationPool.take(settings.threads);
    const progress = new ProgressBar(io.err, io.errIsTTY && !options.quiet);
    const total = (values.length * cols.length + 1) * settings.trials;
    let finished = 0;
    cells = cellParams.map((row) => row.map(() => null));
    try {
      await withInterrupt(async (signal) => {
        // The base point and every cell at once on the pool (simulateEach): each is what `muster run` gives for it,
        // built as it finishes and its tally let go, so the table's memory does not grow with its cells.
        const points = [base, ...cellParams.flat()];
        await simulateEach(
          pool,
          points.map((params) => ({
            rule,
            params,
            seed: settings.seed,
            stream: settings.stream,
            trials: settings.trials,
          })),
          {
            signal,
            timeout: settings.timeout,
            onProgress: (done) => progress.update(done, total),
            onOutcome: (index, outcome) => {
              finished++;
              const result = buildResult({
                rule,
                params: points[index],
                seed: settings.seed,
                stream: settings.stream,
                threads: settings.threads,
                confidence: settings.confidence,
                trials: outcome.trials,
                tally: outcome.tally,
              });
              if (index === 0) baseResult = result;
              else cells[Math.floor((index - 1) / cols.length)][(index - 1) % cols.length] = result;
            },
          },
        );
        // After Ctrl-C the cells that finished are kept, the others left empty.
        interrupted = finished < points.length;
      });
    } finally {
      progress.finish();
      await pool.close();
    }
  }
  if (baseResult === null) {
    io.err('muster: PARTIAL: interrupted before any cell finished; nothing was written\n');
    process.exitCode = interruptedStatus();
    return {
      ...envelope('matrix', rule),
      source: rule.source,
      params: base,
      method: 'simulation',
      seed: settings?.seed ?? null,
      stream: settings?.stream ?? null,
      trials: settings?.trials ?? null,
      confidence: settings?.confidence ?? null,
      partial: true,
      matrix: { row: spec.row, col: spec.col, rows: values, cols, tables: [] },
      metrics: {},
    };
  }
  const finalBase: RunResult = baseResult;

  const pick = (metric: string, field: 'lo' | 'hi') =>
    cells.map((row) =>
      row.map((cell) => (cell ? ((own(cell.metrics, metric) as MetricResult)[field] as number) : null)),
    );
  const tables: MatrixTable[] = tableMetrics.map((metric) => ({
    metric,
    values: cells.map((row) =>
      row.map((cell) =>
        cell === null
          ? null
          : useExact
            ? bestOf(own(cell.metrics, metric) as MetricResult)
            : ((own(cell.metrics, metric) as MetricResult).estimate as number),
      ),
    ),
    lo: useExact ? null : pick(metric, 'lo'),
    hi: useExact ? null : pick(metric, 'hi'),
  }));
  const result: MatrixResult = {
    ...envelope('matrix', rule),
    source: rule.source,
    params: base,
    method: useExact ? 'exact' : 'simulation',
    seed: settings?.seed ?? null,
    stream: settings?.stream ?? null,
    trials: settings?.trials ?? null,
    confidence: settings?.confidence ?? null,
    partial: interrupted,
    matrix: { row: spec.row, col: spec.col, rows: values, cols, tables },
    metrics: finalBase.metrics,
  };
  const label = (value: ParamValue) => spec.label?.(value) ?? String(value);
  const describeMetric = new Map(everyMetric.map((m) => [m.name, m]));
  const width = tableWidth(io.columns);
  if (options.against !== undefined) {
    const tradeOff = spec.tradeOff ?? [tableMetrics[0]];
    const column = cells.map((row) => row[0]);
    if (column.some((cell) => cell === null)) {
      // A ranking of some strategies would mislead: an interrupted --against ranks nothing.
      io.err('muster: PARTIAL: interrupted before every strategy was evaluated; nothing was ranked or written\n');
      process.exitCode = interruptedStatus();
      return result;
    }
    result.against = {
      opponent: cols[0],
      ranking: rankAgainst(values, column as RunResult[], tradeOff, tableMetrics, label),
    };
    reportIo(io, jsonPath).out(
      renderAgainst(rule, result, tradeOff, tableMetrics, describeMetric, useExact, settings, width),
    );
    const files = jsonPath ? [{ path: jsonPath, contents: toJson(result), option: '--json' }] : [];
    writeReports(files, io, options.quiet ?? false);
    return result;
  }

  const parts = [
    `${rule.id} — ${rule.title}: ${useExact ? 'exact' : `simulated, ${settings?.trials} trials a cell, seed ${settings?.seed}, stream ${settings?.stream}`}`,
    `params: ${formatParams(base)}`,
  ];
  if (interrupted) parts.push('PARTIAL: interrupted; unfinished cells are shown as —');
  for (const table of tables) {
    const percent = describeMetric.get(table.metric)?.probability ?? false;
    parts.push(`\n${table.metric} (%s), rows ${spec.row}, columns ${spec.col}`.replace('(%s)', percent ? '(%)' : ''));
    const header = [`${spec.row} \\ ${spec.col}`, ...values.map(label)];
    const rows = table.values.map((row, i) => [
      label(values[i]),
      ...row.map((v) => (v === null ? '—' : percent ? (v * 100).toFixed(1) : v.toFixed(3))),
    ]);
    parts.push(renderTable(header, rows, width).trimEnd());
  }
  reportIo(io, jsonPath).out(`${wrapLines(parts.join('\n').split('\n'), width).join('\n')}\n`);
  const complete = cells.every((row) => row.every((cell) => cell !== null)) ? (cells as RunResult[][]) : null;
  // The printable page needs every cell: an interrupted matrix keeps its finished cells in the terminal table and the
  // JSON only.
  if (htmlPath && !complete)
    io.err(`muster: PARTIAL: --html ${htmlPath} not written, as a printable matrix needs every cell\n`);
  const files = [
    ...(jsonPath ? [{ path: jsonPath, contents: toJson(result), option: '--json' }] : []),
    ...(htmlPath && complete
      ? [
          {
            path: htmlPath,
            contents: matrixPage({
              rule,
              base,
              row: spec.row,
              col: spec.col,
              values,
              metrics: tableMetrics,
              cells: complete,
            }),
            option: '--html',
          },
        ]
      : []),
  ];
  writeReports(files, io, options.quiet ?? false);
  if (interrupted) process.exitCode = interruptedStatus();
  return result;
}

function exactResult(rule: Rule, params: Params): RunResult {
  return buildResult({ rule, params, seed: '', stream: null, threads: 0, confidence: 1, trials: 0, tally: null });
}

/**
 * Every row value against one opponent, best first by the first trade-off
 * metric (then the next), each marked when no other row is at least as good
 * on every trade-off metric and strictly better on one (the Pareto set).
 */
export function rankAgainst(
  values: readonly ParamValue[],
  results: readonly RunResult[],
  tradeOff: readonly string[],
  shown: readonly string[],
  label: (value: ParamValue) => string,
): AgainstRow[] {
  const names = [...new Set([...tradeOff, ...shown])];
  const rows = values.map((value, i) => ({
    strategy: value,
    label: label(value),
    metrics: keyedRecord(names.map((name) => [name, bestOf(own(results[i].metrics, name) as MetricResult)])),
    pareto: false,
  }));
  for (const row of rows) {
    row.pareto = !rows.some(
      (other) =>
        other !== row &&
        tradeOff.every((m) => other.metrics[m] >= row.metrics[m]) &&
        tradeOff.some((m) => other.metrics[m] > row.metrics[m]),
    );
  }
  return rows.sort((x, y) => {
    for (const m of tradeOff) if (x.metrics[m] !== y.metrics[m]) return y.metrics[m] - x.metrics[m];
    return 0;
  });
}

function renderAgainst(
  rule: Rule,
  result: MatrixResult,
  tradeOff: readonly string[],
  shown: readonly string[],
  describeMetric: ReadonlyMap<string, { probability: boolean }>,
  exact: boolean,
  settings: { trials: number; seed: string } | null,
  width: number,
): string {
  const spec = rule.matrix!;
  const against = result.against!;
  const opponent = spec.label?.(against.opponent) ?? String(against.opponent);
  const names = [...new Set([...tradeOff, ...shown])];
  const lines = [
    `${rule.id} — ${rule.title}: every ${spec.row} against ${spec.col}=${against.opponent}${opponent === String(against.opponent) ? '' : ` (${opponent})`}, ${exact ? 'exact' : `simulated, ${settings?.trials} trials each, seed ${settings?.seed}`}`,
    `fixed: ${formatParams(Object.fromEntries(Object.entries(result.params).filter(([name]) => name !== spec.row && name !== spec.col))) || '(none)'}`,
    `ranked by ${tradeOff.join(', then ')}; ★ no other ${spec.row} is better on ${tradeOff.length > 1 ? `both ${tradeOff.join(' and ')}` : tradeOff[0]}`,
    '',
  ];
  const header = ['', spec.row, '', ...names];
  const format = (name: string, value: number) =>
    describeMetric.get(name)?.probability ? `${(value * 100).toFixed(1)}%` : value.toFixed(3);
  const rows = against.ranking.map((row, i) => [
    String(i + 1),
    row.label,
    row.pareto ? '★' : '',
    ...names.map((name) => format(name, row.metrics[name])),
  ]);
  return `${wrapLines(lines, width).join('\n')}\n${renderTable(header, rows, width, { keep: 3 })}`;
}
