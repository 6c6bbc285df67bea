/**
 * The rule files' dice (src/rule-files/dice.ts) step xoshiro128** themselves for `d` and `below`. They must
 * give exactly the dice of the stream's own `roll` and `below` (pinned by test/engine/golden-streams.test.ts), in any mix
 * with the calls that still go through the stream (count, random, chance), on every stream, and across chunks when
 * one ChunkDice is handed each chunk's stream in turn. The reference here is a second generator at the same key,
 * drawn through its own methods, and an xoshiro128** written from Blackman and Vigna's reference code.
 */
import { describe, expect, it } from 'vitest';
import type { Rng, StreamVersion } from '../../src/contract/types.js';
import { chunkStream, chunkStreams, MAX_BOUND, xoshiroState } from '../../src/engine/random.js';
import { BadDice, ChunkDice } from '../../src/rule-files/dice.js';
import { drawChance } from '../../src/rules/chance-draw.js';

/** A fixed script of calls: a small LCG (Numerical Recipes' constants) picks each call and its argument. */
function script(seed: number, length: number): Array<[string, number, number, number]> {
  let x = seed >>> 0;
  const next = (n: number) => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x % n;
  };
  const sides = [1, 2, 3, 6, 6, 6, 10, 12, 20, 100, 1296, 4095, MAX_BOUND];
  const pick = () => (next(4) === 0 ? 1 + next(MAX_BOUND) : sides[next(sides.length)]);
  return Array.from({ length }, () => {
    const kind = ['d', 'd', 'd', 'below', 'below', 'count', 'random', 'chance'][next(8)];
    return [kind, pick(), next(9), next(7)];
  });
}

const chances = [0.15, 0.5, 1 / 3, 0.999, 0, 1];

function play(rng: Rng, dice: ChunkDice | null, calls: Array<[string, number, number, number]>): number[] {
  return calls.map(([kind, sides, n, t]) => {
    if (kind === 'd') return dice ? dice.d(sides) : rng.roll(sides);
    if (kind === 'below') return dice ? dice.below(sides) : rng.below(sides);
    if (kind === 'count') return dice ? dice.count(n, sides, t) : rng.count(n, sides, t);
    if (kind === 'random') return dice ? dice.random() : rng();
    const p = chances[n % chances.length];
    return +(dice ? dice.chance(p) : drawChance(rng, p));
  });
}

describe('ChunkDice', () => {
  const versions: StreamVersion[] = [1, 2, 3, 4];
  it.each(versions)('stream %i: every call in a mixed script gives what the stream itself gives', (version) => {
    for (const seed of [1, 2, 3]) {
      const calls = script(seed, 4000);
      const rng = chunkStream('dice', 'rule', seed, version);
      const reference = chunkStream('dice', 'rule', seed, version);
      // The stream's own next output after the script agrees too: the dice and the stream share one state.
      const mine = [...play(rng, new ChunkDice(rng), calls), rng()];
      expect(mine).toEqual([...play(reference, null, calls), reference()]);
    }
  });

  it.each([2, 3, 4] as StreamVersion[])(
    'stream %i: one ChunkDice handed chunk after chunk reads each from its start',
    (version) => {
      const streams = chunkStreams();
      const dice = new ChunkDice(chunkStream('warm', 'rule', 0, 1));
      for (let chunk = 0; chunk < 4; chunk++) {
        const calls = script(100 + chunk, 500);
        dice.rng = streams.chunk(version, 's', 'rule', chunk);
        const mine = [...play(dice.rng, dice, calls), dice.rng()];
        const fresh = chunkStream('s', 'rule', chunk, version);
        expect(mine).toEqual([...play(fresh, null, calls), fresh()]);
      }
    },
  );

  it('d(sides) is 1 + ⌊sides·u⌋ of the next xoshiro128** output u, from the reference code', () => {
    const rng = chunkStream('ref', 'rule', 7, 3);
    const state = Uint32Array.from(xoshiroState(rng) as Int32Array);
    // Blackman and Vigna, xoshiro128starstar.c: result = rotl(s[1] * 5, 7) * 9, then the state update.
    const rotl = (x: number, k: number) => ((x << k) | (x >>> (32 - k))) >>> 0;
    const reference = () => {
      const result = Math.imul(rotl(Math.imul(state[1], 5) >>> 0, 7), 9) >>> 0;
      const t = (state[1] << 9) >>> 0;
      state[2] ^= state[0];
      state[3] ^= state[1];
      state[1] ^= state[2];
      state[0] ^= state[3];
      state[2] ^= t;
      state[3] = rotl(state[3], 11);
      return result;
    };
    const dice = new ChunkDice(rng);
    for (const sides of [6, 20, 3, MAX_BOUND, 1, 7]) {
      for (let k = 0; k < 200; k++) expect(dice.d(sides)).toBe(1 + Math.floor((sides * reference()) / 2 ** 32));
    }
  });

  it.each([2, 3, 4] as StreamVersion[])(
    'stream %i: below draws again where Lemire rejects, as the stream does',
    (version) => {
      // The bounds up to MAX_BOUND whose 2^20 mod b is largest: a draw is rejected about once in 330 there.
      const bounds = Array.from({ length: MAX_BOUND }, (_, i) => i + 1)
        .sort((a, b) => (2 ** 20 % b) - (2 ** 20 % a))
        .slice(0, 3);
      const calls = Array.from({ length: 30000 }, (_, k) => bounds[k % 3]);
      const dice = new ChunkDice(chunkStream('lemire', 'rule', 0, version));
      const reference = chunkStream('lemire', 'rule', 0, version);
      expect(calls.map((bound) => dice.below(bound))).toEqual(calls.map((bound) => reference.below(bound)));
      // The raw outputs, read a third time: rejections happened (each bound's chance of none is below e^-30).
      const raw = chunkStream('lemire', 'rule', 0, version);
      let rejected = 0;
      for (const bound of calls) {
        for (;;) {
          const product = Math.floor(raw() * 2 ** 20) * bound;
          if (product % 2 ** 20 >= 2 ** 20 % bound) break;
          rejected++;
        }
      }
      expect(rejected).toBeGreaterThan(10);
    },
  );

  it.each(versions)('stream %i: a bad sides or bound is refused, naming the call, and draws nothing', (version) => {
    const rng = chunkStream('bad', 'rule', 0, version);
    const dice = new ChunkDice(rng);
    const before = chunkStream('bad', 'rule', 0, version);
    for (const bad of [0, -6, MAX_BOUND + 1, 6.5, Number.NaN, Number.POSITIVE_INFINITY, '6', null, undefined, true]) {
      for (const [call, draw] of [
        ['dice.d', () => dice.d(bad as number)],
        ['dice.below', () => dice.below(bad as number)],
      ] as const) {
        let thrown: unknown;
        try {
          draw();
        } catch (error) {
          thrown = error;
        }
        expect(thrown).toBeInstanceOf(BadDice);
        expect((thrown as BadDice).call).toBe(call);
        expect((thrown as BadDice).value).toBe(bad);
      }
    }
    expect(dice.d(6)).toBe(before.roll(6));
  });
});
