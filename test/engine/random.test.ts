import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { chunkKey, chunkStream, TycheStream } from '../../src/engine/random.js';

/** Keys of every shape the engine makes, and some it never does: empty, long, non-ASCII, lone surrogates. */
function keys(): string[] {
  const list = [
    '',
    'a',
    'muster',
    '0',
    '123',
    '4294967296',
    'muster/reserves/muster/0',
    chunkKey('x'.repeat(300), 'fow', 12345),
  ];
  for (const rule of ['reserves', 'deployment', 'infinity', 'noctvale', 'warbands', 'fow', 'my-rule.mjs']) {
    for (const seed of ['muster', 'threads', '', 'Ünïcødé ✓', '\ud800', '🎲 seed']) {
      for (const chunk of [0, 1, 2, 15, 16, 255, 65_535, 1_000_000]) list.push(chunkKey(seed, rule, chunk));
    }
  }
  // Every single UTF-16 code unit as a one-character key spans the xor's whole input range.
  for (let unit = 0; unit < 0x10000; unit += 257) list.push(String.fromCharCode(unit));
  return list;
}

describe('TycheStream is seedrandom.tychei bit for bit', () => {
  it(`${keys().length} keys, 2,000 draws each: the same uniforms, fresh or from one reseeded stream`, () => {
    const reused = new TycheStream();
    for (const key of keys()) {
      const reference = seedrandom.tychei(key);
      const fresh = new TycheStream(key).random;
      reused.reseed(key);
      for (let draw = 0; draw < 2_000; draw++) {
        const expected = reference();
        const a = fresh();
        const b = reused.random();
        if (a !== expected || b !== expected)
          expect({ key, draw, fresh: a, reused: b }).toEqual({ key, draw, fresh: expected, reused: expected });
      }
    }
  });

  it('a stream reseeded mid-way restarts exactly: nothing of the previous key survives', () => {
    const stream = new TycheStream('first key');
    for (let draw = 0; draw < 12_345; draw++) stream.random();
    stream.reseed('second');
    const reference = seedrandom.tychei('second');
    for (let draw = 0; draw < 100; draw++) expect(stream.random()).toBe(reference());
  });

  it('chunkStream(seed, rule, k) is seedrandom.tychei("muster/rule/seed/k"), the key every release used', () => {
    const rng = chunkStream('s', 'reserves', 3, 1);
    const reference = seedrandom.tychei('muster/reserves/s/3');
    for (let draw = 0; draw < 100; draw++) expect(rng()).toBe(reference());
  });

  it('two chunk streams held at once do not share state', () => {
    const a = chunkStream('s', 'fow', 0, 1);
    const b = chunkStream('s', 'fow', 0, 1);
    const first = [a(), a(), a()];
    expect([b(), b(), b()]).toEqual(first);
  });
});
