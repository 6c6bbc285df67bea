/**
 * How Flames of War reserves (./fow.ts) are shown: platoons on the table turn by turn, attacker against defender
 * (the chart players print), and when each side has everything in.
 */
import type { PointSource, Presentation, Words } from '../../contract/presentation.js';

const SIDES = ['attacker', 'defender'];
/** The metric `pattern` of each side turn by turn, a series a side. */
function perTurn(pattern: string): PointSource[] {
  return SIDES.map((side) => ({ metric: `${side}.${pattern}`, label: '{#i}', series: side }));
}

/**
 * The reserve rules behind the figures, said where they are shown: at attackerStart=1 the attacker's ordinary
 * Reserves roll from turn 1, which is what Immediate Reserves do, and the figures change a great deal when they wait
 * (Flames of War 4th-edition missions; the 3rd edition could not be checked).
 */
const RESERVE_RULES: Words = [
  {
    if: { param: 'attackerStart', equals: 1 },
    show:
      "The attacker's Reserves roll from turn 1 (attackerStart=1), which makes them the same as Immediate " +
      'Reserves; attackerStart=3 makes them wait.',
    else: "The attacker's Reserves roll from turn {attackerStart}.",
  },
  " The defender's Delayed Reserves roll from turn {defenderStart}; each die scoring {hit}+ brings a platoon, one " +
    'more die each turn.',
];

export const fowPresentation: Presentation = {
  charts: [
    {
      kind: 'lines',
      id: 'fow-platoons-on-table',
      title: 'Platoons on the table, turn by turn',
      caption: [
        'Expected platoons on the table at each turn, attacker against defender. ',
        RESERVE_RULES,
        ' {#markers}',
      ],
      points: perTurn('onTable.{#i}.mean'),
      xTitle: 'turn',
      yTitle: 'platoons on the table (expected)',
      percent: false,
      seriesTitle: 'side',
      seriesOrder: SIDES,
    },
    {
      kind: 'lines',
      id: 'fow-all-in',
      title: 'Every reserve in, by turn',
      caption: [
        "The chance that all of a side's reserves are on the table by each turn. ",
        RESERVE_RULES,
        ' {#markers}',
      ],
      points: perTurn('allIn.by.{#i}'),
      xTitle: 'turn',
      yTitle: 'all reserves in',
      percent: true,
      seriesTitle: 'side',
      seriesOrder: SIDES,
    },
    {
      kind: 'bars',
      id: 'fow-first-arrival',
      title: 'When the first reserve arrives',
      caption: "The chance that a side's first reserve arrives on each turn. {#markers}",
      points: perTurn('first.{#i}'),
      orientation: 'vertical',
      categoryTitle: 'turn',
      valueTitle: 'probability',
      percent: true,
      series: { title: 'side', order: SIDES },
      step: 36,
    },
    {
      kind: 'bars',
      id: 'fow-scatter',
      title: 'Where the defender’s scattered reserves enter',
      caption: 'The chance of each entry point for a scattered reserve. {#markers}',
      points: [{ prefix: 'defender.scatter.' }],
      orientation: 'vertical',
      categoryTitle: 'enters from',
      valueTitle: 'probability',
      percent: true,
    },
  ],
  card: {
    kind: 'charts',
    title: 'Flames of War: reserves, turn by turn',
    subtitle: [
      'Platoons on the table each turn for the attacker ({attackerReserves} of {attackerPlatoons} in Reserves, ' +
        'rolling from turn {attackerStart}) and the defender ({defenderReserves} of {defenderPlatoons} in Delayed ' +
        'Reserves from turn {defenderStart}',
      { if: { param: 'ambush', truthy: true }, show: ', one platoon in ambush' },
      '), and the chance all are in.',
    ],
    charts: [
      {
        id: 'fow-platoons-on-table',
        height: 165,
        labels: false,
        caption: 'Expected platoons on the table after each side’s reserve roll; {hit}+ brings a platoon.',
      },
      {
        id: 'fow-all-in',
        height: 165,
        labels: false,
        caption: 'The chance that every one of a side’s reserves is on the table by each turn.',
      },
    ],
    tables: [
      {
        id: 'fow-table',
        title: 'Turn by turn',
        caption: 'Platoons on the table: expected, after the side’s reserve roll that turn.',
        columns: [{ head: 'turn', cell: { words: '' } }],
        byIndex: {
          param: 'turns',
          head: '{#i}',
          lines: SIDES.flatMap((side) => [
            { label: `${side}: platoons on the table`, metric: `${side}.onTable.{#i}.mean`, probability: false },
            { label: `${side}: every reserve in`, metric: `${side}.allIn.by.{#i}`, probability: true },
          ]),
        },
      },
    ],
  },
};
