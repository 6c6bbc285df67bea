/**
 * sameState (src/exact/canonical-state.ts) compares a step's replayed state with the kept one by value, without
 * writing a text. Its oracle is the canonical text itself: for plain JSON states two values are the same state
 * exactly when their canonical texts are equal. The states come from a small LCG (Numerical Recipes' constants),
 * seed 38, drawn from a few keys and values so that equal pairs are common; keys are written in a drawn order.
 */
import { describe, expect, it } from 'vitest';
import {
  canonicalState,
  flatShape,
  matchFlat,
  OTHER,
  SAME,
  sameState,
  stateText,
  UNTOLD,
} from '../../src/exact/canonical-state.js';

/** Runs `check` while Object.prototype has an enumerable field, "polluted", as a script may add one. */
function withPollutedPrototype(check: () => void): void {
  Object.defineProperty(Object.prototype, 'polluted', {
    value: 1,
    enumerable: true,
    configurable: true,
    writable: true,
  });
  try {
    check();
  } finally {
    delete (Object.prototype as Record<string, unknown>).polluted;
  }
}

describe('sameState', () => {
  it('seed 38: 5,000 pairs of plain states agree with the equality of their canonical texts', () => {
    let x = 38;
    const next = (n: number) => {
      x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
      return x % n;
    };
    const leaves: unknown[] = [0, 1, 2, 0.5, 'a', 'b', '1', true, false, null];
    const keys = ['a', 'b', 'c'];
    const draw = (depth: number): unknown => {
      const kind = depth > 2 ? 0 : next(4);
      if (kind <= 1) return leaves[next(leaves.length)];
      if (kind === 2) return Array.from({ length: next(3) }, () => draw(depth + 1));
      const record: Record<string, unknown> = {};
      for (const key of keys.slice(next(3))) record[key] = draw(depth + 1);
      // The same fields in another order: the same state.
      return next(2) === 0 ? record : Object.fromEntries(Object.entries(record).reverse());
    };
    let equal = 0;
    for (let pair = 0; pair < 5000; pair++) {
      const a = draw(0);
      const b = next(3) === 0 ? JSON.parse(JSON.stringify(a)) : draw(0);
      const same = canonicalState(a) === canonicalState(b);
      if (same) equal++;
      expect(sameState(a, b)).toBe(same);
      expect(sameState(b, a)).toBe(same);
    }
    // Both answers were asked often (about a third of the pairs are copies).
    expect(equal).toBeGreaterThan(1000);
    expect(equal).toBeLessThan(4500);
  });

  it('a number is not its string, 0 is not -0, an array is not an object with index keys', () => {
    expect(sameState('1', 1)).toBe(false);
    expect(sameState(-0, 0)).toBe(false);
    expect(sameState({ 0: 1 }, [1])).toBe(false);
    expect(sameState([1], { 0: 1 })).toBe(false);
    expect(sameState([undefined], [null])).toBe(false);
    expect(sameState({ a: undefined }, { b: 1 })).toBe(false);
    expect(sameState(Object.create(null), {})).toBe(false);
  });

  it('a field more or less, a field of another prototype, a field JSON drops', () => {
    expect(sameState({ a: 1, b: 2 }, { a: 1 })).toBe(false);
    expect(sameState({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(sameState({ b: 1 }, { a: 1 })).toBe(false);
    expect(sameState({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(true);
    expect(sameState({ a: { b: [1, { c: 0 }] } }, { a: { b: [1, { c: 0 }] } })).toBe(true);
    expect(sameState({ a: { b: [1, { c: 0 }] } }, { a: { b: [1, { c: -0 }] } })).toBe(false);
    expect(sameState([-0], [0])).toBe(false);
    expect(sameState({ a: -0 }, { a: 0 })).toBe(false);
    expect(sameState({ a: [] }, { a: {} })).toBe(false);
    expect(sameState({ a: {} }, { a: [] })).toBe(false);
    // A field inherited from another prototype, or an object of a class: not plain.
    expect(sameState(Object.create({ a: 1 }), { a: 1 })).toBe(false);
    class Squad {
      a = 1;
    }
    expect(sameState(new Squad(), { a: 1 })).toBe(false);
    expect(sameState({ a: new Squad() }, { a: { a: 1 } })).toBe(false);
    // A field that is not enumerable is one JSON drops: it is not the kept state's field, nor counted.
    const hidden = Object.defineProperty({ a: 1 }, 'b', { value: 2, enumerable: false });
    expect(sameState(hidden, { a: 1, b: 2 })).toBe(false);
    expect(sameState(hidden, { a: 1 })).toBe(true);
    // A field on an array is dropped by JSON too, and by the texts canonical-state.ts writes by value.
    expect(sameState(Object.assign([1], { x: 1 }), [1])).toBe(true);
    expect(sameState([1, 2], [1])).toBe(false);
  });

  it('with an enumerable field on Object.prototype, a field more or less is still told apart', () => {
    withPollutedPrototype(() => {
      // Every object now lists "polluted" in for…in: each key is asked whether it is its own.
      expect(sameState({ a: 1, polluted: 1 }, { a: 1 })).toBe(false);
      expect(sameState({ a: 1 }, { a: 1, polluted: 1 })).toBe(false);
      expect(sameState({ a: 1, b: 2 }, { a: 1 })).toBe(false);
      expect(sameState({ a: 1 }, { a: 2 })).toBe(false);
    });
    expect(sameState({ a: 1 }, { a: 1 })).toBe(true);
  });
});

describe('matchFlat', () => {
  it('seed 38: 5,000 pairs of flat states: SAME only for equal canonical texts, OTHER only for unequal ones', () => {
    let x = 38;
    const next = (n: number) => {
      x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
      // The high bits: an LCG's low bits repeat with a short period (the lowest alternates).
      return (x >>> 16) % n;
    };
    const leaves: unknown[] = [0, 1, 2, 0.5, 'a', '1', true, false, null];
    const keys = ['a', 'b', 'c'];
    const draw = (): Record<string, unknown> => {
      const record: Record<string, unknown> = {};
      for (const key of keys.slice(next(2))) record[key] = leaves[next(leaves.length)];
      return next(4) === 0 ? Object.fromEntries(Object.entries(record).reverse()) : record;
    };
    const told = { [SAME]: 0, [OTHER]: 0, [UNTOLD]: 0 };
    for (let pair = 0; pair < 5000; pair++) {
      const kept = draw();
      const shape = flatShape(kept);
      expect(shape).not.toBeNull();
      const value = next(3) === 0 ? { ...kept } : draw();
      const same = canonicalState(value) === canonicalState(kept);
      const match = matchFlat(value, shape as NonNullable<typeof shape>);
      told[match as 1 | 0 | -1]++;
      if (match === SAME) expect(same).toBe(true);
      if (match === OTHER) expect(same).toBe(false);
    }
    // Each answer was given often: the keys in another order (a quarter of the draws) are left to sameState.
    expect(told[SAME]).toBeGreaterThan(1000);
    expect(told[OTHER]).toBeGreaterThan(1000);
    expect(told[UNTOLD]).toBeGreaterThan(500);
  });

  it('leaves to sameState what its fields alone cannot tell', () => {
    const shape = flatShape({ a: 0, b: 'x' }) as NonNullable<ReturnType<typeof flatShape>>;
    expect(matchFlat({ a: 0, b: 'x' }, shape)).toBe(SAME);
    expect(matchFlat({ a: 1, b: 'x' }, shape)).toBe(OTHER);
    expect(matchFlat({ a: 0, b: 'x', c: 1 }, shape)).toBe(OTHER);
    expect(matchFlat({ a: -0, b: 'x' }, shape)).toBe(UNTOLD);
    expect(matchFlat({ b: 'x', a: 0 }, shape)).toBe(UNTOLD);
    expect(matchFlat({ a: 0 }, shape)).toBe(UNTOLD);
    expect(matchFlat([0, 'x'], shape)).toBe(UNTOLD);
    expect(matchFlat(Object.assign(Object.create(null), { a: 0, b: 'x' }), shape)).toBe(UNTOLD);
    class Squad {
      a = 0;
      b = 'x';
    }
    expect(matchFlat(new Squad(), shape)).toBe(UNTOLD);
    // A state holding an object has no shape: sameState compares it.
    expect(flatShape({ a: [1] })).toBeNull();
    expect(flatShape([1])).toBeNull();
    withPollutedPrototype(() => {
      expect(matchFlat({ a: 0, b: 'x' }, shape)).toBe(UNTOLD);
      expect(flatShape({ a: 0 })).toBeNull();
    });
  });
});

describe('canonicalState key order', () => {
  it('keys sorted by UTF-16 code units, numbered keys among them as strings, few keys or many', () => {
    expect(canonicalState({ b: 1, a: 2, B: 3, _: 4 })).toBe('{"B":3,"_":4,"a":2,"b":1}');
    expect(canonicalState({ 10: 1, 9: 2, a: 3 })).toBe('{"10":1,"9":2,"a":3}');
    expect(canonicalState({ é: 1, z: 2, '\u{1F600}': 3, '\uFF01': 4 })).toBe('{"z":2,"é":1,"\u{1F600}":3,"\uFF01":4}');
    const many: Record<string, number> = {};
    for (const key of 'qwertyuiopasdfghjklzxcvbnm') many[key] = 1;
    expect(canonicalState(many)).toBe(`{${[...'abcdefghijklmnopqrstuvwxyz'].map((k) => `"${k}":1`).join(',')}}`);
    expect(stateText({ b: [{ d: 1, c: 2 }], a: 0 })).toBe('{"a":0,"b":[{"c":2,"d":1}]}');
  });
});
