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
import { compareCommand } from '../src/cli/commands/compare.js';
import { buildResult, envelope } from '../src/result.js';
import { getRule } from '../src/rules/index.js';
import type { Rule } from '../src/rules/types.js';
import { comparePage, unionMetrics } from '../reports/compare.js';
import { buildRunPage } from '../reports/run-report.js';
import { compileSpec, renderSvg } from '../reports/svg.js';
import { sweepPage, type SweepResult } from '../reports/sweep.js';
import type { Chart } from '../reports/charts/chart.js';
import { echoRule } from './support/hostile.js';
import { bufferIo } from './support/io.js';

const LABELS = ['toString', 'constructor', '__proto__', 'hasOwnProperty', 'a\u2028b', 'c\u2029d', `q"u'o`, 'back\\slash', 'datum.x'];
/** Pieces of the labels as they would look inside an expression string, raw or JSON-escaped. */
const NEEDLES = ['toString', 'constructor', '__proto__', 'hasOwnProperty', '\u2028', '\\u2028', '\u2029', 'q\\"u', `q"u`, "u'o", 'back\\', 'datum.x'];

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
    for (const needle of NEEDLES) expect({ chart: chart.id, needle, hits: expressions.filter((text) => text.includes(needle)) }).toEqual({ chart: chart.id, needle, hits: [] });
    const svg = await renderSvg(chart.spec);
    expect(svg).toContain('role-mark');
  }
}

/** echoRule with a second text parameter, so a sweep over both draws heatmaps. */
const echo2: Rule = {
  ...echoRule,
  params: [...echoRule.params, { name: 'other', type: 'text', default: 'x', allowed: 'any text', parse: (raw) => raw, doc: 'another label' }],
};

function echoSweep(rule: Rule, names: string[]): SweepResult {
  const values = LABELS.slice(0, 4);
  const combos: Array<Record<string, string>> = names.length === 1 ? LABELS.map((label) => ({ label })) : values.flatMap((label) => values.map((other) => ({ label, other })));
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
    points: combos.map((params) => ({ params, metrics: buildResult({ rule, params: { other: 'x', ...params }, seed: 's', stream: null, threads: 0, confidence: 1, trials: 0, tally: null }).metrics })),
    skipped: [],
    partial: false,
  };
}

describe('hostile labels in every page that charts user text', () => {
  it('compare: variant labels', async () => {
    const rule = getRule('reserves');
    const result = await compareCommand('reserves', { variant: LABELS.map((label, i) => `${label}: target=${i + 3}`), exact: true, quiet: true }, bufferIo());
    await expectSafe(comparePage(rule, result, unionMetrics(result.variants.map((v) => rule.metrics(v.params)))).charts);
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
      await expectSafe(buildRunPage(echoRule, buildResult({ rule: echoRule, params: { label }, seed: label, stream: null, threads: 0, confidence: 1, trials: 0, tally: null })).charts);
    }
  });
});
