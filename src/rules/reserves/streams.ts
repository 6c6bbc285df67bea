/**
 * Reserves on the older streams, bit for bit as every result on them was
 * made; reserves.ts and reserves-draws.ts hold the default stream's loops.
 *
 *   stream 1, within the outcome histogram: one uniform a die, round by round, each squad still out comparing
 *     its uniform with (needed − 1)/6 (uniformHistogramTrials)
 *   streams 1 to 3, beyond it: one uniform a die, squad by squad, round by round, until the squad arrives
 *     (dieByDieTrials); streams 4 and 5 read a squad's dice four to a draw there instead (reserves-draws.ts)
 *
 * Streams 2 and 3 within the histogram read a squad's dice four to a draw,
 * as stream 5 does (a test holds their tallies equal): they run on the
 * default loop.
 */

import type { Rng } from '../../contract/types.js';
import { addTrial, type sumsLayout } from './sums.js';

/** A chunk's fate and dice as both loops below read them. */
export interface UniformChunk {
  rng: Rng;
  trials: number;
  squads: number;
  first: number;
  rounds: number;
  fateMatters: boolean;
  survives: number;
  /** The face each round needs with the commander (index: round) and without it. */
  withCommander: Int32Array;
  withoutCommander: Int32Array;
}

/** (needed − 1)/6 per round: the least uniform whose die shows `needed`, for the hot loop's comparison. */
function thresholds(needed: Int32Array): Float64Array {
  return Float64Array.from(needed, (face) => (face - 1) / 6);
}

/**
 * Stream 1 within the outcome histogram: codeOf[round − 1] for each squad arriving in a round, codeOf[rounds] for
 * each lost, summed into the trial's outcome code, one tally increment a trial.
 */
export function uniformHistogramTrials(chunk: UniformChunk, codeOf: Int32Array, tally: Float64Array): void {
  const { rng, trials, squads, first, rounds, fateMatters, survives } = chunk;
  // A die 1 + ⌊6u⌋ shows `needed` or more exactly when u ≥ k/6 with k = needed − 1. The generator's u
  // is a multiple of 2^-32, which is either equal to k/6 or at least 1/(6·2^32) away from it, while the
  // double nearest k/6 is within 2^-54 of it: comparing with that double is the die roll itself, done
  // without a branch to mispredict.
  const withThresholds = thresholds(chunk.withCommander);
  const withoutThresholds = thresholds(chunk.withoutCommander);
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
}

/** Where dieByDieTrials counts: a chunk histogram of Σ weight[index], or the running sums (reserves-sums.ts). */
export type DieByDieCount =
  | { weight: Int32Array; counts: Int32Array; seen: Int32Array }
  | {
      weight: null;
      tally: Float64Array;
      at: ReturnType<typeof sumsLayout>;
      arrivingIn: Int32Array;
      diceOf: Int32Array;
      allInBy: Float64Array;
    };

/**
 * Streams 1 to 3 beyond the outcome histogram: each squad rolls one uniform a die each round until it arrives; its
 * round index (R: lost) counted into `count`. Returns the distinct codes the chunk histogram saw (0 for the sums).
 */
export function dieByDieTrials(chunk: UniformChunk, count: DieByDieCount): number {
  const { rng, trials, squads, first, rounds, fateMatters, survives, withCommander, withoutCommander } = chunk;
  let distinct = 0;
  for (let trial = 0; trial < trials; trial++) {
    const needed = fateMatters && rng() >= survives ? withoutCommander : withCommander;
    if (count.weight !== null) {
      const { weight, counts, seen } = count;
      let code = 0;
      for (let squad = 0; squad < squads; squad++) code += weight[arrivalByDie(rng, needed, first, rounds)];
      if (counts[code]++ === 0) seen[distinct++] = code;
    } else {
      const { arrivingIn } = count;
      let last = 0;
      for (let squad = 0; squad < squads; squad++) {
        const arrival = arrivalByDie(rng, needed, first, rounds);
        arrivingIn[arrival]++;
        if (arrival > last) last = arrival;
      }
      addTrial(count.tally, count.at, arrivingIn, last, squads, count.diceOf, count.allInBy);
    }
  }
  return distinct;
}

/** A squad rolls one uniform a die each round until it arrives; its round index (R: lost). */
function arrivalByDie(rng: Rng, needed: Int32Array, first: number, rounds: number): number {
  for (let round = first; round <= rounds; round++) {
    if (1 + ((rng() * 6) | 0) >= needed[round]) return round - 1;
  }
  return rounds;
}
