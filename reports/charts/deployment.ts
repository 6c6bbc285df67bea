/**
 * Genesys deployment (src/rules/deployment.ts): who takes the first-turn
 * initiative and which zones each side ends up holding.
 */
import { percent } from '../numbers.js';
import { intervalChart, markerKey, metricPoint, splitChart, type IntervalPoint } from './blocks.js';
import type { Chart, RuleCharts, RunView } from './chart.js';
import { everyMetricChart } from './generic.js';
import { bestValue, indexed, playerRow, splitRow } from './players.js';

const SIDES = [
  { prefix: 'a', label: 'player A' },
  { prefix: 'b', label: 'player B' },
];

function initiativeChart(view: RunView): Chart | null {
  const { result } = view;
  const hasB = result.metrics['b.initiative'] !== undefined;
  const segments = hasB
    ? splitRow(
        result,
        'first-turn initiative',
        0,
        SIDES.map((side) => ({ segment: side.label, metric: `${side.prefix}.initiative` })),
      )
    : playerRow(result, 'first-turn initiative', 0, 'a.initiative');
  if (segments.length === 0) return null;
  const rolloff = bestValue(result, 'rolloff');
  return {
    id: 'deployment-initiative',
    title: 'Who has the initiative in the first round',
    caption: `Lowest total of deployment zone numbers takes the initiative; equal totals roll off on 1d6${rolloff ? ` (a roll-off happens ${percent(rolloff.value, 1)} of the time)` : ''}. Exact values where known, estimates otherwise.`,
    spec: splitChart(segments, {
      segmentTitle: 'initiative',
      segmentOrder: SIDES.map((side) => side.label).concat('neither'),
    }),
  };
}

function zonesChart(view: RunView): Chart | null {
  const { result } = view;
  const names = Object.keys(result.metrics);
  const points: IntervalPoint[] = [];
  for (const side of SIDES) {
    for (const { name, index } of indexed(names, new RegExp(`^${side.prefix}\\.zone\\.(\\d+)$`))) {
      const point = metricPoint(result, name, `zone ${index}`, index, true, { series: side.label });
      if (point) points.push(point);
    }
  }
  if (points.length === 0) return null;
  return {
    id: 'deployment-zones',
    title: 'Which deployment zones each side holds',
    caption: `The chance that each zone (1–6 along the table edge and beyond, 7–8 forward in the Area of Conflict) is among a side's deployment zones. ${markerKey(
      result,
      points.some((p) => p.exact !== null),
    )}`,
    spec: intervalChart(points, {
      orientation: 'vertical',
      categoryTitle: 'deployment zone',
      valueTitle: 'probability',
      percent: true,
      bars: true,
      series: { title: 'side', order: SIDES.map((s) => s.label) },
      step: 36,
    }),
  };
}

function zoneCountChart(view: RunView): Chart | null {
  const { result } = view;
  const names = Object.keys(result.metrics);
  const points: IntervalPoint[] = [];
  for (const side of SIDES) {
    for (const { name, index } of indexed(names, new RegExp(`^${side.prefix}\\.zones\\.(\\d+)$`))) {
      const point = metricPoint(result, name, `${index} zone${index === 1 ? '' : 's'}`, index, true, {
        series: side.label,
      });
      if (point) points.push(point);
    }
  }
  if (points.length === 0) return null;
  return {
    id: 'deployment-zone-count',
    title: 'How many deployment zones each side ends up with',
    caption: `A forward gamble can lose rolled zones to duplicates. ${markerKey(
      result,
      points.some((p) => p.exact !== null),
    )}`,
    spec: intervalChart(points, {
      orientation: 'vertical',
      categoryTitle: 'zones held',
      valueTitle: 'probability',
      percent: true,
      bars: true,
      series: { title: 'side', order: SIDES.map((s) => s.label) },
      step: 44,
    }),
  };
}

export const deploymentCharts: RuleCharts = {
  run(view) {
    const charts = [initiativeChart(view), zonesChart(view), zoneCountChart(view)].filter(
      (chart): chart is Chart => chart !== null,
    );
    if (charts.length === 0) return [];
    if (charts.length < 3) {
      const every = everyMetricChart(view);
      if (every) charts.push(every);
    }
    return charts;
  },
};
