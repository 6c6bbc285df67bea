/**
 * Genesys deployment: The Genesys Project (Genesys Games, designer's preview
 * post), section 6 "Deployment", 6.1–6.4.
 *
 *   6.1 "If you choose a Standard Deployment, select three deployment zones,
 *        two of which must be on your long board edge."
 *   6.2 "… select one deployment zone 1-6 as your first zone and then roll 2d6
 *        to determine up to two additional forward zones. If any die roll is
 *        the same number as the first deployment zone you chose, then the dice
 *        roll is ignored and lost. If either die roll is different than the
 *        zone chosen, add a +2 to the d6 result to determine your deployment
 *        zones. … Any duplicate die results are not re-rolled."
 *       "If for any reason you do not have a deployment zone that gives you
 *        access to a table edge, all of your models must be deployed onto the
 *        board … Your reserve units must come in using the edges of
 *        Deployment Zone 1."
 *   6.3 "Each player adds up the numbers of his or her deployment zones, and
 *        the player with the lowest total number has Initiative … Both players
 *        roll off on 1d6 if the totals are the same, and the higher goes result
 *        goes first."
 *
 *   6.3 "The player without Initiative declares and deploys his or her first
 *        squads. Players alternate deploying a number of squads onto the
 *        board, two squads at a time, until all models have been declared and
 *        deployed."
 *
 *          7   8        ← Area of Conflict
 *        4   5   6
 *        1   2   3
 *     player's board edge
 *
 * Which zones give a board edge. §6 gives the geometry: "On a 4x4 board, each
 * zone is 6"x16". On a 4x6 board, each zone is 6"x24"", so each row of three
 * zones fills the board's width, and "Any board edge that is part of your
 * deployment zone becomes a board edge through which your army and reserves
 * can enter the board." Zones 1, 4 touch the left side edge and 3, 6 the
 * right; 7 and 8 are drawn above 4 and 6, so they touch the side edges too
 * unless the drawing only places them loosely. Read that way only zone 5 has
 * no board edge, and only a forward gamble from zone 5 can end with none.
 * `edges` offers that geometric reading (default) and the narrower one that
 * counts only the long board edge (zones 1–3); `aocSides` says whether 7 and
 * 8 reach the side edges.
 *
 * Other readings: whether the lost die is the raw d6 or the d6 + 2 (`compare`,
 * default raw: see its doc). A roll-off tie is rolled again. Deployment after
 * initiative alternates `perTurn` squads at a time (two, the text), a player
 * placing fewer when fewer are left, and the other player placing the rest
 * once one has none left; so who places the last squad follows from the
 * initiative and the squad counts alone. That figure lives here rather than
 * in the reserves rule because it hangs on the first-round initiative this
 * module decides (§6.3), and squads declared as reserve take their turn in
 * the alternation like any other. A player's deployment is its set of
 * zones, held here as a bit mask (bit k set: zone k), so duplicates collapse
 * by construction.
 */

import type { Dice } from '../../contract/dice.js';
import type { DistributionSpec, MetricSpec, Reading, Rng } from '../../contract/types.js';
import { distributionOf, type ExactDistribution } from '../../exact/exact-distribution.js';
import { Fraction } from '../../exact/fraction.js';
import { mean, proportion, type Tallied } from '../../stats/estimate.js';
import { defineBuiltin, type TrialOut } from '../define.js';
import { simulateByDigits } from './digits.js';
import { type Deployment, matrix, type Plan, params, plan } from './params.js';
import { simulateDieByDie } from './streams.js';
import {
  A_INITIATIVE,
  A_PLACES_LAST,
  aPlacesLast,
  forwardZones,
  ROLLOFF,
  TALLY_LENGTH,
  ZONE_COUNT,
  ZONE_SETS,
  ZONE_SETS_OF,
  ZONE_TOTAL,
} from './zones.js';

/** Zones 1–3 touch the player's long board edge; 7 and 8 lie in the Area of Conflict. */
const LONG_EDGE_ZONES = 0b1110;
/** Zones 1 and 4 touch the left side edge, 3 and 6 the right (each row of three fills the board's width). */
const SIDE_EDGE_ZONES = (1 << 1) | (1 << 4) | (1 << 3) | (1 << 6);
const CONFLICT_ZONES = (1 << 7) | (1 << 8);
/**
 * The zones that give a board edge under the reading in force: the long edge
 * only (`edges=long`: 1–3), or every zone touching any board edge
 * (`edges=geometric`: 1–4 and 6, with 7 and 8 when `aocSides`).
 */
function edgeZones(params: Deployment): number {
  if (params.edges === 'long') return LONG_EDGE_ZONES;
  return LONG_EDGE_ZONES | SIDE_EDGE_ZONES | (params.aocSides ? CONFLICT_ZONES : 0);
}

/** The zones of a mask, listed: `zoneList(0b1010) // '1, 3'`. */
function zoneList(zones: number): string {
  const list: number[] = [];
  for (let zone = 1; zone <= 8; zone++) if (zones & (1 << zone)) list.push(zone);
  return list.join(', ');
}

const PLAYERS = ['a', 'b'] as const;

interface ZoneSetMetric {
  suffix: string;
  doc: string;
  /** Words for charts, after "player A". */
  label: string;
  probability: boolean;
  /** For a whole distribution: the range of its values. */
  distribution?: DistributionSpec;
  value: (zones: number) => number;
}

/**
 * A zone total's range: 1 (a forward deployment from zone 1 losing both dice) to 21 (from zone 6, gaining 7 and 8);
 * every standard set of three zones lies within it.
 */
const TOTAL_RANGE: DistributionSpec = { min: 1, max: 21 };

/**
 * What each per-player metric reads from a zone set, under these parameters: 1 or 0 for probabilities, the figure
 * itself for means. Docs follow the player's name.
 */
function zoneSetMetrics(params: Deployment): ZoneSetMetric[] {
  const edges = edgeZones(params);
  return [
    {
      suffix: 'noEdge',
      doc:
        ` has no zone with a board edge (those are zones ${zoneList(edges)}, edges=${params.edges}): ` +
        `everything deploys on the board, reserves enter by zone 1`,
      label: ' has no board-edge zone',
      probability: true,
      value: (zones) => (zones & edges ? 0 : 1),
    },
    ...ZONE_SET_FIXED_METRICS,
  ];
}

const ZONE_SET_FIXED_METRICS: readonly ZoneSetMetric[] = [
  {
    suffix: 'aoc',
    doc: ' reaches the Area of Conflict (zone 7 or 8)',
    label: ' reaches the Area of Conflict',
    probability: true,
    value: (zones) => (zones & CONFLICT_ZONES ? 1 : 0),
  },
  ...[1, 2, 3].map((count) => ({
    suffix: `zones.${count}`,
    doc: ` ends with ${count} zone${count === 1 ? '' : 's'}`,
    label: ` holds ${count} zone${count === 1 ? '' : 's'}`,
    probability: true,
    value: (zones: number) => (ZONE_COUNT[zones] === count ? 1 : 0),
  })),
  ...[1, 2, 3, 4, 5, 6, 7, 8].map((zone) => ({
    suffix: `zone.${zone}`,
    doc: ` deploys in zone ${zone}`,
    label: ` deploys in zone ${zone}`,
    probability: true,
    value: (zones: number) => (zones & (1 << zone) ? 1 : 0),
  })),
  {
    suffix: 'total.mean',
    doc:
      "'s zone total, the sum of its zone numbers (the lower total has initiative): the expected total, and its " +
      'whole distribution',
    label: '’s zone total (expected)',
    probability: false,
    distribution: TOTAL_RANGE,
    value: (zones) => ZONE_TOTAL[zones],
  },
];

function metrics(params: Deployment): MetricSpec[] {
  const list: MetricSpec[] = [
    {
      name: 'a.initiative',
      doc: 'a has initiative in the first game round (lower zone total, or wins the roll-off)',
      label: 'player A has the initiative',
      probability: true,
    },
    {
      name: 'b.initiative',
      doc: 'b has initiative in the first game round',
      label: 'player B has the initiative',
      probability: true,
    },
    {
      name: 'rolloff',
      doc: 'the zone totals are equal and initiative goes to a 1d6 roll-off',
      label: 'equal totals: a roll-off',
      probability: true,
    },
    {
      name: 'a.placesLast',
      doc:
        `a deploys the last squad (${params.squadsA} against ${params.squadsB} squads, ${params.perTurn} at ` +
        `a time, the player without initiative first), and so sees every enemy squad placed`,
      label: 'player A places the last squad',
      probability: true,
    },
    {
      name: 'b.placesLast',
      doc: 'b deploys the last squad',
      label: 'player B places the last squad',
      probability: true,
    },
  ];
  for (const player of PLAYERS) {
    for (const metric of zoneSetMetrics(params))
      list.push({
        name: `${player}.${metric.suffix}`,
        doc: `${player}${metric.doc}`,
        label: `player ${player.toUpperCase()}${metric.label}`,
        probability: metric.probability,
        ...(metric.distribution ? { distribution: metric.distribution } : {}),
      });
  }
  return list;
}

/**
 * One pre-game as §6.1–6.3 read: each player takes the zones it selects, or rolls 2d6 for forward zones (a die
 * showing the chosen zone lost, any other adding zone d6 + 2); the lower zone total has initiative, equal totals
 * roll off on 1d6 (ties rolled again); then squads are placed perTurn at a time, the player without initiative
 * first, until both armies are down.
 */
function trial(dice: Dice, p: Deployment, out: TrialOut): void {
  const zonesOf = (strategy: string): Set<number> => {
    const [kind, list] = strategy.split(':');
    if (kind === 'standard') return new Set(list.split(',').map(Number));
    const chosen = Number(list);
    const zones = new Set([chosen]);
    for (const die of [dice.d(6), dice.d(6)]) if ((p.compare === 'raw' ? die : die + 2) !== chosen) zones.add(die + 2);
    return zones;
  };
  const zones = { a: zonesOf(p.a), b: zonesOf(p.b) };
  const total = (player: 'a' | 'b') => [...zones[player]].reduce((sum, zone) => sum + zone, 0);
  let aHasInitiative = total('a') < total('b');
  out.rolloff = +(total('a') === total('b'));
  if (total('a') === total('b')) {
    let dieA = 0;
    let dieB = 0;
    while (dieA === dieB) {
      dieA = dice.d(6);
      dieB = dice.d(6);
    }
    aHasInitiative = dieA > dieB;
  }
  out['a.initiative'] = +aHasInitiative;
  out['b.initiative'] = +!aHasInitiative;
  let leftA = p.squadsA;
  let leftB = p.squadsB;
  let aPlaces = !aHasInitiative;
  let aPlacedLast = false;
  while (leftA + leftB > 0) {
    if (aPlaces ? leftA > 0 : leftB === 0) {
      leftA -= Math.min(p.perTurn, leftA);
      aPlacedLast = true;
    } else {
      leftB -= Math.min(p.perTurn, leftB);
      aPlacedLast = false;
    }
    aPlaces = !aPlacedLast;
  }
  out['a.placesLast'] = +aPlacedLast;
  out['b.placesLast'] = +!aPlacedLast;
  // The zones touching a board edge, under the reading in force (§6: each row of three fills the board's width).
  const edges = p.edges === 'long' ? [1, 2, 3] : [1, 2, 3, 4, 6, ...(p.aocSides ? [7, 8] : [])];
  for (const player of PLAYERS) {
    const held = zones[player];
    out[`${player}.noEdge`] = +!edges.some((zone) => held.has(zone));
    out[`${player}.aoc`] = +(held.has(7) || held.has(8));
    for (let count = 1; count <= 3; count++) out[`${player}.zones.${count}`] = +(held.size === count);
    for (let zone = 1; zone <= 8; zone++) out[`${player}.zone.${zone}`] = +held.has(zone);
    out[`${player}.total.mean`] = total(player);
  }
}

/** Stream 5, the default: several trials' dice to a generator output, counted as digits (deployment-digits.ts). */
function simulate(params: Deployment, rng: Rng, trials: number, tally: Float64Array): void {
  if (rng.stream >= 5) simulateByDigits(params, rng, trials, tally);
  else simulateDieByDie(params, rng, trials, tally);
}

function summarize(params: Deployment, tally: Float64Array, trials: number): Record<string, Tallied> {
  const result: Record<string, Tallied> = {
    'a.initiative': proportion(tally[A_INITIATIVE], trials),
    'b.initiative': proportion(trials - tally[A_INITIATIVE], trials),
    rolloff: proportion(tally[ROLLOFF], trials),
    'a.placesLast': proportion(tally[A_PLACES_LAST], trials),
    'b.placesLast': proportion(trials - tally[A_PLACES_LAST], trials),
  };
  for (const player of PLAYERS) {
    const offset = ZONE_SETS_OF[player];
    for (const metric of zoneSetMetrics(params)) {
      let sum = 0;
      let sumOfSquares = 0;
      const range = metric.distribution;
      const counts = range ? new Float64Array((range.max as number) - range.min + 1) : null;
      for (let zones = 0; zones < ZONE_SETS; zones++) {
        const count = tally[offset + zones];
        if (count === 0) continue;
        const value = metric.value(zones);
        sum += count * value;
        sumOfSquares += count * value * value;
        if (counts && range) counts[value - range.min] += count;
      }
      const counted = metric.probability ? proportion(sum, trials) : mean(sum, sumOfSquares, trials);
      if (counts && range && counted.kind === 'mean') counted.histogram = { min: range.min, counts, beyond: null };
      result[`${player}.${metric.suffix}`] = counted;
    }
  }
  return result;
}

/** A player's zone sets with integer weights over a common denominator: 1 for standard, 36 for the two forward dice. */
function zoneSetWeights(strategy: Plan, compareRaw: boolean): { weights: Map<number, number>; denominator: number } {
  if (strategy.chosen === 0) return { weights: new Map([[strategy.zones, 1]]), denominator: 1 };
  const weights = new Map<number, number>();
  for (let first = 1; first <= 6; first++) {
    for (let second = 1; second <= 6; second++) {
      const zones = forwardZones(strategy.chosen, first, second, compareRaw);
      weights.set(zones, (weights.get(zones) ?? 0) + 1);
    }
  }
  return { weights, denominator: 36 };
}

/**
 * Each player's 36 (or 1) outcomes, paired independently. A roll-off re-rolls
 * ties, so by symmetry it goes to a in 15 of the 30 unequal pairs: one half.
 */
function exact(params: Deployment): Record<string, Fraction> {
  const compareRaw = params.compare === 'raw';
  const sets = {
    a: zoneSetWeights(plan(params.a), compareRaw),
    b: zoneSetWeights(plan(params.b), compareRaw),
  };
  let halvesToA = 0; // a's initiative in halves of a joint outcome: 2 for a lower total, 1 for a roll-off
  let rolloffs = 0;
  for (const [zonesA, weightA] of sets.a.weights) {
    for (const [zonesB, weightB] of sets.b.weights) {
      const weight = weightA * weightB;
      if (ZONE_TOTAL[zonesA] < ZONE_TOTAL[zonesB]) halvesToA += 2 * weight;
      if (ZONE_TOTAL[zonesA] === ZONE_TOTAL[zonesB]) {
        halvesToA += weight;
        rolloffs += weight;
      }
    }
  }
  const jointDenominator = sets.a.denominator * sets.b.denominator;
  const aInitiative = Fraction.of(halvesToA, 2 * jointDenominator);
  // The player without initiative places first: a places last with initiative when it needs at least as many turns as
  // b, without it only with more.
  const aLast = aInitiative
    .mul(aPlacesLast(params, true) ? Fraction.ONE : Fraction.ZERO)
    .add(aInitiative.complement().mul(aPlacesLast(params, false) ? Fraction.ONE : Fraction.ZERO));
  const result: Record<string, Fraction> = {
    'a.initiative': aInitiative,
    'b.initiative': aInitiative.complement(),
    rolloff: Fraction.of(rolloffs, jointDenominator),
    'a.placesLast': aLast,
    'b.placesLast': aLast.complement(),
  };
  for (const player of PLAYERS) {
    const { weights, denominator } = sets[player];
    for (const metric of zoneSetMetrics(params)) {
      let sum = 0;
      for (const [zones, weight] of weights) sum += weight * metric.value(zones);
      result[`${player}.${metric.suffix}`] = Fraction.of(sum, denominator);
    }
  }
  return result;
}

/** Each player's zone total, read off its zone sets' weights: every deployment's 36 (or 1) outcomes. */
function exactDistributions(params: Deployment): Record<string, ExactDistribution> {
  const compareRaw = params.compare === 'raw';
  const result: Record<string, ExactDistribution> = {};
  for (const player of PLAYERS) {
    const { weights, denominator } = zoneSetWeights(plan(params[player]), compareRaw);
    const chances = new Map<number, Fraction>();
    for (const [zones, weight] of weights) {
      const total = ZONE_TOTAL[zones];
      chances.set(total, (chances.get(total) ?? Fraction.ZERO).add(Fraction.of(weight, denominator)));
    }
    result[`${player}.total.mean`] = distributionOf(chances);
  }
  return result;
}

/** The readings taken where §6 is silent or open, at these parameters (see the module comment). */
function readings(params: Deployment): Reading[] {
  const list: Reading[] = [
    {
      param: 'compare',
      text:
        params.compare === 'raw'
          ? "a forward die showing the chosen zone's own number is lost (the raw d6 is compared); " +
            'compare=modified compares d6 + 2 instead'
          : 'a forward die is lost when d6 + 2 equals the chosen zone (a mere duplicate); compare=raw ' +
            'compares the raw d6, as written',
    },
    {
      param: 'edges',
      text:
        params.edges === 'geometric'
          ? `a zone touching any board edge gives an entry edge, so zones ${zoneList(edgeZones(params))} ` +
            `have one; edges=long counts only the long board edge (zones 1–3)`
          : 'only zones 1–3, on the long board edge, give an entry edge; edges=geometric counts the side ' +
            'edges too (only zone 5 then has none)',
    },
  ];
  if (params.edges === 'geometric') {
    list.push({
      param: 'aocSides',
      text: params.aocSides
        ? 'zones 7 and 8 lie above 4 and 6, reaching the side edges; aocSides=false insets them'
        : 'zones 7 and 8 are inset from the side edges, with no board edge; aocSides=true places them above 4 and 6',
    });
  }
  return list;
}

export const deployment = defineBuiltin({
  id: 'deployment',
  title: 'Genesys deployment',
  summary:
    'Genesys Project deployment: the forward 2d6 zone gamble against standard zones, and who gets ' +
    'first-round initiative',
  source: 'The Genesys Project, designer preview, §6.1–6.4 Deployment (docs/rules/deployment.md)',
  params,
  readings,
  metrics,
  // Player A's questions: who takes the first round, reaching the Area of Conflict, and no zone on the edge.
  headline: () => ['a.initiative', 'rolloff', 'a.aoc', 'a.noEdge', 'b.aoc', 'a.total.mean'],
  trial,
  simulate,
  tally: {
    length: () => TALLY_LENGTH,
    summarize,
    check(_params, tally, trials) {
      // Every trial adds one to one zone set of each player.
      for (const player of PLAYERS) {
        let sum = 0;
        for (let zones = 0; zones < ZONE_SETS; zones++) sum += tally[ZONE_SETS_OF[player] + zones];
        if (sum !== trials) return `player ${player}'s zone-set counts sum to ${sum}, not the ${trials} trials`;
      }
      return null;
    },
  },
  exact,
  exactDistributions,
  matrix,
});
