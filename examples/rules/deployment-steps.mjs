// deployment-steps.mjs — Genesys Project deployment (designer preview, §6.1–6.4): the forward-deployment
// gamble against standard zones and who takes first-round initiative, in the step form, with no exact().
//
//   6.2 "… select one deployment zone 1-6 as your first zone and then roll 2d6 to determine up to two
//        additional forward zones. If any die roll is the same number as the first deployment zone you
//        chose, then the dice roll is ignored and lost. If either die roll is different than the zone
//        chosen, add a +2 to the d6 result to determine your deployment zones. … Any duplicate die results
//        are not re-rolled."
//   6.3 "Each player adds up the numbers of his or her deployment zones, and the player with the lowest
//        total number has Initiative … Both players roll off on 1d6 if the totals are the same."
//        "Players alternate deploying a number of squads onto the board, two squads at a time."
//
// The roll-off is rolled again on a tie, so the procedure is two kinds of step: the forward dice, then
// roll-offs until one is higher. Readings as the built-in `deployment` rule takes them (its describe lists
// them). test/rules/enumerate-ports.test.ts checks every value against the built-in's exact().

const STRATEGIES = [
  'standard:1,2,3',
  'standard:1,2,4',
  'standard:1,2,5',
  'standard:1,2,6',
  'standard:1,3,4',
  'standard:1,3,5',
  'standard:1,3,6',
  'standard:2,3,4',
  'standard:2,3,5',
  'standard:2,3,6',
  'forward:1',
  'forward:2',
  'forward:3',
  'forward:4',
  'forward:5',
  'forward:6',
];

/** The zones a deployment ends with, sorted, after the forward dice (if any) fell as `first` and `second`. */
function zonesOf(strategy, p, first, second) {
  const [kind, list] = strategy.split(':');
  const zones = list.split(',').map(Number);
  if (kind === 'standard') return zones;
  const chosen = zones[0];
  for (const die of [first, second]) {
    const compared = p.compare === 'raw' ? die : die + 2; // raw: "the same number as the … zone you chose"
    if (compared !== chosen && !zones.includes(die + 2)) zones.push(die + 2); // duplicates collapse
  }
  return zones.sort((x, y) => x - y);
}

/** Zones with a board edge: the long edge 1–3, and with `geometric` the sides (1, 4; 3, 6; 7 and 8 with aocSides). */
function edgeZones(p) {
  if (p.edges === 'long') return [1, 2, 3];
  return [1, 2, 3, 4, 6, ...(p.aocSides ? [7, 8] : [])];
}

const total = (zones) => zones.reduce((sum, zone) => sum + zone, 0);

/** Whether A places the last squad: the player without initiative places first, perTurn squads a turn. */
function aPlacesLast(p, aInitiative) {
  const turnsA = Math.ceil(p.squadsA / p.perTurn);
  const turnsB = Math.ceil(p.squadsB / p.perTurn);
  return aInitiative ? turnsA >= turnsB : turnsA > turnsB;
}

export default {
  id: 'deployment-steps',
  title: 'Genesys deployment (step form)',
  summary:
    'Genesys Project deployment: the forward 2d6 zone gamble against standard zones, and who gets first-round ' +
    'initiative',
  source: 'The Genesys Project, designer preview, §6.1–6.4 Deployment',
  params: [
    { name: 'a', type: 'choice', default: 'forward:1', choices: STRATEGIES, doc: "player a's deployment" },
    { name: 'b', type: 'choice', default: 'standard:1,2,3', choices: STRATEGIES, doc: "player b's deployment" },
    {
      name: 'compare',
      type: 'choice',
      default: 'raw',
      choices: ['raw', 'modified'],
      doc: 'which forward die is lost: the raw d6 showing the chosen zone (the text), or d6 + 2 equal to it',
    },
    {
      name: 'edges',
      type: 'choice',
      default: 'geometric',
      choices: ['geometric', 'long'],
      doc: 'which zones give a board edge: any touching a board edge, or the long edge only',
    },
    {
      name: 'aocSides',
      type: 'boolean',
      default: true,
      doc: 'with edges=geometric, zones 7 and 8 touch the side edges',
    },
    { name: 'squadsA', type: 'integer', default: 6, min: 1, max: 60, doc: "squads in a's army" },
    { name: 'squadsB', type: 'integer', default: 6, min: 1, max: 60, doc: "squads in b's army" },
    { name: 'perTurn', type: 'integer', default: 2, min: 1, max: 10, doc: 'squads placed a turn (the text: two)' },
  ],
  metrics() {
    const list = [
      { name: 'a.initiative', doc: 'a has initiative in the first game round', probability: true },
      { name: 'b.initiative', doc: 'b has initiative in the first game round', probability: true },
      { name: 'rolloff', doc: 'the zone totals are equal and initiative goes to a 1d6 roll-off', probability: true },
      { name: 'a.placesLast', doc: 'a deploys the last squad', probability: true },
      { name: 'b.placesLast', doc: 'b deploys the last squad', probability: true },
    ];
    for (const player of ['a', 'b']) {
      list.push({ name: `${player}.noEdge`, doc: `${player} has no zone with a board edge`, probability: true });
      list.push({
        name: `${player}.aoc`,
        doc: `${player} reaches the Area of Conflict (zone 7 or 8)`,
        probability: true,
      });
      for (const count of [1, 2, 3])
        list.push({ name: `${player}.zones.${count}`, doc: `${player} ends with ${count} zones`, probability: true });
      for (let zone = 1; zone <= 8; zone++)
        list.push({ name: `${player}.zone.${zone}`, doc: `${player} deploys in zone ${zone}`, probability: true });
      list.push({ name: `${player}.total.mean`, doc: `${player}'s expected zone total`, probability: false });
    }
    return list;
  },
  headline: ['a.initiative', 'rolloff', 'a.aoc', 'a.noEdge', 'b.aoc', 'a.total.mean'],

  start: () => ({ phase: 'deploy' }),
  step(state, dice, p) {
    if (state.phase === 'deploy') {
      // Only a forward player rolls (two dice); a standard deployment reads no dice.
      const roll = (strategy) =>
        strategy.startsWith('forward') ? zonesOf(strategy, p, dice.d(6), dice.d(6)) : zonesOf(strategy, p);
      const a = roll(p.a);
      const b = roll(p.b);
      if (total(a) !== total(b)) return { phase: 'over', a, b, aInitiative: total(a) < total(b), rolloff: false };
      return { phase: 'rolloff', a, b };
    }
    const dieA = dice.d(6);
    const dieB = dice.d(6);
    if (dieA === dieB) return state; // tied: roll off again
    return { phase: 'over', a: state.a, b: state.b, aInitiative: dieA > dieB, rolloff: true };
  },
  done: (state) => state.phase === 'over',
  report(state, p, out) {
    out['a.initiative'] = state.aInitiative;
    out['b.initiative'] = !state.aInitiative;
    out.rolloff = state.rolloff;
    out['a.placesLast'] = aPlacesLast(p, state.aInitiative);
    out['b.placesLast'] = !aPlacesLast(p, state.aInitiative);
    const edges = edgeZones(p);
    for (const player of ['a', 'b']) {
      const zones = state[player];
      out[`${player}.noEdge`] = !zones.some((zone) => edges.includes(zone));
      out[`${player}.aoc`] = zones.includes(7) || zones.includes(8);
      out[`${player}.zones.${zones.length}`] = true;
      for (const zone of zones) out[`${player}.zone.${zone}`] = true;
      out[`${player}.total.mean`] = total(zones);
    }
  },
};
