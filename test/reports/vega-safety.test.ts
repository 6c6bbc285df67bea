/**
 * User text reaches a Vega spec only as data, never inside an expression or
 * as a field name. Before, a variant label went into the spec's sort lists
 * and `oneOf` filters, which Vega-Lite compiles into expressions: a label
 * holding U+2028 stopped the chart with "Unexpected token ILLEGAL", and a
 * label such as `constructor` or a quote depended on escaping in code muster
 * does not own. Each page's charts are compiled and drawn here with labels
 * built for that.
 */
import { describe, expect, it } from 'vitest';
import { type IntervalPoint, intervalChart, lineChart } from '../../reports/charts/blocks.js';
import type { Chart } from '../../reports/charts/chart.js';
import { heatmap } from '../../reports/charts/heatmap.js';
import { comparePage } from '../../reports/compare.js';
import { escapeHtml } from '../../reports/escape.js';
import { buildRunPage } from '../../reports/run-report.js';
import { compileSpec, renderSvg } from '../../reports/svg.js';
import { sweepPage } from '../../reports/sweep.js';
import type { SweepResult } from '../../src/analysis/sweep.js';
import { unionMetrics } from '../../src/analysis/vary.js';
import { compareCommand } from '../../src/cli/commands/compare.js';
import type { Rule } from '../../src/contract/types.js';
import { envelope } from '../../src/result.js';
import { getRule } from '../../src/rules/index.js';
import { exactResult } from '../support/exact-result.js';
import { echoRule } from '../support/hostile.js';
import { bufferIo } from '../support/io.js';

const LABELS = [
  'toString',
  'constructor',
  '__proto__',
  'hasOwnProperty',
  'a\u2028b',
  'c\u2029d',
  `q"u'o`,
  'back\\slash',
  'datum.x',
];
/** Pieces of the labels as they would look inside an expression string, raw or JSON-escaped. */
const NEEDLES = [
  'toString',
  'constructor',
  '__proto__',
  'hasOwnProperty',
  '\u2028',
  '\\u2028',
  '\u2029',
  'q\\"u',
  `q"u`,
  "u'o",
  'back\\',
  'datum.x',
];

/** Every string of a compiled Vega spec where Vega reads an expression or a field name. */
function expressionsAndFields(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) expressionsAndFields(item, found);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (['expr', 'signal', 'test', 'update', 'init', 'field', 'fields', 'as', 'groupby'].includes(key)) {
        const strings = (Array.isArray(value) ? value : [value]).filter((x): x is string => typeof x === 'string');
        found.push(...strings);
      }
      expressionsAndFields(value, found);
    }
  }
  return found;
}

async function expectSafe(charts: readonly Chart[]): Promise<void> {
  expect(charts.length).toBeGreaterThan(0);
  for (const chart of charts) {
    const expressions = expressionsAndFields(compileSpec(chart.spec).vega);
    for (const needle of NEEDLES)
      expect({ chart: chart.id, needle, hits: expressions.filter((text) => text.includes(needle)) }).toEqual({
        chart: chart.id,
        needle,
        hits: [],
      });
    const svg = await renderSvg(chart.spec);
    expect(svg).toContain('role-mark');
  }
}

/** echoRule with a second text parameter, so a sweep over both draws heatmaps. */
const echo2: Rule = {
  ...echoRule,
  params: [
    ...echoRule.params,
    { name: 'other', type: 'text', default: 'x', allowed: 'any text', parse: (raw) => raw, doc: 'another label' },
  ],
};

function echoSweep(rule: Rule, names: string[]): SweepResult {
  const values = LABELS.slice(0, 4);
  const combos: Array<Record<string, string>> =
    names.length === 1
      ? LABELS.map((label) => ({ label }))
      : values.flatMap((label) => values.map((other) => ({ label, other })));
  return {
    ...envelope('sweep', rule),
    source: rule.source,
    params: {},
    vary: names.map((name) => ({ name, values: name === 'label' && names.length === 1 ? LABELS : values })),
    method: 'exact',
    stream: null,
    seed: LABELS.join(' '),
    trials: 0,
    threads: 0,
    confidence: 1,
    points: combos.map((params) => ({
      params,
      metrics: exactResult(rule, { other: 'x', ...params }, 's').metrics,
    })),
    skipped: [],
    partial: false,
  };
}

describe('hostile labels in every page that charts user text', () => {
  it('compare: variant labels', async () => {
    const rule = getRule('reserves');
    const result = await compareCommand(
      'reserves',
      { variant: LABELS.map((label, i) => `${label}: target=${i + 3}`), exact: true, quiet: true },
      bufferIo(),
    );
    await expectSafe(
      comparePage(rule, result, unionMetrics(result.variants.map((v) => rule.metrics(v.params)))).charts,
    );
  });

  it('sweep: a text parameter along the axis (lines)', async () => {
    await expectSafe(sweepPage(echoRule, echoSweep(echoRule, ['label']), echoRule.metrics({})).charts);
  });

  it('sweep: two text parameters (heatmap)', async () => {
    await expectSafe(sweepPage(echo2, echoSweep(echo2, ['label', 'other']), echo2.metrics({})).charts);
  });

  it('run: a text parameter and the seed', async () => {
    // One page per value; these three cover a prototype name, a line separator and both quotes.
    for (const label of ['__proto__', 'a\u2028b', `q"u'o\\`]) {
      await expectSafe(buildRunPage(echoRule, exactResult(echoRule, { label }, label)).charts);
    }
  });
});

/**
 * Every name Object.prototype and Function.prototype hold, and `then`, as chart text: axis, legend and
 * tooltip titles, series in a legend that merges colour, dash and shape, categories, rows and columns.
 * Vega 6 stops on several of these ("Operator not defined" for an axis titled `constructor`, "Illegal
 * property" for a tooltip titled `then`) and drops an axis titled `__proto__`; each chart must draw, and
 * show the name.
 */
describe('names that are JavaScript’s own, as every kind of chart text', () => {
  const NAMES = [
    ...new Set([
      ...Object.getOwnPropertyNames(Object.prototype),
      ...Object.getOwnPropertyNames(Function.prototype),
      'then',
    ]),
  ];
  const point = (label: string, order: number, series: string, exact: number): IntervalPoint => ({
    ...{ label, order, series, exact, text: `${exact}` },
    ...{ estimate: null, lo: null, hi: null },
  });
  // The SVG prints the text, with a zero-width space after a name Vega cannot take bare.
  const shows = (svg: string, name: string) =>
    [`>${escapeHtml(name)}<`, `>${escapeHtml(name)}\u200b<`].some((text) => svg.includes(text));

  it('lines, heatmaps and interval charts draw with each name', async () => {
    for (const name of NAMES) {
      const linePoints = [
        point('1', 0, name, 0.25),
        point('2', 1, name, 0.5),
        point('1', 0, 'other', 0.75),
        point('2', 1, 'other', 0.5),
      ];
      const line = lineChart(linePoints, {
        xTitle: name,
        yTitle: name,
        percent: true,
        seriesTitle: name,
        seriesOrder: [name, 'other'],
        labels: true,
      });
      const cells = [name, 'other'].flatMap((row, i) =>
        [name, 'x'].map((col, j) => ({ row, col, rowOrder: i, colOrder: j, value: (i + j) / 3, text: `${i + j}` })),
      );
      const heat = heatmap(cells, { rowTitle: name, colTitle: name, valueTitle: name, percent: true });
      const bars = intervalChart(
        [point(name, 0, name, 0.5), point(name, 0, 'other', 0.25), point('b', 1, name, 0.75)],
        {
          orientation: 'horizontal',
          categoryTitle: name,
          valueTitle: name,
          percent: true,
          series: { title: name, order: [name, 'other'] },
        },
      );
      for (const [kind, spec] of [
        ['line', line],
        ['heatmap', heat],
        ['interval', bars],
      ] as const) {
        const svg = await renderSvg(spec);
        const seen = { name, kind, drawn: svg.includes('role-mark'), shown: shows(svg, name) };
        expect(seen).toEqual({ name, kind, drawn: true, shown: true });
      }
    }
  });
});
