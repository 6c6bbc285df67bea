/**
 * The zero-sum game solver against three oracles that share no code with it:
 * games worked by hand (matching pennies, rock-paper-scissors, the 2×2 closed
 * form, saddle points), the exact best-response condition on random integer
 * games (no pure strategy of either side does better against the other's mix,
 * in fractions; the value is xᵀAy), and brute force on 2×N games (A's
 * guaranteed payoff min_j is concave and piecewise linear in A's chance p of
 * the first row, so its maximum lies at p = 0, p = 1 or where two columns'
 * lines cross: every such p is tried, exactly).
 */
import { describe, expect, it } from 'vitest';
import { TycheStream } from '../../src/engine/random.js';
import { Fraction } from '../../src/exact/fraction.js';
import { solveZeroSum } from '../../src/exact/zero-sum-game.js';

const game = (rows: (number | Fraction)[][]) =>
  rows.map((row) => row.map((x) => (x instanceof Fraction ? x : Fraction.of(x))));
const text = (values: Fraction[]) => values.map((x) => x.toString());

describe('solveZeroSum on games worked by hand', () => {
  it('matching pennies: both sides 1/2-1/2, value 0, no saddle point', () => {
    const solution = solveZeroSum(
      game([
        [1, -1],
        [-1, 1],
      ]),
    );
    expect(text(solution.rowStrategy)).toEqual(['1/2', '1/2']);
    expect(text(solution.colStrategy)).toEqual(['1/2', '1/2']);
    expect(solution.value.toString()).toBe('0');
    expect(solution.saddlePoint).toBeNull();
  });

  it('rock-paper-scissors: both sides 1/3 each, value 0', () => {
    const solution = solveZeroSum(
      game([
        [0, -1, 1],
        [1, 0, -1],
        [-1, 1, 0],
      ]),
    );
    expect(text(solution.rowStrategy)).toEqual(['1/3', '1/3', '1/3']);
    expect(text(solution.colStrategy)).toEqual(['1/3', '1/3', '1/3']);
    expect(solution.value.toString()).toBe('0');
  });

  it('a 2×2 without saddle point: p = (d−c)/(a−b−c+d), q = (d−b)/(…), v = (ad−bc)/(…)', () => {
    // a=3 b=−1 c=−2 d=1: a−b−c+d = 7, so p = 3/7, q = 2/7, v = (3 − 2)/7 = 1/7.
    const solution = solveZeroSum(
      game([
        [3, -1],
        [-2, 1],
      ]),
    );
    expect(text(solution.rowStrategy)).toEqual(['3/7', '4/7']);
    expect(text(solution.colStrategy)).toEqual(['2/7', '5/7']);
    expect(solution.value.toString()).toBe('1/7');
  });

  it('the same 2×2 with a dominated third row: the third row gets nothing, nothing else moves', () => {
    const solution = solveZeroSum(
      game([
        [3, -1],
        [-2, 1],
        [-5, -5],
      ]),
    );
    expect(text(solution.rowStrategy)).toEqual(['3/7', '4/7', '0']);
    expect(text(solution.colStrategy)).toEqual(['2/7', '5/7']);
    expect(solution.value.toString()).toBe('1/7');
  });

  it('fractional payoffs: the 2×2 closed form with a=1/2, b=0, c=0, d=1/3 gives p = 2/5, v = 1/5', () => {
    // a−b−c+d = 5/6: p = (1/3)/(5/6) = 2/5, q = 2/5, v = (1/6)/(5/6) = 1/5.
    const solution = solveZeroSum(
      game([
        [Fraction.of(1, 2), 0],
        [0, Fraction.of(1, 3)],
      ]),
    );
    expect(text(solution.rowStrategy)).toEqual(['2/5', '3/5']);
    expect(text(solution.colStrategy)).toEqual(['2/5', '3/5']);
    expect(solution.value.toString()).toBe('1/5');
  });

  it('a saddle point: row minima 2, 1, 0 and column maxima 4, 2, 6 meet at row 0, column 1, value 2', () => {
    const solution = solveZeroSum(
      game([
        [4, 2, 5],
        [3, 1, 6],
        [1, 0, 2],
      ]),
    );
    expect(solution.saddlePoint).toEqual({ row: 0, col: 1 });
    expect(text(solution.rowStrategy)).toEqual(['1', '0', '0']);
    expect(text(solution.colStrategy)).toEqual(['0', '1', '0']);
    expect(solution.value.toString()).toBe('2');
    expect(solution.dominantRow).toBeNull(); // 5 < 6: row 0 does not dominate row 1, though it is optimal
    expect(solution.dominantCol).toBe(1); // 2 ≤ 4, 1 ≤ 3 ≤ 6, 0 ≤ 1 ≤ 2: column 1 is best for B against every row
  });

  it('all payoffs equal: every strategy is optimal, and the lowest-index one is played', () => {
    const solution = solveZeroSum(
      game([
        [5, 5, 5],
        [5, 5, 5],
      ]),
    );
    expect(solution.saddlePoint).toEqual({ row: 0, col: 0 });
    expect(solution.value.toString()).toBe('5');
    expect(solution.dominantRow).toBe(0);
    expect(solution.dominantCol).toBe(0);
  });

  it('1×N and N×1: the lone side plays its only option, the other its best answer', () => {
    const wide = solveZeroSum(game([[3, 1, 2]]));
    expect(wide.saddlePoint).toEqual({ row: 0, col: 1 });
    expect(wide.value.toString()).toBe('1');
    const tall = solveZeroSum(game([[3], [1], [4], [4]]));
    expect(tall.saddlePoint).toEqual({ row: 2, col: 0 });
    expect(tall.value.toString()).toBe('4');
  });

  it('one side pure, the other mixed: A secures 0 with its third row; B must mix 1/2-1/2', () => {
    const solution = solveZeroSum(
      game([
        [1, -1],
        [-1, 1],
        [0, 0],
      ]),
    );
    expect(solution.saddlePoint).toBeNull();
    expect(text(solution.rowStrategy)).toEqual(['0', '0', '1']);
    expect(text(solution.colStrategy)).toEqual(['1/2', '1/2']);
    expect(solution.value.toString()).toBe('0');
  });

  it('refuses an empty or ragged matrix', () => {
    expect(() => solveZeroSum([])).toThrow(/non-empty rectangular/);
    expect(() => solveZeroSum(game([[1, 2], [3]]))).toThrow(/non-empty rectangular/);
  });
});

/** A random integer game of 1–6 rows and columns, payoffs −4…4 (few values, so ties and degeneracy are common). */
function randomGame(random: () => number): Fraction[][] {
  const rows = 1 + Math.floor(random() * 6);
  const cols = 1 + Math.floor(random() * 6);
  return Array.from({ length: rows }, () =>
    Array.from({ length: cols }, () => Fraction.of(Math.floor(random() * 9) - 4)),
  );
}

const dot = (weights: Fraction[], values: Fraction[]) =>
  weights.reduce((total, w, i) => total.add(w.mul(values[i])), Fraction.ZERO);

describe('solveZeroSum against the best-response condition (seed "zero-sum-game", 400 random games)', () => {
  it('no pure strategy of either side beats the other side’s mix, and the value is xᵀAy', () => {
    const random = new TycheStream('zero-sum-game').random;
    for (let trial = 0; trial < 400; trial++) {
      const payoff = randomGame(random);
      const { rowStrategy: x, colStrategy: y, value, saddlePoint } = solveZeroSum(payoff);
      for (const mix of [x, y]) {
        expect(mix.every((p) => p.numerator >= 0n)).toBe(true);
        expect(mix.reduce((a, b) => a.add(b)).toString()).toBe('1');
      }
      const columns = payoff[0].map((_, j) => payoff.map((row) => row[j]));
      // Against y, no row earns A more than the value; against x, no column holds A below it.
      for (const row of payoff) expect(dot(y, row).compare(value)).toBeLessThanOrEqual(0);
      for (const column of columns) expect(dot(x, column).compare(value)).toBeGreaterThanOrEqual(0);
      expect(
        dot(
          x,
          payoff.map((row) => dot(y, row)),
        ).equals(value),
      ).toBe(true);
      // A pure saddle point exists exactly when max-min equals min-max, found here by scanning.
      const maxMin = payoff.map((row) => Math.min(...row.map((v) => v.toNumber()))).reduce((a, b) => Math.max(a, b));
      const minMax = columns.map((c) => Math.max(...c.map((v) => v.toNumber()))).reduce((a, b) => Math.min(a, b));
      expect(saddlePoint !== null).toBe(maxMin === minMax);
    }
  });
});

/** A's best guarantee in a 2×N game, by trying every breakpoint of p ↦ min_j (p·a0j + (1−p)·a1j) in [0, 1]. */
function bruteForceValue(payoff: Fraction[][]): Fraction {
  const [top, bottom] = payoff;
  const guarantee = (p: Fraction) =>
    top.map((a, j) => p.mul(a).add(p.complement().mul(bottom[j]))).reduce((low, x) => (x.compare(low) < 0 ? x : low));
  const candidates = [Fraction.ZERO, Fraction.ONE];
  for (let j = 0; j < top.length; j++)
    for (let k = j + 1; k < top.length; k++) {
      // p·a0j + (1−p)·a1j = p·a0k + (1−p)·a1k  ⇒  p = (a1k − a1j) / ((a0j − a1j) − (a0k − a1k))
      const slope = top[j].sub(bottom[j]).sub(top[k].sub(bottom[k]));
      if (slope.numerator === 0n) continue;
      const p = bottom[k].sub(bottom[j]).div(slope);
      if (p.numerator >= 0n && p.compare(Fraction.ONE) <= 0) candidates.push(p);
    }
  return candidates.map(guarantee).reduce((high, x) => (x.compare(high) > 0 ? x : high));
}

describe('solveZeroSum against brute force on 2×N games (seed "two-by-n", 300 games)', () => {
  it('the value equals the best breakpoint, and A’s mix guarantees it', () => {
    const random = new TycheStream('two-by-n').random;
    for (let trial = 0; trial < 300; trial++) {
      const cols = 1 + Math.floor(random() * 7);
      const payoff = [0, 1].map(() =>
        Array.from({ length: cols }, () => Fraction.of(Math.floor(random() * 21) - 10, 1 + Math.floor(random() * 3))),
      );
      const expected = bruteForceValue(payoff);
      const solution = solveZeroSum(payoff);
      expect(solution.value.toString()).toBe(expected.toString());
      const p = solution.rowStrategy[0];
      const guaranteed = payoff[0]
        .map((a, j) => p.mul(a).add(p.complement().mul(payoff[1][j])))
        .reduce((low, x) => (x.compare(low) < 0 ? x : low));
      expect(guaranteed.toString()).toBe(expected.toString());
    }
  });
});
