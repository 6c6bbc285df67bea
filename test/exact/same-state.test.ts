/**
 * sameState (src/exact/canonical-state.ts) compares a step's replayed state with the kept one by value, without
 * writing a text. Its oracle is the canonical text itself: for plain JSON states two values are the same state
 * exactly when their canonical texts are equal. The states come from a small LCG (Numerical Recipes' constants),
 * seed 38, drawn from a few keys and values so that equal pairs are common; keys are written in a drawn order.
 */
import { describe, expect, it } from 'vitest';
import { canonicalState, sameState } from '../../src/exact/canonical-state.js';

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
});
