/**
 * Mordheim warbands (src/rules/warbands.ts): who defends, who is the
 * underdog, the order warbands set up in, and who moves first.
 */
import { intervalChart, markerKey, metricPoint, splitChart, type IntervalPoint, type SplitSegment } from './blocks.js';
import type { Chart, RuleCharts, RunView } from './chart.js';
import { indexed, splitRow } from './players.js';

const ordinal = (k: number) =>
  `${k}${k % 10 === 1 && k !== 11 ? 'st' : k % 10 === 2 && k !== 12 ? 'nd' : k % 10 === 3 && k !== 13 ? 'rd' : 'th'}`;

/** "warband 2 (rating 148)", from the warbands parameter (rating:models in seating order) where it reads so. */
export function warbandLabel(view: RunView, index: number): string {
  const entry = String(view.result.params.warbands ?? '').split(',')[index - 1];
  const rating = entry?.split(':')[0];
  return rating && /^\d+$/.test(rating) ? `warband ${index} (rating ${rating})` : `warband ${index}`;
}

export function warbands(view: RunView): number[] {
  return indexed(Object.keys(view.result.metrics), /^w(\d+)\.defender$/).map((entry) => entry.index);
}

export function whoChart(view: RunView): Chart | null {
  const bands = warbands(view);
  if (bands.length === 0) return null;
  const labels = bands.map((i) => warbandLabel(view, i));
  const rows: SplitSegment[] = [
    ...splitRow(
      view.result,
      'defends',
      0,
      bands.map((i, n) => ({ segment: labels[n], metric: `w${i}.defender` })),
    ),
    ...splitRow(
      view.result,
      'sets up first',
      1,
      bands.map((i, n) => ({ segment: labels[n], metric: `w${i}.setup.1` })),
    ),
    ...splitRow(
      view.result,
      'moves first',
      2,
      bands.map((i, n) => ({ segment: labels[n], metric: `w${i}.first` })),
    ),
  ];
  if (rows.length === 0) return null;
  return {
    id: 'warbands-who',
    title: 'Who defends, sets up first and moves first',
    caption:
      'The defender is the highest warband rating, then the most models, then a dice roll; setup order and the first move are rolled on a D6, re-rolling ties. Exact values where known, estimates otherwise.',
    spec: splitChart(rows, { segmentTitle: 'warband', segmentOrder: labels }),
  };
}

export function setupOrderChart(view: RunView): Chart | null {
  const bands = warbands(view);
  const rows: SplitSegment[] = [];
  let positions: string[] = [];
  bands.forEach((i, n) => {
    const slots = indexed(Object.keys(view.result.metrics), new RegExp(`^w${i}\\.setup\\.(\\d+)$`));
    positions = slots.map((slot) => `${ordinal(slot.index)}`);
    rows.push(
      ...splitRow(
        view.result,
        warbandLabel(view, i),
        n,
        slots.map((slot) => ({ segment: ordinal(slot.index), metric: slot.name })),
      ),
    );
  });
  if (rows.length === 0) return null;
  return {
    id: 'warbands-setup-order',
    title: 'Where each warband comes in the setup order',
    caption:
      'For each warband, the chance that it sets up first, second, and so on. Exact values where known, estimates otherwise.',
    spec: splitChart(rows, { segmentTitle: 'sets up', segmentOrder: positions }),
  };
}

export function underdogChart(view: RunView): Chart | null {
  const points = warbands(view)
    .map((i) => metricPoint(view.result, `w${i}.underdog`, warbandLabel(view, i), i, true))
    .filter((point): point is IntervalPoint => point !== null);
  if (points.length === 0) return null;
  return {
    id: 'warbands-underdog',
    title: 'Who is the underdog',
    caption: `The chance that each warband is the underdog (rating more than 50 below every opposing side). ${markerKey(
      view.result,
      points.some((p) => p.exact !== null),
    )}`,
    spec: intervalChart(points, {
      orientation: 'horizontal',
      categoryTitle: 'warband',
      valueTitle: 'probability',
      percent: true,
      bars: true,
    }),
  };
}

export const warbandsCharts: RuleCharts = {
  run(view) {
    return [whoChart(view), setupOrderChart(view), underdogChart(view)].filter(
      (chart): chart is Chart => chart !== null,
    );
  },
};
