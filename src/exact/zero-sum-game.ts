/**
 * A two-player zero-sum game in normal form solved exactly: side A picks a
 * row, side B a column at the same time, and A gets payoff[row][column],
 * which B pays (A maximises it, B minimises it). The solution is each side's
 * optimal mixed strategy (the chance of each option), the value of the game
 * (what A is assured of, and B concedes at most), and whether a pure saddle
 * point exists (von Neumann's minimax theorem: the value exists in mixed
 * strategies, and is rational when the payoffs are).
 *
 * The mixed case is the classic linear program (Dantzig, "Linear Programming
 * and Extensions", §13.2): shift the payoffs so every one is at least 1,
 * then B solves maximise Σw subject to (payoff + shift)·w ≤ 1, w ≥ 0; the
 * value is 1/Σw − shift, B's mix is w/Σw, and A's mix is the dual solution,
 * read off the final tableau's slack columns. The simplex runs in fractions
 * with Bland's rule (the lowest-index entering column, ties of the ratio
 * test to the lowest-index basic variable), which never cycles, so
 * degenerate games (dominated rows, repeated columns, all payoffs equal)
 * terminate with the exact answer.
 *
 * Ties between optimal strategies are broken deterministically: a side with
 * an optimal pure strategy plays the lowest-index one; otherwise it plays the
 * basic optimal solution the simplex reaches under Bland's rule (a mix on at
 * most min(rows, columns) options).
 */
import { Fraction } from './fraction.js';

export interface ZeroSumSolution {
  /** A's optimal mix over the rows: chances summing to 1. */
  rowStrategy: Fraction[];
  /** B's optimal mix over the columns. */
  colStrategy: Fraction[];
  /** The value of the game: A's expected payoff when both play optimally. */
  value: Fraction;
  /** The row and column of a pure saddle point (both sides' strategies pure), or null when some side must mix. */
  saddlePoint: { row: number; col: number } | null;
  /** A row at least as good for A as every other row against every column (lowest index), or null. */
  dominantRow: number | null;
  /** A column at least as good for B as every other column against every row (lowest index), or null. */
  dominantCol: number | null;
}

/**
 * The exact solution of the zero-sum game with these payoffs to the row player.
 * @example solveZeroSum([[1, -1], [-1, 1]].map((r) => r.map((x) => Fraction.of(x)))).value.toString() // '0'
 */
export function solveZeroSum(payoff: readonly (readonly Fraction[])[]): ZeroSumSolution {
  const rows = payoff.length;
  const cols = rows === 0 ? 0 : payoff[0].length;
  if (rows === 0 || cols === 0 || payoff.some((row) => row.length !== cols))
    throw new RangeError('solveZeroSum needs a non-empty rectangular payoff matrix');
  const rowFloor = payoff.map((row) => row.reduce((low, x) => (x.compare(low) < 0 ? x : low)));
  const colCeiling = Array.from({ length: cols }, (_, j) =>
    payoff.reduce((high, row) => (row[j].compare(high) > 0 ? row[j] : high), payoff[0][j]),
  );
  const lower = rowFloor.reduce((high, x) => (x.compare(high) > 0 ? x : high));
  const upper = colCeiling.reduce((low, x) => (x.compare(low) < 0 ? x : low));
  const dominance = { dominantRow: dominantRow(payoff), dominantCol: dominantCol(payoff) };
  if (lower.equals(upper)) {
    const row = rowFloor.findIndex((x) => x.equals(lower));
    const col = colCeiling.findIndex((x) => x.equals(upper));
    return {
      rowStrategy: pure(rows, row),
      colStrategy: pure(cols, col),
      value: lower,
      saddlePoint: { row, col },
      ...dominance,
    };
  }
  const mixed = simplexSolution(
    payoff,
    rowFloor.reduce((low, x) => (x.compare(low) < 0 ? x : low)),
  );
  // A side whose security level reaches the value has an optimal pure strategy: it is the simpler answer.
  const pureRow = rowFloor.findIndex((x) => x.equals(mixed.value));
  const pureCol = colCeiling.findIndex((x) => x.equals(mixed.value));
  return {
    rowStrategy: pureRow >= 0 ? pure(rows, pureRow) : mixed.rowStrategy,
    colStrategy: pureCol >= 0 ? pure(cols, pureCol) : mixed.colStrategy,
    value: mixed.value,
    saddlePoint: null,
    ...dominance,
  };
}

function pure(size: number, index: number): Fraction[] {
  return Array.from({ length: size }, (_, i) => (i === index ? Fraction.ONE : Fraction.ZERO));
}

function dominantRow(payoff: readonly (readonly Fraction[])[]): number | null {
  const index = payoff.findIndex((candidate) =>
    payoff.every((other) => candidate.every((x, j) => x.compare(other[j]) >= 0)),
  );
  return index < 0 ? null : index;
}

function dominantCol(payoff: readonly (readonly Fraction[])[]): number | null {
  const cols = payoff[0].length;
  for (let j = 0; j < cols; j++) if (payoff.every((row) => row.every((x) => row[j].compare(x) <= 0))) return j;
  return null;
}

/**
 * The LP of the header on a tableau of fractions: one constraint a row of the
 * game, the columns B's weights w then one slack a row, the right-hand side
 * last; the objective row holds the reduced costs (−1 for each w at the start).
 */
function simplexSolution(
  payoff: readonly (readonly Fraction[])[],
  least: Fraction,
): { rowStrategy: Fraction[]; colStrategy: Fraction[]; value: Fraction } {
  const rows = payoff.length;
  const cols = payoff[0].length;
  const shift = Fraction.ONE.sub(least); // every shifted payoff is at least 1, so the LP's value is positive
  const width = cols + rows + 1;
  const tableau = payoff.map((row, i) =>
    Array.from({ length: width }, (_, k) =>
      k < cols ? row[k].add(shift) : k === cols + i || k === width - 1 ? Fraction.ONE : Fraction.ZERO,
    ),
  );
  const objective = Array.from({ length: width }, (_, k) => (k < cols ? Fraction.of(-1) : Fraction.ZERO));
  const basis = Array.from({ length: rows }, (_, i) => cols + i);
  for (;;) {
    const entering = objective.findIndex((x, k) => k < width - 1 && x.numerator < 0n);
    if (entering < 0) break;
    let leaving = -1;
    let bestRatio = Fraction.ZERO;
    for (let i = 0; i < rows; i++) {
      const pivot = tableau[i][entering];
      if (pivot.numerator <= 0n) continue;
      const ratio = tableau[i][width - 1].div(pivot);
      const order = leaving < 0 ? -1 : ratio.compare(bestRatio);
      if (order < 0 || (order === 0 && basis[i] < basis[leaving])) {
        leaving = i;
        bestRatio = ratio;
      }
    }
    // Every shifted payoff is positive, so a column always has a positive pivot: the LP is bounded.
    pivotOn(tableau, objective, leaving, entering);
    basis[leaving] = entering;
  }
  const total = objective[width - 1]; // Σw = Σu at the optimum (LP duality)
  const scale = Fraction.ONE.div(total);
  const weights = Array.from({ length: cols }, () => Fraction.ZERO);
  basis.forEach((variable, i) => {
    if (variable < cols) weights[variable] = tableau[i][width - 1];
  });
  return {
    rowStrategy: Array.from({ length: rows }, (_, i) => objective[cols + i].mul(scale)),
    colStrategy: weights.map((w) => w.mul(scale)),
    value: scale.sub(shift),
  };
}

function pivotOn(tableau: Fraction[][], objective: Fraction[], row: number, col: number): void {
  const pivotRow = tableau[row];
  const pivot = pivotRow[col];
  for (let k = 0; k < pivotRow.length; k++) pivotRow[k] = pivotRow[k].div(pivot);
  for (const other of [...tableau.filter((_, i) => i !== row), objective]) {
    const factor = other[col];
    if (factor.numerator === 0n) continue;
    for (let k = 0; k < other.length; k++) other[k] = other[k].sub(factor.mul(pivotRow[k]));
  }
}
