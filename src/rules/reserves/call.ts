/**
 * Genesys reserves (see reserves.ts), §6.5, with the chosen reserve round
 * called in play: "one game round as their chosen reserve round" does not say
 * when the round is chosen. This reading lets the player call it at the start
 * of a round's Events Phase, before that round's reserve rolls, seeing how
 * many squads are still out and whether the commander lives; the bonus then
 * applies to every squad still out in that round, as in the fixed reading.
 *
 * Solved exactly by dynamic programming over (round, squads out, commander
 * alive), backwards from the last round, in fractions: at each state where
 * the round is not yet called, squads are out and they roll this round, the
 * player takes whichever of "wait" and "call" gives the higher expected
 * objective from there on (a tie calls: waiting would gain nothing). The
 * commander may be lost at the end of each round before the call (leaderLoss),
 * as in the fixed reading, where it may be lost in each round before the chosen
 * one. Every metric of the rule is a sum of what each round adds, given how
 * many squads were out before and after it, so any weighted sum of them is an
 * objective the same recursion solves.
 *
 * Simulated (simulateCall), trials play the solved policy and count into
 * reserves.ts's own tally, so estimates sit beside the exact values.
 */

import type { Rng } from '../../contract/types.js';
import { Fraction } from '../../exact/fraction.js';
import { mean, type Tallied } from '../../stats/estimate.js';
import type { Reserves } from './setup.js';
import { addDeferred, addTrial, diceByArrival, outcomeSums, runningSums, sumsLayout } from './sums.js';

/** An objective: a constant and one weight a metric (src/analysis/objective.ts reads them). */
export interface CallObjective {
  weights: ReadonlyMap<string, Fraction>;
  constant: Fraction;
}

/** One decision state the best play reaches, with both options' exact values. */
export interface CallDecision {
  round: number;
  out: number;
  alive: boolean;
  /** The chance the game reaches this state under the best play. */
  reach: Fraction;
  wait: Fraction;
  call: Fraction;
  choice: 'wait' | 'call';
}

export interface CallSolution {
  /** The objective under the best play. */
  value: Fraction;
  /** Every metric under that same play. */
  metrics: Map<string, Fraction>;
  /** Every decision state reached, by round, then squads out (most first), commander alive first. */
  decisions: CallDecision[];
}

/** What one round adds to a metric, given the squads out before and after its rolls. */
type RoundAdds = (round: number, before: number, after: number) => Fraction;

/**
 * How a metric of reserves.ts (squad.round.r, all.by.r, arrived.by.r.mean, atLeast.k.by.r, squad.never, lost.mean,
 * dice.mean, last.arrival) grows round by round, each read off its own definition; the name is read once.
 */
function roundAddsOf(metric: string, p: Reserves): RoundAdds {
  const S = p.squads;
  const byRound = /^(squad\.round|all\.by|arrived\.by|atLeast\.(\d+)\.by)\.(\d+)(\.mean)?$/.exec(metric);
  if (byRound) {
    const at = Number(byRound[3]);
    const least = Number(byRound[2]);
    const kind = byRound[1];
    const inRound =
      (adds: (before: number, after: number) => Fraction): RoundAdds =>
      (round, before, after) =>
        round === at ? adds(before, after) : Fraction.ZERO;
    if (kind === 'squad.round') return inRound((before, after) => Fraction.of(before - after, S));
    if (kind === 'all.by') return inRound((_, after) => (after === 0 ? Fraction.ONE : Fraction.ZERO));
    if (kind === 'arrived.by') return inRound((_, after) => Fraction.of(S - after));
    return inRound((_, after) => (S - after >= least ? Fraction.ONE : Fraction.ZERO));
  }
  const last =
    (adds: (after: number) => Fraction): RoundAdds =>
    (round, _, after) =>
      round === p.rounds ? adds(after) : Fraction.ZERO;
  if (metric === 'squad.never') return last((after) => Fraction.of(after, S));
  if (metric === 'lost.mean') return last((after) => Fraction.of(after));
  if (metric === 'dice.mean') return (round, before) => (round >= p.firstRound ? Fraction.of(before) : Fraction.ZERO);
  // The round of the last arrival (reserves.ts): the round in which the last squad out arrives, or rounds + 1 when
  // one is still out after the last round.
  if (metric === 'last.arrival')
    return (round, before, after) =>
      before > 0 && after === 0
        ? Fraction.of(round)
        : round === p.rounds && after > 0
          ? Fraction.of(p.rounds + 1)
          : Fraction.ZERO;
  throw new RangeError(`reserves has no metric ${metric}`);
}

/** The one round in which a metric can add (null: any round), read off its name as roundAddsOf reads it. */
function onlyRound(metric: string, p: Reserves): number | null {
  const byRound = /\.(\d+)(\.mean)?$/.exec(metric);
  if (metric === 'dice.mean') return null;
  if (metric === 'squad.never' || metric === 'lost.mean') return p.rounds;
  return byRound ? Number(byRound[1]) : null;
}

/** n choose k, exactly. */
function choose(n: number, k: number): bigint {
  let value = 1n;
  for (let i = 1; i <= k; i++) value = (value * BigInt(n - k + i)) / BigInt(i);
  return value;
}

/**
 * The chance that `after` of `before` squads are still out after a round in which each arrives on a d6 showing
 * `needed` or more (7: none does): a binomial in sixths.
 */
function stillOutChances(before: number, needed: number): Fraction[] {
  const arrive = BigInt(7 - needed);
  const stay = BigInt(needed - 1);
  const all = 6n ** BigInt(before);
  return Array.from({ length: before + 1 }, (_, after) =>
    Fraction.of(choose(before, after) * stay ** BigInt(after) * arrive ** BigInt(before - after), all),
  );
}

/** The chance that `after` of `before` squads are still out, per (before, needed), each computed once. */
function chanceTable(): (before: number, needed: number) => Fraction[] {
  const memo = new Map<string, Fraction[]>();
  return (before, needed) => {
    const key = `${before}/${needed}`;
    let found = memo.get(key);
    if (found === undefined) {
      found = stillOutChances(before, needed);
      memo.set(key, found);
    }
    return found;
  };
}

/** What the solve shares between its backward and forward passes. */
interface CallSetting {
  p: Reserves;
  loss: Fraction;
  keep: Fraction;
  neededIn: (round: number, bonus: number) => number;
  chances: (before: number, needed: number) => Fraction[];
}

/** Both options' values at every (round, commander alive 0/1, squads out) with the call in hand. */
interface OptionValues {
  wait: Fraction[][][];
  call: Fraction[][][];
  /** The objective from the start of round 1, all squads out, the commander alive. */
  value: Fraction;
}

/** What each round adds to the objective, adds[round][before][after]. */
function objectiveAdds(p: Reserves, objective: CallObjective): Fraction[][][] {
  const weighted = [...objective.weights].map(([metric, weight]) => [roundAddsOf(metric, p), weight] as const);
  return Array.from({ length: p.rounds + 1 }, (_, round) =>
    round === 0
      ? []
      : Array.from({ length: p.squads + 1 }, (_, before) =>
          Array.from({ length: before + 1 }, (_, after) => {
            let total = round === 1 ? objective.constant : Fraction.ZERO;
            for (const [adds, weight] of weighted) total = total.add(weight.mul(adds(round, before, after)));
            return total;
          }),
        ),
  );
}

/** Backwards from the last round: the objective's value with the call still in hand, by waiting and by calling. */
function backward(setting: CallSetting, objective: CallObjective): OptionValues {
  const { p, loss, keep, neededIn, chances } = setting;
  const R = p.rounds;
  const S = p.squads;
  const adds = objectiveAdds(p, objective);
  // called[r][k]: the objective from the start of round r with k out, the round already called (no bonus to come).
  // open[r][a][k]: the same with the call still in hand, a = 1 while the commander lives.
  const called: Fraction[][] = Array.from({ length: R + 2 }, () => new Array<Fraction>(S + 1).fill(Fraction.ZERO));
  const open: Fraction[][][] = Array.from({ length: R + 2 }, () =>
    [0, 1].map(() => new Array<Fraction>(S + 1).fill(Fraction.ZERO)),
  );
  const wait: Fraction[][][] = Array.from({ length: R + 1 }, () => [[], []]);
  const call: Fraction[][][] = Array.from({ length: R + 1 }, () => [[], []]);
  const expected = (round: number, before: number, needed: number, next: (after: number) => Fraction) =>
    chances(before, needed).reduce(
      (sum, chance, after) =>
        chance.numerator === 0n ? sum : sum.add(chance.mul(adds[round][before][after].add(next(after)))),
      Fraction.ZERO,
    );
  for (let round = R; round >= 1; round--) {
    for (let k = 0; k <= S; k++) {
      called[round][k] = expected(round, k, neededIn(round, 0), (after) => called[round + 1][after]);
      for (const alive of [0, 1]) {
        // Waiting: the commander may be lost before the next round.
        wait[round][alive][k] = expected(round, k, neededIn(round, 0), (after) =>
          alive === 1
            ? keep.mul(open[round + 1][1][after]).add(loss.mul(open[round + 1][0][after]))
            : open[round + 1][0][after],
        );
        const bonus = alive === 1 ? p.command : p.fallbackCommand;
        call[round][alive][k] = expected(round, k, neededIn(round, bonus), (after) => called[round + 1][after]);
        open[round][alive][k] = callsAt(p, round, k, wait[round][alive][k], call[round][alive][k])
          ? call[round][alive][k]
          : wait[round][alive][k];
      }
    }
  }
  return { wait, call, value: open[1][1][S] };
}

/** Whether best play calls: a decision to take, and calling at least as good as waiting (a tie calls). */
function callsAt(p: Reserves, round: number, out: number, wait: Fraction, call: Fraction): boolean {
  return decides(p, round, out) && call.compare(wait) >= 0;
}

/**
 * Forwards from round 1 under the best play: the chance of each state, every metric's expected total, the decisions
 * reached.
 */
function forward(
  setting: CallSetting,
  values: OptionValues,
  metricNames: readonly string[],
): Omit<CallSolution, 'value'> {
  const { p, loss, keep, neededIn, chances } = setting;
  const R = p.rounds;
  const S = p.squads;
  const metrics = new Map<string, Fraction>();
  const decisions: CallDecision[] = [];
  const zeros = () => new Array<Fraction>(S + 1).fill(Fraction.ZERO);
  let openReach = [zeros(), zeros()];
  let calledReach = zeros();
  openReach[1][S] = Fraction.ONE;
  const readers = metricNames.map((name) => [name, roundAddsOf(name, p)] as const);
  // A metric adds in one round or in every round: per round, only the ones that add in it are read.
  const readersIn = Array.from({ length: R + 1 }, (_, round) =>
    readers.filter(([name]) => {
      const only = onlyRound(name, p);
      return only === null || only === round;
    }),
  );
  for (const name of metricNames) metrics.set(name, Fraction.ZERO);
  const account = (
    round: number,
    before: number,
    reach: Fraction,
    needed: number,
    onto: (after: number, chance: Fraction) => void,
  ) => {
    chances(before, needed).forEach((chance, after) => {
      if (chance.numerator === 0n) return;
      const weight = reach.mul(chance);
      for (const [name, adds] of readersIn[round]) {
        const add = adds(round, before, after);
        if (add.numerator !== 0n) metrics.set(name, (metrics.get(name) as Fraction).add(weight.mul(add)));
      }
      onto(after, weight);
    });
  };
  for (let round = 1; round <= R; round++) {
    const nextOpen = [zeros(), zeros()];
    const nextCalled = zeros();
    const toCalled = (after: number, weight: Fraction) => {
      nextCalled[after] = nextCalled[after].add(weight);
    };
    for (let k = S; k >= 0; k--) {
      if (calledReach[k].numerator !== 0n) account(round, k, calledReach[k], neededIn(round, 0), toCalled);
      for (const alive of [1, 0]) {
        const reach = openReach[alive][k];
        if (reach.numerator === 0n) continue;
        const wait = values.wait[round][alive][k];
        const call = values.call[round][alive][k];
        const callNow = callsAt(p, round, k, wait, call);
        if (decides(p, round, k))
          decisions.push({ round, out: k, alive: alive === 1, reach, wait, call, choice: callNow ? 'call' : 'wait' });
        if (callNow) {
          account(round, k, reach, neededIn(round, alive === 1 ? p.command : p.fallbackCommand), toCalled);
        } else {
          account(round, k, reach, neededIn(round, 0), (after, weight) => {
            if (alive === 1) {
              nextOpen[1][after] = nextOpen[1][after].add(weight.mul(keep));
              nextOpen[0][after] = nextOpen[0][after].add(weight.mul(loss));
            } else nextOpen[0][after] = nextOpen[0][after].add(weight);
          });
        }
      }
    }
    openReach = nextOpen;
    calledReach = nextCalled;
  }
  return { metrics, decisions };
}

/**
 * The best play for the objective, its value, every metric under it, and the decisions it takes. `p.chosenRound`
 * is ignored: the round is called in play. `metricNames` are the metrics to report under that play (reserves.ts's).
 */
export function solveReservesCall(p: Reserves, objective: CallObjective, metricNames: readonly string[]): CallSolution {
  const loss = Fraction.fromParameter(p.leaderLoss);
  const setting: CallSetting = {
    p,
    loss,
    keep: loss.complement(),
    neededIn: (round, bonus) => (round < p.firstRound ? 7 : Math.min(7, Math.max(1, p.target - round - bonus))),
    chances: chanceTable(),
  };
  const values = backward(setting, objective);
  return { value: values.value, ...forward(setting, values, metricNames) };
}

/** Whether the player has a call to make: squads out, and a round in which they roll. */
function decides(p: Reserves, round: number, out: number): boolean {
  return out > 0 && round >= p.firstRound;
}

/** Where best play calls: calls[round][alive ? 1 : 0][out] (a state best play never reaches waits). */
export type CallTable = boolean[][][];

/** The call table of a solution's decisions (every state best play reaches). */
export function callTable(p: Reserves, decisions: readonly CallDecision[]): CallTable {
  const table: CallTable = Array.from({ length: p.rounds + 1 }, () => [
    new Array<boolean>(p.squads + 1).fill(false),
    new Array<boolean>(p.squads + 1).fill(false),
  ]);
  for (const decision of decisions)
    table[decision.round][decision.alive ? 1 : 0][decision.out] = decision.choice === 'call';
  return table;
}

/** The outcome histogram reserves.ts counts into while its (S+1)^(R+1) outcome codes number at most 2^18. */
const OUTCOME_LIMIT = 1 << 18;

/** Whether reserves.ts's tally at p is its outcome histogram (else its running sums, reserves-sums.ts). */
function countsOutcomes(p: Reserves): boolean {
  return (p.squads + 1) ** (p.rounds + 1) <= OUTCOME_LIMIT;
}

/**
 * Trials that play the solved policy, game by game as §6.5 reads with the call made in play: at the start of each
 * round, with the round not yet called, the player calls where `calls` says; every squad still out rolls 1d6 +
 * the round (+ the command bonus in the called round: the commander's, or the fallback's once the commander is
 * lost) and arrives on the target; until the call, the commander may be lost at the end of each round. Counted
 * into reserves.ts's own tally (outcome histogram or running sums, as its tally length says), so the same sums
 * read every metric; summarizeCall reads them.
 */
export function simulateCall(p: Reserves, calls: CallTable, rng: Rng, trials: number, tally: Float64Array): void {
  const R = p.rounds;
  const S = p.squads;
  const histogram = countsOutcomes(p);
  const codeOf = Int32Array.from({ length: R + 1 }, (_, index) => (S + 1) ** index);
  const at = sumsLayout(R, S);
  const diceOf = diceByArrival(R, p.firstRound);
  const arrivingIn = new Int32Array(R + 1);
  const allInBy = new Float64Array(R);
  for (let trial = 0; trial < trials; trial++) {
    let alive = 1;
    let called = false;
    let out = S;
    let code = 0;
    let last = 0;
    for (let round = 1; round <= R; round++) {
      const callNow = !called && calls[round][alive][out];
      if (callNow) called = true;
      if (round >= p.firstRound && out > 0) {
        const bonus = callNow ? (alive === 1 ? p.command : p.fallbackCommand) : 0;
        let arriving = 0;
        for (let squad = 0; squad < out; squad++) if (1 + ((rng() * 6) | 0) + round + bonus >= p.target) arriving++;
        out -= arriving;
        code += arriving * codeOf[round - 1];
        arrivingIn[round - 1] += arriving;
        if (arriving > 0) last = round - 1;
      }
      if (!called && alive === 1 && p.leaderLoss > 0 && rng() < p.leaderLoss) alive = 0;
    }
    if (histogram) {
      tally[code + out * codeOf[R]]++;
      arrivingIn.fill(0);
    } else {
      if (out > 0) {
        arrivingIn[R] = out;
        last = R;
      }
      addTrial(tally, at, arrivingIn, last, S, diceOf, allInBy);
    }
  }
  if (!histogram) addDeferred(tally, at, S, allInBy);
}

/**
 * The metrics of simulateCall's tally: reserves.ts's reading of its sums, but for a given squad's round, which
 * under play is no longer one Bernoulli trial a squad (the call hangs on how many are out, so the squads of a game
 * are not independent): the per-game share of squads is the observation (cluster-robust), as reserves.ts reads it
 * when the commander's fate is shared.
 */
export function summarizeCall(
  p: Reserves,
  tally: Float64Array,
  trials: number,
  read: (tally: Float64Array, trials: number) => Record<string, Tallied>,
): Record<string, Tallied> {
  const result = read(tally, trials);
  const sums = countsOutcomes(p)
    ? outcomeSums(p.rounds, p.squads, p.firstRound, tally)
    : runningSums(p.rounds, p.squads, tally);
  const S = p.squads;
  const share = (index: number) => mean(sums.arrivals[index] / S, sums.arrivalsSquared[index] / (S * S), trials);
  for (let r = 1; r <= p.rounds; r++) result[`squad.round.${r}`] = share(r - 1);
  result['squad.never'] = share(p.rounds);
  return result;
}
