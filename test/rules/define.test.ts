import { describe, expect, it } from 'vitest';
import type { ParamSpec } from '../../src/contract/types.js';
import { UsageError } from '../../src/errors.js';
import { defineBuiltin, slotsOf } from '../../src/rules/define.js';
import { infinity } from '../../src/rules/infinity/infinity.js';
import { noctvale } from '../../src/rules/noctvale.js';
import { resolveParams } from '../../src/rules/params.js';
import type { Tallied } from '../../src/stats/estimate.js';

// A one-die roll-off written through the helper, as a new built-in would be: A wins on a higher d6, ties roll again.
const rollOff = defineBuiltin({
  id: 'roll-off',
  title: 'Roll-off',
  summary: 'two players roll a die, the higher wins, ties again',
  source: 'a hand-worked example',
  params: [
    { name: 'sides', type: 'integer', default: 6, min: 2, max: 20, doc: 'faces of the die' },
    { name: 'bonusA', type: 'integer', default: 0, min: 0, max: 19, doc: "added to A's roll" },
  ] as const satisfies readonly ParamSpec[],
  validate: (p) =>
    p.bonusA >= p.sides ? `bonusA: got ${p.bonusA}; allowed: 0 to sides − 1 (${p.sides - 1})` : undefined,
  metrics: () => [
    { name: 'a.wins', doc: 'A wins', probability: true },
    { name: 'rolls.mean', doc: 'rolls until one wins', probability: false },
  ],
  trial(dice, p, out) {
    for (let rolls = 1; ; rolls++) {
      const a = dice.d(p.sides) + p.bonusA;
      const b = dice.d(p.sides);
      if (a === b) continue;
      out['a.wins'] = +(a > b);
      out['rolls.mean'] = rolls;
      return;
    }
  },
  simulate(p, rng, trials, tally, at) {
    for (let trial = 0; trial < trials; trial++) {
      let rolls = 0;
      let a = 0;
      let b = 0;
      do {
        rolls++;
        a = rng.roll(p.sides) + p.bonusA;
        b = rng.roll(p.sides);
      } while (a === b);
      tally[at['a.wins']] += +(a > b);
      tally[at['rolls.mean']] += rolls;
      tally[at['rolls.mean'] + 1] += rolls * rolls;
    }
  },
});

describe('defineBuiltin: one contract for a built-in rule', () => {
  it('validate returns what is wrong, and --set refuses it as a UsageError with that line', () => {
    expect(() => resolveParams(rollOff, ['bonusA=6'])).toThrow(
      new UsageError('bonusA: got 6; allowed: 0 to sides − 1 (5)'),
    );
    expect(resolveParams(rollOff, ['bonusA=5']).bonusA).toBe(5);
  });

  it('lays the tally out from the metrics: a slot for a probability, a sum and a square for a mean', () => {
    const params = resolveParams(rollOff);
    expect(rollOff.tally.length(params)).toBe(3);
    // Hand-worked: slot 0 A's wins, slots 1 and 2 the rolls' sum and sum of squares.
    const tally = Float64Array.from([7, 12, 20]);
    expect(rollOff.tally.summarize(params, tally, 10)).toEqual({
      'a.wins': { kind: 'proportion', successes: 7, trials: 10 },
      'rolls.mean': { kind: 'mean', sum: 12, sumOfSquares: 20, count: 10 },
    });
  });

  it("refuses a rule's own summarize that leaves out a metric or reads one it does not list", () => {
    const base = {
      id: 'own',
      title: 'Own tally',
      summary: 'a rule counting outcomes',
      source: 'a hand-worked example',
      params: [] as const,
      metrics: () => [{ name: 'x', doc: '', probability: true }],
      trial: () => {},
      simulate: () => {},
    };
    const summarizing = (read: Record<string, Tallied>) =>
      defineBuiltin({ ...base, tally: { length: () => 1, summarize: () => read } });
    const x: Tallied = { kind: 'proportion', successes: 1, trials: 2 };
    expect(summarizing({ x }).tally.summarize({}, new Float64Array(1), 2)).toEqual({ x });
    expect(() => summarizing({}).tally.summarize({}, new Float64Array(1), 2)).toThrow('own: summarize reads no x');
    expect(() => summarizing({ x, y: x }).tally.summarize({}, new Float64Array(1), 2)).toThrow(
      'own: summarize reads y, not a metric',
    );
  });

  it('reads params only once every declared one is resolved', () => {
    expect(rollOff.read(resolveParams(rollOff)).sides).toBe(6);
    expect(() => rollOff.read({ sides: 6 })).toThrow(/bonusA is undefined, not resolved/);
    expect(() => rollOff.read({ sides: '6', bonusA: 0 })).toThrow(/sides is "6", not resolved/);
  });

  it('refuses a tally order that names a metric twice or leaves one out', () => {
    const metrics = [
      { name: 'x', doc: '', probability: true },
      { name: 'y', doc: '', probability: false },
    ];
    expect(slotsOf(metrics, ['y', 'x'])).toEqual({ at: { y: 0, x: 2 }, length: 3 });
    expect(() => slotsOf(metrics, ['x', 'x', 'y'])).toThrow(/names x twice/);
    expect(() => slotsOf(metrics, ['x'])).toThrow(/leaves out y/);
  });

  it('keeps the tally layouts shards were written in (infinity 7 slots either way, noctvale 4 + 4 a group)', () => {
    // The lengths and offsets the hand-written layouts had before the helper (git show 0b0ff5c).
    for (const crits of ['true', 'false'])
      expect(infinity.tally.length(resolveParams(infinity, [`crits=${crits}`]))).toBe(7);
    // The roll-offs' histogram (1,000 values and the count beyond them) comes after, every offset kept.
    for (const groups of [1, 3, 10])
      expect(noctvale.tally.length(resolveParams(noctvale, [`groups=${groups}`]))).toBe(4 + 4 * groups + 1001);
    // noctvale: a.placesLast at 3, A's group g sum at 4 + 2g, B's after A's.
    const params = resolveParams(noctvale, ['groups=2']);
    const tally = Float64Array.from({ length: 12 + 1001 }, (_, i) => (i < 12 ? i + 1 : 0));
    const read = noctvale.tally.summarize(params, tally, 20);
    expect(read['a.placesLast']).toEqual({ kind: 'proportion', successes: 4, trials: 20 });
    expect(read['a.group.2.size']).toEqual({ kind: 'mean', sum: 7, sumOfSquares: 8, count: 20 });
    expect(read['b.group.1.size']).toEqual({ kind: 'mean', sum: 9, sumOfSquares: 10, count: 20 });
  });
});
