/**
 * Noctvale (src/rules/noctvale.ts): who takes the initiative and who places
 * last, and how the retinue splits into deployment groups.
 */
import { intervalChart, markerKey, metricPoint, splitChart, type IntervalPoint } from './blocks.js';
import type { Chart, RuleCharts, RunView } from './chart.js';
import { indexed, playerRow } from './players.js';

function whoChart(view: RunView): Chart | null {
  const rows = [
    ...playerRow(view.result, 'has the initiative', 0, 'a.initiative'),
    ...playerRow(view.result, 'places last', 1, 'a.placesLast'),
  ];
  if (rows.length === 0) return null;
  return {
    id: 'noctvale-who',
    title: 'Who has the initiative and who places last',
    caption:
      'Initiative goes to the side with fewer activations; equal counts roll 2d6 each, re-rolling ties. Placement alternates from the initiative player. Exact values where known, estimates otherwise.',
    spec: splitChart(rows, { segmentTitle: 'side', segmentOrder: ['player A', 'player B'] }),
  };
}

function groupsChart(view: RunView): Chart | null {
  const points = indexed(Object.keys(view.result.metrics), /^a\.group\.(\d+)\.size$/)
    .map(({ name, index }) => metricPoint(view.result, name, `group ${index}`, index, false))
    .filter((point): point is IntervalPoint => point !== null);
  if (points.length === 0) return null;
  return {
    id: 'noctvale-groups',
    title: 'Player A’s deployment groups',
    caption: `Expected fighters in each of player A’s deployment groups (the retinue split as evenly as possible). ${markerKey(
      view.result,
      points.some((p) => p.exact !== null),
    )}`,
    spec: intervalChart(points, {
      orientation: 'vertical',
      categoryTitle: 'deployment group',
      valueTitle: 'fighters (expected)',
      percent: false,
      bars: true,
      step: 60,
    }),
  };
}

export const noctvaleCharts: RuleCharts = {
  run(view) {
    return [whoChart(view), groupsChart(view)].filter((chart): chart is Chart => chart !== null);
  },
};
