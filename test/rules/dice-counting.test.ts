/**
 * The counting primitives a rule file's dice offer beside d and count(n, sides, atLeast): dice.sum(n, sides), the
 * total of n dice, and dice.count(n, 'KdS', atLeast), the rolls of a sum of K dice that reach atLeast. Enumerated,
 * each is one branch per total or per number of rolls (replay-dice.ts); simulated, each reads its dice from below()
 * draws as rule-files/dice.ts documents. The oracles: loops over every sequence of faces written here, the closed
 * form of 2d6 reserves (squads arrive independently: P(all in) = (1 − miss)^n), a second stream at the same key
 * read through below() by the documented digits, and simulation within 5σ of the exact values (fixed seeds).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Params, Rule } from '../../src/contract/types.js';
import { chunkStream } from '../../src/engine/random.js';
import { totalWays } from '../../src/exact/dice-expression.js';
import { NotEnumerable } from '../../src/exact/replay-dice.js';
import { BadDice, ChunkDice } from '../../src/rule-files/dice.js';
import { loadRule } from '../../src/rule-files/load.js';
import {
  exactTexts as exactOf,
  expectDocumentedDraws,
  expectSimulationNearExact,
  fractionText as f,
  fileRule,
  faceSequences as sequences,
} from '../support/rule-file-exact.js';

type Out = Record<string, unknown>;
interface CountingDice {
  d(sides: number): number;
  count(n: number, sides: number | string, atLeast: number): number;
  sum(n: number, sides: number): number;
}

const example = (name: string) => fileURLToPath(new URL(`../../examples/rules/${name}.mjs`, import.meta.url));
const rule = (spec: Record<string, unknown>): Rule => fileRule('count-test', 'counting test', spec);

describe('the ways a sum of dice falls', () => {
  it('equal a count over every sequence of faces', () => {
    for (const [dice, sides] of [
      [1, 6],
      [2, 6],
      [3, 6],
      [4, 4],
      [2, 20],
      [5, 3],
      [3, 1],
    ]) {
      const counted = new Array<bigint>(dice * (sides - 1) + 1).fill(0n);
      for (const faces of sequences(dice, sides)) counted[faces.reduce((a, b) => a + b, 0) - dice]++;
      expect(totalWays(dice, sides), `${dice}d${sides}`).toEqual(counted);
    }
  });
});

describe('enumerated: one branch per total, one per number of rolls that reach the test', () => {
  it('dice.sum(3, 6): the mean 21/2 and P(total ≥ 12) = 81/216, as the 216 sequences give them', () => {
    const summed = rule({
      metrics: [
        { name: 'total.mean', probability: false },
        { name: 'twelve', probability: true },
      ],
      trial(dice: CountingDice, _: Params, out: Out) {
        const total = dice.sum(3, 6);
        out['total.mean'] = total;
        out.twelve = total >= 12;
      },
    });
    let total = 0;
    let twelve = 0;
    for (const faces of sequences(3, 6)) {
      const sum = faces[0] + faces[1] + faces[2];
      total += sum;
      twelve += sum >= 12 ? 1 : 0;
    }
    expect(exactOf(summed)).toEqual({ 'total.mean': f(total, 216), twelve: f(twelve, 216) });
    expect(exactOf(summed)).toEqual({ 'total.mean': '21/2', twelve: '3/8' });
  });

  it("dice.count(3, '2d6', 9): each number of rolls as the 6^6 sequences of six dice give it", () => {
    const counted = rule({
      metrics: [
        { name: 'hits.mean', probability: false },
        { name: 'two.or.more', probability: true },
      ],
      trial(dice: CountingDice, _: Params, out: Out) {
        const hits = dice.count(3, '2d6', 9);
        out['hits.mean'] = hits;
        out['two.or.more'] = hits >= 2;
      },
    });
    let hitSum = 0;
    let twoOrMore = 0;
    for (const faces of sequences(6, 6)) {
      let hits = 0;
      for (let roll = 0; roll < 3; roll++) hits += faces[2 * roll] + faces[2 * roll + 1] >= 9 ? 1 : 0;
      hitSum += hits;
      twoOrMore += hits >= 2 ? 1 : 0;
    }
    expect(exactOf(counted)).toEqual({ 'hits.mean': f(hitSum, 6 ** 6), 'two.or.more': f(twoOrMore, 6 ** 6) });
    // By hand: 2d6 ≥ 9 is 10 of 36 = 5/18, so 3 · 5/18 = 5/6 rolls.
    expect(exactOf(counted)['hits.mean']).toBe('5/6');
  });

  it("the edges: a test no total reaches, one every total reaches, no rolls, 'd6' as one die", () => {
    const edges = rule({
      metrics: ['none', 'all', 'zero', 'one', 'empty'].map((name) => ({ name, probability: false })),
      trial(dice: CountingDice, _: Params, out: Out) {
        out.none = dice.count(4, '2d6', 13);
        out.all = dice.count(4, '2d6', 2);
        out.zero = dice.count(0, '3d6', 10);
        out.one = dice.count(6, 'd6', 6); // as dice.count(6, 6, 6): 6 · 1/6
        out.empty = dice.sum(0, 6);
      },
    });
    expect(exactOf(edges)).toEqual({ none: '0', all: '4', zero: '0', one: '1', empty: '0' });
  });

  it('a bad expression is one line naming the argument; too many totals is a refusal, not a stall', () => {
    const bad = (sides: unknown) =>
      rule({
        metrics: [{ name: 'x', probability: false }],
        trial(dice: CountingDice, _: Params, out: Out) {
          out.x = dice.count(2, sides as string, 7);
        },
      });
    for (const sides of ['2d', 'd0', '2d6+1', '0d6', '100d100', ' 2d6']) {
      expect(() => exactOf(bad(sides)), sides).toThrow(/dice\.count: sides: got .*; allowed: .*'KdS'/);
    }
    const huge = rule({
      metrics: [{ name: 'x', probability: false }],
      trial(dice: CountingDice, _: Params, out: Out) {
        out.x = dice.sum(1000, 6);
      },
    });
    expect(() => exactOf(huge)).toThrow(NotEnumerable);
    expect(() => exactOf(huge)).toThrow(/dice\.sum of 1000 dice of 6 faces has more totals/);
  });
});

describe('examples/rules/reserves-2d6-rounds.mjs: 2d6 reserves, a round a step', () => {
  it('equals the per-squad step form and the walk-through exact(), fraction for fraction', async () => {
    const rounds = await loadRule(example('reserves-2d6-rounds'));
    const steps = await loadRule(example('reserves-2d6-steps'));
    const walk = await loadRule(example('reserves-2d6'));
    expect(rounds.exact?.by).toBe('enumeration');
    for (const set of [
      [],
      ['squads=1'],
      ['squads=5', 'target=12'],
      ['squads=8', 'target=7'],
      ['squads=4', 'target=16'],
    ]) {
      const mine = exactOf(rounds, set);
      expect(mine, set.join(' ') || 'defaults').toEqual(exactOf(steps, set));
      expect(mine, set.join(' ') || 'defaults').toEqual(exactOf(walk, set));
    }
  });

  it('at 150 squads and 6 rounds: the closed form of squads that arrive independently', async () => {
    const rounds = await loadRule(example('reserves-2d6-rounds'));
    const squads = 150n;
    // One squad misses round r on the 2d6 totals below target − r: counted over the 36 pairs, here.
    let miss = 1n;
    let all = 1n;
    for (let round = 1; round <= 6; round++) {
      let ways = 0n;
      for (let a = 1; a <= 6; a++) for (let b = 1; b <= 6; b++) if (a + b + round < 11) ways++;
      miss *= ways;
      all *= 36n;
    }
    expect(exactOf(rounds, ['squads=150', 'rounds=6', 'target=11'])).toEqual({
      'all.by.6': f((all - miss) ** squads, all ** squads),
      'lost.mean': f(squads * miss, all),
    });
  });

  it('seed "rounds": simulation within 5σ of exact, on streams 1 and 5', async () => {
    const rounds = await loadRule(example('reserves-2d6-rounds'));
    expectSimulationNearExact(rounds, 'rounds', ['squads=6', 'target=11'], [1, 5]);
  });
});

describe('simulated: the dice read as documented, from below() draws', () => {
  it('sum and count of an expression read g dice a draw as base-sides digits, on every stream', () => {
    expectDocumentedDraws('count', (dice, faces) => {
      for (let call = 0; call < 200; call++) {
        // d6: 4 a draw (6^4 = 1296); d20: 2 (400; 8000 is past 4096); d100: 1.
        const sumOf = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
        expect(dice.sum(7, 6)).toBe(sumOf(faces(7, 6, 4)));
        expect(dice.sum(3, 20)).toBe(sumOf(faces(3, 20, 2)));
        const pairs = faces(10, 6, 4);
        let hits = 0;
        for (let roll = 0; roll < 5; roll++) hits += pairs[2 * roll] + pairs[2 * roll + 1] >= 8 ? 1 : 0;
        expect(dice.count(5, '2d6', 8)).toBe(hits);
        const hundreds = faces(3, 100, 1);
        expect(dice.count(1, '3d100', 150)).toBe(sumOf(hundreds) >= 150 ? 1 : 0);
      }
    });
  });

  it('a bad argument throws BadDice naming it', () => {
    const dice = new ChunkDice(chunkStream('bad', 'rule', 1, 5));
    expect(() => dice.count(2, '2x6', 7)).toThrow(BadDice);
    expect(() => dice.sum(-1, 6)).toThrow(BadDice);
    expect(() => dice.sum(2, 0)).toThrow(BadDice);
    expect(() => dice.count(1.5, '2d6', 7)).toThrow(BadDice);
    expect(() => dice.count(2, '2d6', Number.NaN)).toThrow(BadDice);
  });
});
