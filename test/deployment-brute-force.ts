/**
 * An independent enumeration of Genesys deployment (000 §6.1–6.3), written
 * from the rule text without the rule module's bit masks or lookup tables:
 * zones are Sets, every pair of forward dice is listed, and the roll-off is
 * counted over the 36 pairs of d6 with ties dropped (a tie is rolled again).
 */
import { Fraction } from '../src/exact/fraction.js';

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

/** Every metric of the rule, by brute force, as exact fractions; also each player's total's variance for the statistical bounds. */
export function bruteForce(a: string, b: string, compare: 'raw' | 'modified'): { metrics: Record<string, Fraction>; totalVariance: { a: Fraction; b: Fraction } } {
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

  const metrics: Record<string, Fraction> = { 'a.initiative': aInitiative, 'b.initiative': Fraction.ONE.sub(aInitiative), rolloff };
  const totalVariance = { a: Fraction.ZERO, b: Fraction.ZERO };
  for (const player of ['a', 'b'] as const) {
    const list = outcomes[player];
    const share = (count: number) => Fraction.of(count, list.length);
    const count = (test: (zones: ZoneOutcome) => boolean) => share(list.filter(test).length);
    metrics[`${player}.noEdge`] = count((zones) => ![1, 2, 3].some((zone) => zones.has(zone)));
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
