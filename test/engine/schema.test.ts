/**
 * The one schema checker every validator refuses through (src/input/schema.ts):
 * each refusal is one line, framed by the caller's `fail`, the value shown
 * as the caller chose. The expected lines are written out here, not built
 * from the module.
 */
import { describe, expect, it } from 'vitest';
import { hasExactly, isCount, isData, Schema } from '../../src/input/schema.js';

/** A Schema whose refusals are thrown as plain Errors prefixed `file: `. */
function schema(show?: (value: unknown) => string): Schema {
  return new Schema((what) => {
    throw new Error(`file: ${what}`);
  }, show);
}

describe('Schema', () => {
  it('shows a value as describeValue does unless the caller says how', () => {
    expect(() => schema().integer('threads', 0, 1, 256)).toThrow(
      /^file: threads: got 0; allowed: an integer from 1 to 256$/,
    );
    const quoted = schema((value) => JSON.stringify(JSON.stringify(value)));
    expect(() => quoted.integer('threads', 0, 1, 256)).toThrow(
      /^file: threads: got "0"; allowed: an integer from 1 to 256$/,
    );
  });

  it('takes the allowed text of an integer from the caller', () => {
    const s = schema();
    expect(s.integer('trials', 5, 1, 10, 'a whole number of trials')).toBe(5);
    expect(() => s.integer('trials', 1.5, 1, 10, 'a whole number of trials')).toThrow(
      /^file: trials: got 1\.5; allowed: a whole number of trials$/,
    );
    expect(() => s.integer('trials', '3', 1, 10)).toThrow(/^file: trials: got "3"; allowed: an integer from 1 to 10$/);
  });

  it('data: a plain object, never null or an array', () => {
    const s = schema();
    const value = { a: 1 };
    expect(s.data('chunks', value, '{ first, end }')).toBe(value);
    expect(() => s.data('chunks', null, '{ first, end }')).toThrow(
      /^file: chunks: got null; allowed: \{ first, end \}$/,
    );
    expect(() => s.data('chunks', [1], '{ first, end }')).toThrow(/^file: chunks: got .*; allowed: \{ first, end \}$/);
  });

  it("only: an unknown key is refused in the caller's words, the first one found", () => {
    const s = schema();
    const value = { first: 0, end: 1 };
    expect(s.only(value, ['first', 'end'], () => s.refuse('never'))).toBe(value);
    expect(() =>
      s.only({ first: 0, odd: 1, other: 2 }, ['first', 'end'], (key) => s.refuse(`${key} is not a field`)),
    ).toThrow(/^file: odd is not a field$/);
  });

  it('exactly: the own keys and no others, else the whole input refused', () => {
    const s = schema();
    expect(s.exactly({ index: 0, count: 2 }, ['index', 'count'], 'has no shard')).toEqual({ index: 0, count: 2 });
    for (const bad of [{ index: 0 }, { index: 0, count: 2, extra: 1 }, null, [0, 2], 'x'])
      expect(() => s.exactly(bad, ['index', 'count'], 'has no shard')).toThrow(/^file: has no shard$/);
    // An inherited key is not the object's own.
    expect(() => s.exactly(Object.create({ index: 0, count: 1 }), ['index', 'count'], 'has no shard')).toThrow(
      /^file: has no shard$/,
    );
  });

  it('the predicates the files share', () => {
    expect([0, 7, 2 ** 53 - 1].every(isCount)).toBe(true);
    expect([-1, 0.5, 2 ** 53, Number.NaN, '3', null].some(isCount)).toBe(false);
    expect(isData({})).toBe(true);
    expect([null, [], 'x', 3].some(isData)).toBe(false);
    expect(hasExactly({ a: 1, b: 2 }, ['b', 'a'])).toBe(true);
    expect(hasExactly({ a: 1 }, ['a', 'b'])).toBe(false);
  });
});
