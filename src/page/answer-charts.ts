/**
 * The charts of the calculator's answer: the rule's (or the generic ones),
 * then each distribution metric drawn whole, its at-least and at-most views
 * a radio under the chart, as `muster run --html` shows them on screen
 * (../../reports/charts/distribution.ts).
 */
import type { Chart, RunView } from '../../reports/charts/chart.js';
import { distributionCharts } from '../../reports/charts/distribution.js';
import { runCharts } from '../../reports/charts/index.js';

export function answerCharts(view: RunView): Chart[] {
  return [...runCharts(view), ...distributionCharts(view).map(({ screen }) => screen)];
}
