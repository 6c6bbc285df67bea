/**
 * Reserves' sums (reserves.ts): what every metric is read from, read
 * off either of its tallies, and how a chunk adds its trials into the
 * running-sums tally, used where there are more trial outcomes than the
 * outcome histogram holds:
 *
 * - A chunk histogram: when the outcomes a trial can actually have (only the
 *   rounds in which a squad can still arrive count: none after a round that
 *   brings every squad in) are few enough, each trial adds one to a
 *   per-thread histogram over them, folded into the sums once a chunk.
 * - Otherwise, trial by trial (addTrial), up to the trial's last arrival.
 *
 * Either way every sum is a whole number below 2^53, so the order of the
 * additions changes no bit: both give the tally trial-by-trial sums give.
 */
import { forEachOutcome } from '../../engine/outcome-histogram.js';

/** Running-sums layout, for R rounds and S squads. Index R of a per-round block stands for "never arrived". */
export const sumsLayout = (rounds: number, squads: number) => {
  const perRound = rounds + 1;
  return {
    arrivals: 0, // squads arriving in round r (index r − 1), lost squads at index R
    arrivalsSquared: perRound, // Σ over trials of (that count)²
    lastArrival: 2 * perRound, // trials whose last squad arrived in round r; index R: some squad lost
    arrivedBySquared: 3 * perRound, // Σ over trials of (squads in by the end of round r)²
    dice: 3 * perRound + rounds, // d6 rolled
    diceSquared: 3 * perRound + rounds + 1,
    // Trials with exactly m squads in by the end of round r: index (r − 1)(S + 1) + m.
    arrivedByCount: 3 * perRound + rounds + 2,
    length: 3 * perRound + rounds + 2 + rounds * (squads + 1),
  };
};

type SumsLayout = ReturnType<typeof sumsLayout>;

/** Dice a squad rolls that arrives in round index i (i = R: lost): one a rolling round up to and including it. */
export function diceByArrival(rounds: number, firstRound: number): Int32Array {
  return Int32Array.from({ length: rounds + 1 }, (_, index) => Math.min(index + 1, rounds) - firstRound + 1);
}

/**
 * Adds one trial (squads arriving in each round index, the last index any
 * arrived in) to the running sums, and clears `arrivingIn` for the next.
 * The rounds after the last arrival, when none is lost, add the same to
 * every such trial (nobody arriving, all S in): they are counted in
 * `allInBy` and added once a chunk by addDeferred, which keeps a trial's
 * work to the rounds in which squads arrive.
 */
export function addTrial(
  tally: Float64Array,
  at: SumsLayout,
  arrivingIn: Int32Array,
  last: number,
  squads: number,
  diceOf: Int32Array,
  allInBy: Float64Array,
): void {
  const rounds = allInBy.length;
  const end = last < rounds ? last + 1 : rounds;
  const { arrivals, arrivalsSquared, arrivedBySquared, arrivedByCount } = at;
  let arrivedBy = 0;
  let dice = 0;
  for (let i = 0; i < end; i++) {
    const count = arrivingIn[i];
    arrivingIn[i] = 0; // no index past `last` was touched
    tally[arrivals + i] += count;
    tally[arrivalsSquared + i] += count * count;
    arrivedBy += count;
    tally[arrivedBySquared + i] += arrivedBy * arrivedBy;
    tally[arrivedByCount + i * (squads + 1) + arrivedBy]++;
    dice += count * diceOf[i];
  }
  if (last < rounds) {
    allInBy[last]++;
  } else {
    const lost = arrivingIn[rounds];
    arrivingIn[rounds] = 0;
    tally[arrivals + rounds] += lost;
    tally[arrivalsSquared + rounds] += lost * lost;
    dice += lost * diceOf[rounds];
  }
  tally[at.lastArrival + last]++;
  tally[at.dice] += dice;
  tally[at.diceSquared] += dice * dice;
}

/** The rounds addTrial left out: in round index i, every trial with all squads in by an earlier index has S in. */
export function addDeferred(tally: Float64Array, at: SumsLayout, squads: number, allInBy: Float64Array): void {
  let allIn = 0;
  for (let i = 1; i < allInBy.length; i++) {
    allIn += allInBy[i - 1];
    if (allIn === 0) continue;
    tally[at.arrivedBySquared + i] += allIn * squads * squads;
    tally[at.arrivedByCount + i * (squads + 1) + squads] += allIn;
  }
}

/** What every metric is computed from, whichever layout the tally used. */
export interface Sums {
  arrivals: Float64Array;
  arrivalsSquared: Float64Array;
  lastArrival: Float64Array;
  arrivedBySquared: Float64Array;
  dice: number;
  diceSquared: number;
  arrivedByCount: Float64Array;
}

/** The sums as the running-sums tally holds them (views into it). */
export function runningSums(rounds: number, squads: number, tally: Float64Array): Sums {
  const at = sumsLayout(rounds, squads);
  return {
    arrivals: tally.subarray(at.arrivals, at.arrivals + rounds + 1),
    arrivalsSquared: tally.subarray(at.arrivalsSquared, at.arrivalsSquared + rounds + 1),
    lastArrival: tally.subarray(at.lastArrival, at.lastArrival + rounds + 1),
    arrivedBySquared: tally.subarray(at.arrivedBySquared, at.arrivedBySquared + rounds),
    dice: tally[at.dice],
    diceSquared: tally[at.diceSquared],
    arrivedByCount: tally.subarray(at.arrivedByCount, at.arrivedByCount + rounds * (squads + 1)),
  };
}

/** The sums read off an outcome histogram (code Σ count_i · (S+1)^i over round indices 0 … R). */
export function outcomeSums(rounds: number, squads: number, firstRound: number, tally: Float64Array): Sums {
  const sums: Sums = {
    arrivals: new Float64Array(rounds + 1),
    arrivalsSquared: new Float64Array(rounds + 1),
    lastArrival: new Float64Array(rounds + 1),
    arrivedBySquared: new Float64Array(rounds),
    dice: 0,
    diceSquared: 0,
    arrivedByCount: new Float64Array(rounds * (squads + 1)),
  };
  const counts = new Int32Array(rounds + 1);
  forEachOutcome({ outcomes: tally.length, at: 0 }, tally, (code, trials) => {
    let rest = code;
    let last = 0;
    let dice = 0;
    for (let index = 0; index <= rounds; index++) {
      counts[index] = rest % (squads + 1);
      rest = Math.floor(rest / (squads + 1));
      if (counts[index] > 0) last = index;
      // A squad arriving in round r rolled a die each round from the first rolling round to r;
      // a lost one every rolling round's.
      dice += counts[index] * (Math.min(index + 1, rounds) - firstRound + 1);
    }
    let arrivedBy = 0;
    for (let index = 0; index <= rounds; index++) {
      sums.arrivals[index] += trials * counts[index];
      sums.arrivalsSquared[index] += trials * counts[index] * counts[index];
      if (index < rounds) {
        arrivedBy += counts[index];
        sums.arrivedBySquared[index] += trials * arrivedBy * arrivedBy;
        sums.arrivedByCount[index * (squads + 1) + arrivedBy] += trials;
      }
    }
    sums.lastArrival[last] += trials;
    sums.dice += trials * dice;
    sums.diceSquared += trials * dice * dice;
  });
  return sums;
}

/**
 * The chunk histogram serves settings whose codes, (S+1)^(slots−1) (slots:
 * the arrival indices that can occur; the last slot needs no digit), are
 * at most this many: its counts, 4 bytes a code, kept per thread (4 MiB at
 * most). The number of outcomes that can occur, C(S + slots − 1, slots − 1),
 * is far fewer, and a chunk's folding costs one addTrial a distinct outcome
 * where the running sums cost one a trial. Measured on reserves at 16 to 20
 * squads over four rounds (5 slots), in-process, three runs each: the chunk
 * histogram 1.04–1.2 s against trial by trial's 1.59–1.79 s for the same
 * 150 chunks.
 */
const CHUNK_OUTCOME_LIMIT = 1 << 20;

/**
 * A trial's outcome as a chunk histogram's code: Σ over squads of
 * weight[arrival index], the squads arriving in each slot but the last as a
 * base-(S+1) digit. The last slot's count is S less the others, so it needs
 * no digit: (S+1)^(slots−1) codes instead of (S+1)^slots, the counts of 15
 * squads over five slots 256 KiB instead of 4 MiB, a buffer that each
 * thread keeps beside its tallies and whose random increments then stay in
 * cache.
 */
interface ChunkCoding {
  /** (S+1)^slot for each arrival index that can occur but the last slot's; 0 for the others. */
  weight: Int32Array;
  /** The arrival index of each slot, in the order of the code's base-(S+1) digits (the last has none). */
  indexOfSlot: Int32Array;
  /** (S+1)^(slots−1): codes are below it. */
  outcomes: number;
}

/**
 * The chunk histogram's coding, or null when the setting has more than
 * CHUNK_OUTCOME_LIMIT codes. `fates` are the faces each round needs
 * (index r: round r, 7 for none), under each fate a trial can have. A
 * round index can hold arrivals when, under some fate, its round rolls,
 * some face brings a squad in, and no earlier rolling round brought every
 * squad in (a face of 1 or less needed); squads are lost only under a fate
 * with no such round.
 */
export function chunkCoding(
  rounds: number,
  firstRound: number,
  squads: number,
  fates: readonly Int32Array[],
): ChunkCoding | null {
  const possible = new Uint8Array(rounds + 1);
  for (const needed of fates) {
    let certain = false;
    for (let round = firstRound; round <= rounds && !certain; round++) {
      if (needed[round] <= 6) possible[round - 1] = 1;
      certain = needed[round] <= 1;
    }
    if (!certain) possible[rounds] = 1;
  }
  const indexOfSlot = Int32Array.from(Array.from(possible).flatMap((can, index) => (can ? [index] : [])));
  const slots = indexOfSlot.length;
  if ((squads + 1) ** (slots - 1) > CHUNK_OUTCOME_LIMIT) return null;
  const weight = new Int32Array(rounds + 1);
  for (let slot = 0; slot < slots - 1; slot++) weight[indexOfSlot[slot]] = (squads + 1) ** slot;
  return { weight, indexOfSlot, outcomes: (squads + 1) ** (slots - 1) };
}

/** This thread's histogram counts (zero between chunks: foldOutcomes clears what it read), and the codes seen. */
let counts = new Int32Array(0);
let seen = new Int32Array(0);

/** Zeroed counts for `outcomes` codes and room to list `trials` distinct codes: this thread's, reused. */
export function chunkHistogram(outcomes: number, trials: number): { counts: Int32Array; seen: Int32Array } {
  if (counts.length < outcomes) counts = new Int32Array(outcomes);
  const distinct = Math.min(outcomes, trials);
  if (seen.length < distinct) seen = new Int32Array(distinct);
  return { counts, seen };
}

/**
 * Adds a chunk histogram into the running sums, `counts[code]` trials of
 * each of the `distinct` codes listed in `seen`, each exactly as addTrial
 * adds that many trials of its outcome; and clears those counts.
 */
export function foldOutcomes(
  tally: Float64Array,
  at: SumsLayout,
  squads: number,
  coding: ChunkCoding,
  diceOf: Int32Array,
  histogram: { counts: Int32Array; seen: Int32Array },
  distinct: number,
): void {
  const rounds = diceOf.length - 1;
  const arrivingIn = new Int32Array(rounds + 1);
  const { indexOfSlot } = coding;
  for (let k = 0; k < distinct; k++) {
    const code = histogram.seen[k];
    const trials = histogram.counts[code];
    histogram.counts[code] = 0;
    let rest = code;
    let last = 0;
    let left = squads; // the last slot's squads: those no digit places
    for (let slot = 0; slot < indexOfSlot.length - 1; slot++) {
      const count = rest % (squads + 1);
      rest = (rest - count) / (squads + 1);
      arrivingIn[indexOfSlot[slot]] = count;
      left -= count;
      if (count > 0) last = indexOfSlot[slot];
    }
    const lastSlot = indexOfSlot[indexOfSlot.length - 1];
    arrivingIn[lastSlot] = left;
    if (left > 0) last = lastSlot;
    let arrivedBy = 0;
    let dice = 0;
    for (let i = 0; i <= rounds; i++) {
      const count = arrivingIn[i];
      arrivingIn[i] = 0;
      tally[at.arrivals + i] += trials * count;
      tally[at.arrivalsSquared + i] += trials * count * count;
      dice += count * diceOf[i];
      if (i < rounds) {
        arrivedBy += count;
        tally[at.arrivedBySquared + i] += trials * arrivedBy * arrivedBy;
        tally[at.arrivedByCount + i * (squads + 1) + arrivedBy] += trials;
      }
    }
    tally[at.lastArrival + last] += trials;
    tally[at.dice] += trials * dice;
    tally[at.diceSquared] += trials * dice * dice;
  }
}
