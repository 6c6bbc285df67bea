/**
 * dice.highest(n, sides, keep) and dice.lowest(n, sides, keep): the total of the `keep` highest (or lowest) of n
 * dice. Enumerated, one branch per kept total, weighted by the ways it falls (dice-expression.ts's keptWays);
 * simulated, the dice read from below() draws as dice.sum reads them. The oracles: every sequence of faces walked
 * here and sorted, a count by multisets, a d20 with advantage by hand, a second stream at the same key read by the
 * documented digits, and simulation within 5σ of the exact values (fixed seed).
 */
import { describe, expect, it } from 'vitest';
import type { Params, Rule } from '../../src/contract/types.js';
import { chunkStream } from '../../src/engine/random.js';
import { keptWays } from '../../src/exact/dice-expression.js';
import { NotEnumerable } from '../../src/exact/replay-dice.js';
import { BadDice, ChunkDice } from '../../src/rule-files/dice.js';
import {
  exactTexts,
  expectDocumentedDraws,
  expectSimulationNearExact,
  faceSequences,
  fileRule,
  fractionText,
} from '../support/rule-file-exact.js';

type Out = Record<string, unknown>;
interface KeepingDice {
  highest(n: number, sides: number, keep: number): number;
  lowest(n: number, sides: number, keep: number): number;
}

const rule = (spec: Record<string, unknown>): Rule => fileRule('kept-test', 'kept dice test', spec);

/** The total of the `keep` highest (or lowest) faces: sorted and added up. */
function keptOf(faces: readonly number[], keep: number, highest: boolean): number {
  const sorted = [...faces].sort((a, b) => (highest ? b - a : a - b));
  return sorted.slice(0, keep).reduce((a, b) => a + b, 0);
}

describe('the ways the kept dice total', () => {
  it('equal a count over every sequence of faces, sorted, for up to 5 dice of up to 6 faces and every keep', () => {
    for (let dice = 0; dice <= 5; dice++)
      for (let sides = 1; sides <= 6; sides++)
        for (let keep = 0; keep <= dice; keep++) {
          const counted = new Array<bigint>(keep * (sides - 1) + 1).fill(0n);
          for (const faces of faceSequences(dice, sides)) counted[keptOf(faces, keep, true) - keep]++;
          expect(keptWays(dice, sides, keep), `${keep} highest of ${dice}d${sides}`).toEqual(counted);
        }
  });

  it('of 3 of 7d10 and 2 of 6d12, as the 10^7 and 12^6 sequences are too many to walk: by faces counted', () => {
    // A second count, by multisets: each multiset of faces is C(n; m_1 … m_S) sequences (the multinomial).
    const byMultisets = (dice: number, sides: number, keep: number): bigint[] => {
      const counted = new Array<bigint>(keep * (sides - 1) + 1).fill(0n);
      const factorial = (m: number): bigint => (m <= 1 ? 1n : BigInt(m) * factorial(m - 1));
      const walk = (face: number, left: number, chosen: number[]) => {
        if (face === 0) {
          if (left > 0) return;
          let ways = factorial(dice);
          for (const m of chosen) ways /= factorial(m);
          const faces = chosen.flatMap((m, i) => new Array<number>(m).fill(sides - i));
          counted[keptOf(faces, keep, true) - keep] += ways;
          return;
        }
        for (let m = 0; m <= left; m++) walk(face - 1, left - m, [...chosen, m]);
      };
      walk(sides, dice, []);
      return counted;
    };
    expect(keptWays(7, 10, 3)).toEqual(byMultisets(7, 10, 3));
    expect(keptWays(6, 12, 2)).toEqual(byMultisets(6, 12, 2));
  });
});

describe('enumerated: one branch per kept total', () => {
  it('a d20 with advantage, 4d6 drop the lowest and the lowest 2 of 3d6, as the sequences give them', () => {
    const kept = rule({
      metrics: [
        { name: 'advantage.mean', probability: false },
        { name: 'advantage.15', probability: true },
        { name: 'stat.mean', probability: false },
        { name: 'stat.16', probability: true },
        { name: 'low.mean', probability: false },
      ],
      trial(dice: KeepingDice, _: Params, out: Out) {
        const advantage = dice.highest(2, 20, 1);
        out['advantage.mean'] = advantage;
        out['advantage.15'] = advantage >= 15;
        const stat = dice.highest(4, 6, 3);
        out['stat.mean'] = stat;
        out['stat.16'] = stat >= 16;
        out['low.mean'] = dice.lowest(3, 6, 2);
      },
    });
    const tally = (dice: number, sides: number, keep: number, highest: boolean, least: number) => {
      let total = 0;
      let reach = 0;
      for (const faces of faceSequences(dice, sides)) {
        const value = keptOf(faces, keep, highest);
        total += value;
        reach += value >= least ? 1 : 0;
      }
      return { mean: fractionText(total, sides ** dice), reach: fractionText(reach, sides ** dice) };
    };
    const advantage = tally(2, 20, 1, true, 15);
    const stat = tally(4, 6, 3, true, 16);
    const low = tally(3, 6, 2, false, 0);
    expect(exactTexts(kept)).toEqual({
      'advantage.mean': advantage.mean,
      'advantage.15': advantage.reach,
      'stat.mean': stat.mean,
      'stat.16': stat.reach,
      'low.mean': low.mean,
    });
    // By hand: a d20 with advantage misses 15+ only when both dice do, (14/20)² = 49/100; its mean is 1 + Σ P(≥ t).
    expect(exactTexts(kept)['advantage.15']).toBe('51/100');
    expect(exactTexts(kept)['stat.mean']).toBe('15869/1296'); // 4d6 drop the lowest: 12.24…, the known figure
  });

  it('the edges: keep none, keep all (the sum), a one-faced die, no dice', () => {
    const edges = rule({
      metrics: ['none', 'all', 'ones', 'empty'].map((name) => ({ name, probability: false })),
      trial(dice: KeepingDice, _: Params, out: Out) {
        out.none = dice.highest(5, 6, 0);
        out.all = dice.lowest(3, 6, 3);
        out.ones = dice.highest(4, 1, 2);
        out.empty = dice.lowest(0, 6, 0);
      },
    });
    expect(exactTexts(edges)).toEqual({ none: '0', all: '21/2', ones: '2', empty: '0' });
  });

  it('a bad argument is one line naming it; too much to count is a refusal, not a stall', () => {
    const calling = (call: (dice: KeepingDice) => number) =>
      rule({
        metrics: [{ name: 'x', probability: false }],
        trial(dice: KeepingDice, _: Params, out: Out) {
          out.x = call(dice);
        },
      });
    expect(() => exactTexts(calling((dice) => dice.highest(3, 6, 4)))).toThrow(
      /dice\.highest: keep: got 4; allowed: a whole number of dice from 0 to n \(3\)/,
    );
    expect(() => exactTexts(calling((dice) => dice.lowest(-1, 6, 0)))).toThrow(/dice\.lowest: n: got -1; allowed/);
    expect(() => exactTexts(calling((dice) => dice.highest(2, 0, 1)))).toThrow(/dice\.highest: sides: got 0; allowed/);
    expect(() => exactTexts(calling((dice) => dice.highest(2, 6, 1.5)))).toThrow(/dice\.highest: keep: got 1\.5/);
    const huge = calling((dice) => dice.highest(200, 20, 100));
    expect(() => exactTexts(huge)).toThrow(NotEnumerable);
    expect(() => exactTexts(huge)).toThrow(/dice\.highest of 100 of 200 dice of 20 faces has more kept totals/);
    // One die kept, but each face's powers hundreds of words long (4096 faces to the 4096th): refused, not counted
    // (counted, it would give values, not throw).
    expect(() => exactTexts(calling((dice) => dice.lowest(4096, 4096, 1)))).toThrow(NotEnumerable);
  });
});

describe('in the step form: a stat rolled again until it is good enough', () => {
  // 4d6 drop the lowest, rolled again below 10: the stat is the roll given that it reached 10, and the rolls are
  // 1 / P(≥ 10). Both counted here over the 1,296 sequences.
  const rerolled = rule({
    metrics: [
      { name: 'stat.mean', probability: false },
      { name: 'rolls.mean', probability: false },
    ],
    start: () => ({ stat: 0 }),
    step(_: unknown, dice: KeepingDice, __: Params, out: Out) {
      out['rolls.mean'] = 1;
      return { stat: dice.highest(4, 6, 3) };
    },
    done: (state: { stat: number }) => state.stat >= 10,
    report(state: { stat: number }, _: Params, out: Out) {
      out['stat.mean'] = state.stat;
    },
  });

  it('equals the sequences: E[stat | stat ≥ 10] and 1 / P(stat ≥ 10) rolls', () => {
    let reach = 0;
    let total = 0;
    for (const faces of faceSequences(4, 6)) {
      const stat = keptOf(faces, 3, true);
      if (stat < 10) continue;
      reach++;
      total += stat;
    }
    expect(exactTexts(rerolled)).toEqual({
      'stat.mean': fractionText(total, reach),
      'rolls.mean': fractionText(6 ** 4, reach),
    });
  });
});

describe('simulated: the dice read as dice.sum reads them, from below() draws', () => {
  it('highest and lowest read g dice a draw as base-sides digits, on every stream', () => {
    expectDocumentedDraws('kept', (dice, faces) => {
      for (let call = 0; call < 200; call++) {
        // d6: 4 a draw (6^4 = 1296); d20: 2 (400; 8000 is past 4096).
        expect(dice.highest(7, 6, 3)).toBe(keptOf(faces(7, 6, 4), 3, true));
        expect(dice.lowest(3, 20, 1)).toBe(keptOf(faces(3, 20, 2), 1, false));
        expect(dice.highest(2, 1, 2)).toBe(2); // a one-faced die draws nothing
      }
    });
  });

  it('a bad argument throws BadDice naming it', () => {
    const dice = new ChunkDice(chunkStream('bad', 'rule', 1, 5));
    expect(() => dice.highest(2, 6, 3)).toThrow(BadDice);
    expect(() => dice.lowest(5000, 6, 1)).toThrow(BadDice);
    expect(() => dice.highest(2, 5000, 1)).toThrow(BadDice);
    expect(() => dice.lowest(2, 6, Number.NaN)).toThrow(BadDice);
  });

  it('seed "kept": simulation within 5σ of exact, on streams 1 and 5', () => {
    const kept = rule({
      metrics: [
        { name: 'stat.mean', probability: false },
        { name: 'advantage.18', probability: true },
        { name: 'disadvantage.5', probability: true },
      ],
      trial(dice: KeepingDice, _: Params, out: Out) {
        out['stat.mean'] = dice.highest(4, 6, 3);
        out['advantage.18'] = dice.highest(2, 20, 1) >= 18;
        out['disadvantage.5'] = dice.lowest(2, 20, 1) <= 5;
      },
    });
    expectSimulationNearExact(kept, 'kept', [], [1, 5]);
  });
});
