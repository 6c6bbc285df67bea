/**
 * How Genesys deployment (./deployment.ts) is shown: who takes the first-turn initiative, which zones each side
 * holds, and the strategy-against-strategy card.
 */
import type { PointSource, Presentation } from '../../contract/presentation.js';

const SIDES = ['player A', 'player B'];
/** The metric `pattern` of each side, a series a side. */
function bySide(pattern: string, label: PointSource['label']): PointSource[] {
  return ['a', 'b'].map((prefix, i) => ({ metric: `${prefix}.${pattern}`, label, series: SIDES[i] }));
}
const KEY =
  'S123 is a standard deployment in zones 1, 2 and 3; F4 is a forward gamble from zone 4 with 2d6 for two more zones.';

export const deploymentPresentation: Presentation = {
  charts: [
    {
      kind: 'split',
      id: 'deployment-initiative',
      title: 'Who has the initiative in the first round',
      caption: [
        'Lowest total of deployment zone numbers takes the initiative; equal totals roll off on 1d6',
        { if: { metric: 'rolloff' }, show: ' (a roll-off happens {#percent:rolloff} of the time)' },
        '. Exact values where known, estimates otherwise.',
      ],
      segmentTitle: 'initiative',
      rows: [
        {
          oneOf: [
            {
              label: 'first-turn initiative',
              shares: [
                { segment: 'player A', metric: 'a.initiative' },
                { segment: 'player B', metric: 'b.initiative' },
              ],
            },
            { label: 'first-turn initiative', metric: 'a.initiative' },
          ],
        },
      ],
      segmentOrder: [...SIDES, 'neither'],
    },
    {
      kind: 'bars',
      id: 'deployment-zones',
      title: 'Which deployment zones each side holds',
      caption:
        'The chance that each zone (1–6 along the table edge and beyond, 7–8 forward in the Area of Conflict) is ' +
        "among a side's deployment zones. {#markers}",
      points: bySide('zone.{#i}', 'zone {#i}'),
      orientation: 'vertical',
      categoryTitle: 'deployment zone',
      valueTitle: 'probability',
      percent: true,
      series: { title: 'side', order: SIDES },
      step: 36,
    },
    {
      kind: 'bars',
      id: 'deployment-zone-count',
      title: 'How many deployment zones each side ends up with',
      caption: 'A forward gamble can lose rolled zones to duplicates. {#markers}',
      points: bySide('zones.{#i}', ['{#i} zone', { if: { index: 1 }, show: '', else: 's' }]),
      orientation: 'vertical',
      categoryTitle: 'zones held',
      valueTitle: 'probability',
      percent: true,
      series: { title: 'side', order: SIDES },
      step: 44,
    },
    { kind: 'every', whenMissing: true },
  ],
  matrix: { row: 'player A’s deployment', col: 'player B’s deployment', advantage: ['a.initiative'] },
  card: {
    kind: 'matrix',
    title: 'Genesys deployment: who takes the first turn',
    subtitle:
      'Player A’s chance of the first-round initiative, with A’s deployment down the side and B’s across the top; ' +
      'and what each deployment risks, whatever the opponent does.',
    row: 'a',
    col: 'b',
    axis: { from: 'matrix' },
    fit: { height: 360 },
    heatmaps: [
      {
        metric: 'a.initiative',
        id: 'deployment-strategy-matrix',
        title: 'Player A has the initiative in the first round',
        caption: `Lower zone total takes the initiative; equal totals roll off. ${KEY}`,
      },
    ],
    tables: [
      {
        id: 'deployment-risks',
        title: 'What each deployment risks',
        caption:
          'The same for either player: the chance of a zone in the Area of Conflict (7 or 8), of no zone with a ' +
          'board edge to bring reserves on by (which zones have one: the edges reading below), and the zones a ' +
          'forward gamble keeps.',
        columns: [
          { head: 'your deployment', cell: { axis: 'label' } },
          { head: 'reaches the Area of Conflict', cell: { figure: 'a.aoc' }, numeric: true },
          { head: 'no board-edge zone', cell: { figure: 'a.noEdge' }, numeric: true },
          { head: 'zones held (expected)', cell: { expected: 'a.zones.{#i}' }, numeric: true },
        ],
      },
    ],
    against: {
      metric: 'a.initiative',
      title: 'Genesys deployment: your best answer to {#value}',
      subtitle:
        'Every deployment for player A against player B’s {b}, best first: the chance of the first-round ' +
        'initiative, and what each risks.',
      chart: {
        id: 'deployment-against',
        title: 'Player A has the initiative against {#value}',
        caption: KEY,
        categoryTitle: 'player A’s deployment',
        valueTitle: 'player A has the initiative',
      },
      table: {
        id: 'deployment-ranked',
        title: 'Ranked',
        columns: [
          { head: 'rank', cell: { rank: true }, numeric: true },
          { head: 'your deployment', cell: { axis: 'withValue' } },
          { head: 'initiative', cell: { figure: 'a.initiative' }, numeric: true },
          { head: 'roll-off', cell: { figure: 'rolloff' }, numeric: true },
          { head: 'reaches the Area of Conflict', cell: { figure: 'a.aoc' }, numeric: true },
          { head: 'no board-edge zone', cell: { figure: 'a.noEdge' }, numeric: true },
        ],
      },
    },
  },
};
