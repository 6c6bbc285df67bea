import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Chart, withTitle } from '../../reports/charts/chart.js';
import { hasRuleCharts, runCharts } from '../../reports/charts/index.js';
import { csvLine, metricsCsv } from '../../reports/csv.js';
import { cssString, escapeHtml, jsonForScript } from '../../reports/escape.js';
import { percent } from '../../reports/numbers.js';
import { buildRunPage } from '../../reports/run-report.js';
import { compileSpec, renderSvg } from '../../reports/svg.js';
import { buildResult } from '../../src/analysis/result-of.js';
import type { Rule } from '../../src/contract/types.js';
import { CHUNK_TRIALS } from '../../src/engine/chunks.js';
import type { RunResult } from '../../src/result.js';
import { presentationOf, rules } from '../../src/rules/index.js';
import { resolveParams } from '../../src/rules/params.js';
import { exactResult } from '../support/exact-result.js';
import { echoRule, HOSTILE } from '../support/hostile.js';
import { wholeRunTally } from '../support/whole-run.js';

/** Every rule at its defaults: solved exactly, and simulated on two chunks in-process. */
function resultsFor(rule: Rule): RunResult[] {
  const params = resolveParams(rule);
  const exact = exactResult(rule, params, 'charts');
  const trials = 2 * CHUNK_TRIALS;
  const tally = wholeRunTally({ ruleId: rule.id, params, seed: 'charts', stream: 2, trials, chunks: 2 });
  const simulated = buildResult({
    rule,
    params,
    seed: 'charts',
    stream: 2,
    threads: 1,
    confidence: 0.95,
    trials,
    tally,
  });
  return rule.exact ? [exact, simulated] : [simulated];
}

async function expectDrawable(chart: Chart): Promise<void> {
  // Vega-Lite reports recoverable problems (a channel it ignores, a bad sort) as warnings: a clean chart has none.
  expect(compileSpec(chart.spec).warnings, chart.id).toEqual([]);
  const svg = await renderSvg(withTitle(chart));
  expect(svg.startsWith('<?xml'), chart.id).toBe(true);
  expect(svg, chart.id).toMatch(/class="mark-[a-z]+ role-mark/);
  expect(svg, chart.id).toMatch(/<(path|line|rect|text)\b/);
  expect(chart.id).toMatch(/^[A-Za-z0-9.-]+$/);
}

describe('escaping: text a user typed cannot end a script, a style or an attribute', () => {
  it('HTML text and attributes: &, <, >, quotes become entities', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });

  it('JSON in a script block: no <, > or & left, and it parses back to the same value', () => {
    const json = jsonForScript({ label: HOSTILE });
    expect(json).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(json)).toEqual({ label: HOSTILE });
  });

  it('CSS strings: quotes, braces and </style> are escaped, letters kept', () => {
    const css = cssString(`a"b</style>{}`);
    expect(css).toBe('"a\\000022b\\00003c\\00002fstyle\\00003e\\00007b\\00007d"');
  });

  it('the inlined vega bundles hold nothing that would end or confuse a <script> element', () => {
    const require = createRequire(import.meta.url);
    for (const [module, file] of [
      ['vega', 'vega.min.js'],
      ['vega-lite', 'vega-lite.min.js'],
      ['vega-embed', 'vega-embed.min.js'],
    ]) {
      const code = readFileSync(join(dirname(require.resolve(module)), file), 'utf8');
      expect(code.toLowerCase().includes('</script'), file).toBe(false);
      expect(code.includes('<!--'), file).toBe(false);
    }
  });

  it('a run report of a rule whose title, parameter and metric text are hostile keeps them as text', () => {
    const params = resolveParams(echoRule);
    const result = exactResult(echoRule, params, HOSTILE);
    const { html } = buildRunPage(echoRule, result);
    // Only the page's own elements: three vendor bundles, the chart data and the boot script.
    expect(html.match(/<script\b/g)).toHaveLength(5);
    expect(html.match(/<\/script>/gi)).toHaveLength(5);
    // Outside the vendor bundles (vega's own code mentions <img>), no element the user's text could have made.
    const ours = html.replace(/<script>[\s\S]*?<\/script>/g, '<script></script>');
    expect(ours.includes('<img'), 'an <img> element').toBe(false);
    expect(ours.match(/<style\b/g)).toHaveLength(1);
    expect(ours.includes(escapeHtml(HOSTILE)), 'the text, escaped').toBe(true);
  });
});

describe('numbers on charts never round to a certainty that is not there', () => {
  it('only exactly 0 and 1 print as 0% and 100%', () => {
    expect(percent(0, 1)).toBe('0%');
    expect(percent(1, 1)).toBe('100%');
    expect(percent(0.99996, 1)).toBe('>99.9%');
    expect(percent(0.00004, 1)).toBe('<0.1%');
    expect(percent(0.123456, 1)).toBe('12.3%');
    expect(percent(0.996, 0)).toBe('>99%');
  });
});

describe('CSV of the metrics table', () => {
  it('quotes commas and quotes, defuses spreadsheet formulas, ends records in CRLF', () => {
    expect(csvLine(['a,b', 'say "hi"', '=SUM(A1)', -0.5, null, true])).toBe(
      '"a,b","say ""hi""",\'=SUM(A1),-0.5,,true\r\n',
    );
  });

  it('holds every metric of a run with full-precision numbers and empty exact cells where there is none', () => {
    const rule = rules.find((r) => r.id === 'reserves')!;
    const [exact] = resultsFor(rule);
    const text = metricsCsv(exact, rule.metrics(exact.params));
    const lines = text.trimEnd().split('\r\n');
    // reserves declares distributions (squads in by each round, the last arrival): five more columns, and one row a
    // value after each distribution's own row.
    expect(lines[0]).toBe(
      'metric,kind,estimate,lo,hi,exact,confidence,meaning,value,at_least,at_least_exact,at_most,at_most_exact',
    );
    const valueRows = Object.values(exact.distributions ?? {}).reduce((sum, d) => sum + d.values.length, 0);
    expect(valueRows).toBeGreaterThan(0);
    expect(lines.filter((line) => line.split(',')[1] === 'value')).toHaveLength(valueRows);
    expect(lines).toHaveLength(1 + rule.metrics(exact.params).length + valueRows);
    // squad.round.1 with no chosen round: a 6 on the first roll, exactly 1/6; nothing simulated, so no estimate or
    // interval.
    expect(lines[1].split(',').slice(0, 6)).toEqual(['squad.round.1', 'probability', '', '', '', String(1 / 6)]);
  });
});

describe('every chart of every rule compiles cleanly and draws marks in Node', () => {
  for (const rule of rules) {
    it(`${rule.id}: the charts of a run at the defaults (exact and simulated)`, async () => {
      for (const result of resultsFor(rule)) {
        const charts = runCharts({ rule, result, metrics: rule.metrics(result.params) });
        expect(charts.length).toBeGreaterThan(0);
        expect(new Set(charts.map((c) => c.id)).size).toBe(charts.length);
        for (const chart of charts) await expectDrawable(chart);
      }
    });
  }

  it(
    'a built-in that declares charts draws at least one of them at its defaults (its presentation is not ' + 'dead)',
    () => {
      for (const rule of rules.filter(hasRuleCharts)) {
        const declared = new Set(
          (presentationOf(rule).charts ?? []).flatMap((c) => (c.kind === 'every' ? [] : [c.id])),
        );
        for (const result of resultsFor(rule)) {
          const ids = runCharts({ rule, result, metrics: rule.metrics(result.params) }).map((chart) => chart.id);
          expect(
            ids.some((id) => declared.has(id)),
            `${rule.id} draws one of ${[...declared].join(', ')}`,
          ).toBe(true);
        }
      }
    },
  );

  it('a rule with no chart module gets the generic charts: every probability, with exact markers', async () => {
    const params = resolveParams(echoRule);
    const tally = new Float64Array([333]);
    const result = buildResult({
      rule: echoRule,
      params,
      seed: 's',
      stream: 2,
      threads: 1,
      confidence: 0.95,
      trials: 1000,
      tally,
    });
    const charts = runCharts({ rule: echoRule, result, metrics: echoRule.metrics(params) });
    expect(charts.map((c) => c.id)).toEqual(['echo-probabilities', 'echo-exact-check']);
    for (const chart of charts) await expectDrawable(chart);
  });
});
