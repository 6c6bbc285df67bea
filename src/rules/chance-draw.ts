/**
 * `dice.chance(p)` in simulation: true with chance exactly p, read as the
 * decimal it prints as (0.15 is 3/20, as enumeration and muster's own
 * rules read it). With p = a/b and b at most 4096 it is one `below(b) < a`;
 * otherwise a uniform U is drawn as base-4096 digits, one `below(4096)` a
 * digit, and compared with a/b's digits (long division) until they differ:
 * U < a/b with chance a/b, about one draw in all. On streams 2 to 5
 * `below` is exactly uniform, so the chance is exact; on stream 1 each
 * digit is within 2^-32 · 4096 of uniform, as its dice are.
 */

import type { Rng } from '../contract/types.js';
import { chanceFraction } from '../exact/replay-dice.js';

const DIGIT = 4096;
const DIGIT_BIG = BigInt(DIGIT);

interface Chance {
  numerator: number;
  denominator: number;
  /** For a denominator past 4096: the fraction in BigInts, for the long division. */
  big: readonly [bigint, bigint] | null;
}
const read = new Map<number, Chance>();

function chanceOf(p: number): Chance {
  let chance = read.get(p);
  if (!chance) {
    const fraction = chanceFraction(p);
    const small = fraction.denominator <= BigInt(DIGIT);
    chance = {
      numerator: small ? Number(fraction.numerator) : 0,
      denominator: small ? Number(fraction.denominator) : 0,
      big: small ? null : [fraction.numerator, fraction.denominator],
    };
    if (read.size > 1024) read.clear();
    read.set(p, chance);
  }
  return chance;
}

/** True with chance p (0 ≤ p ≤ 1, checked by the caller); a chance of 0 or 1 draws nothing. */
export function drawChance(rng: Rng, p: number): boolean {
  if (p === 0) return false;
  if (p === 1) return true;
  const chance = chanceOf(p);
  if (chance.big === null) return rng.below(chance.denominator) < chance.numerator;
  const [numerator, denominator] = chance.big;
  let remainder = numerator;
  for (;;) {
    remainder *= DIGIT_BIG;
    const digit = Number(remainder / denominator);
    remainder %= denominator;
    const drawn = rng.below(DIGIT);
    if (drawn !== digit) return drawn < digit;
    // Every digit so far equal and a/b's digits all 0 from here: U ≥ a/b.
    if (remainder === 0n) return false;
  }
}
