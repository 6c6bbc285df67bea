/**
 * A rule's declared two-parameter table (`muster matrix`), apart from how it is shown.
 *
 *   plan (the rule's matrix, --set, --range, --against, --metric ─► every cell's parameters)
 *     ─► settings (exact, or simulated with --simulate or where the rule has no exact solution)
 *     ─► evaluate (solved; or the base point and every cell at once on one pool, each built as it finishes)
 *     ─► assemble (the cells ─► the `muster matrix` result JSON; with --against, one column ranked;
 *        with --equilibrium, the zero-sum game on an objective solved exactly)
 */

import type { Params, ParamValue, Rule } from '../contract/types.js';
import type { SimulationPool } from '../engine/pool.js';
import { parseSimulationSettings, parseTimeout, type SimulationSettings } from '../engine/settings.js';
import { simulateEach } from '../engine/simulate-many.js';
import { UsageError } from '../errors.js';
import { Fraction } from '../exact/fraction.js';
import { solveZeroSum } from '../exact/zero-sum-game.js';
import { parseSeed } from '../input/seed.js';
import { keyedRecord, own } from '../keyed.js';
import { bestOf, envelope, type MetricResult, type RunResult } from '../result.js';
import { rules } from '../rules/index.js';
import { findParam, parseParamOrLabel, resolveParams } from '../rules/params.js';
import { ruleWord, withRangeHint } from '../text/suggest.js';
import type { EvaluateOptions } from './evaluate-types.js';
import { type HandOffTimes, solveExactGrid } from './exact-grid.js';
import type {
  AgainstRow,
  EquilibriumOption,
  MatrixEquilibrium,
  MatrixPlan,
  MatrixRequest,
  MatrixResult,
  MatrixTable,
} from './matrix-types.js';
import { checkMatrixMetrics, chooseMetrics } from './metrics.js';
import { evaluateObjective, type Objective, objectiveNames, parseObjective } from './objective.js';
import { buildResult } from './result-of.js';
import { type PointShape, solvePoint } from './solve-point.js';
import { withTails } from './tails.js';

export type { AgainstRow, EquilibriumOption, MatrixEquilibrium, MatrixResult, MatrixTable };

/** Checks the matrix's options and builds every cell's parameters, before any output path is looked at. */
export function planMatrix(loaded: Rule, options: MatrixRequest): MatrixPlan {
  // A distribution's tail named by --metric or in --objective (`a.total<=10`) is a probability metric like any other.
  const rule = withTails(
    withTails(loaded, options.metric ?? []),
    options.equilibrium ? objectiveNames(options.objective) : [],
    '--objective',
  );
  const spec = rule.presentation?.matrix;
  if (!spec)
    throw new UsageError(
      `rule: ${rule.id} declares no matrix (muster describe ${ruleWord(rule)} lists what it has); ` +
        `allowed: a rule with a matrix, such as ${rules
          .filter((r) => r.presentation?.matrix)
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
  checkMatrixMetrics(rule, everyMetric, tableMetrics);
  const cellParams = values.map((rowValue) =>
    cols.map((colValue) => resolveParams(rule, options.set ?? [], { [spec.row]: rowValue, [spec.col]: colValue })),
  );
  return { rule, spec, base, values, cols, everyMetric, tableMetrics, cellParams };
}

/**
 * How the cells are computed: null for exact (the rule has an exact solution and --simulate is not given, when
 * simulation options are refused rather than ignored), else the simulation settings.
 */
export function matrixSettings(plan: MatrixPlan, options: MatrixRequest): SimulationSettings | null {
  const { rule } = plan;
  const useExact = rule.exact !== undefined && !options.simulate;
  if (useExact) {
    // Parsed options are checked in every command that accepts them: here they would be ignored, so they are refused.
    // Not --timeout: it stops a rule file's call that runs past it (the CLI's supervisor), exact or simulated.
    if (options.timeout !== undefined) parseTimeout(options.timeout);
    for (const option of ['trials', 'stream', 'threads', 'confidence', 'maxTrials'] as const) {
      if (options[option] !== undefined)
        throw new UsageError(
          `--${option.replace('T', '-t')}: ${rule.id}'s matrix is exact; ` +
            `allowed: add --simulate to simulate every cell, or leave it out`,
        );
    }
    if (options.seed !== undefined) parseSeed(options.seed);
  }
  return useExact ? null : parseSimulationSettings(options);
}

/** The cells computed (null: unfinished after an interruption) and the base point's result. */
export interface MatrixCells {
  cells: (RunResult | null)[][];
  base: RunResult | null;
  interrupted: boolean;
}

/**
 * A matrix's cell as solved: its result, without the rule's best play or its distributions (a cell's table, its
 * equilibrium and its ranking read the metrics only).
 */
const CELL: PointShape = { resultsOnly: true, bestPlay: false, withoutDistributions: true };

/** Every cell and the base point solved exactly (a rule with an exact solution: matrixSettings gave null). */
export function solveMatrix(plan: MatrixPlan): MatrixCells {
  const { rule } = plan;
  const cell = (params: Params) => solvePoint(rule, params, '', CELL).result;
  // The base point first, as solveMatrixCells solves it (an interrupted table keeps its cells only beside it).
  const base = cell(plan.base);
  return { cells: plan.cellParams.map((row) => row.map(cell)), base, interrupted: false };
}

/**
 * The base point and every cell solved exactly, as solveMatrix solves them and in its order (the base point, then
 * the cells row by row), by a command: the long tail on `options.pool`'s threads (exact-grid.ts). After an
 * interruption (`options.signal`) the cells unsolved are null, and the base point too if it was not reached: the
 * base point first, so that an interrupted table has the cells it finished to write (docs/errors.md, "Ctrl-C").
 */
export async function solveMatrixCells(
  plan: MatrixPlan,
  options: Pick<EvaluateOptions, 'pool' | 'signal' | 'onPoint'> & { timeout?: number },
  times?: HandOffTimes,
): Promise<MatrixCells> {
  const grid = [plan.base, ...plan.cellParams.flat()];
  const settings = { method: 'exact', seed: '', stream: null, confidence: 1, trials: 0, threads: 0 } as const;
  const solved = await solveExactGrid(
    plan.rule,
    grid,
    options.timeout === undefined ? settings : { ...settings, timeout: options.timeout },
    { ...options, ...CELL },
    times,
  );
  const results: Array<RunResult | null> = grid.map(() => null);
  for (const [at, index] of solved.indices.entries()) results[index] = solved.evaluated[at].result;
  let next = 1;
  return {
    base: results[0],
    cells: plan.cellParams.map((row) => row.map(() => results[next++])),
    interrupted: solved.interrupted,
  };
}

/** The trials a simulated matrix runs: the base point's and every cell's. */
export function matrixTrials(plan: MatrixPlan, settings: SimulationSettings): number {
  return (plan.values.length * plan.cols.length + 1) * settings.trials;
}

/**
 * The base point and every cell at once on the pool (simulateEach): each is what `muster run` gives for it,
 * built as it finishes and its tally let go, so the table's memory does not grow with its cells. After an
 * interruption the cells that finished are kept, the others left null.
 */
export async function simulateMatrix(
  plan: MatrixPlan,
  settings: SimulationSettings,
  options: { pool: SimulationPool; signal?: AbortSignal; onTrials?: (done: number) => void },
): Promise<MatrixCells> {
  const { rule, base, cellParams, cols } = plan;
  const cells: (RunResult | null)[][] = cellParams.map((row) => row.map(() => null));
  let baseResult: RunResult | null = null;
  let finished = 0;
  const points = [base, ...cellParams.flat()];
  await simulateEach(
    options.pool,
    points.map((params) => ({
      rule,
      params,
      seed: settings.seed,
      stream: settings.stream,
      trials: settings.trials,
    })),
    {
      signal: options.signal,
      timeout: settings.timeout,
      onProgress: (done) => options.onTrials?.(done),
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
          withoutDistributions: true,
        });
        if (index === 0) baseResult = result;
        else cells[Math.floor((index - 1) / cols.length)][(index - 1) % cols.length] = result;
      },
    },
  );
  return { cells, base: baseResult, interrupted: finished < points.length };
}

/** The matrix's result from its cells: every table metric's values (and intervals, when simulated). */
export function assembleMatrix(
  plan: MatrixPlan,
  settings: SimulationSettings | null,
  computed: MatrixCells,
): MatrixResult {
  const { rule, spec, base, values, cols, tableMetrics } = plan;
  const { cells } = computed;
  const useExact = settings === null;
  if (computed.base === null)
    return {
      ...envelope('matrix', rule),
      source: rule.source,
      params: base,
      method: useExact ? 'exact' : 'simulation',
      seed: settings?.seed ?? null,
      stream: settings?.stream ?? null,
      trials: settings?.trials ?? null,
      confidence: settings?.confidence ?? null,
      partial: true,
      matrix: { row: spec.row, col: spec.col, rows: values, cols, tables: [] },
      metrics: {},
    };
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
    partial: computed.interrupted,
    matrix: { row: spec.row, col: spec.col, rows: values, cols, tables },
    metrics: computed.base.metrics,
  };
  return result;
}

/** The metrics --against ranks by: the rule's trade-off, or the first table metric. */
export function tradeOffOf(plan: MatrixPlan): string[] {
  return plan.spec.tradeOff ? [...plan.spec.tradeOff] : [plan.tableMetrics[0]];
}

/** With --against: every row against the one column, ranked; null when an interruption left a row unfinished. */
export function rankMatrix(plan: MatrixPlan, computed: MatrixCells): MatrixResult['against'] | null {
  const column = computed.cells.map((row) => row[0]);
  if (column.some((cell) => cell === null)) return null;
  const label = (value: ParamValue) => plan.spec.label?.(value) ?? String(value);
  return {
    opponent: plan.cols[0],
    ranking: rankAgainst(plan.values, column as RunResult[], tradeOffOf(plan), plan.tableMetrics, label),
  };
}

/**
 * Every row value against one opponent, best first by the first trade-off
 * metric (then the next), each marked when no other row is at least as good
 * on every trade-off metric and strictly better on one (the Pareto set).
 */
function rankAgainst(
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

/**
 * Checks --equilibrium before any work: the objective names metrics of the rule (default the matrix's first),
 * and every cell will be exact. Returns the objective read, or null without --equilibrium.
 */
export function planEquilibrium(
  plan: MatrixPlan,
  settings: SimulationSettings | null,
  options: { equilibrium?: boolean; objective?: string; against?: string; metric?: string[] },
): Objective | null {
  if (!options.equilibrium) {
    if (options.objective !== undefined)
      throw new UsageError('--objective: only with --equilibrium; allowed: add --equilibrium, or leave it out');
    return null;
  }
  if (options.against !== undefined)
    throw new UsageError('--equilibrium: cannot be combined with --against; allowed: one of the two');
  if (settings !== null)
    throw new UsageError(
      `--equilibrium: needs the exact value of every cell, and ${plan.rule.id}'s matrix is ` +
        `${plan.rule.exact === undefined ? 'simulated (the rule has no exact solution)' : 'simulated with --simulate'}` +
        `; allowed: ${plan.rule.exact === undefined ? 'a rule muster solves exactly' : 'leave out --simulate'}`,
    );
  const names = plan.everyMetric.map((metric) => metric.name);
  return parseObjective(options.objective ?? plan.spec.metrics[0], names);
}

/** The zero-sum game on the objective over the exact cells, solved, with its answer in words. */
export function solveEquilibrium(plan: MatrixPlan, computed: MatrixCells, objective: Objective): MatrixEquilibrium {
  const label = (value: ParamValue) => plan.spec.label?.(value) ?? String(value);
  const payoff = computed.cells.map((row, i) =>
    row.map((cell, j) =>
      evaluateObjective(objective, (metric) => {
        const fraction = cell === null ? null : own(cell.metrics, metric)?.fraction;
        if (fraction === null || fraction === undefined)
          throw new UsageError(
            `--objective: ${JSON.stringify(metric)} has no exact value at ${plan.spec.row}=${label(plan.values[i])}, ` +
              `${plan.spec.col}=${label(plan.cols[j])}; allowed: metrics every cell of the matrix has`,
          );
        return parseFraction(fraction);
      }),
    ),
  );
  const solution = solveZeroSum(payoff);
  const options = (values: readonly ParamValue[], chances: Fraction[]): EquilibriumOption[] =>
    values.map((value, k) => ({
      strategy: value,
      label: label(value),
      chance: chances[k].toNumber(),
      fraction: chances[k].toString(),
    }));
  const rows = options(plan.values, solution.rowStrategy);
  const cols = options(plan.cols, solution.colStrategy);
  const { row: rowName, col: colName } = plan.spec;
  const mix = (side: EquilibriumOption[]) =>
    side
      .filter((option) => option.fraction !== '0')
      .map((option) => `${option.label} ${option.fraction}`)
      .join(', ');
  const summary: string[] = [];
  if (solution.dominantRow !== null)
    summary.push(
      `${label(plan.values[solution.dominantRow])} dominates for ${rowName}: against every ${colName} it does at ` +
        `least as well on ${objective.text} as any other ${rowName}, so pick it.`,
    );
  if (solution.dominantCol !== null)
    summary.push(
      `${label(plan.cols[solution.dominantCol])} dominates for ${colName}: against every ${rowName} it holds ` +
        `${objective.text} at least as low as any other ${colName}, so pick it.`,
    );
  const plays = (side: string, options: EquilibriumOption[]) =>
    options.filter((option) => option.fraction !== '0').length > 1
      ? `${side} mixes ${mix(options)}`
      : `${side} plays ${mix(options)}`;
  if (solution.saddlePoint !== null) {
    const { row, col } = solution.saddlePoint;
    summary.push(
      `A pure saddle point: ${rowName} plays ${label(plan.values[row])}, ${colName} plays ` +
        `${label(plan.cols[col])}; neither gains by changing alone.`,
    );
  } else {
    summary.push(
      `No pure saddle point: the other side can exploit any fixed choice, so ${plays(rowName, rows)} and ` +
        `${plays(colName, cols)}, drawing each game's choice by these chances (a die or cards).`,
    );
  }
  return {
    objective: objective.text,
    weights: [...objective.weights].map(([metric, weight]) => ({ metric, weight: weight.toString() })),
    constant: objective.constant.toString(),
    value: { exact: solution.value.toNumber(), fraction: solution.value.toString() },
    rows,
    cols,
    saddlePoint:
      solution.saddlePoint === null
        ? null
        : { row: plan.values[solution.saddlePoint.row], col: plan.cols[solution.saddlePoint.col] },
    dominantRow: solution.dominantRow === null ? null : plan.values[solution.dominantRow],
    dominantCol: solution.dominantCol === null ? null : plan.cols[solution.dominantCol],
    summary,
  };
}

/** A result's exact value, "n/d" or "n", back to a fraction. */
function parseFraction(text: string): Fraction {
  const [numerator, denominator = '1'] = text.split('/');
  return Fraction.of(BigInt(numerator), BigInt(denominator));
}
