/**
 * Which charts a rule's report shows: those its presentation declares
 * (src/rules/<id>.present.ts, or a rule file's `presentation`), drawn by
 * ../present/charts.ts. A rule that declares none (or whose charts draw
 * nothing for a run) gets the generic charts, and every simulated run with
 * exact values also gets the simulation-against-exact check.
 */

import type { Rule } from '../../src/contract/types.js';
import { presentationOf } from '../../src/rules/index.js';
import { declaredCharts } from '../present/charts.js';
import type { Chart, RunView } from './chart.js';
import { exactCheckChart, genericRunCharts } from './generic.js';

/** Whether a rule declares charts of its own (otherwise it gets the generic ones). */
export function hasRuleCharts(rule: Rule): boolean {
  return (presentationOf(rule).charts ?? []).some((chart) => chart.kind !== 'every');
}

/** The charts of one run: the rule's own, else the generic ones, then the check against exact values. */
export function runCharts(view: RunView): Chart[] {
  const own = declaredCharts(view, presentationOf(view.rule).charts ?? []);
  const charts = own.length > 0 ? own : genericRunCharts(view);
  const check = exactCheckChart(view);
  return uniqueIds(check ? [...charts, check] : charts);
}

/** Ids become file names and element hooks: make them unique, keeping the first as it is. */
export function uniqueIds(charts: Chart[]): Chart[] {
  const seen = new Map<string, number>();
  return charts.map((chart) => {
    const count = seen.get(chart.id) ?? 0;
    seen.set(chart.id, count + 1);
    return count === 0 ? chart : { ...chart, id: `${chart.id}-${count + 1}` };
  });
}
