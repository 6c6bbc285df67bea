/**
 * Flames of War reserves drawn by plan (stream 3): one side's reserve dice
 * for several turns from a single draw, and the turn-by-turn state machine
 * replaced by table lookups.
 *
 * What a reserve die does depends only on whether it scores: `hit` or more,
 * a chance of (7 − hit)/6. Reduced, that is a/q with q = 6, 3 or 2 (hit 5+:
 * 1/3), so a die can be read as one base-q digit, scoring when the digit is
 * q − a or more: exactly the die's chance, with fewer outcomes than a d6.
 * One `below(q^k)` (k digits, q^k ≤ 4096) is then k reserve dice: seven at
 * 5+, twelve at 4+. A side rolling 1, 2 and 3 dice in its first three turns
 * rolls all six from one draw.
 *
 * The state of a side is (turn, platoons still in reserve). From each state
 * the plan draws the dice of as many whole turns as fit in one draw and
 * looks up the outcome: which states the side passes through after each of
 * those turns, and where it stands next. A turn with more dice than one
 * draw holds is counted group by group instead (stopping once enough dice
 * have scored for every platoon still out). The loop over trials only
 * counts outcomes; the states they pass through are added up once a chunk.
 *
 * Scattered Reserves roll a die per arriving platoon for where it enters.
 * Those dice are independent of everything else and the tally keeps only
 * the chunk's count at each place, so they are drawn after the chunk's
 * trials, four to a draw, as many as platoons arrived.
 */

import type { Rng } from '../../contract/types.js';
import { MAX_BOUND } from '../../engine/random.js';

/** One side's reserves as the plan sees them. */
export interface PlanSide {
  /** Platoons in reserve at the start. */
  reserves: number;
  /** First rolling turn; turn t rolls t − start + 1 dice. */
  start: number;
  /** Last turn followed. */
  followed: number;
  /** A die scores on `hit` or more. */
  hit: number;
  /** With this many dice or more and none scoring, one platoon arrives anyway; 0 never. */
  guarantee: number;
}

/** Plans built so far, by side: a worker builds each once, not once a chunk. */
const plans = new Map<string, Plan>();
const PLANS_KEPT = 64;

export interface Plan {
  /** The state a side starts in: (first rolling turn, every platoon out). */
  readonly start: number;
  /** Per state: the bound of its one draw, or 0 for a turn counted group by group. */
  readonly bound: Int32Array;
  /** Per state: where its codes start in `outcomeOf` (bound ≠ 0), or where `outcomeOfHits` starts (bound = 0). */
  readonly first: Int32Array;
  /** Per state with a draw: code → outcome. */
  readonly outcomeOf: Int32Array;
  /**
   * Per turn counted group by group: the turn's scoring dice, 0 … out + perDraw − 1 (counting stops once out are
   * reached), → outcome.
   */
  readonly outcomeOfHits: Int32Array;
  /** Per state: the turn's dice and the platoons still out (used by turns counted group by group). */
  readonly dice: Int32Array;
  readonly out: Int32Array;
  /** Per outcome: the next state, or −1 when the side is done (all in, or past the last turn). */
  readonly next: Int32Array;
  /** Per outcome: platoons that arrived. */
  readonly arrived: Int32Array;
  /**
   * Per outcome: the states it ended turns in, as (turn − 1)·(reserves + 1) + remaining, at recordIndex[recordStart[o]
   * … recordStart[o + 1]).
   */
  readonly recordStart: Int32Array;
  readonly recordIndex: Int32Array;
  /**
   * Digits of base `q` one draw holds at most (q^perDraw ≤ MAX_BOUND), q^k for k = 0 … perDraw, and the scoring digits
   * in each code below q^perDraw.
   */
  readonly perDraw: number;
  readonly power: Int32Array;
  readonly hitsIn: Uint8Array;
  readonly outcomes: number;
}

/** The plan for one side, built once per process and kept. */
export function planFor(side: PlanSide): Plan {
  const key = `${side.reserves}/${side.start}/${side.followed}/${side.hit}/${side.guarantee}`;
  let plan = plans.get(key);
  if (plan === undefined) {
    if (plans.size >= PLANS_KEPT) plans.clear();
    plan = buildPlan(side);
    plans.set(key, plan);
  }
  return plan;
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/**
 * How many dice one draw holds for a side hitting on `hit`+, each a base-q digit of the draw, q^k, and how many
 * of a code's digits score.
 */
function digitTable(hit: number): Pick<Plan, 'perDraw' | 'power' | 'hitsIn'> {
  // A die scores with chance (7 − hit)/6 = scoring/q in lowest terms: a base-q digit of q − scoring or more.
  const q = 6 / gcd(7 - hit, 6);
  const scoring = (7 - hit) / gcd(7 - hit, 6);
  let perDraw = 1;
  while (q ** (perDraw + 1) <= MAX_BOUND) perDraw++;
  const power = Int32Array.from({ length: perDraw + 1 }, (_, k) => q ** k);
  const hitsIn = new Uint8Array(power[perDraw]);
  for (let code = 0; code < power[perDraw]; code++) {
    for (let rest = code, digit = 0; digit < perDraw; digit++, rest = Math.floor(rest / q))
      hitsIn[code] += +(rest % q >= q - scoring);
  }
  return { perDraw, power, hitsIn };
}

function buildPlan({ reserves, start, followed, hit, guarantee }: PlanSide): Plan {
  const { perDraw, power, hitsIn } = digitTable(hit);
  const stride = reserves + 1;
  const states = (followed + 1) * stride;
  const stateOf = (turn: number, out: number) => turn * stride + out;
  const recordOf = (turn: number, out: number) => (turn - 1) * stride + out;
  const diceIn = (turn: number) => turn - start + 1;
  const arriving = (dice: number, hits: number, out: number) =>
    hits === 0 && guarantee > 0 && dice >= guarantee ? 1 : Math.min(hits, out);

  const bound = new Int32Array(states);
  const first = new Int32Array(states);
  const dice = new Int32Array(states);
  const out = new Int32Array(states);
  const outcomeOf: number[] = [];
  const outcomeOfHits: number[] = [];
  const next: number[] = [];
  const arrived: number[] = [];
  const recordStart: number[] = [0];
  const recordIndex: number[] = [];
  const outcomeIds = new Map<string, number>();
  // Codes (or hit counts) that lead through the same states are one outcome.
  const outcome = (records: number[], after: number, came: number): number => {
    const key = `${records.join(',')}>${after}:${came}`;
    let id = outcomeIds.get(key);
    if (id === undefined) {
      id = next.length;
      outcomeIds.set(key, id);
      next.push(after);
      arrived.push(came);
      recordIndex.push(...records);
      recordStart.push(recordIndex.length);
    }
    return id;
  };
  // Only the states a side can reach are planned, found from its start.
  const pending = [stateOf(start, reserves)];
  const seen = new Set(pending);
  const reach = (turn: number, stillOut: number): number => {
    if (stillOut === 0 || turn > followed) return -1;
    const s = stateOf(turn, stillOut);
    if (!seen.has(s)) {
      seen.add(s);
      pending.push(s);
    }
    return s;
  };
  while (pending.length > 0) {
    const s = pending.pop() as number;
    const turn = Math.floor(s / stride);
    out[s] = s % stride;
    dice[s] = diceIn(turn);
    if (dice[s] > perDraw) {
      // More dice than one draw holds: counted group by group, then the outcome looked up by the count.
      first[s] = outcomeOfHits.length;
      for (let hits = 0; hits < out[s] + perDraw; hits++) {
        const after = out[s] - arriving(dice[s], hits, out[s]);
        outcomeOfHits.push(outcome(after > 0 ? [recordOf(turn, after)] : [], reach(turn + 1, after), out[s] - after));
      }
      continue;
    }
    // As many whole turns as one draw holds; turn `turn`'s dice are the lowest digits, the next turn's above them.
    let last = turn;
    let digits = dice[s];
    while (last < followed && digits + diceIn(last + 1) <= perDraw) digits += diceIn(++last);
    bound[s] = power[digits];
    first[s] = outcomeOf.length;
    for (let code = 0; code < bound[s]; code++) {
      let rest = code;
      let stillOut = out[s];
      const records: number[] = [];
      let t = turn;
      for (; t <= last && stillOut > 0; t++) {
        // Turn t's dice are the next diceIn(t) digits: a code below q^diceIn(t), whose upper digits (zero) never score.
        const hits = hitsIn[rest % power[diceIn(t)]];
        rest = Math.floor(rest / power[diceIn(t)]);
        stillOut -= arriving(diceIn(t), hits, stillOut);
        if (stillOut > 0) records.push(recordOf(t, stillOut));
      }
      outcomeOf.push(outcome(records, reach(t, stillOut), out[s] - stillOut));
    }
  }
  return {
    start: stateOf(start, reserves),
    bound,
    first,
    outcomeOf: Int32Array.from(outcomeOf),
    outcomeOfHits: Int32Array.from(outcomeOfHits),
    dice,
    out,
    next: Int32Array.from(next),
    arrived: Int32Array.from(arrived),
    recordStart: Int32Array.from(recordStart),
    recordIndex: Int32Array.from(recordIndex),
    perDraw,
    power,
    hitsIn,
    outcomes: next.length,
  };
}

/**
 * Runs `trials` battles of one side by its plan, adding how often each
 * outcome happened into `counts` (length plan.outcomes).
 */
export function runPlan(plan: Plan, rng: Rng, trials: number, counts: Int32Array): void {
  const { bound, first, outcomeOf, outcomeOfHits, next, dice, out, perDraw, power, hitsIn } = plan;
  for (let trial = 0; trial < trials; trial++) {
    let s = plan.start;
    do {
      const b = bound[s];
      let o: number;
      if (b !== 0) {
        o = outcomeOf[first[s] + rng.below(b)];
      } else {
        // A code below q^left has zeros in its upper digits, and a zero digit never scores. Once the
        // dice so far bring every platoon still out, the rest cannot change the turn and are not drawn.
        const stillOut = out[s];
        let hits = 0;
        for (let left = dice[s]; left > 0 && hits < stillOut; left -= perDraw)
          hits += hitsIn[rng.below(power[Math.min(left, perDraw)])];
        o = outcomeOfHits[first[s] + hits];
      }
      counts[o]++;
      s = next[o];
    } while (s >= 0);
  }
}

/**
 * Adds a chunk's outcome counts into `states` (index (turn − 1)·(reserves + 1) + remaining) and returns how many
 * platoons arrived.
 */
export function addOutcomes(plan: Plan, counts: Int32Array, states: Int32Array): number {
  const { recordStart, recordIndex, arrived } = plan;
  let arrivals = 0;
  for (let o = 0; o < plan.outcomes; o++) {
    const times = counts[o];
    if (times === 0) continue;
    arrivals += times * arrived[o];
    for (let i = recordStart[o]; i < recordStart[o + 1]; i++) states[recordIndex[i]] += times;
  }
  return arrivals;
}
