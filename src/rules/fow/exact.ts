/**
 * Flames of War reserves (see fow.ts), exactly: a Markov chain over platoons still in reserve.
 */
import { distributionOf, type ExactDistribution } from '../../exact/exact-distribution.js';
import { Fraction } from '../../exact/fraction.js';
import { scatterTable } from './scatter.js';
import { DISTRIBUTION_RESERVES, type Fow, horizon, SIDES, type Side, sideSetup } from './setup.js';

/**
 * Ways k of `dice` dice score, k = 0..dice, out of 6^dice: each die scores on
 * `scoring` faces and misses on `missing`, so the count for k is
 * C(dice, k) · scoring^k · missing^(dice − k).
 */
function hitsCounts(dice: number, scoring: bigint, missing: bigint): bigint[] {
  let counts = [1n];
  for (let die = 0; die < dice; die++) {
    const next = new Array<bigint>(counts.length + 1).fill(0n);
    for (let hits = 0; hits < counts.length; hits++) {
      next[hits] += counts[hits] * missing;
      next[hits + 1] += counts[hits] * scoring;
    }
    counts = next;
  }
  return counts;
}

/** One side after one turn's roll: ways[r] of the outOf equally likely ways have r platoons still in reserve. */
interface TurnWays {
  ways: bigint[];
  outOf: bigint;
  /** The ways, of outOf, that had every reserve still out before this turn's roll. */
  untouched: bigint;
}

/**
 * State r: platoons still in reserve. A turn with d dice moves r to
 * r − min(hits, r), or to r − 1 when no die scored and d ≥ guarantee.
 * "First arrival in turn t" is the chance of leaving the full state then.
 *
 * Every chance here is a whole number of the 6^D equally likely ways the D
 * dice a side has rolled so far can fall, so the chain runs on those whole
 * numbers (BigInt), the denominator 6^D kept aside; a metric becomes a
 * reduced fraction once, when it is read. Run on Fractions, reducing after
 * every sum and product, the largest sizes took half a second.
 *
 * Returns the side after each turn followed (index turn − 1).
 */
function sideChain(p: Fow, side: Side): TurnWays[] {
  const scoring = BigInt(7 - p.hit);
  const missing = BigInt(p.hit - 1);
  const { reserves, start } = sideSetup(p, side);
  const turns: TurnWays[] = [];
  let ways = new Array<bigint>(reserves + 1).fill(0n);
  ways[reserves] = 1n;
  let outOf = 1n;
  for (let turn = 1; turn <= horizon(p); turn++) {
    let untouched = ways[reserves];
    if (turn >= start) {
      const dice = turn - start + 1;
      const hits = hitsCounts(dice, scoring, missing);
      const scale = 6n ** BigInt(dice);
      const guaranteed = p.guarantee > 0 && dice >= p.guarantee;
      const next = new Array<bigint>(reserves + 1).fill(0n);
      next[0] = ways[0] * scale;
      for (let remaining = 1; remaining <= reserves; remaining++) {
        if (ways[remaining] === 0n) continue;
        for (let scored = 0; scored < hits.length; scored++) {
          const arriving = scored === 0 && guaranteed ? 1 : Math.min(scored, remaining);
          next[remaining - arriving] += ways[remaining] * hits[scored];
        }
      }
      ways = next;
      outOf *= scale;
      untouched *= scale;
    }
    turns.push({ ways, outOf, untouched });
  }
  return turns;
}

export function exactValues(p: Fow): Record<string, Fraction> {
  const result: Record<string, Fraction> = {};
  const distributions = exactDistributions(p);
  for (const side of SIDES) {
    const { platoons, reserves } = sideSetup(p, side);
    result[`${side}.reserves`] = Fraction.of(reserves);
    sideChain(p, side).forEach(({ ways, outOf, untouched }, index) => {
      const turn = index + 1;
      const chance = (count: bigint) => Fraction.of(count, outOf);
      let expectedRemaining = 0n;
      for (let remaining = 1; remaining <= reserves; remaining++)
        expectedRemaining += BigInt(remaining) * ways[remaining];
      const onTable = Fraction.of(BigInt(platoons) * outOf - expectedRemaining, outOf);
      // The defender's check of turn endTurn: after the attacker's roll of that turn, before the defender's.
      if (side === 'defender' && turn === p.endTurn - 1) {
        result['defender.onTable.atEnd.mean'] = onTable;
        result['defender.allIn.atEnd'] = chance(ways[0]);
      }
      if (side === 'attacker' && turn === p.endTurn) result['attacker.allIn.atEnd'] = chance(ways[0]);
      if (turn > p.turns) return;
      result[`${side}.onTable.${turn}.mean`] = onTable;
      result[`${side}.allIn.by.${turn}`] = chance(ways[0]);
      result[`${side}.first.${turn}`] = chance(untouched - ways[reserves]);
      if (reserves <= DISTRIBUTION_RESERVES) {
        let atMost = 0n;
        for (let k = reserves; k >= 1; k--) {
          atMost += ways[reserves - k];
          if (k < reserves) result[`${side}.atLeast.${k}.by.${turn}`] = chance(atMost);
        }
      }
    });
    result[`${side}.last.arrival`] = distributions[`${side}.last.arrival`].mean;
  }
  const { places, placeOfFace } = scatterTable(p.scatter);
  places.forEach((place, i) => {
    result[`defender.scatter.${place}`] = Fraction.of(
      placeOfFace.filter((index, face) => face >= 1 && index === i).length,
      6,
    );
  });
  return result;
}

/**
 * Each side's platoons on the table after its roll in each turn shown (the platoons not in reserve, and the
 * reserves in), and the turn its last reserve arrives (turns + 1: some still out after the last turn shown),
 * read off the same chain; and the defender's platoons on the table at the end check.
 */
export function exactDistributions(p: Fow): Record<string, ExactDistribution> {
  const result: Record<string, ExactDistribution> = {};
  for (const side of SIDES) {
    const { platoons } = sideSetup(p, side);
    const chain = sideChain(p, side);
    const onTable = ({ ways, outOf }: TurnWays) =>
      distributionOf(new Map(ways.map((count, remaining) => [platoons - remaining, Fraction.of(count, outOf)])));
    const last = new Map<number, Fraction>();
    let before = Fraction.ZERO;
    for (let turn = 1; turn <= p.turns; turn++) {
      const { ways, outOf } = chain[turn - 1];
      result[`${side}.onTable.${turn}.mean`] = onTable(chain[turn - 1]);
      const allIn = Fraction.of(ways[0], outOf);
      last.set(turn, allIn.sub(before));
      before = allIn;
    }
    last.set(p.turns + 1, before.complement());
    result[`${side}.last.arrival`] = distributionOf(last);
    if (side === 'defender') result['defender.onTable.atEnd.mean'] = onTable(chain[p.endTurn - 2]);
  }
  return result;
}
