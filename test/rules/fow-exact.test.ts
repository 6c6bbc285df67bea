import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bruteForce, FOW_BRUTE_FORCE_CASES, FOW_BRUTE_FORCE_FILE } from '../../scripts/fow-brute-force.js';
import { Fraction } from '../../src/exact/fraction.js';
import { fow } from '../../src/rules/fow/fow.js';
import { resolveParams } from '../../src/rules/params.js';

/**
 * The brute force (scripts/fow-brute-force.ts) walks every die each side rolls, independent of the Markov chain in
 * fow.exact. It takes from milliseconds to a minute a case, so its values are checked in
 * (test/golden/fow-brute-force.json); the quick cases re-run the walk here and must still equal the file.
 */
interface GoldenCase {
  settings: string[];
  values: [string, string][];
}

const golden = JSON.parse(readFileSync(new URL(`../${FOW_BRUTE_FORCE_FILE}`, import.meta.url), 'utf8')) as GoldenCase[];

function fraction(text: string): Fraction {
  const [numerator, denominator = '1'] = text.split('/');
  return Fraction.of(BigInt(numerator), BigInt(denominator));
}

describe('fow exact solution against enumeration of every die', () => {
  it('the file holds one entry per case of the script, with the same settings in the same order', () => {
    expect(golden.map((c) => c.settings)).toEqual(FOW_BRUTE_FORCE_CASES.map((c) => c.settings));
    // At least three cases re-run live, and at least one is precomputed only because it is slow.
    expect(FOW_BRUTE_FORCE_CASES.filter((c) => c.live).length).toBeGreaterThanOrEqual(3);
    expect(FOW_BRUTE_FORCE_CASES.some((c) => !c.live)).toBe(true);
  });

  FOW_BRUTE_FORCE_CASES.forEach(({ name, settings }, index) => {
    it(`${name}: the exact solution equals the enumerated values`, () => {
      const params = resolveParams(fow, settings);
      const exact = fow.exact!.values(params);
      const all = fow.metrics(params).map((m) => m.name);
      expect(Object.keys(exact)).toEqual(all);
      // The turn of the last arrival came after the file was written: fow-distribution.test.ts holds it to its own
      // brute force, value by value.
      const names = all.filter((name) => !name.endsWith('.last.arrival'));
      expect(golden[index].values.map(([metric]) => metric)).toEqual(names);
      for (const [metric, value] of golden[index].values)
        expect(exact[metric].equals(fraction(value)), `${metric}: exact ${exact[metric]} vs brute force ${value}`).toBe(
          true,
        );
    });
  });

  for (const [index, { name, settings, live }] of FOW_BRUTE_FORCE_CASES.entries()) {
    if (!live) continue;
    it(`${name}: the walk, re-run now, still gives the checked-in values`, () => {
      const brute = bruteForce(resolveParams(fow, settings));
      expect(Object.keys(brute).sort()).toEqual(golden[index].values.map(([metric]) => metric).sort());
      for (const [metric, value] of golden[index].values)
        expect(brute[metric].equals(fraction(value)), `${metric}: walk ${brute[metric]} vs file ${value}`).toBe(true);
    });
  }
});

describe('fow: the questions players ask', () => {
  const defaults = fow.exact!.values(resolveParams(fow, []));

  it("the defender's delayed reserves with 3 platoons: all in by turn 6 with probability 17123/19683 (87.0%)", () => {
    // Turns 3 and 4 roll 1 and 2 dice: if any of those 3 dice scores, at most 2 remain, and turns 5 and 6
    // (3 and 4 dice) each bring at least one through the three-dice guarantee, so all are in.
    // Otherwise (8/27) all 3 remain and they fail only if turns 5 and 6 each bring exactly one:
    // P(≤ 1 of 3 dice scores) = 20/27, P(≤ 1 of 4 dice) = 48/81 = 16/27.
    // P(not all in) = 8/27 · 20/27 · 16/27 = 2560/19683.
    expect(defaults['defender.allIn.by.6'].equals(Fraction.of(19683 - 2560, 19683))).toBe(true);
    expect(defaults['defender.allIn.by.7'].equals(Fraction.ONE)).toBe(true);
  });

  it(
    "a lone reserve platoon without the guarantee misses the defender's first chance to win (turn 6) with " +
      'probability 64/729',
    () => {
      // 2 platoons, one in ambush, one in Delayed Reserves from turn 3; 5+ to hit, no guarantee.
      // Turns 3, 4, 5 roll 1, 2, 3 dice: all miss with (2/3)^(1+2+3) = 64/729. The turn-6 roll comes after the check.
      const lone = fow.exact!.values(resolveParams(fow, ['defenderPlatoons=2', 'guarantee=0']));
      expect(lone['defender.allIn.atEnd'].equals(Fraction.of(729 - 64, 729))).toBe(true);
      expect(lone['defender.onTable.atEnd.mean'].equals(Fraction.of(2 * 729 - 64, 729))).toBe(true);
      // One turn later the check would also count turn 6's four dice: (2/3)^10.
      const later = fow.exact!.values(resolveParams(fow, ['defenderPlatoons=2', 'guarantee=0', 'endTurn=7']));
      expect(later['defender.allIn.atEnd'].equals(Fraction.of(2, 3).pow(10).complement())).toBe(true);
    },
  );

  it(
    "at the defaults the defender's figures at its first chance to win equal the ones after turn 5, and the " +
      "attacker's reserves are all in by then",
    () => {
      // The attacker rolls from turn 1: by turn 3 the three-dice guarantee alone would bring the last of 3 platoons in
      // turn 5 at worst.
      // The defender's 3 reserves roll from turn 3: 1, 2, 3 dice in turns 3–5; the figure equals the per-turn mean after
      // turn 5.
      expect(defaults['attacker.allIn.atEnd'].equals(Fraction.ONE)).toBe(true);
      expect(defaults['defender.onTable.atEnd.mean'].equals(defaults['defender.onTable.5.mean'])).toBe(true);
      expect(defaults['defender.allIn.atEnd'].equals(defaults['defender.allIn.by.5'])).toBe(true);
    },
  );

  it(
    "with Reserves that wait to turn 3, the attacker's are all in when the defender can first win less often: " +
      '87.0% against 100%',
    () => {
      const late = fow.exact!.values(resolveParams(fow, ['attackerStart=3']));
      // Turns 3, 4, 5, 6 roll 1, 2, 3, 4 dice for 3 platoons: the defender's check of turn 6 comes after the attacker's
      // turn 6.
      expect(late['attacker.allIn.atEnd'].equals(late['attacker.allIn.by.6'])).toBe(true);
      expect(late['attacker.allIn.atEnd'].equals(Fraction.of(17123, 19683))).toBe(true);
    },
  );

  it("the attacker's first reserve arrives in turn 1, 2 or 3 with probability 1/3, 10/27, 8/27 — never later", () => {
    // Turn 1: one die, 5+ = 1/3. Turn 2: none yet (2/3) and not both of 2 dice miss: 2/3 · 5/9 = 10/27.
    // Turn 3: none yet (2/3 · 4/9 = 8/27), and the three-dice guarantee brings one for certain.
    expect(defaults['attacker.first.1'].equals(Fraction.of(1, 3))).toBe(true);
    expect(defaults['attacker.first.2'].equals(Fraction.of(10, 27))).toBe(true);
    expect(defaults['attacker.first.3'].equals(Fraction.of(8, 27))).toBe(true);
    expect(defaults['attacker.first.4'].equals(Fraction.ZERO)).toBe(true);
  });

  it(
    'the defender starts with 3 of 6 platoons on the table (2 deployed, 1 in ambush) and has 3 1/3 after turn ' + '3',
    () => {
      // Half of 6 in reserve; the ambush platoon counts from turn 1. Turn 3: one die, 1/3 of a platoon expected.
      expect(defaults['defender.reserves'].equals(Fraction.of(3))).toBe(true);
      expect(defaults['defender.onTable.1.mean'].equals(Fraction.of(3))).toBe(true);
      expect(defaults['defender.onTable.3.mean'].equals(Fraction.of(10, 3))).toBe(true);
    },
  );

  it('an odd force keeps half rounded up in reserve: 7 platoons hold 4', () => {
    const odd = fow.exact!.values(resolveParams(fow, ['attackerPlatoons=7', 'defenderPlatoons=7']));
    expect(odd['attacker.reserves'].equals(Fraction.of(4))).toBe(true);
    expect(odd['defender.reserves'].equals(Fraction.of(4))).toBe(true);
  });
});

describe('fow scatter maps', () => {
  it('a scatter map is stored in one canonical spelling: faces in order, ranges joined, places lowercase', () => {
    expect(resolveParams(fow, ['scatter= 5-6:right, 1-2:Left,3:centre,4:centre']).scatter).toBe(
      '1-2:left,3-4:centre,5-6:right',
    );
    expect(resolveParams(fow, ['scatter=1:a,2:a,3:b,4:a,5-6:a']).scatter).toBe('1-2:a,3:b,4-6:a');
  });

  it('a place given two separate runs of faces is one metric with their combined chance (5/6 and 1/6)', () => {
    const params = resolveParams(fow, ['scatter=1:a,2:a,3:b,4:a,5-6:a']);
    const exact = fow.exact!.values(params);
    expect(
      fow
        .metrics(params)
        .filter((m) => m.name.startsWith('defender.scatter.'))
        .map((m) => m.name),
    ).toEqual(['defender.scatter.a', 'defender.scatter.b']);
    expect(exact['defender.scatter.a'].equals(Fraction.of(5, 6))).toBe(true);
    expect(exact['defender.scatter.b'].equals(Fraction.of(1, 6))).toBe(true);
  });
});
