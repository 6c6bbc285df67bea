/**
 * Dice summed as one roll, written as text: `'2d6'` is two d6 added
 * together, `'d20'` one d20. `dice.count(n, '2d6', atLeast)` counts the
 * rolls of such a sum that reach `atLeast`, and `dice.sum(n, sides)` is the
 * total of n dice, in simulation (rule-files/dice.ts) and enumerated
 * (replay-dice.ts) alike. The ways each total can fall are counted here,
 * once per expression, as integers over sides^dice (icepool's way: exact
 * weights as integers over a denominator).
 *
 * No node: imports: the calculator page enumerates in the browser.
 */

/** The most a die may have faces, and the most `dice · sides` of one expression: the engine's bound (MAX_BOUND). */
export const MAX_EXPRESSION = 4096;

/** A sum of `dice` dice of `sides` faces each. */
export interface DiceExpression {
  dice: number;
  sides: number;
}

/** What an expression may be, for a message. */
export const EXPRESSION_ALLOWED = `dice to add up as text, 'KdS' ('2d6', 'd20': K dice of S faces, K·S at most ${MAX_EXPRESSION})`;

const pattern = /^([1-9][0-9]{0,3})?d([1-9][0-9]{0,3})$/;
const parsed = new Map<string, DiceExpression>();

/** The expression `text` stands for, or null when it is none (the caller says what is allowed). */
export function parseDiceExpression(text: string): DiceExpression | null {
  const known = parsed.get(text);
  if (known) return known;
  const match = pattern.exec(text);
  if (!match) return null;
  const dice = match[1] === undefined ? 1 : Number(match[1]);
  const sides = Number(match[2]);
  if (dice * sides > MAX_EXPRESSION) return null;
  const expression = { dice, sides };
  if (parsed.size > 256) parsed.clear();
  parsed.set(text, expression);
  return expression;
}

const waysKept = new Map<number, bigint[]>();

/**
 * The ways `dice` dice of `sides` faces can total each value: entry t is the number of the sides^dice sequences of
 * faces that add up to dice + t. Built one die at a time, each total of one more die the sum of `sides` totals
 * before it (a running window), so dice·(dice·sides) additions.
 */
export function totalWays(dice: number, sides: number): readonly bigint[] {
  const key = dice * (MAX_EXPRESSION + 1) + sides;
  const known = waysKept.get(key);
  if (known) return known;
  let ways: bigint[] = [1n];
  for (let die = 0; die < dice; die++) {
    const next: bigint[] = new Array(ways.length + sides - 1);
    let window = 0n;
    for (let t = 0; t < next.length; t++) {
      if (t < ways.length) window += ways[t];
      if (t - sides >= 0) window -= ways[t - sides];
      next[t] = window;
    }
    ways = next;
  }
  if (waysKept.size > 256) waysKept.clear();
  waysKept.set(key, ways);
  return ways;
}

/** How many of the sides^dice sequences total `atLeast` or more. */
export function waysAtLeast(expression: DiceExpression, atLeast: number): bigint {
  const ways = totalWays(expression.dice, expression.sides);
  let hits = 0n;
  for (let t = Math.max(0, atLeast - expression.dice); t < ways.length; t++) hits += ways[t];
  return hits;
}
