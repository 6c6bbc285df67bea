/**
 * Which charts a rule's report shows, keyed by rule id, so a rule module
 * never has to know about reports. A rule with no entry here (or whose
 * entry draws nothing for a run) gets the generic charts, and every
 * simulated run with exact values also gets the simulation-against-exact
 * check.
 */
import type { Chart, RuleCharts, RunView } from './chart.js';
import { deploymentCharts } from './deployment.js';
import { fowCharts } from './fow.js';
import { exactCheckChart, genericRunCharts } from './generic.js';
import { infinityCharts } from './infinity.js';
import { noctvaleCharts } from './noctvale.js';
import { reservesCharts } from './reserves.js';
import { warbandsCharts } from './warbands.js';

const CHARTS_BY_RULE: Readonly<Record<string, RuleCharts>> = {
  reserves: reservesCharts,
  deployment: deploymentCharts,
  infinity: infinityCharts,
  noctvale: noctvaleCharts,
  warbands: warbandsCharts,
  fow: fowCharts,
};

/** Whether a rule has charts of its own (otherwise it gets the generic ones). */
export function hasRuleCharts(ruleId: string): boolean {
  return ruleId in CHARTS_BY_RULE;
}

/** The charts of one run: the rule's own, else the generic ones, then the check against exact values. */
export function runCharts(view: RunView): Chart[] {
  // A rule file may reuse a built-in's id; its metrics are its own, so it always gets the generic charts.
  const own = (view.rule.file ? undefined : CHARTS_BY_RULE[view.rule.id])?.run(view) ?? [];
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
