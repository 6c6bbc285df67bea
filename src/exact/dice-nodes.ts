/**
 * The branches of one dice call in exact enumeration (replay-dice.ts): the
 * values a call can return, each one's weight, and their common denominator
 * — 1 of `sides` for a die, C(n, k)·hit^k·miss^(n−k) of sides^n for a count,
 * the ways of each total for a sum, and of each kept total for the highest
 * or lowest of a pool. A node is never changed once made, so
 * nodes are kept by call and shared by every path and state that asks for
 * the same call.
 *
 * No node: imports: the calculator page enumerates in the browser.
 */
import { keptWays, totalWays, waysAtLeast } from './dice-expression.js';
import { Fraction } from './fraction.js';

/** The largest die, `below` bound and `count` pool enumerated: the engine's own limits on dice (MAX_BOUND). */
export const MAX_SIDES = 4096;

/** One call's branches: the value each returns, its weight, and the weights' common denominator. */
export interface Node {
  /**
   * 0 d, 1 count, 2 below, 3 chance, 4 count of an expression (b: dice · EXPRESSION_KEY + sides), 5 sum, 6 highest,
   * 7 lowest (a: dice, b: sides, c: keep): with the arguments, what a replay must ask again.
   */
  kind: number;
  a: number;
  b: number;
  c: number;
  /** The results, in the order walked (null: 1 + index for d, index for below, a + index for sum, c + index kept). */
  values: Int32Array | null;
  /** Each result's weight (null: 1 each). */
  weights: bigint[] | null;
  denominator: bigint;
  size: number;
}

const binomialRows = new Map<number, bigint[]>();
function binomialRow(n: number): bigint[] {
  let row = binomialRows.get(n);
  if (!row) {
    row = [1n];
    for (let k = 1; k <= n; k++) row.push((row[k - 1] * BigInt(n - k + 1)) / BigInt(k));
    if (binomialRows.size > 256) binomialRows.clear();
    binomialRows.set(n, row);
  }
  return row;
}

const chances = new Map<number, Fraction>();
/** A chance as the decimal it prints as (0.15 is 3/20), as muster reads number parameters. */
export function chanceFraction(p: number): Fraction {
  let fraction = chances.get(p);
  if (!fraction) {
    fraction = Fraction.fromParameter(p);
    if (chances.size > 1024) chances.clear();
    chances.set(p, fraction);
  }
  return fraction;
}

/** One dice call as a message shows it. */
export function callText(kind: number, a: number, b: number, c: number): string {
  if (kind === 0) return `d${a}`;
  if (kind === 2) return `below(${a})`;
  if (kind === 3) return `chance(${a})`;
  if (kind === 4) return `count(${a}, '${Math.floor(b / EXPRESSION_KEY)}d${b % EXPRESSION_KEY}', ${c})`;
  if (kind === 5) return `sum(${a}, ${b})`;
  if (kind === 6) return `highest(${a}, ${b}, ${c})`;
  if (kind === 7) return `lowest(${a}, ${b}, ${c})`;
  return `count(${a}, ${b}, ${c})`;
}

/** A count of an expression keys its node by dice · EXPRESSION_KEY + sides (sides below it). */
export const EXPRESSION_KEY = 8192;

const greatestCommonDivisor = (x: bigint, y: bigint): bigint => {
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
};

/**
 * The nodes made so far, by call: a node is never changed once made (the branch taken lives on the trail), and a
 * step form asks for the same counts from state after state, so each binomial row is weighed once.
 */
const nodes = new Map<string, Node>();
const dieNodes: Node[] = [];
export function nodeOf(kind: number, a: number, b: number, c: number): Node {
  if (kind === 0 || kind === 2) {
    // A die or a below, by its sides: made once, not once a path (a node a die a path was a tenth of the GC).
    const at = kind * (MAX_SIDES + 1) + a;
    return (dieNodes[at] ??= makeNode(kind, a, b, c));
  }
  const key = `${kind} ${a} ${b} ${c}`;
  let node = nodes.get(key);
  if (!node) {
    node = makeNode(kind, a, b, c);
    if (nodes.size >= 4096) nodes.clear();
    nodes.set(key, node);
  }
  return node;
}

function makeNode(kind: number, a: number, b: number, c: number): Node {
  if (kind === 0 || kind === 2) return { kind, a, b, c, values: null, weights: null, denominator: BigInt(a), size: a };
  if (kind === 5) {
    // sum: n dice of b faces, each total n + k with the ways it falls, of b^n.
    const ways = totalWays(a, b);
    return {
      kind,
      a,
      b,
      c,
      values: null,
      weights: ways as bigint[],
      denominator: BigInt(b) ** BigInt(a),
      size: ways.length,
    };
  }
  if (kind === 6 || kind === 7) {
    // The `c` highest (or lowest) of a dice of b faces: each kept total c + k with the ways it falls, of b^a; the
    // lowest are the highest of the faces turned over, their totals in the other order.
    const ways = keptWays(a, b, c);
    return {
      kind,
      a,
      b,
      c,
      values: null,
      weights: (kind === 6 ? ways : [...ways].reverse()) as bigint[],
      denominator: BigInt(b) ** BigInt(a),
      size: ways.length,
    };
  }
  if (kind === 4) {
    // count of n rolls of an expression: k reach c with C(n, k)·hit^k·miss^(n−k) of total^n, hit and miss the
    // ways of total that reach c or not, all three divided by their common divisor (2d6 ≥ 10: 6, 30, 36 → 1, 5, 6).
    const dice = Math.floor(b / EXPRESSION_KEY);
    const sides = b % EXPRESSION_KEY;
    const hit = waysAtLeast({ dice, sides }, c);
    const total = BigInt(sides) ** BigInt(dice);
    return binomialNode(kind, a, b, c, hit, total - hit);
  }
  if (kind === 3) {
    const p = chanceFraction(a);
    // The branches with a chance of happening: true (numerator of denominator), then false.
    const values: number[] = [];
    const weights: bigint[] = [];
    if (p.numerator > 0n) {
      values.push(1);
      weights.push(p.numerator);
    }
    if (p.numerator < p.denominator) {
      values.push(0);
      weights.push(p.denominator - p.numerator);
    }
    return { kind, a, b, c, values: Int32Array.from(values), weights, denominator: p.denominator, size: values.length };
  }
  // count: n dice of `sides` faces, each a hit on `least` or more: k hits with C(n, k)·hit^k·miss^(n−k) of sides^n.
  return binomialNode(kind, a, b, c, BigInt(b - c + 1), BigInt(c - 1));
}

/**
 * n trials, each a hit with `hitWays` of hitWays + missWays: k hits with C(n, k)·hit^k·miss^(n−k) of (hit + miss)^n,
 * the three divided first by their common divisor (a d6 on 4+: 3 and 3 of 6 are 1 and 1 of 2), which keeps every
 * path's weight, and every sum of weights after it, that much smaller.
 */
function binomialNode(kind: number, a: number, b: number, c: number, hitWays: bigint, missWays: bigint): Node {
  const n = a;
  const common = greatestCommonDivisor(hitWays, missWays) || 1n;
  const hit = hitWays / common;
  const miss = missWays / common;
  const row = binomialRow(n);
  const values: number[] = [];
  const weights: bigint[] = [];
  // hit^k by running products, miss^(n−k) the same from the other end: two products a branch, no powers.
  const missPowers: bigint[] = [1n];
  for (let k = 1; k <= n; k++) missPowers.push(missPowers[k - 1] * miss);
  let hitPower = 1n;
  for (let k = 0; k <= n; k++, hitPower *= hit) {
    const weight = row[k] * hitPower * missPowers[n - k];
    if (weight === 0n) continue;
    values.push(k);
    weights.push(weight);
  }
  const denominator = (hit + miss) ** BigInt(n);
  return { kind, a, b, c, values: Int32Array.from(values), weights, denominator, size: values.length };
}

/**
 * A call's number of branches and its first branch's value, without a weight (leastPaths, replay-dice.ts: a
 * bound on a step's paths before it is walked): a count of a thousand dice is 1,001 branches, known without
 * weighing the binomial row of numbers thousands of bits long.
 */
export function sizeNode(kind: number, a: number, b: number, c: number): Node {
  const node = (size: number, first: number | null): Node => ({
    kind,
    a,
    b,
    c,
    values: first === null ? null : Int32Array.of(first),
    weights: null,
    denominator: 1n,
    size,
  });
  if (kind === 0 || kind === 2) return node(a, null);
  if (kind === 5) return node(a * (b - 1) + 1, null);
  if (kind === 6 || kind === 7) return node(c * (b - 1) + 1, null);
  if (kind === 3) {
    const p = chanceFraction(a);
    const both = p.numerator > 0n && p.numerator < p.denominator;
    return node(both ? 2 : 1, p.numerator > 0n ? 1 : 0);
  }
  let hit: bigint;
  let miss: bigint;
  if (kind === 4) {
    const dice = Math.floor(b / EXPRESSION_KEY);
    const sides = b % EXPRESSION_KEY;
    hit = waysAtLeast({ dice, sides }, c);
    miss = BigInt(sides) ** BigInt(dice) - hit;
  } else {
    hit = BigInt(b - c + 1);
    miss = BigInt(c - 1);
  }
  // k hits of n, in the order binomialNode lists them (k from 0): every k when both can happen, else one.
  if (hit > 0n && miss > 0n) return node(a + 1, 0);
  return node(1, hit > 0n ? a : 0);
}
