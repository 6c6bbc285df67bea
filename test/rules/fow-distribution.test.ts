/**
 * "How many of my platoons are on the table by turn 3, and when does the last
 * one arrive?": fow's whole distributions, checked exactly against brute
 * force written from the reserve rules (Flames of War 4th-edition missions,
 * as the 3rd-edition prepared-positions mission names them): from its first
 * rolling turn a side rolls one die, one more each later turn; each die
 * scoring `hit` or more brings a platoon while any remain; `guarantee` dice
 * or more with none scoring still bring one. The brute force walks every
 * hit-or-miss sequence of every die a side could roll over the turns
 * followed, weighting each by its faces, with none of the rule's tables or
 * its chain. The simulation, on both fast paths (turn by turn on stream 2,
 * several turns to a draw on stream 5), is held to it value by value.
 */
import { describe, expect, it } from 'vitest';
import { simulateRunInThread } from '../../src/analysis/run-in-thread.js';
import { Fraction } from '../../src/exact/fraction.js';
import type { RunResult } from '../../src/result.js';
import { fow } from '../../src/rules/fow/fow.js';
import { resolveParams } from '../../src/rules/params.js';
import { countPlausible } from '../support/bounds.js';
import { exactResult } from '../support/exact-result.js';

interface Side {
  platoons: number;
  reserves: number;
  start: number;
}

/**
 * For one side: P(platoons on the table after turn t = v) for each turn 1 … `followed` (`onTable[t − 1]`, a map by
 * v), and P(the last reserve arrives in turn t), t = 1 … `turns`, with turns + 1 for "still some out after turn
 * `turns`". Every die of every turn is rolled in each sequence (those after the last arrival change nothing).
 */
function bruteForce(side: Side, hit: number, guarantee: number, turns: number, followed: number) {
  const rolledIn = (turn: number) => (turn >= side.start ? turn - side.start + 1 : 0);
  let dice = 0;
  for (let turn = 1; turn <= followed; turn++) dice += rolledIn(turn);
  const scoring = Fraction.of(7 - hit, 6);
  const missing = Fraction.of(hit - 1, 6);
  const onTable = Array.from({ length: followed }, () => new Map<number, Fraction>());
  const last = new Map<number, Fraction>();
  const add = (map: Map<number, Fraction>, key: number, chance: Fraction) =>
    map.set(key, (map.get(key) ?? Fraction.ZERO).add(chance));
  for (let sequence = 0; sequence < 2 ** dice; sequence++) {
    let chance = Fraction.ONE;
    let die = 0;
    let out = side.reserves;
    let lastTurn = turns + 1;
    // Platoons on the table after each turn: added once the whole sequence, and so its chance, is read.
    const onTableAfter: number[] = [];
    for (let turn = 1; turn <= followed; turn++) {
      let scored = 0;
      for (let d = 0; d < rolledIn(turn); d++, die++) {
        const hits = ((sequence >> die) & 1) === 1;
        chance = chance.mul(hits ? scoring : missing);
        if (hits) scored++;
      }
      if (out > 0 && rolledIn(turn) > 0) {
        let arriving = Math.min(scored, out);
        if (scored === 0 && guarantee > 0 && rolledIn(turn) >= guarantee) arriving = 1;
        out -= arriving;
        if (out === 0 && turn <= turns) lastTurn = turn;
      }
      onTableAfter.push(side.platoons - out);
    }
    onTableAfter.forEach((value, index) => add(onTable[index], value, chance));
    add(last, lastTurn, chance);
  }
  return { onTable, last };
}

/** The listed exact chances of a result's distribution, zero ones left out, as value → fraction text. */
function listed(result: RunResult, name: string): Map<number, string> {
  const d = result.distributions?.[name];
  if (!d) throw new Error(`no distribution ${name}`);
  return new Map(d.values.filter((v) => v.fraction !== '0').map((v) => [v.value, v.fraction as string]));
}

const nonZero = (map: Map<number, Fraction>) =>
  new Map(
    [...map].filter(([, chance]) => chance.numerator !== 0n).map(([value, chance]) => [value, chance.toString()]),
  );

const CASES: Array<[string, string[]]> = [
  ['the defaults followed to turn 5 (the attacker from turn 1, the defender from turn 3)', ['turns=5', 'endTurn=5']],
  [
    '4 of 5 attacking platoons at 4+ with a two-dice guarantee; the defender from turn 2',
    ['turns=4', 'endTurn=4', 'attackerPlatoons=5', 'attackerReserves=4', 'hit=4', 'guarantee=2', 'defenderStart=2'],
  ],
  [
    'no guarantee at 6+, four defending platoons in reserve without an ambush, the check at turn 3',
    [
      'turns=4',
      'endTurn=3',
      'guarantee=0',
      'hit=6',
      'attackerPlatoons=2',
      'defenderPlatoons=4',
      'ambush=false',
      'defenderReserves=4',
      'defenderStart=2',
    ],
  ],
];

describe('fow: platoons on the table and the turn of the last arrival, exactly the brute force', () => {
  for (const [what, settings] of CASES) {
    it(`${what}: every P(on the table = v by turn t), P(last = t) and the end check`, () => {
      const params = resolveParams(fow, settings);
      const result = exactResult(fow, params, 's');
      const turns = params.turns as number;
      const endTurn = params.endTurn as number;
      const followed = Math.max(turns, endTurn);
      for (const side of ['attacker', 'defender'] as const) {
        const platoons = params[`${side}Platoons`] as number;
        const reserves = params[`${side}Reserves`] as number;
        const start = params[`${side}Start`] as number;
        const brute = bruteForce(
          { platoons, reserves, start },
          params.hit as number,
          params.guarantee as number,
          turns,
          followed,
        );
        for (let t = 1; t <= turns; t++)
          expect(listed(result, `${side}.onTable.${t}.mean`), `${side} turn ${t}`).toEqual(
            nonZero(brute.onTable[t - 1]),
          );
        expect(listed(result, `${side}.last.arrival`), `${side} last arrival`).toEqual(nonZero(brute.last));
        // The mean each reports is the mean of that distribution, exactly.
        let mean = Fraction.ZERO;
        for (const [value, chance] of brute.last) mean = mean.add(chance.mul(Fraction.of(value)));
        expect(fow.exact?.values(params)[`${side}.last.arrival`].toString()).toBe(mean.toString());
        // The defender's check at the start of its turn endTurn reads its reserves after turn endTurn − 1.
        if (side === 'defender')
          expect(listed(result, 'defender.onTable.atEnd.mean')).toEqual(nonZero(brute.onTable[endTurn - 2]));
      }
    });
  }

  it("the defender's last platoon at the defaults: turn 7 with chance 2560/19683, never later", () => {
    // From fow-exact.test.ts's hand-worked case: not all in by turn 6 with 2560/19683, all in by turn 7.
    const d = listed(exactResult(fow, resolveParams(fow, []), 's'), 'defender.last.arrival');
    expect(d.get(7)).toBe('2560/19683');
    expect(d.has(8) || d.has(9)).toBe(false);
  });

  it('thirty reserve platoons (no cap): the distribution of platoons on the table by turn 8 adds up to 1', () => {
    const params = resolveParams(fow, ['attackerPlatoons=30', 'attackerReserves=30']);
    const d = exactResult(fow, params, 's').distributions?.['attacker.onTable.8.mean'];
    let total = Fraction.ZERO;
    for (const v of d?.values ?? []) total = total.add(fraction(v.fraction as string));
    expect(total.toString()).toBe('1');
    expect(d?.values[0].value).toBeGreaterThanOrEqual(0);
    expect(d?.values.at(-1)?.value).toBeLessThanOrEqual(30);
  });
});

function fraction(text: string): Fraction {
  const [numerator, denominator = '1'] = text.split('/');
  return Fraction.of(BigInt(numerator), BigInt(denominator));
}

describe('fow: the simulated distributions against the exact ones', () => {
  const trials = 100_000;
  for (const stream of [2, 5] as const) {
    it(`seed "platoons", stream ${stream}, ${trials.toLocaleString('en')} trials: every P(=v) and P(≥v) within 5σ`, async () => {
      const params = resolveParams(fow, ['turns=6']);
      const result = await simulateRunInThread(fow, params, {
        seed: 'platoons',
        stream,
        threads: 1,
        confidence: 0.95,
        trials,
      });
      const names = Object.keys(result.distributions ?? {});
      // Two sides × (6 turns + the last arrival) + the defender at the end check.
      expect(names.length).toBe(15);
      let compared = 0;
      for (const name of names) {
        const d = result.distributions?.[name];
        if (!d) continue;
        expect(
          d.values.reduce((sum, v) => sum + (v.count as number), 0),
          name,
        ).toBe(trials);
        for (const v of d.values)
          for (const chance of [v, v.atLeast]) {
            // 5σ (countPlausible): about 120 comparisons here, so a correct build fails by chance about
            // once in 15,000 seeds (5.7e-7 each); an exact chance of 0 or 1 has no spread, and must be met exactly.
            const count = Math.round((chance.estimate as number) * trials);
            expect(countPlausible(count, trials, chance.exact as number), `${name} ${v.value}: ${count}`).toBe(true);
            compared++;
          }
      }
      expect(compared).toBeGreaterThan(50);
    });
  }
});
