/**
 * How Genesys reserves (./reserves.ts) are shown: when squads arrive, round by round, and the arrival card a player
 * consults before choosing a reserve round — one line per chosen round, one panel per command level.
 */
import type { Presentation, Words } from '../../contract/presentation.js';

const CHOICE: Words = {
  if: { param: 'chosenRound', equals: 0 },
  show: 'no chosen reserve round',
  else: 'reserve round {chosenRound} chosen, command {command}',
};

export const reservesPresentation: Presentation = {
  charts: [
    {
      kind: 'bars',
      id: 'reserves-arrival-by-round',
      title: 'When a given squad arrives',
      caption: [
        'The chance that one squad in reserve arrives in each round, or never (',
        CHOICE,
        '; target {target}+). {#markers}',
      ],
      points: [
        { metric: 'squad.round.{#i}', label: 'round {#i}' },
        { metric: 'squad.never', label: 'never (lost)' },
      ],
      orientation: 'vertical',
      categoryTitle: 'arrives in',
      valueTitle: 'probability',
      percent: true,
      step: 84,
    },
    {
      kind: 'lines',
      id: 'reserves-on-table-by-round',
      title: 'Reserves on the table by the end of each round',
      caption: [
        'The chance that one given squad, and that every one of the {squads} squads, has arrived by the end of ' +
          'each round (',
        CHOICE,
        '). {#markers}',
      ],
      points: [
        { metric: 'arrived.by.{#i}.mean', label: '{#i}', series: 'a given squad', per: 'squads' },
        { metric: 'all.by.{#i}', label: '{#i}', series: 'all {squads} squads' },
      ],
      byIndex: true,
      xTitle: 'end of round',
      yTitle: 'probability',
      percent: true,
      seriesTitle: 'on the table',
      seriesOrder: ['a given squad', 'all {squads} squads'],
      height: 220,
    },
  ],
  card: {
    kind: 'panels',
    title: 'Genesys reserves: when will my squad arrive?',
    subtitle:
      'A given squad’s chance to be on the table by the end of each round, for each choice of reserve round, at ' +
      'each command level ({squads} squads, {target}+ to arrive).',
    // "normally 2–4" (Genesys Project designer preview, §6.5)
    axis: { from: 'integers', param: 'command', most: 4, values: [2, 3, 4] },
    facet: { label: 'command {#i}', title: 'highest command on the table' },
    series: {
      param: 'chosenRound',
      from: 0,
      to: 'rounds',
      label: { if: { index: 0 }, show: 'no reserve round', else: 'round {#i}' },
      title: 'chosen reserve round',
    },
    index: { param: 'rounds', title: 'end of round' },
    metric: 'arrived.by.{#i}.mean',
    per: 'squads',
    valueTitle: 'squad on the table',
    lines: {
      id: 'reserves-arrival-by-chosen-round',
      title: 'A squad on the table, by chosen reserve round',
      caption:
        'One line per chosen reserve round (the command bonus is added to every reserve roll in that round); one ' +
        'panel per command level.',
    },
    grid: {
      id: 'reserves-arrival-table',
      title: 'The same odds as a table',
      caption: 'Rows: the chosen reserve round; columns: on the table by the end of that round.',
    },
  },
};
