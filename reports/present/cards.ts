/**
 * A rule's one-page card drawn from its presentation (src/contract/presentation.ts
 * `CardDecl`): heatmaps over a matrix axis (and, with --against, a ranked
 * list), the rule's own run charts with tables, or line panels; a rule that
 * declares no card gets the generic one (./generic-card.ts).
 *
 * No node: imports here or below, so the calculator page can bundle it.
 */
import { bestOf } from '../../src/best-of.js';
import type { AxisDecl, CardDecl, ChartDecl, TableDecl, Words } from '../../src/contract/presentation.js';
import type { Params, ParamValue, Rule } from '../../src/contract/types.js';
import { badValue, UsageError } from '../../src/errors.js';
import { own } from '../../src/keyed.js';
import type { RunResult } from '../../src/result.js';
import { findParam, resolveParams } from '../../src/rules/params.js';
import { withRangeHint } from '../../src/text/suggest.js';
import { type IntervalPoint, intervalChart, lineChart, metricPoint, pointFrom } from '../charts/blocks.js';
import type { Chart, RunView } from '../charts/chart.js';
import { matrixChart } from '../charts/generic.js';
import { type HeatCell, heatmap } from '../charts/heatmap.js';
import { escapeHtml } from '../escape.js';
import { chartLabel, percent } from '../numbers.js';
import { declaredChart } from './charts.js';
import { fill, indicesOf, metricAt, type WordsContext } from './words.js';

/** What a card is asked for beyond the rule's parameters. */
export interface CardOptions {
  /** `--range`: the values of the card's table axis (a matrix's, or a declared integer axis). */
  range?: string;
  /** `--against`: one opponent strategy, for a ranked list instead of the matrix. */
  against?: string;
}

/** A block of the sheet: a chart, or a table whose HTML is already escaped. */
export type CardBlock =
  | { kind: 'chart'; chart: Chart }
  | { kind: 'table'; id: string; title: string; html: string; caption?: string };

interface CardContent {
  title: string;
  subtitle: string;
  blocks: CardBlock[];
  /** Parameters the card varies (left out of its footer). */
  varied?: string[];
}

export interface CardDesign {
  /** Which options this card takes (others are refused with a one-line error). */
  accepts: { range: boolean; against: boolean };
  plan(rule: Rule, params: Params, options: CardOptions): Params[];
  layout(rule: Rule, params: Params, options: CardOptions, results: readonly RunResult[]): CardContent;
}

/** Room for a chart's plot on the sheet (SHEET, in reports/card/layout.ts) less axis labels and a legend beside it. */
export const PLOT = { width: 560, height: 640 } as const;
/** The sheet's width less its padding, for panels side by side. */
const PANELS_WIDTH = 640;

export const evaluated = (results: readonly RunResult[]) => results.map((result) => ({ result, tallied: null }));
const view = (rule: Rule, result: RunResult): RunView => ({
  rule,
  result,
  metrics: rule.metrics(result.params),
});
const words = (text: Words, context: WordsContext) => fill(text, context);

/** An integer range a..b or a list a,b,c, each within [min, max], at most `most` values. */
function integerList(option: string, text: string, min: number, max: number, most: number): number[] {
  const example = `${min}..${Math.min(max, min + most - 1)}`;
  const allowed = `a..b or a,b,c: integers from ${min} to ${max}, at most ${most} of them (such as ${example})`;
  const range = /^\s*(\d+)\s*\.\.\s*(\d+)\s*$/.exec(text);
  let values: number[];
  if (range) {
    const [from, to] = [Number(range[1]), Number(range[2])];
    values = from <= to ? Array.from({ length: to - from + 1 }, (_, i) => from + i) : [];
  } else if (/^\s*\d+(\s*,\s*\d+)*\s*$/.test(text)) {
    values = [...new Set(text.split(',').map((part) => Number(part.trim())))].sort((a, b) => a - b);
  } else {
    values = [];
  }
  if (values.length === 0 || values.length > most || values.some((value) => value < min || value > max))
    throw badValue(option, text, allowed);
  return values;
}

/** An axis's values: --range (through the matrix's own parser, or as integers), else its defaults. */
export function axisValues(rule: Rule, params: Params, options: CardOptions, axis: AxisDecl): ParamValue[] {
  if (axis.from === 'matrix') {
    const spec = rule.presentation?.matrix;
    if (!spec) throw new Error(`${rule.id} declares no matrix`);
    if (options.range === undefined) return spec.defaultValues(params);
    if (!spec.parseRange) throw new UsageError(`--range: ${rule.id}'s table has a fixed axis; allowed: no --range`);
    return withRangeHint(options.range, () => spec.parseRange!(options.range!));
  }
  const spec = findParam(rule, axis.param);
  const [min, max] = spec.type === 'integer' ? [spec.min, spec.max] : [0, 10];
  if (options.range !== undefined)
    return withRangeHint(options.range, () => integerList('--range', options.range!, min, max, axis.most));
  if (axis.values) return [...axis.values];
  const around = axis.around ?? { count: 1, before: 0 };
  const from = Math.max(min, Math.min(max - (around.count - 1), Number(own(params, axis.param)) - around.before));
  return Array.from({ length: around.count }, (_, i) => from + i);
}

/** An HTML table (every cell escaped); `numeric` columns align right. */
export function table(head: string[], rows: string[][], numeric: (column: number) => boolean): string {
  const cell = (tag: string, text: string, column: number) =>
    `<${tag}${numeric(column) ? ' class="num"' : ''}>${escapeHtml(text)}</${tag}>`;
  return `<table><thead><tr>${head.map((text, i) => cell('th', text, i)).join('')}</tr></thead><tbody>${rows
    .map((row) => `<tr>${row.map((text, i) => cell('td', text, i)).join('')}</tr>`)
    .join('')}</tbody></table>`;
}

/** A figure as the card prints it: exact where known, else the estimate ± its interval's half-width. */
export function figure(result: RunResult, metric: string, probability = true): string {
  const value = own(result.metrics, metric);
  if (!value) return '—';
  if (value.exact !== null) return chartLabel(value.exact, probability);
  if (value.estimate === null) return '—';
  if (value.lo === null || value.hi === null) return chartLabel(value.estimate, probability);
  const half = Math.max(value.estimate - value.lo, value.hi - value.estimate);
  return `${chartLabel(value.estimate, probability)} ±${probability ? `${(half * 100).toFixed(1)}` : half.toFixed(2)}`;
}

function best(result: RunResult, metric: string): number {
  const value = own(result.metrics, metric);
  return value ? bestOf(value) : Number.NaN;
}

const axisLabel = (rule: Rule, value: ParamValue) => rule.presentation?.matrix?.label?.(value) ?? String(value);

/** One table block: rows from `rows` (one result and its axis value each), or per index, or per line × index. */
function tableBlock(
  rule: Rule,
  decl: TableDecl,
  rows: ReadonlyArray<{ result: RunResult; value?: ParamValue }>,
): CardBlock {
  const base = { params: rows[0].result.params, result: rows[0].result };
  let head: string[];
  let cells: string[][];
  if (decl.byIndex) {
    const { param, lines } = decl.byIndex;
    const result = rows[0].result;
    const columns = Array.from({ length: Number(own(result.params, param)) }, (_, i) => i + 1);
    head = [
      words(decl.columns[0]?.head ?? '', base),
      ...columns.map((i) => words(decl.byIndex!.head, { ...base, index: i })),
    ];
    cells = lines.map((line) => [
      words(line.label, base),
      ...columns.map((i) => figure(result, metricAt(line.metric, i), line.probability)),
    ]);
  } else {
    const expanded =
      decl.each === undefined
        ? rows.map((row, rank) => ({ ...row, rank, index: undefined as number | undefined }))
        : indicesOf(Object.keys(rows[0].result.metrics), decl.each).map((index, rank) => ({ ...rows[0], rank, index }));
    head = decl.columns.map((column) => words(column.head, base));
    cells = expanded.map(({ result, value, rank, index }) =>
      decl.columns.map(({ cell }) => {
        const at = (metric: string) => (index === undefined ? metric : metricAt(metric, index));
        if ('figure' in cell) return figure(result, at(cell.figure), cell.probability ?? true);
        if ('rank' in cell) return String(rank + 1);
        if ('axis' in cell)
          return cell.axis === 'label' ? axisLabel(rule, value!) : `${axisLabel(rule, value!)} (${String(value)})`;
        if ('expected' in cell) {
          const found = indicesOf(Object.keys(result.metrics), cell.expected);
          const total = found.reduce((sum, i) => sum + i * best(result, metricAt(cell.expected, i)), 0);
          return found.length > 0 && Number.isFinite(total) ? total.toFixed(2) : '—';
        }
        return words(cell.words, { params: result.params, result, index });
      }),
    );
  }
  const numeric = decl.byIndex
    ? (column: number) => column > 0
    : (column: number) => decl.columns[column]?.numeric === true;
  return {
    kind: 'table',
    id: decl.id,
    title: words(decl.title, base),
    html: table(head, cells, numeric),
    ...(decl.caption === undefined ? {} : { caption: words(decl.caption, base) }),
  };
}

function grid(rule: Rule, params: Params, row: string, col: string, values: readonly ParamValue[]): Params[] {
  return values.flatMap((rowValue) =>
    values.map((colValue) => resolveParams(rule, [], { ...params, [row]: rowValue, [col]: colValue })),
  );
}

/** The opponent a player names with --against, through the column parameter's own parser. */
function parseAgainst(rule: Rule, col: string, text: string): ParamValue {
  const spec = findParam(rule, col);
  if (spec.type !== 'text' && spec.type !== 'choice') throw new Error(`${rule.id}: ${col} takes no --against`);
  if (spec.type === 'choice') {
    if (!spec.choices.includes(text)) throw badValue('--against', text, spec.choices.join(', '));
    return text;
  }
  try {
    return spec.parse(text);
  } catch (error) {
    if (error instanceof UsageError) throw badValue('--against', text, spec.allowed);
    throw error;
  }
}

function matrixDesign(decl: Extract<CardDecl, { kind: 'matrix' }>): CardDesign {
  const { row, col } = decl;
  return {
    accepts: { range: true, against: decl.against !== undefined },
    plan(rule, params, options) {
      const values = axisValues(rule, params, options, decl.axis);
      if (options.against === undefined || !decl.against) return grid(rule, params, row, col, values);
      const against = parseAgainst(rule, col, options.against);
      return values.map((value) => resolveParams(rule, [], { ...params, [row]: value, [col]: against }));
    },
    layout(rule, params, options, results) {
      const values = axisValues(rule, params, options, decl.axis);
      const context: WordsContext = { params };
      if (options.against !== undefined && decl.against) return againstLayout(rule, params, options.against, results);
      const fit = { ...PLOT, ...decl.fit };
      const blocks: CardBlock[] = decl.heatmaps.map((heat) => {
        const chart = matrixChart(rule, row, col, values, values, heat.metric, evaluated(results), '', undefined, fit);
        return {
          kind: 'chart',
          chart: { ...chart, id: heat.id, title: words(heat.title, context), caption: words(heat.caption, context) },
        };
      });
      const firstColumn = values.map((value, i) => ({ result: results[i * values.length], value }));
      for (const tableDecl of decl.tables ?? []) blocks.push(tableBlock(rule, tableDecl, firstColumn));
      return { title: words(decl.title, context), subtitle: words(decl.subtitle, context), blocks, varied: [row, col] };
    },
  };

  function againstLayout(rule: Rule, params: Params, text: string, results: readonly RunResult[]): CardContent {
    const spec = decl.against!;
    const against = parseAgainst(rule, col, text);
    const context: WordsContext = { params: { ...params, [col]: against }, value: axisLabel(rule, against) };
    const ranked = [...results].sort((x, y) => best(y, spec.metric) - best(x, spec.metric));
    const points = ranked
      .map((result, rank) => metricPoint(result, spec.metric, axisLabel(rule, own(result.params, row)!), rank, true))
      .filter((point): point is IntervalPoint => point !== null);
    return {
      title: words(spec.title, context),
      subtitle: words(spec.subtitle, context),
      blocks: [
        {
          kind: 'chart',
          chart: {
            id: spec.chart.id,
            title: words(spec.chart.title, context),
            caption: words(spec.chart.caption, context),
            spec: intervalChart(points, {
              orientation: 'horizontal',
              categoryTitle: spec.chart.categoryTitle,
              valueTitle: spec.chart.valueTitle,
              percent: true,
              bars: true,
              width: 480,
              step: 22,
            }),
          },
        },
        tableBlock(
          rule,
          spec.table,
          ranked.map((result) => ({ result, value: own(result.params, row) })),
        ),
      ],
      varied: [row, col],
    };
  }
}

function chartsDesign(decl: Extract<CardDecl, { kind: 'charts' }>, declared: readonly ChartDecl[]): CardDesign {
  return {
    accepts: { range: false, against: false },
    plan: (rule, params) => [resolveParams(rule, [], params)],
    layout(rule, params, _options, [result]) {
      const runView = view(rule, result);
      const context: WordsContext = { params: result.params, result };
      const blocks: CardBlock[] = [];
      for (const wanted of decl.charts) {
        const chartDecl = declared.find((chart) => chart.kind !== 'every' && chart.id === wanted.id);
        if (!chartDecl || chartDecl.kind === 'every') continue;
        const drawn = declaredChart(
          runView,
          wanted.labels === undefined || chartDecl.kind !== 'lines'
            ? chartDecl
            : { ...chartDecl, labels: wanted.labels },
        );
        if (!drawn) continue;
        blocks.push({
          kind: 'chart',
          chart: {
            ...drawn,
            ...(wanted.height === undefined ? {} : { spec: { ...drawn.spec, height: wanted.height } }),
            ...(wanted.caption === undefined ? {} : { caption: words(wanted.caption, context) }),
          },
        });
      }
      for (const tableDecl of decl.tables ?? []) blocks.push(tableBlock(rule, tableDecl, [{ result }]));
      return { title: words(decl.title, { params }), subtitle: words(decl.subtitle, context), blocks };
    },
  };
}

function panelsDesign(decl: Extract<CardDecl, { kind: 'panels' }>): CardDesign {
  const seriesValues = (params: Params) => {
    const to = Number(own(params, decl.series.to));
    return Array.from({ length: to - decl.series.from + 1 }, (_, i) => decl.series.from + i);
  };
  return {
    accepts: { range: true, against: false },
    plan(rule, params, options) {
      const grid: Params[] = [];
      for (const value of axisValues(rule, params, options, decl.axis))
        for (const series of seriesValues(params))
          grid.push(resolveParams(rule, [], { ...params, [decl.axis.param]: value, [decl.series.param]: series }));
      return grid;
    },
    layout(rule, params, options, results) {
      const levels = axisValues(rule, params, options, decl.axis).map(Number);
      const count = Number(own(params, decl.index.param));
      const context: WordsContext = { params };
      const facetLabel = (value: number) => words(decl.facet.label, { params, index: value });
      const seriesLabel = (value: number) => words(decl.series.label, { params, index: value });
      const points: IntervalPoint[] = [];
      const cells: HeatCell[] = [];
      for (const result of results) {
        const facet = facetLabel(Number(own(result.params, decl.axis.param)));
        const seriesValue = Number(own(result.params, decl.series.param));
        const series = seriesLabel(seriesValue);
        const per = decl.per === undefined ? 1 : Number(own(result.params, decl.per));
        for (let i = 1; i <= count; i++) {
          const raw = own(result.metrics, metricAt(decl.metric, i))!;
          const divide = (x: number | null) => (x === null ? null : x / per);
          const figures = {
            estimate: divide(raw.estimate),
            lo: divide(raw.lo),
            hi: divide(raw.hi),
            exact: divide(raw.exact),
            fraction: null,
          };
          points.push(pointFrom(figures, result.method === 'simulation', String(i), i, true, { series, facet }));
          const value = bestOf(figures);
          cells.push({
            row: series,
            col: String(i),
            rowOrder: seriesValue,
            colOrder: i,
            value,
            text: percent(value, 1),
            facet,
          });
        }
      }
      const facets = { title: decl.facet.title, order: levels.map(facetLabel) };
      const panelWidth = Math.floor((PANELS_WIDTH - 40) / levels.length) - 20;
      const lines: Chart = {
        id: decl.lines.id,
        title: words(decl.lines.title, context),
        caption: words(decl.lines.caption, context),
        spec: lineChart(points, {
          xTitle: decl.index.title,
          yTitle: decl.valueTitle,
          percent: true,
          seriesTitle: decl.series.title,
          seriesOrder: seriesValues(params).map(seriesLabel),
          facet: facets,
          height: 250,
          width: panelWidth,
        }),
      };
      const heat: Chart = {
        id: decl.grid.id,
        title: words(decl.grid.title, context),
        caption: words(decl.grid.caption, context),
        spec: heatmap(cells, {
          rowTitle: decl.series.title,
          colTitle: decl.index.title,
          valueTitle: decl.valueTitle,
          percent: true,
          cellWidth: levels.length > 3 ? 30 : 42,
          cellHeight: 26,
          fontSize: 10,
          facet: facets,
        }),
      };
      return {
        title: words(decl.title, context),
        subtitle: words(decl.subtitle, context),
        blocks: [
          { kind: 'chart', chart: lines },
          { kind: 'chart', chart: heat },
        ],
        varied: [decl.axis.param, decl.series.param],
      };
    },
  };
}

/** The card a declaration describes. */
export function declaredDesign(decl: CardDecl, charts: readonly ChartDecl[]): CardDesign {
  if (decl.kind === 'matrix') return matrixDesign(decl);
  if (decl.kind === 'charts') return chartsDesign(decl, charts);
  return panelsDesign(decl);
}
