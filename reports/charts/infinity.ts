/**
 * Infinity's Initiative Roll (src/rules/infinity.ts): who wins it at these
 * WIP values, and the printable WIP × WIP table players ask for, with
 * criticals on.
 */
import type { Rule } from '../../src/rules/types.js';
import { splitChart } from './blocks.js';
import type { Chart, PrintableContext, RuleCharts, RunView } from './chart.js';
import { everyMetricChart, matrixHeatmapChart } from './generic.js';
import { splitRow } from './players.js';

/** A boolean parameter that turns criticals on, if the rule has one. */
function criticalsParam(rule: Rule): string | null {
  const spec = rule.params.find((p) => p.type === 'boolean' && /crit/i.test(p.name));
  return spec ? spec.name : null;
}

function wip(view: RunView, side: 'A' | 'B'): string {
  const value = view.result.params[`wip${side}`];
  return value === undefined ? '' : ` (WIP ${value})`;
}

function winnerChart(view: RunView): Chart | null {
  const players = [`player A${wip(view, 'A')}`, `player B${wip(view, 'B')}`];
  const segments = splitRow(view.result, 'Initiative Roll', 0, [
    { segment: players[0], metric: 'a.wins' },
    { segment: players[1], metric: 'b.wins' },
  ], 'undecided');
  if (segments.length === 0) return null;
  const order = [...players, 'undecided'];
  return {
    id: 'infinity-initiative',
    title: 'Who wins the Initiative Roll',
    caption: 'The chance that each Lieutenant wins the face-to-face WIP roll (ties and double failures are rolled again). Exact values where known, estimates otherwise.',
    spec: splitChart(segments, { segmentTitle: 'winner', segmentOrder: order }),
  };
}

export const infinityCharts: RuleCharts = {
  run(view) {
    const winner = winnerChart(view);
    if (!winner) return [];
    const every = everyMetricChart(view);
    return every ? [winner, every] : [winner];
  },
  async printable(context: PrintableContext) {
    const criticals = criticalsParam(context.rule);
    const overrides = criticals ? { [criticals]: true } : {};
    const chart = await matrixHeatmapChart(context, overrides, criticals ? `Criticals on (${criticals}=true).` : '', { row: 'player A’s WIP', col: 'player B’s WIP' });
    return chart ? [{ ...chart, id: 'infinity-wip-matrix', title: 'Infinity: Initiative odds, WIP against WIP' }] : [];
  },
};
