/**
 * The page of `muster matrix <rule> --html FILE`: one heatmap per tabulated
 * metric, the value printed in every cell, sized to print on one sheet.
 */

import type { Params, ParamValue, Rule } from '../src/contract/types.js';
import { formatParams } from '../src/output/format.js';
import type { RunResult } from '../src/result.js';
import { matrixChart } from './charts/generic.js';
import { renderPage } from './page.js';
import { readingRows } from './readings.js';
import { methodLine, paramRows } from './run-report.js';

interface MatrixPageInput {
  rule: Rule;
  base: Params;
  row: string;
  col: string;
  values: readonly ParamValue[];
  metrics: readonly string[];
  /** cells[i][j]: the rule with the row parameter at values[i] and the column parameter at values[j]. */
  cells: readonly (readonly RunResult[])[];
}

export function matrixPage(input: MatrixPageInput): string {
  const { rule, base, row, col, values, cells } = input;
  const evaluated = cells.flat().map((result) => ({ result, tallied: null }));
  const charts = input.metrics.map((metric) => matrixChart(rule, row, col, values, values, metric, evaluated));
  const first = cells[0][0];
  const how = methodLine(first);
  const varied = new Set([row, col]);
  return renderPage({
    exactOnly: first.method === 'exact',
    title: `${rule.title}: ${row} × ${col}`,
    kicker: 'muster · odds matrix',
    summary: rule.summary,
    facts: [
      ['rule', `${rule.id} — ${rule.title}`],
      ['rule text', rule.source],
      ['method', how],
      ['rows × columns', `${row} × ${col}: ${values.length} × ${values.length}`],
    ],
    params: paramRows(rule, base, varied),
    // Every cell's parameters: a reading that depends on the row or column parameter shows each value it takes.
    readings: readingRows(
      rule,
      cells.flat().map((cell) => ({ params: cell.params })),
    ),
    sections: charts.map((chart) => ({ kind: 'chart' as const, chart })),
    printHeader:
      `muster · ${rule.id} matrix ${row} × ${col} · ` +
      `${formatParams(Object.fromEntries(Object.entries(base).filter(([name]) => !varied.has(name))))} · ` +
      `${first.method === 'exact' ? 'exact' : `seed ${first.seed}`}`,
  });
}
