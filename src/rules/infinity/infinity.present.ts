/** How Infinity's Initiative Roll (./infinity.ts) is shown: who wins it, and the WIP-against-WIP card. */
import type { Presentation } from '../../contract/presentation.js';

const A = 'player A (WIP {wipA})';
const B = 'player B (WIP {wipB})';

export const infinityPresentation: Presentation = {
  charts: [
    {
      kind: 'split',
      id: 'infinity-initiative',
      title: 'Who wins the Initiative Roll',
      caption:
        'The chance that each Lieutenant wins the face-to-face WIP roll (ties and double failures are rolled again). ' +
        'Exact values where known, estimates otherwise.',
      segmentTitle: 'winner',
      rows: [
        {
          label: 'Initiative Roll',
          shares: [
            { segment: A, metric: 'a.wins' },
            { segment: B, metric: 'b.wins' },
          ],
          remainder: 'undecided',
        },
      ],
      segmentOrder: [A, B, 'undecided'],
    },
    { kind: 'every' },
  ],
  matrix: { row: 'player A’s WIP', col: 'player B’s WIP', advantage: ['a.wins'] },
  card: {
    kind: 'matrix',
    title: 'Infinity: who wins the Initiative Roll',
    subtitle: [
      'Player A’s chance to win the Initiative Roll, with player A’s Lieutenant’s WIP down the side and player B’s ' +
        'across the top (criticals ',
      { if: { param: 'crits', equals: true }, show: 'on', else: 'off' },
      '). Player B’s chance is 100% less the cell.',
    ],
    row: 'wipA',
    col: 'wipB',
    axis: { from: 'matrix' },
    heatmaps: [
      {
        metric: 'a.wins',
        id: 'infinity-wip-matrix',
        title: 'Player A wins the Initiative Roll',
        caption:
          'Read your WIP down the side and your opponent’s across the top: the cell is your chance to win. 50% on ' +
          'the diagonal, where the WIPs are equal.',
      },
    ],
  },
};
