/**
 * Genesys reserves: The Genesys Project (Genesys Games, designer's preview
 * post), section 6.5 "Reserves".
 *
 *   "Reserves are brought in on a die roll with a target number of 7+ …
 *    roll 1d6 for each unit and add the Game Round to this number."
 *   "… one game round as their chosen reserve round. During that round, the
 *    highest level command in the player's army on the table may be added to
 *    his or her die roll for all squads still in reserve."
 *   "Any squad that has not entered the board after four Game Rounds does not
 *    make the battle."
 *
 * What the text leaves open, and the reading chosen: rolls begin in round 1
 * (the literal reading: "each squad rolls separately each round";
 * `firstRound` for tables that wait); the command bonus belongs to
 * the highest command model still on the table, so a commander lost before
 * the chosen round leaves a smaller `fallbackCommand`. Losing the commander
 * is one event shared by every squad of a trial, so squads are independent
 * only when the bonus is certain.
 */

import type { Dice } from '../../contract/dice.js';
import type { MetricSpec, Rng } from '../../contract/types.js';
import { checkOutcomeCounts, type OutcomeHistogram, outcomeHistogram } from '../../engine/outcome-histogram.js';
import { Fraction } from '../../exact/fraction.js';
import { mean, proportion, type Tallied } from '../../stats/estimate.js';
import { defineBuiltin, type TrialOut } from '../define.js';
import { type ArrivalTable, GROUP, GROUP_BOUND, tableTrials } from './draws.js';
import { exactDistributions, exactValues } from './exact.js';
import { commanderSurvives, DISTRIBUTION_SQUADS, facesNeeded, params, type Reserves } from './setup.js';
import {
  addDeferred,
  addTrial,
  chunkCoding,
  chunkHistogram,
  diceByArrival,
  foldOutcomes,
  outcomeSums,
  runningSums,
  type Sums,
  sumsLayout,
} from './sums.js';

/** (needed − 1)/6 per round: the least uniform whose die shows `needed`, for the hot loop's comparison. */
function thresholds(needed: Int32Array): Float64Array {
  return Float64Array.from(needed, (face) => (face - 1) / 6);
}

/**
 * For streams 2 to 4: what one squad's dice do, read off at once. The squad rolls
 * one die in each round from firstRound to the last, in groups of up to
 * four dice a draw (v uniform on [0, 6^k), die i showing 1 + ⌊v/6^i⌋ mod 6);
 * codes[g · 1296 + v] is the outcome code of the round group g's dice bring
 * it in (codeOf[round − 1]), or −1 when none of them does and another group
 * follows; in the last group, the code of a lost squad.
 */
function arrivalCodes(p: Reserves, needed: Int32Array, codeOf: Int32Array): ArrivalTable {
  // Kept per thread: a sweep's one-chunk points would otherwise each build theirs (about 25 µs a chunk).
  const key = `${p.rounds}/${p.firstRound}/${p.squads}/${needed.join(',')}`;
  let table = arrivalTables.get(key);
  if (table === undefined) {
    if (arrivalTables.size >= ARRIVAL_TABLES_KEPT) arrivalTables.clear();
    table = buildArrivalCodes(p, needed, codeOf);
    arrivalTables.set(key, table);
  }
  return table;
}

const arrivalTables = new Map<string, ArrivalTable>();

/**
 * For stream 4's running sums: the same tables, giving the round index a squad arrives in (R: lost) instead of an
 * outcome code.
 */
function arrivalIndices(p: Reserves, needed: Int32Array): ArrivalTable {
  const key = `index/${p.rounds}/${p.firstRound}/${needed.join(',')}`;
  let table = arrivalTables.get(key);
  if (table === undefined) {
    if (arrivalTables.size >= ARRIVAL_TABLES_KEPT) arrivalTables.clear();
    table = buildArrivalCodes(
      p,
      needed,
      Int32Array.from({ length: p.rounds + 1 }, (_, index) => index),
    );
    arrivalTables.set(key, table);
  }
  return table;
}
const ARRIVAL_TABLES_KEPT = 64;

function buildArrivalCodes(p: Reserves, needed: Int32Array, codeOf: Int32Array): ArrivalTable {
  const rolling = p.rounds - p.firstRound + 1;
  const groups = Math.ceil(rolling / GROUP);
  const codes = new Int32Array(groups * GROUP_BOUND);
  const bounds = new Int32Array(groups);
  for (let group = 0; group < groups; group++) {
    const first = p.firstRound + group * GROUP;
    const dice = Math.min(GROUP, p.rounds - first + 1);
    bounds[group] = 6 ** dice;
    const last = group === groups - 1;
    for (let v = 0; v < bounds[group]; v++) {
      let code = last ? codeOf[p.rounds] : -1;
      for (let die = 0, rest = v; die < dice; die++, rest = Math.floor(rest / 6)) {
        if (1 + (rest % 6) >= needed[first + die]) {
          code = codeOf[first + die - 1];
          break;
        }
      }
      codes[group * GROUP_BOUND + v] = code;
    }
  }
  return { codes, bounds };
}

/**
 * One squad's outcome code (or arrival index) on streams 2 to 4 when the
 * first group of its dice did not bring it in (code −1): group after group
 * until one does. The first group is read inline by the loops, as nine
 * squads in ten arrive in it at the defaults.
 */
function laterArrival(rng: Rng, codes: Int32Array, bounds: Int32Array): number {
  for (let group = 1; ; group++) {
    const code = codes[group * GROUP_BOUND + rng.below(bounds[group])];
    if (code >= 0) return code;
  }
}

/**
 * Whether squads in one trial are independent of each other: true unless the
 * commander's fate, shared by all of them, changes the bonus.
 */
function squadsIndependent(p: Reserves): boolean {
  if (p.chosenRound === 0 || p.command === p.fallbackCommand) return true;
  const survives = commanderSurvives(p);
  return survives.equals(Fraction.ONE) || survives.equals(Fraction.ZERO);
}

/**
 * A trial's outcome is how many squads arrived in each round (index R: lost).
 * While there are few such outcomes, the tally is simply a histogram over
 * them, one increment per trial, and every metric is read off it afterwards;
 * that keeps the hot loop to dice and one addition per squad. Larger
 * settings (many squads and rounds) fall back to running sums per round.
 */
const OUTCOME_LIMIT = 1 << 18;

/** The whole tally as a histogram of the (S+1)^(R+1) outcome codes, or null when they are beyond OUTCOME_LIMIT. */
const histogramOf = (p: Reserves): OutcomeHistogram | null =>
  outcomeHistogram((p.squads + 1) ** (p.rounds + 1), OUTCOME_LIMIT);

/** What every metric is computed from, whichever layout the tally used. */
function sumsOf(p: Reserves, tally: Float64Array): Sums {
  return histogramOf(p) === null
    ? runningSums(p.rounds, p.squads, tally)
    : outcomeSums(p.rounds, p.squads, p.firstRound, tally);
}

function metrics(p: Reserves): MetricSpec[] {
  const { rounds, squads } = p;
  const list: MetricSpec[] = [];
  for (let r = 1; r <= rounds; r++)
    list.push({
      name: `squad.round.${r}`,
      doc: `a given squad arrives in round ${r}`,
      label: `a squad arrives in round ${r}`,
      probability: true,
    });
  list.push({
    name: 'squad.never',
    doc: 'a given squad never arrives and is lost',
    label: 'a squad never arrives',
    probability: true,
  });
  for (let r = 1; r <= rounds; r++)
    list.push({
      name: `all.by.${r}`,
      doc: `every squad has arrived by the end of round ${r}`,
      label: `every squad in by round ${r}`,
      probability: true,
    });
  list.push({ name: 'lost.mean', doc: 'expected squads lost', label: 'squads lost (expected)', probability: false });
  for (let r = 1; r <= rounds; r++)
    list.push({
      name: `arrived.by.${r}.mean`,
      doc: `squads on the table by the end of round ${r}: the expected number, and its whole distribution`,
      label: `squads in by round ${r} (expected)`,
      probability: false,
      distribution: { min: 0, max: squads },
    });
  list.push({
    name: 'dice.mean',
    doc: 'expected reserve dice rolled over the game',
    label: 'reserve dice (expected)',
    probability: false,
  });
  list.push({
    name: 'last.arrival',
    doc: `the round the last squad arrives (${rounds + 1}: some squad never does), and its whole distribution`,
    label: 'round of the last arrival',
    probability: false,
    distribution: { min: 1, max: rounds + 1 },
  });
  // The whole distribution of squads in by each round (k = n is all.by.r).
  if (squads <= DISTRIBUTION_SQUADS) {
    for (let r = 1; r <= rounds; r++) {
      for (let k = 1; k < squads; k++)
        list.push({
          name: `atLeast.${k}.by.${r}`,
          doc: `at least ${k} of the ${squads} squads have arrived by the end of round ${r}`,
          label: `at least ${k} of ${squads} squads in by round ${r}`,
          probability: true,
        });
    }
  }
  return list;
}

/**
 * One game's reserves as §6.5 reads: the commander may be lost in each round before the chosen one; then,
 * round by round from the first rolling round, every squad still in reserve rolls 1d6 + the round (+ the
 * command bonus in the chosen round, the fallback's once the commander is lost) and arrives on the target;
 * a squad not in after the last round is lost.
 */
function trial(dice: Dice, p: Reserves, out: TrialOut): void {
  let commanderAlive = true;
  for (let round = 1; round < p.chosenRound && p.chosenRound !== 0; round++)
    if (dice.chance(p.leaderLoss)) commanderAlive = false;
  const bonus = commanderAlive ? p.command : p.fallbackCommand;
  let stillOut = p.squads;
  let arrived = 0;
  let diceRolled = 0;
  let lastRound = 0;
  for (let round = 1; round <= p.rounds; round++) {
    let arriving = 0;
    if (round >= p.firstRound) {
      for (let squad = 0; squad < stillOut; squad++) {
        diceRolled++;
        if (dice.d(6) + round + (round === p.chosenRound ? bonus : 0) >= p.target) arriving++;
      }
    }
    stillOut -= arriving;
    arrived += arriving;
    if (arriving > 0) lastRound = round;
    out[`squad.round.${round}`] = arriving / p.squads;
    out[`all.by.${round}`] = +(stillOut === 0);
    out[`arrived.by.${round}.mean`] = arrived;
    for (let k = 1; k < p.squads; k++) out[`atLeast.${k}.by.${round}`] = +(arrived >= k);
  }
  out['squad.never'] = stillOut / p.squads;
  out['lost.mean'] = stillOut;
  out['dice.mean'] = diceRolled;
  out['last.arrival'] = stillOut > 0 ? p.rounds + 1 : lastRound;
}

function simulate(p: Reserves, rng: Rng, trials: number, tally: Float64Array): void {
  const { rounds, squads } = p;
  const first = p.firstRound;
  const withCommander = facesNeeded(p, p.command);
  const withoutCommander = facesNeeded(p, p.fallbackCommand);
  const survives = commanderSurvives(p).toNumber();
  const fateMatters = !squadsIndependent(p);

  if (histogramOf(p) !== null) {
    // Outcome code: Σ over rounds of (squads arriving then) · (S+1)^(round index); index R counts the lost.
    const codeOf = new Int32Array(rounds + 1);
    for (let index = 0; index <= rounds; index++) codeOf[index] = (squads + 1) ** index;
    // A die 1 + ⌊6u⌋ shows `needed` or more exactly when u ≥ k/6 with k = needed − 1. The generator's u
    // is a multiple of 2^-32, which is either equal to k/6 or at least 1/(6·2^32) away from it, while the
    // double nearest k/6 is within 2^-54 of it: comparing with that double is the die roll itself, done
    // without a branch to mispredict.
    if (rng.stream !== 1) {
      // Streams 2 to 4: each squad rolls its dice for every round at once, four to a draw (rng.below(6^4) is
      // four d6 as base-6 digits), and one table says what they do: the code of the round it arrives in.
      // The dice a squad would roll after arriving are read and ignored, as a squad stops rolling then.
      const withCodes = arrivalCodes(p, withCommander, codeOf);
      const withoutCodes = arrivalCodes(p, withoutCommander, codeOf);
      const bound = withCodes.bounds[0];
      for (let trial = 0; trial < trials; trial++) {
        const codes = fateMatters && rng() >= survives ? withoutCodes.codes : withCodes.codes;
        let code = 0;
        for (let squad = 0; squad < squads; squad++) {
          const arrival = codes[rng.below(bound)];
          code += arrival >= 0 ? arrival : laterArrival(rng, codes, withCodes.bounds);
        }
        tally[code]++;
      }
      return;
    }
    // Stream 1, as every result before stream 2 was made: one uniform a die, round by round.
    const withThresholds = thresholds(withCommander);
    const withoutThresholds = thresholds(withoutCommander);
    for (let trial = 0; trial < trials; trial++) {
      const threshold = fateMatters && rng() >= survives ? withoutThresholds : withThresholds;
      let out = squads;
      let code = 0;
      // Each squad still in reserve rolls its own die each round, until it arrives.
      for (let round = first; round <= rounds && out > 0; round++) {
        const needs = threshold[round];
        let arriving = 0;
        for (let squad = 0; squad < out; squad++) arriving += +(rng() >= needs);
        code += arriving * codeOf[round - 1];
        out -= arriving;
      }
      tally[code + out * codeOf[rounds]]++;
    }
    return;
  }

  // Beyond the outcome histogram: running sums (sums.ts), from a chunk histogram where it fits.
  const at = sumsLayout(rounds, squads);
  const diceOf = diceByArrival(rounds, first);
  const coding = chunkCoding(rounds, first, squads, fateMatters ? [withCommander, withoutCommander] : [withCommander]);
  // Streams 4 and 5: a squad's dice four to a draw, as the outcome histogram reads them, the table giving the
  // round index it arrives in (R: lost) instead of an outcome code. Streams 1 to 3, as every result on
  // them was made: one uniform a die, squad by squad, round by round (arrivalByDie).
  const tables =
    rng.stream >= 4
      ? {
          rng,
          trials,
          squads,
          fateMatters,
          survives,
          withIndex: arrivalIndices(p, withCommander),
          withoutIndex: arrivalIndices(p, withoutCommander),
        }
      : null;
  if (coding !== null) {
    const histogram = chunkHistogram(coding.outcomes, trials);
    const { counts, seen } = histogram;
    const { weight } = coding;
    let distinct = 0;
    if (tables !== null) {
      distinct = tableTrials(tables, { histogram: { weight, counts, seen } });
    } else {
      for (let trial = 0; trial < trials; trial++) {
        const needed = fateMatters && rng() >= survives ? withoutCommander : withCommander;
        let code = 0;
        for (let squad = 0; squad < squads; squad++) code += weight[arrivalByDie(rng, needed, first, rounds)];
        if (counts[code]++ === 0) seen[distinct++] = code;
      }
    }
    foldOutcomes(tally, at, squads, coding, diceOf, histogram, distinct);
    return;
  }
  const arrivingIn = new Int32Array(rounds + 1); // scratch, zero between trials (addTrial clears it)
  const allInBy = new Float64Array(rounds); // trials with every squad in by round index j, for deferred rounds
  if (tables !== null) {
    tableTrials(tables, { histogram: null, tally, at, arrivingIn, diceOf, allInBy });
  } else {
    for (let trial = 0; trial < trials; trial++) {
      const needed = fateMatters && rng() >= survives ? withoutCommander : withCommander;
      let last = 0;
      for (let squad = 0; squad < squads; squad++) {
        const arrival = arrivalByDie(rng, needed, first, rounds);
        arrivingIn[arrival]++;
        if (arrival > last) last = arrival;
      }
      addTrial(tally, at, arrivingIn, last, squads, diceOf, allInBy);
    }
  }
  addDeferred(tally, at, squads, allInBy);
}

/**
 * Streams 1 to 3 beyond the outcome histogram: a squad rolls one uniform a die each round until it arrives; its round
 * index (R: lost).
 */
function arrivalByDie(rng: Rng, needed: Int32Array, first: number, rounds: number): number {
  for (let round = first; round <= rounds; round++) {
    if (1 + ((rng() * 6) | 0) >= needed[round]) return round - 1;
  }
  return rounds;
}

function summarize(p: Reserves, tally: Float64Array, trials: number): Record<string, Tallied> {
  const { rounds, squads } = p;
  const sums = sumsOf(p, tally);
  const independent = squadsIndependent(p);
  // A squad's fate: with independent squads every squad is a Bernoulli trial;
  // otherwise the per-trial share of squads is the observation (cluster-robust).
  const squadShare = (index: number): Tallied =>
    independent
      ? proportion(sums.arrivals[index], trials * squads)
      : mean(sums.arrivals[index] / squads, sums.arrivalsSquared[index] / (squads * squads), trials);

  const result: Record<string, Tallied> = {};
  let allIn = 0;
  let arrivedBy = 0;
  for (let r = 1; r <= rounds; r++) result[`squad.round.${r}`] = squadShare(r - 1);
  result['squad.never'] = squadShare(rounds);
  for (let r = 1; r <= rounds; r++) {
    allIn += sums.lastArrival[r - 1];
    result[`all.by.${r}`] = proportion(allIn, trials);
  }
  result['lost.mean'] = mean(sums.arrivals[rounds], sums.arrivalsSquared[rounds], trials);
  for (let r = 1; r <= rounds; r++) {
    arrivedBy += sums.arrivals[r - 1];
    const counted = mean(arrivedBy, sums.arrivedBySquared[r - 1], trials);
    // Trials with exactly m squads in by the end of round r, m from 0 to S: the whole distribution, at any size.
    const from = (r - 1) * (squads + 1);
    if (counted.kind === 'mean')
      counted.histogram = { min: 0, counts: sums.arrivedByCount.subarray(from, from + squads + 1), beyond: null };
    result[`arrived.by.${r}.mean`] = counted;
  }
  result['dice.mean'] = mean(sums.dice, sums.diceSquared, trials);
  // The trials whose last squad arrived in round r (index r − 1), and at index R those with a squad never in.
  const last = sums.lastArrival.subarray(0, rounds + 1);
  let lastSum = 0;
  let lastSquares = 0;
  last.forEach((count, index) => {
    lastSum += count * (index + 1);
    lastSquares += count * (index + 1) ** 2;
  });
  const lastArrival = mean(lastSum, lastSquares, trials);
  if (lastArrival.kind === 'mean') lastArrival.histogram = { min: 1, counts: last, beyond: null };
  result['last.arrival'] = lastArrival;
  if (squads <= DISTRIBUTION_SQUADS) {
    for (let r = 1; r <= rounds; r++) {
      let atLeast = 0;
      for (let k = squads; k >= 1; k--) {
        atLeast += sums.arrivedByCount[(r - 1) * (squads + 1) + k];
        if (k < squads) result[`atLeast.${k}.by.${r}`] = proportion(atLeast, trials);
      }
    }
  }
  return result;
}

export const reserves = defineBuiltin({
  id: 'reserves',
  title: 'Genesys reserves',
  summary: 'Genesys Project reserves: when squads arrive, with a chosen reserve round and command bonus',
  source: 'The Genesys Project, designer preview, §6.5 Reserves (docs/rules/reserves.md)',
  params,
  validate(p) {
    if (p.firstRound > p.rounds) return `firstRound: got ${p.firstRound}; allowed: 1 to rounds (${p.rounds})`;
    if (p.chosenRound > p.rounds) return `chosenRound: got ${p.chosenRound}; allowed: 0 (none) to rounds (${p.rounds})`;
    if (p.chosenRound !== 0 && p.chosenRound < p.firstRound) {
      return (
        `chosenRound: got ${p.chosenRound}; allowed: 0 (none) or firstRound (${p.firstRound}) to rounds ` +
        `(${p.rounds}), a round in which reserves roll`
      );
    }
    return undefined;
  },
  readings(p) {
    return [
      {
        param: 'firstRound',
        text:
          p.firstRound === 1
            ? 'reserves roll from game round 1, reading "each squad rolls separately each round" literally; ' +
              'firstRound=2 makes them wait a round'
            : `reserves first roll in game round ${p.firstRound}; firstRound=1 rolls from round 1, as the ` +
              `text reads literally`,
      },
      {
        param: 'fallbackCommand',
        text:
          `the chosen round's bonus is the highest command still on the table: a commander lost before it ` +
          `(leaderLoss a round) leaves ${p.fallbackCommand}; fallbackCommand sets the next-highest command`,
      },
    ];
  },
  metrics,
  // When a given squad arrives, whether it never does, and whether all are in by the last round.
  headline: (p) =>
    metrics(p)
      .map((m) => m.name)
      .filter(
        (name) =>
          /^squad\.(round\.\d+|never)$/.test(name) ||
          name === `all.by.${p.rounds}` ||
          (name === 'lost.mean' && p.leaderLoss > 0),
      ),
  trial,
  simulate,
  exactDistributions,
  tally: {
    length: (p) => histogramOf(p)?.outcomes ?? sumsLayout(p.rounds, p.squads).length,
    summarize,
    check(p, tally, trials) {
      const sumOf = (from: number, length: number) => tally.subarray(from, from + length).reduce((a, b) => a + b, 0);
      // One outcome per trial; or, with running sums, one "last arrival" per trial and every squad's round (or loss)
      // once.
      const histogram = histogramOf(p);
      if (histogram !== null) return checkOutcomeCounts(histogram, tally, trials);
      const at = sumsLayout(p.rounds, p.squads);
      const last = sumOf(at.lastArrival, p.rounds + 1);
      if (last !== trials) return `the last-arrival counts sum to ${last}, not the ${trials} trials`;
      const arrivals = sumOf(at.arrivals, p.rounds + 1);
      if (arrivals !== trials * p.squads)
        return `the arrival counts sum to ${arrivals}, not ${p.squads} squads × ${trials} trials`;
      for (let round = 1; round <= p.rounds; round++) {
        const counted = sumOf(at.arrivedByCount + (round - 1) * (p.squads + 1), p.squads + 1);
        if (counted !== trials)
          return `the squads-in-by-round-${round} counts sum to ${counted}, not the ${trials} trials`;
      }
      return null;
    },
  },
  // Ordered as metrics() lists them; a metric no fate reaches is 0.
  exact: (p) => {
    const values = exactValues(p);
    return Object.fromEntries(metrics(p).map((m) => [m.name, values[m.name] ?? Fraction.ZERO]));
  },
});
