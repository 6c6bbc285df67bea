/**
 * Genesys reserves (see reserves.ts), exactly: given the commander's fate the squads are independent, so
 * every chance is a count of the ways their dice fall.
 */
import { distributionOf, distributionOfCounts, type ExactDistribution } from '../../exact/exact-distribution.js';
import { Fraction } from '../../exact/fraction.js';
import { commanderSurvives, DISTRIBUTION_SQUADS, facesNeeded, type Reserves } from './setup.js';

/** n choose k, exactly. */
function binomial(n: number, k: number): bigint {
  let value = 1n;
  for (let i = 1; i <= k; i++) value = (value * BigInt(n - k + i)) / BigInt(i);
  return value;
}

/**
 * Given the commander's fate, squads are independent and each one's arrival
 * round follows from the per-round chances; the two fates are then mixed.
 */
export function exactValues(p: Reserves): Record<string, Fraction> {
  const { rounds, squads } = p;
  const { fates, common } = fatesOf(p);
  // Given the fate, a chance is a whole number of the 6^r equally likely ways a squad's first r dice can fall (or
  // (6^r)^S for all S squads'): each is summed over the fates in BigInt counts, scaled to the fates' common
  // denominator, and becomes a fraction once, at the end (a reduction a fate and a term cost a sweep point more
  // than its simulation).
  const counted = new Map<string, { count: bigint; outOf: bigint }>();
  const n = BigInt(squads);
  let dice = Fraction.ZERO; // expected dice one squad rolls, over both fates
  for (const { weight, needed } of fates) {
    const scale = weight.numerator * (common / weight.denominator);
    const add = (name: string, count: bigint, outOf: bigint) => {
      const sum = counted.get(name);
      if (sum === undefined) counted.set(name, { count: scale * count, outOf });
      else sum.count += scale * count;
    };
    let stillOut = 1n; // ways the squad is still out after the rounds so far, of `outOf`
    let outOf = 1n;
    let ways = 0n; // Σ over rolling rounds of the ways the squad is still out before it, of 6^(r − 1) each
    for (let r = 1; r <= rounds; r++) {
      if (r >= p.firstRound) ways = ways * 6n + stillOut;
      else ways *= 6n;
      const arrivesNow = stillOut * BigInt(7 - needed[r]);
      stillOut *= BigInt(needed[r] - 1);
      outOf *= 6n;
      const inBy = outOf - stillOut;
      add(`squad.round.${r}`, arrivesNow, outOf);
      add(`all.by.${r}`, inBy ** n, outOf ** n);
      add(`arrived.by.${r}.mean`, inBy * n, outOf);
      if (squads <= DISTRIBUTION_SQUADS) {
        // Independent squads, each in by now in inBy of the outOf ways: a binomial tail.
        let tail = 0n;
        for (let k = squads; k >= 1; k--) {
          tail += binomial(squads, k) * inBy ** BigInt(k) * stillOut ** BigInt(squads - k);
          if (k < squads) add(`atLeast.${k}.by.${r}`, tail, outOf ** n);
        }
      }
    }
    add('squad.never', stillOut, outOf);
    add('lost.mean', stillOut * n, outOf);
    dice = dice.add(weight.mul(Fraction.of(ways * n, 6n ** BigInt(rounds - 1))));
  }
  const result: Record<string, Fraction> = {};
  for (const [name, { count, outOf }] of counted) result[name] = Fraction.of(count, common * outOf);
  result['dice.mean'] = dice;
  result['last.arrival'] = lastArrivalMean(rounds, counted, common);
  return result;
}

/**
 * The mean round of the last arrival L, from the counts of all.by.r: L is at least 1 and at most rounds + 1, and
 * P(L > r) = 1 − all.by.r, so E[L] = Σ_{r=0..rounds} P(L > r) = rounds + 1 − Σ_r all.by.r, summed over the last
 * round's denominator and reduced once (its distribution, lastArrival, reduces at every step).
 */
function lastArrivalMean(rounds: number, counted: Map<string, { count: bigint; outOf: bigint }>, common: bigint) {
  const allBy = (r: number) => counted.get(`all.by.${r}`) as { count: bigint; outOf: bigint };
  const last = allBy(rounds).outOf;
  let inBy = 0n;
  for (let r = 1; r <= rounds; r++) inBy += allBy(r).count * (last / allBy(r).outOf);
  return Fraction.of(BigInt(rounds + 1) * common * last - inBy, common * last);
}

/** The commander's two fates that can happen, and a multiple of their weights' denominators (1 − a/b is (b − a)/b). */
function fatesOf(p: Reserves): { fates: Array<{ weight: Fraction; needed: Int32Array }>; common: bigint } {
  const alive = commanderSurvives(p);
  const fates = [
    { weight: alive, needed: facesNeeded(p, p.command) },
    { weight: alive.complement(), needed: facesNeeded(p, p.fallbackCommand) },
  ].filter((fate) => fate.weight.compare(Fraction.ZERO) > 0);
  const common = fates.reduce(
    (multiple, { weight }) => (multiple % weight.denominator === 0n ? multiple : multiple * weight.denominator),
    1n,
  );
  return { fates, common };
}

/** The round the last squad arrives: in by r and not by r − 1 (all.by), or rounds + 1 when some squad never is. */
function lastArrival(p: Reserves, values: Record<string, Fraction>): ExactDistribution {
  const chances = new Map<number, Fraction>();
  let before = Fraction.ZERO;
  for (let r = 1; r <= p.rounds; r++) {
    const allIn = values[`all.by.${r}`];
    chances.set(r, allIn.sub(before));
    before = allIn;
  }
  chances.set(p.rounds + 1, before.complement());
  return distributionOf(chances);
}

/**
 * Squads on the table by the end of each round, as a whole distribution: given the commander's fate each squad is
 * in by round r in inBy of the 6^r ways its dice fall, independently, so m of S are in with the binomial chance
 * C(S, m)·inBy^m·out^(S−m)/(6^r)^S; the fates are mixed by their chances. Any number of squads.
 * Each chance is summed over the fates as a whole number over one denominator and reduced once (one sweep point's
 * reductions of big fractions were most of its cost beside the simulation); the last arrival is read off the
 * chances that every squad is in (m = S), which are `all.by.r`.
 */
export function exactDistributions(p: Reserves): Record<string, ExactDistribution> {
  const { rounds, squads } = p;
  const { fates, common } = fatesOf(p);
  const ways = Array.from({ length: rounds }, () => new Array<bigint>(squads + 1).fill(0n));
  const binomials = Array.from({ length: squads + 1 }, (_, m) => binomial(squads, m));
  for (const { weight, needed } of fates) {
    const scale = weight.numerator * (common / weight.denominator);
    let stillOut = 1n;
    let outOf = 1n;
    for (let r = 1; r <= rounds; r++) {
      stillOut *= BigInt(needed[r] - 1);
      outOf *= 6n;
      const inBy = outOf - stillOut;
      for (let m = 0; m <= squads; m++)
        ways[r - 1][m] += scale * binomials[m] * inBy ** BigInt(m) * stillOut ** BigInt(squads - m);
    }
  }
  const result: Record<string, ExactDistribution> = {};
  const allIn: Record<string, Fraction> = {};
  let outOf = 1n;
  ways.forEach((byCount, index) => {
    outOf *= 6n;
    const all = common * outOf ** BigInt(squads);
    result[`arrived.by.${index + 1}.mean`] = distributionOfCounts(0, byCount, all);
    allIn[`all.by.${index + 1}`] = Fraction.of(byCount[squads], all);
  });
  result['last.arrival'] = lastArrival(p, allIn);
  return result;
}
