/**
 * Reserves on streams 2 to 5 (4 and 5 beyond the outcome histogram), a
 * chunk's trials with the generator's state in local variables: each
 * squad's dice four to a draw from its arrival table, as reserves.ts's
 * loops through `rng.below` drew them, output for output (the golden
 * tallies and reserves-sums' oracle hold it), without a load and a store of
 * the state in memory a draw. The generator's step is written out where it
 * is used (the fate, a squad's first group, its later groups): a function
 * taking the state would put it back in memory. Measured turn about, one
 * thread: 12 to 20 squads 1.4–1.6× faster than through `rng.below`; the
 * first group drawn before the loop over later ones (not as its first
 * turn), 100 squads over 12 rounds 1.2–1.4×.
 *
 *   per trial: the commander's fate (one uniform, when it matters), then each squad:
 *     group 0's draw v below bounds[0] ─► codes[v] ≥ 0: its round index's code ─► counted
 *                                    └──► −1: group 1's draw, and so on (the last group always gives one)
 *   counted (codeBlock): code += codes[v], and at the trial's end one more of that code, in the outcome histogram
 *            or the chunk histogram; (sumsBlock) the code is the round index, into arrivingIn for addTrial
 */

import type { Rng } from '../../contract/types.js';
import { xoshiroState } from '../../engine/random.js';
import type { Reserves } from './setup.js';
import { addTrial, type sumsLayout } from './sums.js';

/** Dice a draw, and the draws of a group's table: codes[g · GROUP_BOUND + v]. */
export const GROUP = 4;
export const GROUP_BOUND = 6 ** GROUP;

/** A squad's arrival table: codes[g · GROUP_BOUND + v] for round group g's dice v, −1 where another group follows. */
export interface ArrivalTable {
  codes: Int32Array;
  bounds: Int32Array;
}

/**
 * What one squad's dice do, read off at once. The squad rolls one die in
 * each round from firstRound to the last, in groups of up to four dice a
 * draw (v uniform on [0, 6^k), die i showing 1 + ⌊v/6^i⌋ mod 6);
 * codes[g · 1296 + v] is codeOf[round − 1] for the round group g's dice bring
 * it in, or −1 when none of them does and another group follows; in the last
 * group, codeOf[rounds] for a lost squad. codeOf is a histogram's code of
 * each round index (the outcome histogram's, or the chunk histogram's) or the
 * round index itself (the running sums). Kept per thread: a sweep's
 * one-chunk points would otherwise each build theirs (about 25 µs a chunk).
 */
export function arrivalTable(p: Reserves, needed: Int32Array, codeOf: Int32Array): ArrivalTable {
  const key = `${p.rounds}/${p.firstRound}/${needed.join(',')}/${codeOf.join(',')}`;
  let table = arrivalTables.get(key);
  if (table === undefined) {
    if (arrivalTables.size >= ARRIVAL_TABLES_KEPT) arrivalTables.clear();
    table = buildArrivalTable(p, needed, codeOf);
    arrivalTables.set(key, table);
  }
  return table;
}

const arrivalTables = new Map<string, ArrivalTable>();
const ARRIVAL_TABLES_KEPT = 64;

function buildArrivalTable(p: Reserves, needed: Int32Array, codeOf: Int32Array): ArrivalTable {
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

/** The chunk, as reserves.ts's simulate holds it: the fate, and the two tables (with and without the commander). */
export interface TableChunk {
  rng: Rng;
  trials: number;
  squads: number;
  fateMatters: boolean;
  survives: number;
  /** The tables with and without the commander, of the codes `count` takes (histograms) or of round indices (sums). */
  withIndex: ArrivalTable;
  withoutIndex: ArrivalTable;
}

/** The running sums a trial is added into, trial by trial (sums.ts's addTrial). */
export interface TableSums {
  tally: Float64Array;
  at: ReturnType<typeof sumsLayout>;
  arrivingIn: Int32Array;
  diceOf: Int32Array;
  allInBy: Float64Array;
}

/**
 * Where the trials go, a code a trial (the sum of its squads' codes): one added to the outcome histogram's own
 * tally (`outcomes`), or one counted in a chunk histogram with the codes it saw listed in `seen` (sums.ts's
 * chunkCoding); or each trial into the running sums (the tables of round indices).
 */
export type TableCount =
  | { outcomes: Float64Array }
  | { histogram: { counts: Int32Array; seen: Int32Array } }
  | TableSums;

// engine/random.ts's own constants, written again here: imported from it instead, the loop below ran 0.82–0.86×
// as fast (three runs turn about).
const TWENTY_BITS = 1 << 20;
const NONE = new Int32Array(0);
const TWO_TO_MINUS_32 = 2 ** -32;

/**
 * Trials a call of codeBlock or sumsBlock runs at most. A chunk's trials in one long loop were compiled by V8
 * (Node 20) on the stack (OSR) while the loop ran, before the code after it had run once; that code was kept and
 * entered again by every later call, to be dropped at the loop's end (a deoptimisation a chunk: `--trace-deopt`,
 * "Insufficient type feedback", 54 times in a 100-point sweep). Blocks make the loop's function short and called
 * often, so it is compiled whole, its end included.
 */
const BLOCK = 1024;

/** What each block of a chunk reads: one shape for every chunk, its loads monomorphic. */
class TableLoop {
  readonly squads: number;
  readonly fateMatters: boolean;
  readonly survives: number;
  readonly withCodes: Int32Array;
  readonly withoutCodes: Int32Array;
  readonly bounds: Int32Array;
  readonly rejects: Int32Array;

  constructor(chunk: TableChunk) {
    this.squads = chunk.squads;
    this.fateMatters = chunk.fateMatters;
    this.survives = chunk.survives;
    this.withCodes = chunk.withIndex.codes;
    this.withoutCodes = chunk.withoutIndex.codes;
    this.bounds = chunk.withIndex.bounds;
    this.rejects = this.bounds.map((bound) => TWENTY_BITS % bound);
  }
}

/**
 * Runs the chunk's trials into `count`; returns the distinct codes the
 * chunk histogram saw (0 otherwise). The stream's state is read at the
 * start of each block and written back at its end, so the stream goes on
 * where these draws left it.
 */
export function tableTrials(chunk: TableChunk, count: TableCount): number {
  const state = xoshiroState(chunk.rng);
  if (state === undefined) throw new Error('reserves: the table draws need a xoshiro128** stream (streams 2 to 5)');
  const loop = new TableLoop(chunk);
  const { trials } = chunk;
  if ('tally' in count) {
    for (let done = 0; done < trials; done += BLOCK) sumsBlock(loop, state, Math.min(BLOCK, trials - done), count);
    return 0;
  }
  // Read once, as locals of one shape: the union's fields loaded a trial would cost a polymorphic load each.
  const outcomes = 'outcomes' in count ? count.outcomes : NO_TALLY;
  const { counts, seen } = 'histogram' in count ? count.histogram : { counts: NONE, seen: NONE };
  let distinct = 0;
  for (let done = 0; done < trials; done += BLOCK)
    distinct = codeBlock(loop, state, Math.min(BLOCK, trials - done), outcomes, counts, seen, distinct);
  return distinct;
}

const NO_TALLY = new Float64Array(0);

/**
 * `trials` trials, each the sum of its squads' codes, added to `outcomes` (the outcome histogram) or, when that is
 * empty, counted in `counts` with the codes first seen listed in `seen` after the `distinct` before (returned).
 * The draws are sumsBlock's, written out again: one loop for both with a test a squad ran about 10% slower.
 */
function codeBlock(
  loop: TableLoop,
  state: Int32Array,
  trials: number,
  outcomes: Float64Array,
  counts: Int32Array,
  seen: Int32Array,
  distinct: number,
): number {
  const { squads, fateMatters, survives, withCodes, withoutCodes, bounds, rejects } = loop;
  const groups = bounds.length;
  const first = bounds[0];
  const firstReject = rejects[0];
  let s0 = state[0];
  let s1 = state[1];
  let s2 = state[2];
  let s3 = state[3];
  const byOutcome = outcomes.length > 0;
  for (let trial = 0; trial < trials; trial++) {
    let codes = withCodes;
    if (fateMatters) {
      // rng(): the next output as a uniform on [0, 1) (XoshiroStream's `random`).
      const t2 = s2 ^ s0;
      const t3 = s3 ^ s1;
      const m = Math.imul(s1, 5);
      const out = Math.imul((m << 7) | (m >>> 25), 9);
      s2 = t2 ^ (s1 << 9);
      s0 ^= t3;
      s1 ^= t2;
      s3 = (t3 << 11) | (t3 >>> 21);
      if ((out >>> 0) * TWO_TO_MINUS_32 >= survives) codes = withoutCodes;
    }
    let code = 0;
    for (let squad = 0; squad < squads; squad++) {
      // rng.below(bound): xoshiro128**'s next output (engine/random.ts, xoshiroNext), Lemire's method on its
      // top 20 bits, drawn again while the product's low 20 bits fall below 2^20 mod bound.
      let bound = first;
      let reject = firstReject;
      let drawn = 0;
      for (;;) {
        const t2 = s2 ^ s0;
        const t3 = s3 ^ s1;
        const m = Math.imul(s1, 5);
        const out = Math.imul((m << 7) | (m >>> 25), 9);
        s2 = t2 ^ (s1 << 9);
        s0 ^= t3;
        s1 ^= t2;
        s3 = (t3 << 11) | (t3 >>> 21);
        const product = (out >>> 12) * bound;
        if ((product & (TWENTY_BITS - 1)) >= reject) {
          drawn = product >>> 20;
          break;
        }
      }
      let arrival = codes[drawn];
      // Not in by the first group's rounds: the next group's dice, drawn the same way (the last group gives a round).
      for (let group = 1; arrival < 0 && group < groups; group++) {
        bound = bounds[group];
        reject = rejects[group];
        for (;;) {
          const t2 = s2 ^ s0;
          const t3 = s3 ^ s1;
          const m = Math.imul(s1, 5);
          const out = Math.imul((m << 7) | (m >>> 25), 9);
          s2 = t2 ^ (s1 << 9);
          s0 ^= t3;
          s1 ^= t2;
          s3 = (t3 << 11) | (t3 >>> 21);
          const product = (out >>> 12) * bound;
          if ((product & (TWENTY_BITS - 1)) >= reject) {
            drawn = product >>> 20;
            break;
          }
        }
        arrival = codes[group * GROUP_BOUND + drawn];
      }
      code += arrival;
    }
    if (byOutcome) outcomes[code]++;
    else if (counts[code]++ === 0) seen[distinct++] = code;
  }
  state[0] = s0;
  state[1] = s1;
  state[2] = s2;
  state[3] = s3;
  return distinct;
}

/** `trials` trials, each added into the running sums (sums.ts's addTrial); the tables give round indices. */
function sumsBlock(loop: TableLoop, state: Int32Array, trials: number, sums: TableSums): void {
  const { squads, fateMatters, survives, withCodes, withoutCodes, bounds, rejects } = loop;
  const groups = bounds.length;
  const first = bounds[0];
  const firstReject = rejects[0];
  let s0 = state[0];
  let s1 = state[1];
  let s2 = state[2];
  let s3 = state[3];
  const { tally, at, arrivingIn, diceOf, allInBy } = sums;
  for (let trial = 0; trial < trials; trial++) {
    let codes = withCodes;
    if (fateMatters) {
      // rng(): the next output as a uniform on [0, 1) (XoshiroStream's `random`).
      const t2 = s2 ^ s0;
      const t3 = s3 ^ s1;
      const m = Math.imul(s1, 5);
      const out = Math.imul((m << 7) | (m >>> 25), 9);
      s2 = t2 ^ (s1 << 9);
      s0 ^= t3;
      s1 ^= t2;
      s3 = (t3 << 11) | (t3 >>> 21);
      if ((out >>> 0) * TWO_TO_MINUS_32 >= survives) codes = withoutCodes;
    }
    let last = 0;
    for (let squad = 0; squad < squads; squad++) {
      // rng.below(bound): xoshiro128**'s next output (engine/random.ts, xoshiroNext), Lemire's method on its
      // top 20 bits, drawn again while the product's low 20 bits fall below 2^20 mod bound.
      let bound = first;
      let reject = firstReject;
      let drawn = 0;
      for (;;) {
        const t2 = s2 ^ s0;
        const t3 = s3 ^ s1;
        const m = Math.imul(s1, 5);
        const out = Math.imul((m << 7) | (m >>> 25), 9);
        s2 = t2 ^ (s1 << 9);
        s0 ^= t3;
        s1 ^= t2;
        s3 = (t3 << 11) | (t3 >>> 21);
        const product = (out >>> 12) * bound;
        if ((product & (TWENTY_BITS - 1)) >= reject) {
          drawn = product >>> 20;
          break;
        }
      }
      let arrival = codes[drawn];
      // Not in by the first group's rounds: the next group's dice, drawn the same way (the last group gives a round).
      for (let group = 1; arrival < 0 && group < groups; group++) {
        bound = bounds[group];
        reject = rejects[group];
        for (;;) {
          const t2 = s2 ^ s0;
          const t3 = s3 ^ s1;
          const m = Math.imul(s1, 5);
          const out = Math.imul((m << 7) | (m >>> 25), 9);
          s2 = t2 ^ (s1 << 9);
          s0 ^= t3;
          s1 ^= t2;
          s3 = (t3 << 11) | (t3 >>> 21);
          const product = (out >>> 12) * bound;
          if ((product & (TWENTY_BITS - 1)) >= reject) {
            drawn = product >>> 20;
            break;
          }
        }
        arrival = codes[group * GROUP_BOUND + drawn];
      }
      arrivingIn[arrival]++;
      if (arrival > last) last = arrival;
    }
    addTrial(tally, at, arrivingIn, last, squads, diceOf, allInBy);
  }
  state[0] = s0;
  state[1] = s1;
  state[2] = s2;
  state[3] = s3;
}
