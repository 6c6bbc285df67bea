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
 */
import { Fraction } from '../../exact/fraction.js';
import type { Reserves } from './setup.js';

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

/**
 * The best play for the objective, its value, every metric under it, and the decisions it takes. `p.chosenRound`
 * is ignored: the round is called in play. `metricNames` are the metrics to report under that play (reserves.ts's).
 */
export function solveReservesCall(p: Reserves, objective: CallObjective, metricNames: readonly string[]): CallSolution {
  const R = p.rounds;
  const S = p.squads;
  const loss = Fraction.fromParameter(p.leaderLoss);
  const keep = loss.complement();
  const neededIn = (round: number, bonus: number) =>
    round < p.firstRound ? 7 : Math.min(7, Math.max(1, p.target - round - bonus));
  // What each round adds to the objective, before → after squads out.
  const weighted = [...objective.weights].map(([metric, weight]) => [roundAddsOf(metric, p), weight] as const);
  const adds = Array.from({ length: R + 1 }, (_, round) =>
    round === 0
      ? []
      : Array.from({ length: S + 1 }, (_, before) =>
          Array.from({ length: before + 1 }, (_, after) => {
            let total = round === 1 ? objective.constant : Fraction.ZERO;
            for (const [adds, weight] of weighted) total = total.add(weight.mul(adds(round, before, after)));
            return total;
          }),
        ),
  );
  const chancesMemo = new Map<string, Fraction[]>();
  const chances = (before: number, needed: number) => {
    const key = `${before}/${needed}`;
    let found = chancesMemo.get(key);
    if (found === undefined) {
      found = stillOutChances(before, needed);
      chancesMemo.set(key, found);
    }
    return found;
  };
  // called[r][k]: the objective from the start of round r with k out, the round already called (no bonus to come).
  // open[r][a][k]: the same with the call still in hand, a = 1 while the commander lives.
  const called: Fraction[][] = Array.from({ length: R + 2 }, () => new Array<Fraction>(S + 1).fill(Fraction.ZERO));
  const open: Fraction[][][] = Array.from({ length: R + 2 }, () =>
    [0, 1].map(() => new Array<Fraction>(S + 1).fill(Fraction.ZERO)),
  );
  const waitValue: Fraction[][][] = Array.from({ length: R + 1 }, () => [[], []]);
  const callValue: Fraction[][][] = Array.from({ length: R + 1 }, () => [[], []]);
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
        const wait = expected(round, k, neededIn(round, 0), (after) =>
          alive === 1
            ? keep.mul(open[round + 1][1][after]).add(loss.mul(open[round + 1][0][after]))
            : open[round + 1][0][after],
        );
        const bonus = alive === 1 ? p.command : p.fallbackCommand;
        const call = expected(round, k, neededIn(round, bonus), (after) => called[round + 1][after]);
        waitValue[round][alive][k] = wait;
        callValue[round][alive][k] = call;
        open[round][alive][k] = decides(p, round, k) && call.compare(wait) >= 0 ? call : wait;
      }
    }
  }

  // Forward: the chance of each state under the best play, every metric's expected total, the decisions reached.
  const metrics = new Map<string, Fraction>();
  const decisions: CallDecision[] = [];
  let openReach = [new Array<Fraction>(S + 1).fill(Fraction.ZERO), new Array<Fraction>(S + 1).fill(Fraction.ZERO)];
  let calledReach = new Array<Fraction>(S + 1).fill(Fraction.ZERO);
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
    const nextOpen = [new Array<Fraction>(S + 1).fill(Fraction.ZERO), new Array<Fraction>(S + 1).fill(Fraction.ZERO)];
    const nextCalled = new Array<Fraction>(S + 1).fill(Fraction.ZERO);
    for (let k = S; k >= 0; k--) {
      if (calledReach[k].numerator !== 0n)
        account(round, k, calledReach[k], neededIn(round, 0), (after, weight) => {
          nextCalled[after] = nextCalled[after].add(weight);
        });
      for (const alive of [1, 0]) {
        const reach = openReach[alive][k];
        if (reach.numerator === 0n) continue;
        const callNow = decides(p, round, k) && callValue[round][alive][k].compare(waitValue[round][alive][k]) >= 0;
        if (decides(p, round, k))
          decisions.push({
            round,
            out: k,
            alive: alive === 1,
            reach,
            wait: waitValue[round][alive][k],
            call: callValue[round][alive][k],
            choice: callNow ? 'call' : 'wait',
          });
        if (callNow) {
          account(round, k, reach, neededIn(round, alive === 1 ? p.command : p.fallbackCommand), (after, weight) => {
            nextCalled[after] = nextCalled[after].add(weight);
          });
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
  return { value: open[1][1][S], metrics, decisions };
}

/** Whether the player has a call to make: squads out, and a round in which they roll. */
function decides(p: Reserves, round: number, out: number): boolean {
  return out > 0 && round >= p.firstRound;
}
