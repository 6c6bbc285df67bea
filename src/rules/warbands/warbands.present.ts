/**
 * How Mordheim warbands (./warbands.ts) are shown: who defends, who is the underdog, the order warbands set up in,
 * and who moves first.
 */
import type { Presentation } from '../../contract/presentation.js';

/** "warband 2 (rating 148)": the rating read from the warbands parameter (rating:models in seating order). */
const WARBAND = 'warband {#i} (rating {#entry:warbands:0})';
const BANDS = 'w{#i}.defender';

export const warbandsPresentation: Presentation = {
  charts: [
    {
      kind: 'split',
      id: 'warbands-who',
      title: 'Who defends, sets up first and moves first',
      caption:
        'The defender is the highest warband rating, then the most models, then a dice roll; setup order and the ' +
        'first move are rolled on a D6, re-rolling ties. Exact values where known, estimates otherwise.',
      segmentTitle: 'warband',
      rows: [
        { label: 'defends', each: BANDS, shares: [{ segment: WARBAND, metric: 'w{#i}.defender' }] },
        { label: 'sets up first', each: BANDS, shares: [{ segment: WARBAND, metric: 'w{#i}.setup.1' }] },
        { label: 'moves first', each: BANDS, shares: [{ segment: WARBAND, metric: 'w{#i}.first' }] },
      ],
    },
    {
      kind: 'split',
      id: 'warbands-setup-order',
      title: 'Where each warband comes in the setup order',
      caption:
        'For each warband, the chance that it sets up first, second, and so on. Exact values where known, ' +
        'estimates otherwise.',
      segmentTitle: 'sets up',
      each: BANDS,
      rows: [
        {
          label: WARBAND,
          each: 'w{#row}.setup.{#i}',
          shares: [{ segment: '{#ordinal}', metric: 'w{#row}.setup.{#i}' }],
        },
      ],
    },
    {
      kind: 'bars',
      id: 'warbands-underdog',
      title: 'Who is the underdog',
      caption:
        'The chance that each warband is the underdog (rating more than 50 below every opposing side). {#markers}',
      points: [{ metric: 'w{#i}.underdog', label: WARBAND }],
      orientation: 'horizontal',
      categoryTitle: 'warband',
      valueTitle: 'probability',
      percent: true,
    },
  ],
  card: {
    kind: 'charts',
    title: 'Mordheim: who defends, who is the underdog, who goes first',
    subtitle: [
      'For the warbands {warbands} (rating:models, in seating order)',
      { if: { param: 'allies', truthy: true }, show: ', allies {allies}' },
      ': the defender, the underdog, the setup order and the first turn.',
    ],
    charts: [{ id: 'warbands-who' }, { id: 'warbands-setup-order' }],
    tables: [
      {
        id: 'warbands-table',
        title: 'Every warband',
        each: BANDS,
        columns: [
          { head: 'warband', cell: { words: 'warband {#i}' } },
          { head: 'rating:models', cell: { words: '{#entry:warbands}' } },
          { head: 'defends', cell: { figure: 'w{#i}.defender' }, numeric: true },
          { head: 'underdog', cell: { figure: 'w{#i}.underdog' }, numeric: true },
          { head: 'sets up first', cell: { figure: 'w{#i}.setup.1' }, numeric: true },
          { head: 'moves first', cell: { figure: 'w{#i}.first' }, numeric: true },
        ],
      },
    ],
  },
};
