import { describe, expect, it } from 'vitest';
import { Fraction } from '../../src/exact/fraction.js';
import { resolveParams } from '../../src/rules/params.js';
import { reserves } from '../../src/rules/reserves/reserves.js';

/**
 * Brute force, written independently of the solver: every squad rolls a
 * full row of `rounds` dice (the ones after its arrival are ignored), all
 * 6^(squads·rounds) grids are enumerated with integer counts, and the
 * commander's fate is enumerated round by round (dies or survives in each
 * round before the chosen one) instead of using the closed form.
 */
/**
 * A setting such as leaderLoss=0.25 as the fraction its digits say (25/100), read from the text; 0 when it is not set.
 */
function decimalSetting(settings: string[], name: string): Fraction {
  const text = settings.find((setting) => setting.startsWith(`${name}=`))?.slice(name.length + 1) ?? '0';
  const [whole, decimals = ''] = text.split('.');
  return Fraction.of(BigInt(whole + decimals), 10n ** BigInt(decimals.length));
}

function bruteForce(settings: string[]): Record<string, Fraction> {
  const params = resolveParams(reserves, settings);
  const squads = params.squads as number;
  const rounds = params.rounds as number;
  const target = params.target as number;
  const chosen = params.chosenRound as number;
  const first = params.firstRound as number;
  const loss = decimalSetting(settings, 'leaderLoss');

  // Fate sequences: survive each of rounds 1..chosen−1 or not; the bonus needs all survived.
  const fates: { weight: Fraction; bonus: number }[] = [];
  const roundsBefore = Math.max(0, chosen - 1);
  for (let pattern = 0; pattern < 2 ** roundsBefore; pattern++) {
    let weight = Fraction.ONE;
    for (let round = 0; round < roundsBefore; round++)
      weight = weight.mul(pattern & (1 << round) ? loss : loss.complement());
    fates.push({ weight, bonus: pattern === 0 ? (params.command as number) : (params.fallbackCommand as number) });
  }

  const totals: Record<string, Fraction> = {};
  const add = (name: string, value: Fraction) => (totals[name] = (totals[name] ?? Fraction.ZERO).add(value));
  const dice = squads * rounds;
  const grids = 6 ** dice;
  for (const fate of fates) {
    const counts: Record<string, number> = {};
    const count = (name: string, amount = 1) => (counts[name] = (counts[name] ?? 0) + amount);
    const faces = new Array<number>(dice).fill(1);
    for (let grid = 0; grid < grids; grid++) {
      let rest = grid;
      for (let i = 0; i < dice; i++) {
        faces[i] = 1 + (rest % 6);
        rest = Math.floor(rest / 6);
      }
      const arrival: number[] = [];
      let rolled = 0;
      for (let squad = 0; squad < squads; squad++) {
        let arrived = rounds + 1;
        for (let round = 1; round <= rounds && arrived > rounds; round++) {
          if (round < first) continue; // no roll before the first rolling round
          rolled++;
          const bonus = round === chosen ? fate.bonus : 0;
          if (faces[squad * rounds + round - 1] + round + bonus >= target) arrived = round;
        }
        arrival.push(arrived);
      }
      // The first squad stands for "a given squad"; all squads are alike.
      count(arrival[0] > rounds ? 'squad.never' : `squad.round.${arrival[0]}`);
      for (let round = 1; round <= rounds; round++) {
        const inBy = arrival.filter((a) => a <= round).length;
        if (inBy === squads) count(`all.by.${round}`);
        for (let k = 1; k < squads; k++) if (inBy >= k) count(`atLeast.${k}.by.${round}`);
        count(`arrived.by.${round}.mean`, inBy);
      }
      count('lost.mean', arrival.filter((a) => a > rounds).length);
      count('dice.mean', rolled);
      // The round the last squad arrives, rounds + 1 when one never does.
      count('last.arrival', Math.max(...arrival));
    }
    for (const [name, value] of Object.entries(counts)) add(name, fate.weight.mul(Fraction.of(value, grids)));
  }
  return totals;
}

function expectExactMatchesBruteForce(settings: string[]): void {
  const params = resolveParams(reserves, settings);
  const exact = reserves.exact!.values(params);
  const brute = bruteForce(settings);
  for (const metric of reserves.metrics(params)) {
    const expected = brute[metric.name] ?? Fraction.ZERO;
    expect(exact[metric.name].toString(), metric.name).toBe(expected.toString());
  }
}

describe('reserves exact solver against brute-force enumeration', () => {
  it.each([
    [['squads=2', 'rounds=3']],
    [['squads=2', 'rounds=3', 'chosenRound=2', 'command=3']],
    [['squads=2', 'rounds=3', 'chosenRound=3', 'command=4', 'leaderLoss=0.25', 'fallbackCommand=1']],
    [['squads=3', 'rounds=2', 'chosenRound=2', 'command=2', 'leaderLoss=0.3', 'target=9']],
    [['squads=2', 'rounds=3', 'chosenRound=3', 'command=3', 'leaderLoss=0.15', 'fallbackCommand=1']],
    [['squads=1', 'rounds=4', 'chosenRound=4', 'command=1', 'leaderLoss=1', 'fallbackCommand=3']],
    [['squads=2', 'rounds=2', 'target=2']],
    [['squads=2', 'rounds=3', 'target=20', 'chosenRound=1', 'command=10']],
    [['squads=2', 'rounds=3', 'firstRound=2']],
    [['squads=2', 'rounds=3', 'firstRound=2', 'chosenRound=3', 'command=2', 'leaderLoss=0.4', 'fallbackCommand=1']],
  ])('%j', (settings) => {
    expectExactMatchesBruteForce(settings);
  });
});

describe('reserves: the rules questions', () => {
  const exactAt = (...settings: string[]) => reserves.exact!.values(resolveParams(reserves, settings));

  it('without a chosen round a squad is lost with probability 5/6·4/6·3/6·2/6 = 5/54', () => {
    // Needs 6, 5+, 4+, 3+ in rounds 1–4 (1d6 + round ≥ 7).
    expect(exactAt()['squad.never'].toString()).toBe('5/54');
  });

  it('choosing round 2 with command 3 brings a squad in by round 2 with probability 1/6 + 5/6·5/6 = 31/36', () => {
    // Round 2 with +3 needs 2+ (5/6).
    const values = exactAt('chosenRound=2', 'command=3');
    expect(values['squad.round.1'].add(values['squad.round.2']).toString()).toBe('31/36');
  });

  it('a commander lost before the chosen round at 50% per round halves the bonus weight each round', () => {
    // chosenRound 3: alive with (1/2)^2 = 1/4; with command 4 round 3 needs 1+ (certain), else 4+ (1/2).
    // P(arrive in round 3) = P(out after 2) · (1/4·1 + 3/4·1/2) = (5/6·4/6) · 5/8 = 25/72.
    expect(exactAt('chosenRound=3', 'command=4', 'leaderLoss=0.5')['squad.round.3'].toString()).toBe('25/72');
  });

  it(
    'leaderLoss=0.15 is 3/20, not the double nearest it: a squad arrives in chosen round 3 with command 4 with ' +
      'probability 689/1440',
    () => {
      // Alive at round 3 with (17/20)² = 289/400: then 1d6 + 3 + 4 ≥ 7 is certain,
      // else (no fallback) 4+ is 1/2. Out after rounds 1–2: 5/6 · 4/6 = 20/36.
      // 20/36 · (289/400 + 111/400 · 1/2) = 20/36 · 689/800 = 689/1440.
      const value = exactAt('chosenRound=3', 'command=4', 'leaderLoss=0.15')['squad.round.3'];
      expect(value.toString()).toBe('689/1440');
      // The double 0.15 is 5404319552844595/2^55, a little under 3/20: computing with it gives another number.
      const fromDouble = Fraction.of(20, 36).mul(
        Fraction.fromNumber(0.15).complement().pow(2).mul(Fraction.of(1, 2)).add(Fraction.of(1, 2)),
      );
      expect(fromDouble.equals(value)).toBe(false);
    },
  );

  it('reserves that wait for round 2 lose a squad with probability 4/6·3/6·2/6 = 1/9', () => {
    // Rounds 2–4 need 5+, 4+, 3+; round 1 rolls nothing.
    const waiting = exactAt('firstRound=2');
    expect(waiting['squad.never'].toString()).toBe('1/9');
    expect(waiting['squad.round.1'].toString()).toBe('0');
  });

  it('probabilities of a squad arriving in each round or never sum to 1', () => {
    const params = resolveParams(reserves, [
      'chosenRound=4',
      'command=3',
      'leaderLoss=0.1',
      'fallbackCommand=2',
      'squads=7',
      'rounds=6',
    ]);
    const values = reserves.exact!.values(params);
    let total = values['squad.never'];
    for (let round = 1; round <= 6; round++) total = total.add(values[`squad.round.${round}`]);
    expect(total.equals(Fraction.ONE)).toBe(true);
  });
});
