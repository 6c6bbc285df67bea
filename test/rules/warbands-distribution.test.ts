/**
 * "How many dice will the roll-offs take, at worst?": the dice each of the
 * warbands rule's roll-offs throws, as a whole distribution, checked
 * exactly against brute force played from the text (Mordheim community
 * rules, setup chapter): for the first turn "each player rolls a D6 …
 * additional rolls should be performed until a single player has the
 * highest dice roll"; for the setup order "the players rolling a D6, with
 * the highest roll set up next … For ties, additional rolls … going first
 * of the tied results". The brute force throws every one of the 6^g faces
 * of each throw and follows the ties it leaves, to a fixed number of dice:
 * no counting formulas, no series. The distribution has no end (ties can
 * repeat), so it is listed to a stated depth with the exact chance beyond.
 */
import { describe, expect, it } from 'vitest';
import { simulateRunInThread } from '../../src/analysis/run-in-thread.js';
import { Fraction } from '../../src/exact/fraction.js';
import { resolveParams } from '../../src/rules/params.js';
import { rollOffDice } from '../../src/rules/warbands/exact.js';
import { warbands } from '../../src/rules/warbands/warbands.js';
import { countPlausible } from '../support/bounds.js';
import { exactResult } from '../support/exact-result.js';

/** Every face tuple of `count` dice. */
function* faces(count: number): Generator<number[]> {
  const tuple = new Array<number>(count).fill(1);
  while (true) {
    yield tuple;
    let i = 0;
    while (i < count && tuple[i] === 6) tuple[i++] = 1;
    if (i === count) return;
    tuple[i]++;
  }
}

/** P(the dice sum to d) for d = 0 … budget, of two independent counts. */
function sumOf(a: Fraction[], b: Fraction[], budget: number): Fraction[] {
  const result = new Array<Fraction>(budget + 1).fill(Fraction.ZERO);
  for (let i = 0; i <= budget; i++)
    for (let j = 0; i + j <= budget; j++) result[i + j] = result[i + j].add(a[i].mul(b[j]));
  return result;
}

const memo = new Map<string, Fraction[]>();

/**
 * P(the roll-off among `players` throws exactly d dice), d = 0 … budget, playing every throw: all roll, then those
 * tied on the top face roll again ('top'), or every group tied on one face rolls again among itself ('sort').
 */
function bruteForce(kind: 'top' | 'sort', players: number, budget: number): Fraction[] {
  const key = `${kind} ${players} ${budget}`;
  const known = memo.get(key);
  if (known) return known;
  const result = new Array<Fraction>(budget + 1).fill(Fraction.ZERO);
  if (players <= 1) result[0] = Fraction.ONE;
  else if (players <= budget) {
    const each = Fraction.of(1, 6 ** players);
    for (const tuple of faces(players)) {
      const onFace = [1, 2, 3, 4, 5, 6].map((face) => tuple.filter((die) => die === face).length);
      const top = onFace.filter((count) => count > 0).at(-1) as number;
      const again = kind === 'top' ? [top] : onFace.filter((count) => count >= 2);
      let rest = new Array<Fraction>(budget - players + 1).fill(Fraction.ZERO);
      rest[0] = Fraction.ONE;
      for (const group of again) rest = sumOf(rest, bruteForce(kind, group, budget - players), budget - players);
      rest.forEach((chance, d) => {
        result[d + players] = result[d + players].add(chance.mul(each));
      });
    }
  }
  memo.set(key, result);
  return result;
}

describe('warbands: the dice each roll-off throws, exactly the brute force', () => {
  for (const [kind, players, budget] of [
    ['top', 2, 20],
    ['top', 3, 15],
    ['top', 4, 12],
    ['sort', 2, 20],
    ['sort', 3, 15],
    ['sort', 4, 12],
  ] as const) {
    it(`${kind === 'top' ? 'first turn' : 'setup order'} among ${players}: every P(d dice) to ${budget} dice`, () => {
      const exact = rollOffDice(kind, players);
      const brute = bruteForce(kind, players, budget);
      for (let d = 0; d <= budget; d++)
        expect(exact.probabilities[d]?.toString() ?? '0', `${d} dice`).toBe(brute[d].toString());
      // Listed until at most 10^-12 lies beyond, and everything listed and beyond adds to 1.
      expect(exact.beyond.compare(Fraction.of(1, 10 ** 12))).toBeLessThanOrEqual(0);
      expect(exact.probabilities.reduce((sum, p) => sum.add(p), exact.beyond).toString()).toBe('1');
      // The exact mean and variance agree with the listing to within what lies beyond it (under 10^-12 of the mass,
      // each value there a few dozen dice at most in all but a vanishing share).
      let mean = 0;
      let square = 0;
      exact.probabilities.forEach((p, d) => {
        mean += p.toNumber() * d;
        square += p.toNumber() * d * d;
      });
      expect(Math.abs(mean - exact.mean.toNumber())).toBeLessThan(1e-9);
      expect(Math.abs(square - mean * mean - exact.variance.toNumber())).toBeLessThan(1e-8);
    });
  }

  it('two players: a pair ties with chance 1/6 a throw, so P(2k dice) = (1/6)^(k−1)·5/6, mean 12/5', () => {
    // Hand-worked: each throw of two dice ties in 6 of 36 ways.
    const pair = rollOffDice('top', 2);
    for (let k = 1; k <= 5; k++)
      expect(pair.probabilities[2 * k].toString()).toBe(
        Fraction.of(5, 6)
          .mul(Fraction.of(1, 6).pow(k - 1))
          .toString(),
      );
    expect(pair.mean.toString()).toBe('12/5');
    // Geometric throws T with p = 5/6: D = 2T, Var(D) = 4·(1 − p)/p² = 4·(1/6)/(25/36) = 24/25.
    expect(pair.variance.toString()).toBe('24/25');
  });

  it('the rule reports them: the means are exact()', () => {
    const params = resolveParams(warbands, ['warbands=100:5,100:5,100:5,90:4']);
    const result = exactResult(warbands, params, 's');
    const exact = warbands.exact?.values(params) ?? {};
    for (const name of ['dice.setup.mean', 'dice.first.mean', 'dice.defender.mean']) {
      const d = result.distributions?.[name];
      expect(d?.beyond, name).not.toBeNull();
      expect(result.metrics[name].exact).toBe(exact[name].toNumber());
    }
    // Three tied for defender on rating and models: a roll-off among three; setup among the other three.
    const defender = result.distributions?.['dice.defender.mean'];
    expect(defender?.values.find((v) => v.value === 3)?.fraction).toBe(bruteForce('top', 3, 15)[3].toString());
  });
});

describe('warbands: the simulated dice against the exact distributions', () => {
  const trials = 100_000;
  for (const stream of [2, 5] as const) {
    it(`seed "dice", stream ${stream}, four warbands tied for defender: every P(=d) and P(≥d) within 5σ`, async () => {
      const params = resolveParams(warbands, ['warbands=100:5,100:5,100:5,100:5']);
      const result = await simulateRunInThread(warbands, params, {
        seed: 'dice',
        stream,
        threads: 1,
        confidence: 0.95,
        trials,
      });
      let compared = 0;
      for (const name of ['dice.setup.mean', 'dice.first.mean', 'dice.defender.mean']) {
        const d = result.distributions?.[name];
        if (!d) throw new Error(`no distribution ${name}`);
        expect(d.values.reduce((sum, v) => sum + (v.count as number), 0) + (d.beyond?.estimate ?? 0) * trials).toBe(
          trials,
        );
        for (const v of d.values)
          for (const chance of [v, v.atLeast]) {
            if (chance.exact === null) continue;
            // 5σ for each of about 150 comparisons (countPlausible): a correct build fails by chance about once in
            // 12,000 seeds; a chance of 0 must be met exactly.
            const count = Math.round((chance.estimate as number) * trials);
            expect(countPlausible(count, trials, chance.exact), `${name} ${v.value}: ${count} of ${trials}`).toBe(true);
            compared++;
          }
      }
      expect(compared).toBeGreaterThan(40);
    });
  }
});
