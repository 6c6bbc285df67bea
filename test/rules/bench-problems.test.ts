/**
 * The enumeration bench's own problems (scripts/bench/problems/): the procedures of the icepool programs they are
 * timed against, enumerated by muster. Their values are checked here against figures worked from the rule texts,
 * independently of the enumerator: a brute force over the d20 pairs of the Face to Face roll, and the expected
 * dice of the Mordheim first-turn roll-off solved by hand.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Fraction } from '../../src/exact/fraction.js';
import { loadRule } from '../../src/rule-files/load.js';
import { resolveParams } from '../../src/rules/params.js';

const problem = (name: string) => fileURLToPath(new URL(`../../scripts/bench/problems/${name}.mjs`, import.meta.url));

async function exactOf(name: string, set: string[]): Promise<Record<string, string>> {
  const rule = await loadRule(problem(name));
  const values = rule.exact!.values(resolveParams(rule, set));
  return Object.fromEntries(Object.entries(values).map(([metric, value]) => [metric, value.toString()]));
}

/**
 * Infinity N4, Face to Face Rolls, as a brute force: each d20 face scores 0 (above WIP: a failure), its result,
 * or a critical (the WIP itself, or 20 and above once the excess over WIP 20 is added); equal scores (a tie, or
 * both failed) are rolled again, so A wins with (pairs A scores higher) / (pairs that differ).
 */
function faceToFace(wipA: number, wipB: number): string {
  const score = (face: number, wip: number) => {
    const result = face + Math.max(0, wip - 20);
    if (result > wip) return 0;
    return result === wip || result >= 20 ? 1000 : result;
  };
  let aHigher = 0;
  let differ = 0;
  for (let a = 1; a <= 20; a++)
    for (let b = 1; b <= 20; b++) {
      const [sa, sb] = [score(a, wipA), score(b, wipB)];
      if (sa !== sb) differ++;
      if (sa > sb) aHigher++;
    }
  return Fraction.of(aHigher, differ).toString();
}

describe("the enumeration bench's problems", () => {
  it('Infinity: who wins the Initiative Roll equals the brute force over the 400 pairs (145/352 at 13 against 15)', async () => {
    expect(faceToFace(13, 15)).toBe('145/352');
    for (const [wipA, wipB] of [
      [13, 15],
      [30, 30],
      [1, 20],
      [20, 21],
      [25, 9],
    ])
      expect(await exactOf('infinity-face-to-face', [`wipA=${wipA}`, `wipB=${wipB}`])).toEqual({
        'a.wins': faceToFace(wipA, wipB),
      });
  });

  it('Mordheim: the first-turn roll-off takes 12/5 dice for two warbands and 18/5 for three', async () => {
    // By hand: T(n) = n + Σ_k P(k tied for highest | n dice) T(k), T(1) = 0. Two dice tie 1 time in 6:
    // T(2) = 2 + T(2)/6 = 12/5. Three dice: all three equal 6 of 216; exactly two share the highest face v in
    // 3(v − 1) ways, 45 of 216 in all; so T(3) = 3 + (45/216)(12/5) + (6/216) T(3) = 18/5.
    expect(await exactOf('mordheim-first-turn', ['count=2'])).toEqual({ 'dice.first.mean': '12/5' });
    expect(await exactOf('mordheim-first-turn', ['count=3'])).toEqual({ 'dice.first.mean': '18/5' });
  });
});
