import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addTallyMessage, isPacked, PACK_FROM_ENTRIES, packTally, unpackTally } from '../../src/engine/packed-tally.js';

/** A tally of `length` entries with the given entries non-zero (the rest 0). */
function tallyWith(length: number, entries: ReadonlyArray<[number, number]>): Float64Array {
  const tally = new Float64Array(length);
  for (const [at, value] of entries) tally[at] = value;
  return tally;
}

describe('packTally: a tally crosses between threads packed when mostly zeros, and adds up the same', () => {
  it('hand-worked: 3 non-zero entries of 8,192 travel as their indices and values', () => {
    const message = packTally(
      tallyWith(8192, [
        [5, 3],
        [4000, 1],
        [8191, 2 ** 40],
      ]),
    );
    expect(isPacked(message)).toBe(true);
    if (!isPacked(message)) return;
    expect({ length: message.length, at: Array.from(message.at), values: Array.from(message.values) }).toEqual({
      length: 8192,
      at: [5, 4000, 8191],
      values: [3, 1, 2 ** 40],
    });
  });

  it('a tally shorter than PACK_FROM_ENTRIES, or more than a quarter non-zero, travels as it is', () => {
    const short = tallyWith(PACK_FROM_ENTRIES - 1, [[0, 1]]);
    expect(packTally(short)).toBe(short);
    // 1,024 of 4,096 non-zero is a quarter (packed); 1,025 is more (as it is).
    const quarter = tallyWith(
      4096,
      Array.from({ length: 1024 }, (_, k) => [4 * k, 1] as [number, number]),
    );
    expect(isPacked(packTally(quarter))).toBe(true);
    const more = tallyWith(4096, [...Array.from({ length: 1024 }, (_, k) => [4 * k, 1] as [number, number]), [1, 1]]);
    expect(packTally(more)).toBe(more);
  });

  it('fast-check (seed 20261201): packed or not, adding the message gives the sum entry by entry', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 3 * PACK_FROM_ENTRIES }).chain((length) =>
          fc.record({
            length: fc.constant(length),
            // Whole counts, as every tally holds, from none to every entry non-zero.
            entries: fc.array(fc.tuple(fc.nat(length - 1), fc.integer({ min: 1, max: 2 ** 40 })), {
              maxLength: length,
            }),
            into: fc.array(fc.tuple(fc.nat(length - 1), fc.integer({ min: 1, max: 2 ** 40 })), { maxLength: 50 }),
          }),
        ),
        ({ length, entries, into }) => {
          const tally = tallyWith(length, entries);
          const before = tallyWith(length, into);
          const expected = Array.from(before, (value, i) => value + tally[i]);
          const message = packTally(tally);
          const sum = before.slice();
          addTallyMessage(sum, message);
          expect(Array.from(sum)).toEqual(expected);
          expect(Array.from(unpackTally(message))).toEqual(Array.from(tally));
        },
      ),
      { seed: 20261201, numRuns: 300 },
    );
  });

  it('a message of another length is refused, as mergeTally refuses one', () => {
    const packed = packTally(tallyWith(8192, [[1, 1]]));
    expect(() => addTallyMessage(new Float64Array(8191), packed)).toThrow('tally length mismatch: 8191 vs 8192');
    expect(() => addTallyMessage(new Float64Array(3), new Float64Array(4))).toThrow('tally length mismatch');
  });
});
