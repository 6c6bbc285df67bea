import { describe, expect, it } from 'vitest';
import { Fraction } from '../../src/exact/fraction.js';
import { noctvale } from '../../src/rules/noctvale.js';
import { resolveParams } from '../../src/rules/params.js';

/** Every pair of 2d6 totals, all 36 × 36 dice outcomes counted one by one: A higher, B higher, equal. */
function rollOffCounts(): { aHigher: number; bHigher: number; tie: number } {
  const counts = { aHigher: 0, bHigher: 0, tie: 0 };
  for (let a1 = 1; a1 <= 6; a1++)
    for (let a2 = 1; a2 <= 6; a2++)
      for (let b1 = 1; b1 <= 6; b1++)
        for (let b2 = 1; b2 <= 6; b2++) {
          const a = a1 + a2;
          const b = b1 + b2;
          if (a > b) counts.aHigher++;
          else if (b > a) counts.bHigher++;
          else counts.tie++;
        }
  return counts;
}

const DICE = rollOffCounts();

/**
 * Deals fighters one at a time round the groups, like cards, then lists the groups largest first: as even as possible
 * by construction.
 */
function dealGroups(fighters: number, groups: number): number[] {
  const sizes = new Array<number>(groups).fill(0);
  for (let fighter = 0; fighter < fighters; fighter++) sizes[fighter % groups]++;
  return sizes.sort((x, y) => y - x);
}

/**
 * The set-up order written out: starting with the initiative player, alternate, passing over a player with no group
 * left.
 */
function placementOrder(first: 'A' | 'B', groupsA: number, groupsB: number): string[] {
  const left = { A: groupsA, B: groupsB };
  const order: string[] = [];
  let turn = first;
  while (left.A + left.B > 0) {
    if (left[turn] > 0) {
      left[turn]--;
      order.push(turn);
    }
    turn = turn === 'A' ? 'B' : 'A';
  }
  return order;
}

/**
 * Every metric from the rule text by enumeration. Roll-offs: with t = ties/1296,
 * P(A wins) = Σₖ tᵏ⁻¹·aHigher/1296 = (aHigher/1296)/(1 − t) and E[roll-offs] = 1/(1 − t).
 */
function bruteForce(fightersA: number, fightersB: number, groups: number): Record<string, Fraction> {
  const dice = DICE;
  const decides = Fraction.of(dice.tie, 1296).complement();
  const equal = fightersA === fightersB;
  const aInitiative = equal ? Fraction.of(dice.aHigher, 1296).div(decides) : Fraction.of(fightersA < fightersB ? 1 : 0);
  const sizesA = dealGroups(fightersA, groups);
  const sizesB = dealGroups(fightersB, groups);
  // A group with nobody in it is not set up.
  const groupsA = sizesA.filter((size) => size > 0).length;
  const groupsB = sizesB.filter((size) => size > 0).length;
  const aLast = (first: 'A' | 'B') => Fraction.of(placementOrder(first, groupsA, groupsB).at(-1) === 'A' ? 1 : 0);
  const metrics: Record<string, Fraction> = {
    'a.initiative': aInitiative,
    'rolloffs.mean': equal ? Fraction.ONE.div(decides) : Fraction.ZERO,
  };
  sizesA.forEach((size, g) => (metrics[`a.group.${g + 1}.size`] = Fraction.of(size)));
  sizesB.forEach((size, g) => (metrics[`b.group.${g + 1}.size`] = Fraction.of(size)));
  metrics['a.placesLast'] = aInitiative.mul(aLast('A')).add(aInitiative.complement().mul(aLast('B')));
  return metrics;
}

const exactAt = (settings: string[]) => noctvale.exact!.values(resolveParams(noctvale, settings));

describe('noctvale exact solution against enumeration', () => {
  it(
    'every retinue of 1–60 against 1–60 fighters in the text’s 3 groups, and 1–12 against 1–12 in every group ' +
      'count, matches exactly',
    () => {
      const settings: [number, number, number][] = [];
      for (let a = 1; a <= 60; a++) for (let b = 1; b <= 60; b++) settings.push([a, b, 3]);
      for (let groups = 1; groups <= 10; groups++)
        for (let a = 1; a <= 12; a++) for (let b = 1; b <= 12; b++) settings.push([a, b, groups]);
      for (const [fightersA, fightersB, groups] of settings) {
        const expected = bruteForce(fightersA, fightersB, groups);
        const found = exactAt([`fightersA=${fightersA}`, `fightersB=${fightersB}`, `groups=${groups}`]);
        expect(Object.keys(found).sort()).toEqual(Object.keys(expected).sort());
        for (const name of Object.keys(expected)) {
          expect(
            found[name].equals(expected[name]),
            `${name} at ${fightersA} v ${fightersB} in ${groups}: ${found[name]} vs ${expected[name]}`,
          ).toBe(true);
        }
      }
    },
  );
});

describe('noctvale questions, worked by hand', () => {
  it('equal activation counts: a fair roll-off needing 648/575 roll-offs on average', () => {
    // 2d6 totals 2–12 come in 1,2,3,4,5,6,5,4,3,2,1 ways of 36; a tie is Σ ways² = 146 of 1296 pairs.
    // Roll-offs are geometric with decide-chance 1150/1296: mean 1296/1150 = 648/575 ≈ 1.127.
    const found = exactAt(['fightersA=8', 'fightersB=8']);
    expect(found['a.initiative'].equals(Fraction.of(1, 2))).toBe(true);
    expect(found['rolloffs.mean'].equals(Fraction.of(648, 575))).toBe(true);
    // 8 = 3 + 3 + 2 each; 3 groups against 3, so the player without initiative sets up last: A half the time.
    expect([1, 2, 3].map((g) => found[`a.group.${g}.size`].toNumber())).toEqual([3, 3, 2]);
    expect(found['a.placesLast'].equals(Fraction.of(1, 2))).toBe(true);
  });

  it('the smaller retinue always has initiative and never rolls', () => {
    const found = exactAt(['fightersA=7', 'fightersB=9']);
    expect(found['a.initiative'].equals(Fraction.ONE)).toBe(true);
    expect(found['rolloffs.mean'].equals(Fraction.ZERO)).toBe(true);
    // 3 groups each, A first: A, B, A, B, A, B — B sets up last.
    expect(found['a.placesLast'].equals(Fraction.ZERO)).toBe(true);
  });

  it('a 2-fighter retinue against 5 fighters: 2 groups of 1 against 2, 2, 1; B places last either way', () => {
    // A has initiative (2 < 5): A, B, A, B, B — B places the last two groups.
    const found = exactAt(['fightersA=2', 'fightersB=5']);
    expect([1, 2, 3].map((g) => found[`a.group.${g}.size`].toNumber())).toEqual([1, 1, 0]);
    expect([1, 2, 3].map((g) => found[`b.group.${g}.size`].toNumber())).toEqual([2, 2, 1]);
    expect(found['a.placesLast'].equals(Fraction.ZERO)).toBe(true);
  });

  it('the larger retinue with more groups places last although it lacks initiative', () => {
    // 4 fighters in 4 groups of 1 against 2 fighters in 2 groups: B has initiative (2 < 4): B, A, B, A, A, A.
    const found = exactAt(['fightersA=4', 'fightersB=2', 'groups=4']);
    expect(found['a.initiative'].equals(Fraction.ZERO)).toBe(true);
    expect(found['a.placesLast'].equals(Fraction.ONE)).toBe(true);
  });
});
