/** How the 2d6 roll-off (./rolloff.ts) is shown: who wins it, and a card of its four figures. */
import type { Presentation } from '../contract/presentation.js';

export const rolloffPresentation: Presentation = {
  charts: [
    {
      kind: 'split',
      id: 'rolloff-winner',
      title: 'Who wins the roll-off',
      caption:
        'The chance that each player wins the 2d6 roll-off (equal totals roll again), player A adding {bonusA}. ' +
        'Exact values where known, estimates otherwise.',
      segmentTitle: 'winner',
      rows: [
        {
          label: 'roll-off',
          shares: [
            { segment: 'player A', metric: 'a.wins' },
            { segment: 'player B', metric: 'b.wins' },
          ],
        },
      ],
    },
    { kind: 'every' },
  ],
  card: {
    kind: 'charts',
    title: '2d6 roll-off: who goes first',
    subtitle: 'Each player rolls 2d6, the higher total wins and equal totals roll again; player A adds {bonusA}.',
    charts: [{ id: 'rolloff-winner' }],
    tables: [
      {
        id: 'rolloff-figures',
        title: 'The figures',
        columns: [
          { head: 'player A wins', cell: { figure: 'a.wins' }, numeric: true },
          { head: 'player B wins', cell: { figure: 'b.wins' }, numeric: true },
          { head: 'the first roll decides', cell: { figure: 'rolls.1' }, numeric: true },
          { head: 'rolls (expected)', cell: { figure: 'rolls.mean', probability: false }, numeric: true },
        ],
      },
    ],
  },
};
