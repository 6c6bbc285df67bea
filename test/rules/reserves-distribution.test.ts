/**
 * "At least k of my n squads by round r": the reserves rule's whole
 * distribution, checked exactly against an enumeration written from the
 * text (The Genesys Project, §6.5): each squad still in reserve rolls 1d6 +
 * the game round each round, arriving on 7+; in the chosen round the
 * commander's command is added (the fallback's once the commander is
 * lost); squads roll separately, so given the commander's fate they are
 * independent.
 */
import { describe, expect, it } from 'vitest';
import { simulateRunInThread } from '../../src/analysis/run-in-thread.js';
import { Fraction } from '../../src/exact/fraction.js';
import { resolveParams } from '../../src/rules/params.js';
import { reserves } from '../../src/rules/reserves/reserves.js';
import { proportionTolerance } from '../support/bounds.js';
import { exactResult } from '../support/exact-result.js';

interface Setting {
  squads: number;
  rounds: number;
  target: number;
  chosenRound: number;
  command: number;
  leaderLoss: Fraction;
  fallbackCommand: number;
}

/** One squad's arrival round (rounds + 1 for never), over all 6^rounds dice sequences, given the bonus in force. */
function arrivalDistribution(s: Setting, bonus: number): Fraction[] {
  const counts = new Array<number>(s.rounds + 2).fill(0);
  const sequences = 6 ** s.rounds;
  for (let code = 0; code < sequences; code++) {
    let rest = code;
    let arrival = s.rounds + 1;
    for (let round = 1; round <= s.rounds; round++) {
      const die = 1 + (rest % 6);
      rest = Math.floor(rest / 6);
      if (die + round + (round === s.chosenRound ? bonus : 0) >= s.target) {
        arrival = round;
        break;
      }
    }
    counts[arrival]++;
  }
  return counts.map((count) => Fraction.of(count, sequences));
}

/** P(at least k squads in by the end of round r), enumerating every combination of the squads' arrival rounds. */
function bruteForce(s: Setting): Record<string, Fraction> {
  const alive = s.chosenRound <= 1 ? Fraction.ONE : s.leaderLoss.complement().pow(s.chosenRound - 1);
  const fates = [
    { weight: alive, distribution: arrivalDistribution(s, s.command) },
    { weight: alive.complement(), distribution: arrivalDistribution(s, s.fallbackCommand) },
  ];
  const result: Record<string, Fraction> = {};
  const outcomes = (s.rounds + 1) ** s.squads;
  for (const { weight, distribution } of fates) {
    for (let code = 0; code < outcomes; code++) {
      let rest = code;
      let probability = weight;
      const arrivals: number[] = [];
      for (let squad = 0; squad < s.squads; squad++) {
        const arrival = 1 + (rest % (s.rounds + 1)); // 1 … rounds + 1 (never)
        rest = Math.floor(rest / (s.rounds + 1));
        arrivals.push(arrival);
        probability = probability.mul(distribution[arrival]);
      }
      for (let r = 1; r <= s.rounds; r++) {
        const inBy = arrivals.filter((arrival) => arrival <= r).length;
        for (let k = 1; k < s.squads; k++) {
          const name = `atLeast.${k}.by.${r}`;
          result[name] = (result[name] ?? Fraction.ZERO).add(inBy >= k ? probability : Fraction.ZERO);
        }
      }
    }
  }
  return result;
}

/** P(exactly m squads in by the end of round r), `[r − 1][m]`, enumerating every combination of arrival rounds. */
function squadsInBy(s: Setting): Fraction[][] {
  const alive = s.chosenRound <= 1 ? Fraction.ONE : s.leaderLoss.complement().pow(s.chosenRound - 1);
  const fates = [
    { weight: alive, distribution: arrivalDistribution(s, s.command) },
    { weight: alive.complement(), distribution: arrivalDistribution(s, s.fallbackCommand) },
  ];
  const result = Array.from({ length: s.rounds }, () => new Array<Fraction>(s.squads + 1).fill(Fraction.ZERO));
  for (const { weight, distribution } of fates) {
    for (let code = 0; code < (s.rounds + 1) ** s.squads; code++) {
      let rest = code;
      let probability = weight;
      const arrivals: number[] = [];
      for (let squad = 0; squad < s.squads; squad++) {
        const arrival = 1 + (rest % (s.rounds + 1));
        rest = Math.floor(rest / (s.rounds + 1));
        arrivals.push(arrival);
        probability = probability.mul(distribution[arrival]);
      }
      for (let r = 1; r <= s.rounds; r++) {
        const inBy = arrivals.filter((arrival) => arrival <= r).length;
        result[r - 1][inBy] = result[r - 1][inBy].add(probability);
      }
    }
  }
  return result;
}

describe('reserves: squads in by each round as a whole distribution (arrived.by.r.mean)', () => {
  const s: Setting = {
    squads: 4,
    rounds: 4,
    target: 7,
    chosenRound: 3,
    command: 3,
    leaderLoss: Fraction.of(1, 4),
    fallbackCommand: 1,
  };
  const params = resolveParams(
    reserves,
    Object.entries(s).map(([name, value]) => `${name}=${value instanceof Fraction ? value.toNumber() : value}`),
  );

  it('chosen round 3, command 3, a commander lost 1 in 4: every P(m in by r) exactly the enumeration', () => {
    const expected = squadsInBy(s);
    const { distributions } = exactResult(reserves, params, 's');
    for (let r = 1; r <= s.rounds; r++) {
      const d = distributions?.[`arrived.by.${r}.mean`];
      const listed = new Map(d?.values.map((v) => [v.value, v.fraction]));
      for (let m = 0; m <= s.squads; m++)
        expect(listed.get(m) ?? '0', `round ${r}, ${m} squads`).toBe(expected[r - 1][m].toString());
    }
  });

  it('seed "squads": 14 squads (past the old cap of 12), 100,000 trials: every P(m in by 2) within 5σ', async () => {
    const many = resolveParams(reserves, ['squads=14']);
    const trials = 100_000;
    const result = await simulateRunInThread(reserves, many, {
      seed: 'squads',
      stream: 5,
      threads: 1,
      confidence: 0.95,
      trials,
    });
    const d = result.distributions?.['arrived.by.2.mean'];
    if (!d) throw new Error('no distribution');
    expect(d.values.at(-1)?.value).toBeLessThanOrEqual(14);
    // 5σ per value (15 values): a correct build fails by chance about once in 100,000 seeds.
    for (const v of d.values)
      expect(Math.abs((v.estimate as number) - (v.exact as number)), `${v.value}`).toBeLessThanOrEqual(
        proportionTolerance(v.exact as number, trials),
      );
    expect(d.values.reduce((sum, v) => sum + (v.count as number), 0)).toBe(trials);
    // The round of the last arrival (5: some squad never in): exact P(= r) is all.by.r − all.by.(r − 1), both checked
    // against enumeration in reserves-exact.test.ts; 5σ per value as above.
    const last = result.distributions?.['last.arrival'];
    const exact = reserves.exact?.values(many) ?? {};
    let before = Fraction.ZERO;
    for (let r = 1; r <= 5; r++) {
      const chance = r <= 4 ? exact[`all.by.${r}`].sub(before) : before.complement();
      if (r <= 4) before = exact[`all.by.${r}`];
      const v = last?.values.find((entry) => entry.value === r);
      expect(v?.fraction ?? '0', `round ${r}`).toBe(chance.toString());
      if (v)
        expect(Math.abs((v.estimate as number) - chance.toNumber())).toBeLessThanOrEqual(
          proportionTolerance(chance.toNumber(), trials),
        );
    }
  });
});

describe('reserves: at least k of n squads by round r', () => {
  const cases: Array<[string, Setting]> = [
    [
      "the text's numbers, no chosen round",
      { squads: 3, rounds: 4, target: 7, chosenRound: 0, command: 2, leaderLoss: Fraction.ZERO, fallbackCommand: 0 },
    ],
    [
      'chosen round 3 with command 3, a commander lost 1 in 4 per round',
      {
        squads: 4,
        rounds: 4,
        target: 7,
        chosenRound: 3,
        command: 3,
        leaderLoss: Fraction.of(1, 4),
        fallbackCommand: 1,
      },
    ],
    [
      'five rounds, target 8, chosen round 2',
      { squads: 3, rounds: 5, target: 8, chosenRound: 2, command: 2, leaderLoss: Fraction.ZERO, fallbackCommand: 0 },
    ],
  ];
  for (const [what, s] of cases) {
    it(`${what}: exactly the enumeration`, () => {
      const params = resolveParams(
        reserves,
        Object.entries(s).map(([name, value]) => `${name}=${value instanceof Fraction ? value.toNumber() : value}`),
      );
      const exact = reserves.exact!.values(params);
      const expected = bruteForce(s);
      const names = reserves
        .metrics(params)
        .map((m) => m.name)
        .filter((name) => name.startsWith('atLeast.'));
      expect(names.sort()).toEqual(Object.keys(expected).sort());
      for (const name of names) expect(exact[name].toString(), name).toBe(expected[name].toString());
      // k = n is all.by.r, which the rule already reports: the tail at n must agree with it.
      for (let r = 1; r <= s.rounds; r++)
        expect(exact[`atLeast.1.by.${r}`].compare(exact[`all.by.${r}`])).toBeGreaterThanOrEqual(0);
    });
  }

  it('reports the distribution up to 12 squads, and leaves it out beyond', () => {
    const names = (squads: number) =>
      reserves.metrics(resolveParams(reserves, [`squads=${squads}`])).filter((m) => m.name.startsWith('atLeast.'))
        .length;
    expect(names(1)).toBe(0);
    expect(names(12)).toBe(11 * 4);
    expect(names(13)).toBe(0);
  });
});
