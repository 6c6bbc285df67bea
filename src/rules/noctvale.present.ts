/** How Noctvale's initiative and deployment (./noctvale.ts) are shown: who has it, who places last, the groups. */
import type { Presentation } from '../contract/presentation.js';

export const noctvalePresentation: Presentation = {
  charts: [
    {
      kind: 'split',
      id: 'noctvale-who',
      title: 'Who has the initiative and who places last',
      caption:
        'Initiative goes to the side with fewer activations; equal counts roll 2d6 each, re-rolling ties. ' +
        'Placement alternates from the initiative player. Exact values where known, estimates otherwise.',
      segmentTitle: 'side',
      rows: [
        { label: 'has the initiative', metric: 'a.initiative' },
        { label: 'places last', metric: 'a.placesLast' },
      ],
      segmentOrder: ['player A', 'player B'],
    },
    {
      kind: 'bars',
      id: 'noctvale-groups',
      title: 'Player A’s deployment groups',
      caption:
        'Expected fighters in each of player A’s deployment groups (the retinue split as evenly as possible). ' +
        '{#markers}',
      points: [{ metric: 'a.group.{#i}.size', label: 'group {#i}' }],
      orientation: 'vertical',
      categoryTitle: 'deployment group',
      valueTitle: 'fighters (expected)',
      percent: false,
      step: 60,
    },
  ],
  matrix: { row: 'player A’s fighters', col: 'player B’s fighters', advantage: ['a.initiative', 'a.placesLast'] },
  card: {
    kind: 'matrix',
    title: 'Noctvale: initiative and who places last',
    subtitle:
      'Player A’s chances by fighter count, player A’s fighters down the side and player B’s across the top ' +
      '({groups} deployment groups a side).',
    row: 'fightersA',
    col: 'fightersB',
    axis: { from: 'integers', param: 'fightersA', most: 12, around: { count: 9, before: 4 } },
    fit: { width: 480, height: 300 },
    heatmaps: [
      {
        metric: 'a.initiative',
        id: 'noctvale-initiative',
        title: 'Player A has the initiative',
        caption: 'Fewer activations take the initiative; equal counts roll off on 2d6.',
      },
      {
        metric: 'a.placesLast',
        id: 'noctvale-places-last',
        title: 'Player A places the last deployment group',
        caption:
          'Groups are placed alternately, the initiative player first, so the last group goes to whichever side ' +
          'still has one left.',
      },
    ],
  },
};
