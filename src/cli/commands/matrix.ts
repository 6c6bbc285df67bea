import { matrixPage } from '../../../reports/matrix-report.js';
import {
  assembleMatrix,
  type MatrixCells,
  type MatrixEquilibrium,
  type MatrixResult,
  matrixSettings,
  matrixTrials,
  planEquilibrium,
  planMatrix,
  rankMatrix,
  simulateMatrix,
  solveEquilibrium,
  solveMatrixCells,
  tradeOffOf,
} from '../../analysis/matrix.js';
import type { Params, ParamValue, Rule } from '../../contract/types.js';
import type { SimulationPool } from '../../engine/pool.js';
import { parseTimeout, type SimulationSettings } from '../../engine/settings.js';
import { UsageError } from '../../errors.js';
import { checkDistinct, ruleFileInputs } from '../../output/files.js';
import { interruptedStatus } from '../../output/interrupt.js';
import type { Io } from '../../output/io.js';
import { toJson } from '../../output/json.js';
import type { RunResult } from '../../result.js';
import { isRulePath, loadRule } from '../../rule-files/load.js';
import { getRule } from '../../rules/index.js';
import { orSimulate } from '../exact-warning.js';
import { formatParams, renderTable, tableWidth, wrapLines } from '../format.js';
import { checkOutputFile } from '../options.js';
import { checkOutputNames } from '../output-names.js';
import { writeReports } from '../output-paths.js';
import { reportIo } from '../report-io.js';
import { evaluateOnPool } from './grid-run.js';
import type { RunOptions } from './run.js';

/** The matrix as planMatrix checked it. */
type MatrixPlan = ReturnType<typeof planMatrix>;

export type { AgainstRow, MatrixEquilibrium, MatrixResult, MatrixTable } from '../../analysis/matrix.js';

interface MatrixOptions extends RunOptions {
  range?: string;
  simulate?: boolean;
  against?: string;
  html?: string;
  equilibrium?: boolean;
  objective?: string;
}

/**
 * `muster matrix <rule>`: the rule's declared two-parameter table — exact
 * where the rule has an exact solution, simulated per cell otherwise or with
 * --simulate (one pool serves every cell).
 */
export async function matrixCommand(ruleId: string, options: MatrixOptions, io: Io): Promise<MatrixResult> {
  // A built-in rule is found without an await, so nothing (such as a Ctrl-C listener) waits on a tick.
  const rule = isRulePath(ruleId) ? await loadRule(ruleId) : getRule(ruleId);
  const plan = planMatrix(rule, options);
  const { spec, base, values, everyMetric, tableMetrics } = plan;
  const { jsonPath, htmlPath } = matrixPaths(rule, options);
  const settings = matrixSettings(plan, options);
  const useExact = settings === null;
  const objective = planEquilibrium(plan, settings, options);

  let computed: MatrixCells;
  if (settings === null) {
    // The cells solved as a grid's points are: the long tail on worker threads, Ctrl-C heard between points.
    const run = { simulating: false, threads: 0, totalTrials: 0, exactUnit: 'cells', quiet: options.quiet };
    const timeout = options.timeout === undefined ? undefined : parseTimeout(options.timeout);
    computed = await evaluateOnPool(run, io, ({ pool, signal, onPoint }) =>
      orSimulate('add --simulate', () => solveMatrixCells(plan, { pool, signal, onPoint, timeout })),
    );
  } else {
    const run = { simulating: true, threads: settings.threads, totalTrials: matrixTrials(plan, settings) };
    computed = await evaluateOnPool({ ...run, quiet: options.quiet }, io, ({ pool, signal, onTrials }) =>
      // Simulating, so the pool is taken.
      simulateMatrix(plan, settings, { pool: pool as SimulationPool, signal, onTrials }),
    );
  }
  const { cells, interrupted } = computed;
  if (computed.base === null) {
    io.err('muster: PARTIAL: interrupted before the base point was computed; nothing was written\n');
    process.exitCode = interruptedStatus();
    return assembleMatrix(plan, settings, computed);
  }
  const result = assembleMatrix(plan, settings, computed);
  // An equilibrium needs every cell: an interrupted matrix prints the cells it has and solves none.
  if (objective !== null && interrupted)
    io.err('muster: PARTIAL: interrupted before every cell was solved; no equilibrium was solved\n');
  else if (objective !== null) result.equilibrium = solveEquilibrium(plan, computed, objective);
  const describeMetric = new Map(everyMetric.map((m) => [m.name, m]));
  const width = tableWidth(io.columns);
  if (options.against !== undefined) {
    const tradeOff = tradeOffOf(plan);
    const against = rankMatrix(plan, computed);
    if (against === null) {
      // A ranking of some strategies would mislead: an interrupted --against ranks nothing.
      io.err('muster: PARTIAL: interrupted before every strategy was evaluated; nothing was ranked or written\n');
      process.exitCode = interruptedStatus();
      return result;
    }
    result.against = against;
    reportIo(io, jsonPath).out(
      renderAgainst(rule, result, tradeOff, tableMetrics, describeMetric, useExact, settings, width),
    );
    const files = jsonPath ? [{ path: jsonPath, contents: toJson(result), option: '--json' }] : [];
    writeReports(files, io, options.quiet ?? false);
    return result;
  }

  const parts = matrixTables(plan, result, settings, interrupted, width);
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

/** --json and --html, checked before anything runs: apart from each other and the rule file, named as they hold. */
function matrixPaths(rule: Rule, options: MatrixOptions): { jsonPath?: string; htmlPath?: string } {
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
  return { jsonPath, htmlPath };
}

/** The terminal's lines: how the cells were made, then each metric's table, then the equilibrium if asked. */
function matrixTables(
  plan: MatrixPlan,
  result: MatrixResult,
  settings: SimulationSettings | null,
  interrupted: boolean,
  width: number,
): string[] {
  const { rule, spec, base, values, everyMetric } = plan;
  const label = (value: ParamValue) => spec.label?.(value) ?? String(value);
  const describeMetric = new Map(everyMetric.map((m) => [m.name, m]));
  const parts = [
    `${rule.id} — ${rule.title}: ` +
      `${
        settings === null
          ? 'exact'
          : `simulated, ${settings?.trials} trials a cell, seed ${settings?.seed}, stream ` + `${settings?.stream}`
      }`,
    `params: ${formatParams(base)}`,
  ];
  if (interrupted) parts.push('PARTIAL: interrupted; unfinished cells are shown as —');
  for (const table of result.matrix.tables) {
    const percent = describeMetric.get(table.metric)?.probability ?? false;
    parts.push(`\n${table.metric} (%s), rows ${spec.row}, columns ${spec.col}`.replace('(%s)', percent ? '(%)' : ''));
    const header = [`${spec.row} \\ ${spec.col}`, ...values.map(label)];
    const rows = table.values.map((row, i) => [
      label(values[i]),
      ...row.map((v) => (v === null ? '—' : percent ? (v * 100).toFixed(1) : v.toFixed(3))),
    ]);
    parts.push(renderTable(header, rows, width).trimEnd());
  }
  if (result.equilibrium) parts.push('', ...renderEquilibrium(result.equilibrium, spec.row, spec.col, width));
  return parts;
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
  const spec = rule.presentation!.matrix!;
  const against = result.against!;
  const opponent = spec.label?.(against.opponent) ?? String(against.opponent);
  const names = [...new Set([...tradeOff, ...shown])];
  const lines = [
    `${rule.id} — ${rule.title}: every ${spec.row} against ` +
      `${spec.col}=${against.opponent}${opponent === String(against.opponent) ? '' : ` (${opponent})`}, ` +
      `${exact ? 'exact' : `simulated, ${settings?.trials} trials each, seed ${settings?.seed}`}`,
    `fixed: ${formatParams(fixedParams(result.params, spec.row, spec.col)) || '(none)'}`,
    `ranked by ${tradeOff.join(', then ')}; ★ no other ${spec.row} is better on ` +
      `${tradeOff.length > 1 ? `both ${tradeOff.join(' and ')}` : tradeOff[0]}`,
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

/**
 * The game in the terminal: what each side plays for, the value, each side's mix (the options it plays, then how
 * many it never plays), and the answer in words.
 */
function renderEquilibrium(equilibrium: MatrixEquilibrium, row: string, col: string, width: number): string[] {
  const percent = (chance: number) => `${(chance * 100).toFixed(3)}%`;
  const side = (name: string, options: MatrixEquilibrium['rows']) => {
    const played = options.filter((option) => option.fraction !== '0');
    const table = renderTable(
      [name, 'chance', 'exact'],
      played.map((option) => [option.label, percent(option.chance), option.fraction]),
      width,
    ).trimEnd();
    const never = options.length - played.length;
    return [table, ...(never > 0 ? [`(${never} other ${never === 1 ? 'option' : 'options'}: never)`] : [])];
  };
  return [
    `equilibrium on ${equilibrium.objective}: ${row} (rows) plays to raise it, ${col} (columns) to lower it, ` +
      'both choosing at once',
    `value of the game: ${equilibrium.value.exact.toFixed(6)} = ${equilibrium.value.fraction}`,
    '',
    ...side(`${row} plays`, equilibrium.rows),
    '',
    ...side(`${col} plays`, equilibrium.cols),
    '',
    ...equilibrium.summary,
  ];
}

/** The parameters a matrix holds fixed: all but its two axes. */
function fixedParams(params: Params, row: string, col: string): Params {
  return Object.fromEntries(Object.entries(params).filter(([name]) => name !== row && name !== col));
}
