/**
 * Infinity's Initiative Roll (src/rules/infinity.ts): who wins it at these
 * WIP values.
 */
import { splitChart } from './blocks.js';
import type { Chart, RuleCharts, RunView } from './chart.js';
import { everyMetricChart } from './generic.js';
import { splitRow } from './players.js';

function wip(view: RunView, side: 'A' | 'B'): string {
  const value = view.result.params[`wip${side}`];
  return value === undefined ? '' : ` (WIP ${value})`;
}

function winnerChart(view: RunView): Chart | null {
  const players = [`player A${wip(view, 'A')}`, `player B${wip(view, 'B')}`];
  const segments = splitRow(
    view.result,
    'Initiative Roll',
    0,
    [
      { segment: players[0], metric: 'a.wins' },
      { segment: players[1], metric: 'b.wins' },
    ],
    'undecided',
  );
  if (segments.length === 0) return null;
  const order = [...players, 'undecided'];
  return {
    id: 'infinity-initiative',
    title: 'Who wins the Initiative Roll',
    caption:
      'The chance that each Lieutenant wins the face-to-face WIP roll (ties and double failures are rolled again). Exact values where known, estimates otherwise.',
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
};
