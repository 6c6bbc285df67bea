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
import { arrivalTable, type TableChunk, tableTrials } from './draws.js';
import { exactDistributions, exactValues } from './exact.js';
import { commanderSurvives, DISTRIBUTION_SQUADS, facesNeeded, params, type Reserves } from './setup.js';
import { dieByDieTrials, type UniformChunk, uniformHistogramTrials } from './streams.js';
import {
  addDeferred,
  chunkCoding,
  chunkHistogram,
  diceByArrival,
  foldOutcomes,
  outcomeSums,
  runningSums,
  type Sums,
  sumsLayout,
} from './sums.js';

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

/**
 * A chunk's trials into the tally: the outcome histogram while it fits, running sums beyond it. On the default
 * stream each squad rolls its dice for every round at once, four to a draw (rng.below(6^4) is four d6 as base-6
 * digits), and one table says what they do (reserves-draws.ts); the dice a squad would roll after arriving are
 * read and ignored, as a squad stops rolling then. Older streams' loops: reserves-streams.ts.
 */
function simulate(p: Reserves, rng: Rng, trials: number, tally: Float64Array): void {
  const chunk: UniformChunk = {
    rng,
    trials,
    squads: p.squads,
    first: p.firstRound,
    rounds: p.rounds,
    fateMatters: !squadsIndependent(p),
    survives: commanderSurvives(p).toNumber(),
    withCommander: facesNeeded(p, p.command),
    withoutCommander: facesNeeded(p, p.fallbackCommand),
  };
  if (histogramOf(p) !== null) simulateOutcomes(p, chunk, tally);
  else simulateSums(p, chunk, tally);
}

/** Within the outcome histogram: code Σ over rounds of (squads arriving then) · (S+1)^(round index); index R the lost. */
function simulateOutcomes(p: Reserves, chunk: UniformChunk, tally: Float64Array): void {
  const codeOf = Int32Array.from({ length: p.rounds + 1 }, (_, index) => (p.squads + 1) ** index);
  // Stream 1, one uniform a die: every result before stream 2 was made so.
  if (chunk.rng.stream === 1) uniformHistogramTrials(chunk, codeOf, tally);
  else tableTrials(tables(p, chunk, codeOf), { outcomes: tally });
}

/** The chunk with its arrival tables (with and without the commander) giving codeOf[round index]. */
function tables(p: Reserves, chunk: UniformChunk, codeOf: Int32Array): TableChunk {
  const { rng, trials, squads, fateMatters, survives } = chunk;
  const withIndex = arrivalTable(p, chunk.withCommander, codeOf);
  const withoutIndex = arrivalTable(p, chunk.withoutCommander, codeOf);
  return { rng, trials, squads, fateMatters, survives, withIndex, withoutIndex };
}

/**
 * Beyond the outcome histogram: running sums (reserves-sums.ts), from a chunk histogram where it fits. Streams 4
 * and 5 read a squad's dice four to a draw, as the outcome histogram does, the table giving the round index it
 * arrives in (R: lost); streams 1 to 3, one uniform a die (reserves-streams.ts).
 */
function simulateSums(p: Reserves, chunk: UniformChunk, tally: Float64Array): void {
  const { rounds, squads, first, fateMatters } = chunk;
  const at = sumsLayout(rounds, squads);
  const diceOf = diceByArrival(rounds, first);
  const needed = fateMatters ? [chunk.withCommander, chunk.withoutCommander] : [chunk.withCommander];
  const coding = chunkCoding(rounds, first, squads, needed);
  // Streams 4 and 5 draw from tables: of the chunk histogram's codes, or of round indices for the sums.
  const byTable = chunk.rng.stream >= 4;
  if (coding !== null) {
    const histogram = chunkHistogram(coding.outcomes, chunk.trials);
    const { counts, seen } = histogram;
    const { weight } = coding;
    const distinct = byTable
      ? tableTrials(tables(p, chunk, weight), { histogram })
      : dieByDieTrials(chunk, { weight, counts, seen });
    foldOutcomes(tally, at, squads, coding, diceOf, histogram, distinct);
    return;
  }
  const arrivingIn = new Int32Array(rounds + 1); // scratch, zero between trials (addTrial clears it)
  const allInBy = new Float64Array(rounds); // trials with every squad in by round index j, for deferred rounds
  const sums = { tally, at, arrivingIn, diceOf, allInBy };
  if (byTable) {
    const indices = Int32Array.from({ length: rounds + 1 }, (_, index) => index);
    tableTrials(tables(p, chunk, indices), sums);
  } else dieByDieTrials(chunk, { weight: null, ...sums });
  addDeferred(tally, at, squads, allInBy);
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
