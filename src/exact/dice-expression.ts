/**
 * Dice summed as one roll, written as text: `'2d6'` is two d6 added
 * together, `'d20'` one d20. `dice.count(n, '2d6', atLeast)` counts the
 * rolls of such a sum that reach `atLeast`, `dice.sum(n, sides)` is the
 * total of n dice, and `dice.highest(n, sides, keep)` (or `lowest`) the total
 * of the keep highest (lowest) of them, in simulation (rule-files/dice.ts)
 * and enumerated (replay-dice.ts) alike. The ways each total can fall are counted here,
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

const keptWaysKept = new Map<string, bigint[]>();

/**
 * keptWays' work, in steps of about a few nanoseconds: keep³ · sides² for the states (states × counts × faces), and
 * sides · w² for the powers of each face, w the 64-bit words of sides^dice (a power of a thousand-faced die to
 * the 4096th is a product of numbers 700 words long). The most enumeration takes: KEPT_WORK.
 */
export const keptWork = (dice: number, sides: number, keep: number): number =>
  keep ** 3 * sides ** 2 + sides * Math.ceil((dice * Math.log2(sides)) / 64) ** 2;
export const KEPT_WORK = 40_000_000;

/**
 * The ways the `keep` highest of `dice` dice of `sides` faces can total each value: entry t is the number of the
 * sides^dice sequences of faces whose `keep` highest faces add up to keep + t (ties broken anyhow: the total is the
 * same). Counted face by face from the highest: a state is how many dice show the faces above (p, fewer than
 * `keep`) and their total; c more dice showing face f are placed among the dice left in C(left, c) ways. Once
 * `keep` dice are placed, the rest only need to show f or less: the left dice with at least keep − p of them on f
 * and none above it, f^left less the ways with fewer, Σ_{c < keep − p} C(left, c)·(f − 1)^(left − c). So faces ×
 * keep × (keep · sides) states, each with fewer than keep − p counts (keptWork). The `keep` lowest are the highest
 * of the faces turned over (face f as sides + 1 − f): these ways in the other order.
 */
export function keptWays(dice: number, sides: number, keep: number): readonly bigint[] {
  const key = `${dice} ${sides} ${keep}`;
  const known = keptWaysKept.get(key);
  if (known) return known;
  const ways = new Array<bigint>(keep * (sides - 1) + 1).fill(0n);
  if (keep === 0) ways[0] = BigInt(sides) ** BigInt(dice);
  else {
    // choose[p][c] = C(dice − p, c) for c < keep − p: the only rows and columns the counting reads.
    const choose = Array.from({ length: keep }, (_, p) => {
      const row = [1n];
      for (let c = 1; c < keep - p; c++) row.push((row[c - 1] * BigInt(dice - p - c + 1)) / BigInt(c));
      return row;
    });
    // Powers j from dice − 2·keep + 1 (or 0) up to dice: every left − c and left read below.
    const lowest = Math.max(0, dice - 2 * keep + 1);
    const powers = (base: number): bigint[] => {
      const list = [BigInt(base) ** BigInt(lowest)];
      for (let j = lowest + 1; j <= dice; j++) list.push(list[list.length - 1] * BigInt(base));
      return list;
    };
    // placed[p] maps a total of the p dice on the faces above to its ways; p < keep.
    let placed: Array<Map<number, bigint>> = Array.from({ length: keep }, () => new Map<number, bigint>());
    placed[0].set(0, 1n);
    for (let face = sides; face >= 1; face--) {
      const next: Array<Map<number, bigint>> = Array.from({ length: keep }, () => new Map<number, bigint>());
      const lower = powers(face - 1); // lower[j − lowest] = (face − 1)^j: j dice below this face
      const upTo = powers(face); // face^j: j dice on it or below
      for (let p = 0; p < keep; p++) {
        if (placed[p].size === 0) continue;
        const left = dice - p;
        const row = choose[p];
        const need = keep - p;
        let fewer = 0n;
        for (let c = 0; c < need; c++) fewer += row[c] * lower[left - c - lowest];
        const closing = upTo[left - lowest] - fewer;
        for (const [total, count] of placed[p]) {
          // c dice on this face, fewer than `need`: a state for the faces below, which place the rest.
          for (let c = 0; c < need; c++) {
            const at = next[p + c];
            const sum = total + c * face;
            at.set(sum, (at.get(sum) ?? 0n) + count * row[c]);
          }
          // `need` or more on this face, the rest on it or below: the kept total is known.
          if (closing > 0n) ways[total + need * face - keep] += count * closing;
        }
      }
      placed = next;
    }
  }
  if (keptWaysKept.size > 256) keptWaysKept.clear();
  keptWaysKept.set(key, ways);
  return ways;
}
