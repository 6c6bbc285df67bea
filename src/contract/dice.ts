/**
 * The contract's dice: what a rule's trial receives as `dice`, built-in rule and rule file alike: the chunk's stream
 * (stream 5 by default). In simulation it is ChunkDice (rule-files/dice.ts), each argument checked.
 */
export interface Dice {
  /** An integer from 1 to sides. */
  d(sides: number): number;
  /**
   * Rolls n dice of `sides` faces and returns how many show `atLeast` or more: on streams 2 to 5 exactly fair, up to
   * four d6 from one draw. With `sides` as text, 'KdS' ('2d6'), each of the n rolls is K dice of S faces added up,
   * and the count is of the rolls whose total reaches `atLeast` (their dice read as `sum` reads them).
   */
  count(n: number, sides: number | string, atLeast: number): number;
  /**
   * The total of n dice of `sides` faces: the dice read from `below(sides^g)` draws, g to a draw (the most with
   * sides^g ≤ 4096: four d6), die i of a draw showing 1 + ⌊v / sides^i⌋ mod sides; a one-faced die draws nothing.
   */
  sum(n: number, sides: number): number;
  /**
   * The total of the `keep` highest of n dice of `sides` faces (n at most 4096, keep from 0 to n): the dice read as
   * `sum` reads them. `highest(2, 20, 1)` is a d20 with advantage, `highest(4, 6, 3)` 4d6 drop the lowest.
   */
  highest(n: number, sides: number, keep: number): number;
  /** The total of the `keep` lowest of n dice of `sides` faces, read as `highest` reads them. */
  lowest(n: number, sides: number, keep: number): number;
  /** A whole number uniform on [0, bound): several dice from one draw, read as digits (`below(6 ** 4)`: four d6). */
  below(bound: number): number;
  /** A uniform number in [0, 1). */
  random(): number;
  /** True with chance p, read as the decimal it prints as (0.15 is 3/20), exactly (chance-draw.ts). */
  chance(p: number): boolean;
}
