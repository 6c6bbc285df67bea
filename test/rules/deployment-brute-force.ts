/**
 * An independent enumeration of Genesys deployment (The Genesys Project,
 * designer's preview, §6.1–6.3), written from the rule text without the rule
 * module's bit masks or lookup tables: zones are Sets, every pair of forward
 * dice is listed, the roll-off is counted over the 36 pairs of d6 with ties
 * dropped (a tie is rolled again), which zones give a board edge is derived
 * from the zones drawn as rectangles on the board, and the squad placement
 * after initiative is played out turn by turn.
 */
import { Fraction } from '../../src/exact/fraction.js';

/**
 * A zone drawn on the board, in inches: x across the player's long edge (0 = left), y away from it (0 = the player's
 * own edge).
 */
export interface Rectangle {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

/**
 * The two board sizes §6 names: 4' × 4' with 16" zones, 4' × 6' with 24" zones (width across the player's edge × depth,
 * inches).
 */
export const BOARDS = [
  { name: '4x4', width: 48, depth: 48, zoneWidth: 16 },
  { name: '4x6', width: 72, depth: 48, zoneWidth: 24 },
] as const;

/**
 * The eight zones as rectangles, from §6: "each zone is 6"x16"" (or 6"x24"),
 * two rows of three (1 2 3 on the player's edge, 4 5 6 in front), and 7, 8
 * in front of those. `aocSides`: 7 drawn above 4 and 8 above 6 (same
 * columns); otherwise each is inset by half a zone width toward the centre.
 */
export function zoneRectangles(board: (typeof BOARDS)[number], aocSides: boolean): Map<number, Rectangle> {
  const w = board.zoneWidth;
  const depth = 6;
  const zones = new Map<number, Rectangle>();
  for (let column = 0; column < 3; column++) {
    zones.set(1 + column, { x0: column * w, x1: (column + 1) * w, y0: 0, y1: depth });
    zones.set(4 + column, { x0: column * w, x1: (column + 1) * w, y0: depth, y1: 2 * depth });
  }
  const inset = aocSides ? 0 : w / 2;
  zones.set(7, { x0: inset, x1: w + inset, y0: 2 * depth, y1: 3 * depth });
  zones.set(8, { x0: 2 * w - inset, x1: 3 * w - inset, y0: 2 * depth, y1: 3 * depth });
  return zones;
}

/**
 * The board edges a rectangle touches: the player's own long edge, the far long edge, the left and right side edges.
 */
export function edgesTouched(zone: Rectangle, board: (typeof BOARDS)[number]): string[] {
  const edges: string[] = [];
  if (zone.y0 === 0) edges.push('own long edge');
  if (zone.y1 === board.depth) edges.push('far long edge');
  if (zone.x0 === 0) edges.push('left side edge');
  if (zone.x1 === board.width) edges.push('right side edge');
  return edges;
}

/**
 * How the rule text is read where it is open: which board edges count, whether 7 and 8 reach the sides, and the squad
 * placement after initiative.
 */
export interface Reading {
  edges: 'geometric' | 'long';
  aocSides: boolean;
  squadsA: number;
  squadsB: number;
  perTurn: number;
}

export const TEXT_READING: Reading = { edges: 'geometric', aocSides: true, squadsA: 6, squadsB: 6, perTurn: 2 };

/** A reading as the rule's settings (`name=value`, as `--set` takes them). */
export const readingSettings = (reading: Reading): string[] => [
  `edges=${reading.edges}`,
  `aocSides=${reading.aocSides}`,
  `squadsA=${reading.squadsA}`,
  `squadsB=${reading.squadsB}`,
  `perTurn=${reading.perTurn}`,
];

/**
 * The zones that give an entry edge under a reading, on a board: every edge the zone touches (geometric), or only the
 * player's own long edge.
 */
export function zonesWithEdge(
  reading: Pick<Reading, 'edges' | 'aocSides'>,
  board: (typeof BOARDS)[number] = BOARDS[0],
): Set<number> {
  const result = new Set<number>();
  for (const [zone, rectangle] of zoneRectangles(board, reading.aocSides)) {
    const touched = edgesTouched(rectangle, board);
    if (reading.edges === 'geometric' ? touched.length > 0 : touched.includes('own long edge')) result.add(zone);
  }
  return result;
}

/**
 * Whether a places the last squad, played out: the player without initiative
 * places first, players alternate placing up to `perTurn` squads, and a
 * player with none left is passed over.
 */
export function aPlacesLast(aHasInitiative: boolean, reading: Reading): boolean {
  const left = { a: reading.squadsA, b: reading.squadsB };
  let turn: 'a' | 'b' = aHasInitiative ? 'b' : 'a';
  let last: 'a' | 'b' = turn;
  while (left.a + left.b > 0) {
    if (left[turn] > 0) {
      left[turn] -= Math.min(reading.perTurn, left[turn]);
      last = turn;
    }
    turn = turn === 'a' ? 'b' : 'a';
  }
  return last === 'a';
}

/** One equally likely way a player's deployment can end. */
export type ZoneOutcome = ReadonlySet<number>;

/** Every equally likely zone set of a strategy: one for standard, 36 (one per pair of dice) for forward. */
export function zoneOutcomes(strategy: string, compare: 'raw' | 'modified'): ZoneOutcome[] {
  const [kind, list] = strategy.split(':');
  const zones = list.split(',').map(Number);
  if (kind === 'standard') return [new Set(zones)];
  const chosen = zones[0];
  const outcomes: ZoneOutcome[] = [];
  for (let first = 1; first <= 6; first++) {
    for (let second = 1; second <= 6; second++) {
      const set = new Set([chosen]);
      for (const die of [first, second]) {
        const compared = compare === 'raw' ? die : die + 2;
        if (compared !== chosen) set.add(die + 2);
      }
      outcomes.push(set);
    }
  }
  return outcomes;
}

const zoneTotal = (zones: ZoneOutcome) => [...zones].reduce((sum, zone) => sum + zone, 0);

/**
 * Every metric of the rule, by brute force, as exact fractions; also each player's total's variance for the statistical
 * bounds.
 */
export function bruteForce(
  a: string,
  b: string,
  compare: 'raw' | 'modified',
  reading: Reading = TEXT_READING,
): { metrics: Record<string, Fraction>; totalVariance: { a: Fraction; b: Fraction } } {
  const withEdge = zonesWithEdge(reading);
  const outcomes = { a: zoneOutcomes(a, compare), b: zoneOutcomes(b, compare) };

  let rolloffPairs = 0;
  let rolloffPairsWonByA = 0;
  for (let dieA = 1; dieA <= 6; dieA++) {
    for (let dieB = 1; dieB <= 6; dieB++) {
      if (dieA === dieB) continue;
      rolloffPairs++;
      if (dieA > dieB) rolloffPairsWonByA++;
    }
  }
  const rolloffWonByA = Fraction.of(rolloffPairsWonByA, rolloffPairs);

  const joint = Fraction.of(1, outcomes.a.length * outcomes.b.length);
  let aInitiative = Fraction.ZERO;
  let rolloff = Fraction.ZERO;
  for (const zonesA of outcomes.a) {
    for (const zonesB of outcomes.b) {
      const totalA = zoneTotal(zonesA);
      const totalB = zoneTotal(zonesB);
      if (totalA < totalB) aInitiative = aInitiative.add(joint);
      if (totalA === totalB) {
        rolloff = rolloff.add(joint);
        aInitiative = aInitiative.add(joint.mul(rolloffWonByA));
      }
    }
  }

  const bInitiative = Fraction.ONE.sub(aInitiative);
  const aLast = (aPlacesLast(true, reading) ? aInitiative : Fraction.ZERO).add(
    aPlacesLast(false, reading) ? bInitiative : Fraction.ZERO,
  );
  const metrics: Record<string, Fraction> = {
    'a.initiative': aInitiative,
    'b.initiative': bInitiative,
    rolloff,
    'a.placesLast': aLast,
    'b.placesLast': Fraction.ONE.sub(aLast),
  };
  const totalVariance = { a: Fraction.ZERO, b: Fraction.ZERO };
  for (const player of ['a', 'b'] as const) {
    const list = outcomes[player];
    const share = (count: number) => Fraction.of(count, list.length);
    const count = (test: (zones: ZoneOutcome) => boolean) => share(list.filter(test).length);
    metrics[`${player}.noEdge`] = count((zones) => ![...zones].some((zone) => withEdge.has(zone)));
    metrics[`${player}.aoc`] = count((zones) => zones.has(7) || zones.has(8));
    for (let n = 1; n <= 3; n++) metrics[`${player}.zones.${n}`] = count((zones) => zones.size === n);
    for (let zone = 1; zone <= 8; zone++) metrics[`${player}.zone.${zone}`] = count((zones) => zones.has(zone));
    const sum = list.reduce((total, zones) => total + zoneTotal(zones), 0);
    const sumOfSquares = list.reduce((total, zones) => total + zoneTotal(zones) ** 2, 0);
    const mean = share(sum);
    metrics[`${player}.total.mean`] = mean;
    totalVariance[player] = share(sumOfSquares).sub(mean.mul(mean));
  }
  return { metrics, totalVariance };
}
