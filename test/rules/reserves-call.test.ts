/**
 * Genesys reserves with the chosen round called in play (`chosenRound=call`),
 * against an oracle written here from §6.5 that shares no code with the
 * solver: every deterministic calling policy (a call or a wait at each round,
 * squads still out and commander's fate) is played on the dice enumerated die
 * by die, each game's history of squads out scored by the objective, and the
 * best policy's value taken, in fractions. The oracle is itself checked
 * against the fixed-round rule (`reserves.exact`) for the policies that call
 * one round whatever happens. The policy the solver prints is then simulated
 * on a seeded stream and its metrics held within 5σ.
 */
import { describe, expect, it } from 'vitest';
import { solveCall } from '../../src/analysis/reserves-call.js';
import { main } from '../../src/cli.js';
import type { Rule } from '../../src/contract/types.js';
import { TycheStream } from '../../src/engine/random.js';
import { Fraction } from '../../src/exact/fraction.js';
import { resolveParams } from '../../src/rules/params.js';
import { reserves } from '../../src/rules/reserves/reserves.js';
import { proportionTolerance } from '../support/bounds.js';
import { bufferIo } from '../support/io.js';

interface Setting {
  squads: number;
  rounds: number;
  target: number;
  command: number;
  fallbackCommand: number;
  leaderLoss: Fraction;
  firstRound: number;
}

/** A game's history: how many squads are still out after each round (index r − 1). */
type Score = (outAfter: readonly number[]) => Fraction;

/** A deterministic calling policy: at the start of round r, k squads out, commander alive or not: call? */
type Policy = (round: number, out: number, alive: boolean) => boolean;

/**
 * How many of `out` squads arrive in a round whose roll is 1d6 + round + bonus against the target, counted over
 * all 6^out ways their dice fall (each squad rolls separately, §6.5).
 */
function arrivalsByDice(out: number, round: number, bonus: number, target: number): Map<number, number> {
  const ways = new Map<number, number>();
  const faces = new Array<number>(out).fill(1);
  for (;;) {
    const arriving = faces.filter((face) => face + round + bonus >= target).length;
    ways.set(arriving, (ways.get(arriving) ?? 0) + 1);
    let i = 0;
    while (i < out && faces[i] === 6) faces[i++] = 1;
    if (i === out) break;
    faces[i]++;
  }
  return ways;
}

/** The expected score of a game played by `policy`, exactly: every die, every commander's fate. */
function playPolicy(s: Setting, policy: Policy, score: Score): Fraction {
  const game = (round: number, out: number, alive: boolean, calledYet: boolean, history: number[]): Fraction => {
    if (round > s.rounds) return score(history);
    const rolls = round >= s.firstRound;
    const callNow = rolls && !calledYet && out > 0 && policy(round, out, alive);
    const bonus = callNow ? (alive ? s.command : s.fallbackCommand) : 0;
    const ways = rolls ? arrivalsByDice(out, round, bonus, s.target) : new Map([[0, 1]]);
    const total = rolls ? 6 ** out : 1;
    let value = Fraction.ZERO;
    for (const [arriving, count] of ways) {
      const chance = Fraction.of(count, total);
      const next = [...history, out - arriving];
      const called = calledYet || callNow;
      // The commander may be lost in each round before the call.
      const after =
        !called && alive
          ? s.leaderLoss
              .complement()
              .mul(game(round + 1, out - arriving, true, false, next))
              .add(
                s.leaderLoss.numerator === 0n
                  ? Fraction.ZERO
                  : s.leaderLoss.mul(game(round + 1, out - arriving, false, false, next)),
              )
          : game(round + 1, out - arriving, alive, called, next);
      value = value.add(chance.mul(after));
    }
    return value;
  };
  return game(1, s.squads, true, false, []);
}

/** Every decision state a policy may be asked about, and so every deterministic policy over them. */
function everyPolicy(s: Setting): Policy[] {
  const states: string[] = [];
  for (let round = s.firstRound; round <= s.rounds; round++)
    for (let out = 1; out <= s.squads; out++)
      for (const alive of [true, false]) {
        const reachable = (round > 1 || (out === s.squads && alive)) && (alive || s.leaderLoss.numerator !== 0n);
        if (reachable) states.push(`${round}/${out}/${alive}`);
      }
  return Array.from({ length: 2 ** states.length }, (_, bits) => {
    const calls = new Set(states.filter((_, i) => (bits >> i) & 1));
    return (round, out, alive) => calls.has(`${round}/${out}/${alive}`);
  });
}

const best = (s: Setting, score: Score) =>
  everyPolicy(s).reduce((high, policy) => {
    const value = playPolicy(s, policy, score);
    return value.compare(high) > 0 ? value : high;
  }, Fraction.of(-1000));

/** The rule's parameters for a setting, as `--set` assignments. */
const assignments = (s: Setting) => [
  `squads=${s.squads}`,
  `rounds=${s.rounds}`,
  `target=${s.target}`,
  `command=${s.command}`,
  `fallbackCommand=${s.fallbackCommand}`,
  `leaderLoss=${s.leaderLoss.toNumber()}`,
  `firstRound=${s.firstRound}`,
  'chosenRound=call',
];

const rule = reserves as unknown as Rule;
const allIn: Score = (outAfter) => (outAfter[outAfter.length - 1] === 0 ? Fraction.ONE : Fraction.ZERO);
const inBy =
  (round: number): Score =>
  (outAfter) =>
    outAfter[round - 1] === 0 ? Fraction.ONE : Fraction.ZERO;

const twoSquadsWithLoss: Setting = {
  squads: 2,
  rounds: 3,
  target: 7,
  command: 4,
  fallbackCommand: 1,
  leaderLoss: Fraction.of(1, 4),
  firstRound: 1,
};

describe('the oracle itself: a policy that calls one round whatever happens is the fixed chosen round', () => {
  it('equals reserves.exact for every chosen round, all.by.3, with a quarter chance a round of losing the commander', () => {
    for (let chosen = 1; chosen <= 3; chosen++) {
      const fixed = reserves.exact!.values(
        resolveParams(reserves, [...assignments(twoSquadsWithLoss).slice(0, -1), `chosenRound=${chosen}`]),
      );
      expect(playPolicy(twoSquadsWithLoss, (round) => round === chosen, allIn).equals(fixed['all.by.3'])).toBe(true);
    }
  });
});

describe('chosenRound=call: the best calling policy, exactly', () => {
  it('with leader loss (2 squads, 3 rounds, command 4 or 1, lost 1/4 a round): the best of all 512 policies, worth more than any fixed round', () => {
    const solved = solveCall(rule, assignments(twoSquadsWithLoss), 'all.by.3');
    const oracle = best(twoSquadsWithLoss, allIn);
    expect(solved.decision.best.fraction).toBe(oracle.toString());
    expect(solved.decision.worth.exact).toBeGreaterThan(0);
    const fixedBest = [1, 2, 3]
      .map((chosen) => playPolicy(twoSquadsWithLoss, (round) => round === chosen, allIn))
      .reduce((high, value) => (value.compare(high) > 0 ? value : high));
    expect(oracle.sub(fixedBest).toString()).toBe(solved.decision.worth.fraction);
    // Once the commander is lost the bonus is the fallback's, and waiting for a later, likelier round is better.
    expect(solved.decision.summary.join(' ')).toMatch(/Once the commander is lost/);
  });

  it('without leader loss, squads independent: worth exactly nothing over the best fixed round, said so', () => {
    const independent = { ...twoSquadsWithLoss, squads: 3, leaderLoss: Fraction.ZERO, command: 2 };
    for (const [objective, score] of [
      ['all.by.3', allIn],
      ['arrived.by.3.mean', (outAfter: readonly number[]) => Fraction.of(3 - outAfter[2])],
    ] as const) {
      const solved = solveCall(rule, assignments(independent), objective);
      expect(solved.decision.best.fraction, objective).toBe(best(independent, score).toString());
      expect(solved.decision.worth.fraction, objective).toBe('0');
      expect(solved.decision.summary.join(' ')).toMatch(/worth exactly nothing .* squads roll independently/);
    }
  });

  it('an objective weighing early arrivals too (all.by.3 + 0.25·all.by.2): the best policy, worth more than any fixed round', () => {
    // With every squad in by round 2 worth a quarter more, calling in round 2 pays only when few are still out;
    // otherwise the round is better kept for round 3 and the last chance.
    const independent = { ...twoSquadsWithLoss, squads: 3, leaderLoss: Fraction.ZERO, command: 2 };
    const score: Score = (outAfter) => allIn(outAfter).add(Fraction.of(1, 4).mul(inBy(2)(outAfter)));
    const solved = solveCall(rule, assignments(independent), 'all.by.3 + 0.25*all.by.2');
    expect(solved.decision.best.fraction).toBe(best(independent, score).toString());
    const fixedBest = [1, 2, 3]
      .map((chosen) => playPolicy(independent, (round) => round === chosen, score))
      .reduce((high, value) => (value.compare(high) > 0 ? value : high));
    expect(solved.decision.bestFixed.value.fraction).toBe(fixedBest.toString());
    expect(solved.decision.worth.exact).toBeGreaterThan(0);
  });

  it('reserves that wait a round (firstRound=2) with a half chance of losing the commander: the best of all policies', () => {
    const late = { ...twoSquadsWithLoss, firstRound: 2, leaderLoss: Fraction.of(1, 2) };
    const solved = solveCall(rule, assignments(late), 'all.by.3');
    expect(solved.decision.best.fraction).toBe(best(late, allIn).toString());
    expect(solved.decision.policy.every((decision) => decision.round >= 2)).toBe(true);
  });

  it('every metric it reports is that metric under its own policy (the oracle playing the printed decisions)', () => {
    const solved = solveCall(rule, assignments(twoSquadsWithLoss), 'all.by.3');
    const choices = new Map(
      solved.decision.policy.map((d) => [`${d.round}/${d.out}/${d.commander === 'alive'}`, d.choice === 'call']),
    );
    const printed: Policy = (round, out, alive) => choices.get(`${round}/${out}/${alive}`) ?? false;
    for (const round of [1, 2, 3]) {
      const value = playPolicy(twoSquadsWithLoss, printed, inBy(round));
      expect(solved.metrics[`all.by.${round}`].fraction, `all.by.${round}`).toBe(value.toString());
      const arrived = playPolicy(twoSquadsWithLoss, printed, (outAfter) => Fraction.of(2 - outAfter[round - 1]));
      expect(solved.metrics[`arrived.by.${round}.mean`].fraction).toBe(arrived.toString());
    }
  });
});

describe('simulating the printed policy (seed "reserves-call")', () => {
  it('all.by.4 and all.by.2 within 5σ of the exact values under the policy, 200,000 games', () => {
    const setting = ['squads=4', 'rounds=4', 'command=3', 'fallbackCommand=1', 'leaderLoss=0.2', 'chosenRound=call'];
    const solved = solveCall(rule, setting, 'all.by.4 + 0.5*all.by.2');
    const choices = new Map(
      solved.decision.policy.map((d) => [`${d.round}/${d.out}/${d.commander === 'alive'}`, d.choice === 'call']),
    );
    const random = new TycheStream('reserves-call').random;
    const games = 200_000;
    let allBy4 = 0;
    let allBy2 = 0;
    for (let game = 0; game < games; game++) {
      let out = 4;
      let alive = true;
      let called = false;
      for (let round = 1; round <= 4; round++) {
        const callNow: boolean = !called && out > 0 && (choices.get(`${round}/${out}/${alive}`) ?? false);
        const bonus = callNow ? (alive ? 3 : 1) : 0;
        let arriving = 0;
        for (let squad = 0; squad < out; squad++) if (random.roll(6) + round + bonus >= 7) arriving++;
        out -= arriving;
        called ||= callNow;
        if (!called && random() < 0.2) alive = false;
        if (round === 2 && out === 0) allBy2++;
      }
      if (out === 0) allBy4++;
    }
    // Each game is an independent Bernoulli trial for either metric: 5σ = 5·sqrt(p(1 − p)/n) (support/bounds.ts).
    for (const [name, count] of [
      ['all.by.4', allBy4],
      ['all.by.2', allBy2],
    ] as const) {
      const exact = solved.metrics[name].exact as number;
      expect(Math.abs(count / games - exact), name).toBeLessThan(proportionTolerance(exact, games));
    }
  });
});

describe('muster run reserves --set chosenRound=call', () => {
  it('prints the policy in words, every fixed round beside it, and what calling in play is worth', async () => {
    const io = bufferIo();
    const status = await main(
      ['run', 'reserves', '--set', 'chosenRound=call', 'command=3', 'fallbackCommand=1', 'leaderLoss=0.2', '--exact'],
      io,
    );
    expect(status, io.stderr()).toBe(0);
    const out = io.stdout();
    expect(out).toMatch(/With the commander alive: .*call/);
    expect(out).toMatch(/Calling in play is worth \+0\.\d+ = \d+\/\d+ over the best round/);
    expect(out).toMatch(/best fixed/);
    expect(out).toMatch(/call +0\.\d+ = \d+\/\d+ +in play/);
  });

  it('--json holds the decision block: the policy, every fixed round, the worth', async () => {
    const io = bufferIo();
    expect(await main(['run', 'reserves', '--set', 'chosenRound=call', '--exact', '--json', '-'], io)).toBe(0);
    const result = JSON.parse(io.stdout());
    expect(result.params.chosenRound).toBe('call');
    expect(result.decision.objective).toBe('all.by.4');
    expect(result.decision.fixed.map((row: { chosenRound: number }) => row.chosenRound)).toEqual([0, 1, 2, 3, 4]);
    expect(result.decision.worth.fraction).toBe('0');
    expect(result.decision.policy[0]).toMatchObject({ round: 1, out: 4, commander: 'alive' });
  });

  it.each([
    [['run', 'reserves', '--set', 'chosenRound=call', '--exact', '--trials', '1000'], '--trials'],
    [['run', 'reserves', '--set', 'chosenRound=call', '--precision', '0.01'], '--precision'],
    [['run', 'reserves', '--set', 'chosenRound=call', '--html', 'x.html'], '--html'],
    [['run', 'reserves', '--set', 'chosenRound=call', '--objective', 'all.by.9'], '--objective'],
    [['run', 'reserves', '--objective', 'all.by.4'], '--objective'],
  ])('%j is a one-line error', async (argv, parameter) => {
    const io = bufferIo();
    expect(await main(argv, io)).toBe(2);
    const lines = io.stderr().trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0].startsWith(`muster: ${parameter}: `), lines[0]).toBe(true);
  });
});
