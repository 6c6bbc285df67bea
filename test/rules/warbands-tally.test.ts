import { describe, expect, it } from 'vitest';
import type { Rng } from '../../src/contract/types.js';
import { resolveParams } from '../../src/rules/params.js';
import { warbands } from '../../src/rules/warbands/warbands.js';

/** A generator that plays back the given uniforms, then fails: a hand-worked trial, die by die. */
/** A stream-1 Rng that plays back the given uniforms: one a die, as stream 1 draws them. */
function playback(uniforms: number[]): Rng {
  let next = 0;
  const random = () => {
    if (next >= uniforms.length) throw new Error('the trial drew more dice than worked out by hand');
    return uniforms[next++];
  };
  const roll = (sides: number) => 1 + Math.floor(random() * sides);
  return Object.assign(random, {
    stream: 1 as const,
    roll,
    count: (n: number, sides: number, atLeast: number) =>
      Array.from({ length: n }, () => roll(sides)).filter((face) => face >= atLeast).length,
    below: (bound: number) => Math.floor(random() * bound),
  });
}

// A die is 1 + ⌊6u⌋: u = 0.5 shows 4, u = 0.1 shows 1, u = 0.9 shows 6.
const FOUR = 0.5;
const ONE = 0.1;
const SIX = 0.9;

describe('warbands counts long roll-offs exactly', () => {
  it('defaults (152:9 defends alone; 148:11 and 120:8 roll for setup): a 100-fold tie, then two short trials', () => {
    const params = resolveParams(warbands);
    const tally = new Float64Array(warbands.tally.length(params));
    // Trial 1: the setup pair ties 100 times (200 dice, beyond the dice histogram), then 1 against 6:
    // warband 3 sets up second and warband 2 third. First turn: 1, 6, 1 — warband 2, three dice.
    const trial1 = [...Array<number>(200).fill(FOUR), ONE, SIX, ONE, SIX, ONE];
    // Trial 2: setup 6 against 1 (warband 2 second), two dice; first turn 6, 6, 1 then 1, 6: warband 2, five dice.
    const trial2 = [SIX, ONE, SIX, SIX, ONE, ONE, SIX];
    // Trial 3: setup 1 against 6, two dice; first turn 1, 1, 6: warband 3, three dice.
    const trial3 = [ONE, SIX, ONE, ONE, SIX];
    warbands.tally.simulate(params, playback([...trial1, ...trial2, ...trial3]), 3, tally);
    const tallied = warbands.tally.summarize(params, tally, 3);
    expect(tallied['dice.setup.mean']).toMatchObject({
      kind: 'mean',
      sum: 202 + 2 + 2,
      sumOfSquares: 202 ** 2 + 4 + 4,
      count: 3,
    });
    expect(tallied['dice.first.mean']).toMatchObject({
      kind: 'mean',
      sum: 3 + 5 + 3,
      sumOfSquares: 9 + 25 + 9,
      count: 3,
    });
    expect(tallied['dice.defender.mean']).toMatchObject({ kind: 'mean', sum: 0, sumOfSquares: 0, count: 3 });
    // The whole distributions: 202 dice lie beyond the histogram, counted there as one trial.
    const histogram = (name: string) => {
      const counted = tallied[name];
      if (counted.kind !== 'mean' || !counted.histogram) throw new Error(`${name}: no histogram`);
      const listed = new Map<number, number>();
      Array.from(counted.histogram.counts).forEach((count, at) => {
        if (count > 0) listed.set((counted.histogram?.min ?? 0) + at, count);
      });
      return { listed, beyond: counted.histogram.beyond };
    };
    expect(histogram('dice.setup.mean')).toEqual({ listed: new Map([[2, 2]]), beyond: 1 });
    expect(histogram('dice.first.mean')).toEqual({
      listed: new Map([
        [3, 2],
        [5, 1],
      ]),
      beyond: 0,
    });
    expect(histogram('dice.defender.mean')).toEqual({ listed: new Map([[0, 3]]), beyond: 0 });
    const successes = (name: string) => (tallied[name] as { successes: number }).successes;
    expect([1, 2, 3].map((w) => successes(`w${w}.defender`))).toEqual([3, 0, 0]);
    expect([1, 2, 3].map((w) => [1, 2, 3].map((k) => successes(`w${w}.setup.${k}`)))).toEqual([
      [3, 0, 0],
      [0, 1, 2],
      [0, 2, 1],
    ]);
    expect([1, 2, 3].map((w) => successes(`w${w}.first`))).toEqual([0, 2, 1]);
  });
});
