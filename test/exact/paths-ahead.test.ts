/**
 * An enumeration sure to pass its path budget is refused before the walk (enumerate-steps.ts, PathsAhead): each
 * state a step reaches is bounded from one run down its first branches, and a budget the walked paths and the
 * bounds pass is refused at once. Never what fits: the bounds are lower bounds. The chain here is worked by hand:
 * the start rolls a dM to one of M states, each of which rolls a dK and ends, so it has M + M·K paths exactly.
 */
import { describe, expect, it } from 'vitest';
import { EXPRESSION_KEY, nodeOf, sizeNode } from '../../src/exact/dice-nodes.js';
import { enumerateSteps } from '../../src/exact/enumerate-steps.js';
import { NotEnumerable, pathBudget } from '../../src/exact/replay-dice.js';
import { formatCount } from '../../src/text/count.js';

const M = 40;
const K = 30;
const PATHS = M + M * K;

/** The fan: state -1 the start, m (0 … M − 1) after the first roll, M + m once m has rolled its dK. */
function fan() {
  let steps = 0;
  const procedure = {
    start: -1,
    rewardSlots: 0,
    done: (state: unknown) => (state as number) >= M,
    step(state: unknown, dice: { d(sides: number): number }) {
      steps++;
      if (state === -1) return { state: dice.d(M) - 1, rewards: null };
      dice.d(K);
      return { state: M + (state as number), rewards: null };
    },
  };
  return { procedure, steps: () => steps };
}

describe('a path budget refused before the walk, never one that fits', () => {
  it(`a budget of exactly ${PATHS} paths (M + M·K) is walked to the end, every path counted`, () => {
    const { procedure } = fan();
    const budget = pathBudget('fewer dice', PATHS);
    const solved = enumerateSteps(procedure, budget);
    expect(budget.used).toBe(PATHS);
    // Each end state M + m is reached with chance 1/M.
    expect(solved.finals).toHaveLength(M);
    for (const { chance } of solved.finals) expect(chance.toFraction().toString()).toBe(`1/${M}`);
  });

  it(`a budget of ${PATHS - 1} is refused in one line once the start's ${M} paths are walked`, () => {
    const { procedure, steps } = fan();
    const budget = pathBudget('fewer dice', PATHS - 1);
    let error: unknown;
    try {
      enumerateSteps(procedure, budget);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(NotEnumerable);
    expect((error as Error).message).toBe(
      `enumeration needs more than ${(PATHS - 1).toLocaleString('en-US')} paths; allowed: fewer dice, or simulation`,
    );
    // The start's M paths twice (each path is replayed) and one run down the first branches of each state found:
    // 3M calls of step, where walking to the budget would take about 2·(M + M·K).
    expect(budget.used).toBe(M);
    expect(steps()).toBe(3 * M);
  });
});

describe('a call counted without its weights (sizeNode) has the branches of the weighed one (nodeOf)', () => {
  it('dice, below, chance, count on faces and on 2d6 and 3d4, sum: the same size and the same first value', () => {
    const calls: Array<[number, number, number, number]> = [
      [0, 6, 0, 0],
      [2, 5, 0, 0],
      [3, 0.15, 0, 0],
      [3, 0, 0, 0],
      [3, 1, 0, 0],
      [5, 3, 6, 0],
      [5, 0, 6, 0],
    ];
    // count(n, 6, least) for least 1 (always hits), 4 and 7 (never), n = 0, 1 and 25.
    for (const n of [0, 1, 25]) for (const least of [1, 4, 7]) calls.push([1, n, 6, least]);
    // count(n, '2d6', least) and '3d4': least at the lowest total, in between and past the highest.
    for (const n of [0, 3, 40]) {
      for (const least of [2, 9, 13]) calls.push([4, n, 2 * EXPRESSION_KEY + 6, least]);
      for (const least of [3, 8, 13]) calls.push([4, n, 3 * EXPRESSION_KEY + 4, least]);
    }
    for (const [kind, a, b, c] of calls) {
      const weighed = nodeOf(kind, a, b, c);
      const counted = sizeNode(kind, a, b, c);
      expect(counted.size, `call ${kind} ${a} ${b} ${c}`).toBe(weighed.size);
      expect(counted.values?.[0] ?? null, `call ${kind} ${a} ${b} ${c}`).toBe(weighed.values?.[0] ?? null);
    }
  });
});

describe('the refusal writes its budget as en-US does (formatCount), without loading ICU', () => {
  it('0, 999, 1,000, 1,000,000, 2^53 − 1; a fraction or a negative number as toLocaleString writes it', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(1000)).toBe('1,000');
    expect(formatCount(12345)).toBe('12,345');
    expect(formatCount(1_000_000)).toBe('1,000,000');
    expect(formatCount(Number.MAX_SAFE_INTEGER)).toBe('9,007,199,254,740,991');
    expect(formatCount(1234.5)).toBe('1,234.5');
    expect(formatCount(-1234)).toBe('-1,234');
  });
});
