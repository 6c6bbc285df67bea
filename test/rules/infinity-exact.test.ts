import { describe, expect, it } from 'vitest';
import { Fraction } from '../../src/exact/fraction.js';
import { infinity } from '../../src/rules/infinity/infinity.js';
import { resolveParams } from '../../src/rules/params.js';
import { initiativeRoll } from './infinity-brute-force.js';

/**
 * Every metric by enumerating the 400 face pairs. The repetition is summed
 * through the chance of rolling again, t = again/400: P(A wins) = Σₖ tᵏ⁻¹·a/400
 * = (a/400)/(1 − t), rolls ~ geometric with E = 1/(1 − t), first roll decides 1 − t.
 */
function bruteForce(wipA: number, wipB: number, crits: boolean) {
  const counts = { A: 0, B: 0, again: 0, aCrit: 0, bCrit: 0 };
  for (let dieA = 1; dieA <= 20; dieA++) {
    for (let dieB = 1; dieB <= 20; dieB++) {
      const { outcome, critical } = initiativeRoll(wipA, dieA, wipB, dieB, crits);
      counts[outcome]++;
      if (critical && outcome === 'A') counts.aCrit++;
      if (critical && outcome === 'B') counts.bCrit++;
    }
  }
  const pairs = Fraction.of(400);
  const again = Fraction.of(counts.again, 400);
  const decides = again.complement();
  const wins = (n: number) => Fraction.of(n).div(pairs).div(decides);
  const metrics: Record<string, Fraction> = { 'a.wins': wins(counts.A), 'b.wins': wins(counts.B) };
  if (crits) {
    metrics['a.crit'] = wins(counts.aCrit);
    metrics['b.crit'] = wins(counts.bCrit);
  }
  metrics['rolls.mean'] = Fraction.ONE.div(decides);
  metrics['rolls.1'] = decides;
  return { metrics, again: counts.again };
}

const exactAt = (settings: string[]) => infinity.exact!.values(resolveParams(infinity, settings));

describe('infinity exact solution against enumerating every pair of d20 faces', () => {
  it('every WIP 1–30 against every WIP 1–30, with and without criticals, matches exactly', () => {
    for (const crits of [true, false]) {
      for (let wipA = 1; wipA <= 30; wipA++) {
        for (let wipB = 1; wipB <= 30; wipB++) {
          const expected = bruteForce(wipA, wipB, crits).metrics;
          const found = exactAt([`wipA=${wipA}`, `wipB=${wipB}`, `crits=${crits}`]);
          expect(Object.keys(found)).toEqual(Object.keys(expected));
          for (const name of Object.keys(expected)) {
            expect(
              found[name].equals(expected[name]),
              `${name} at wipA=${wipA} wipB=${wipB} crits=${crits}: ${found[name]} vs ${expected[name]}`,
            ).toBe(true);
          }
        }
      }
    }
  });

  it('every WIP pairing can be decided: at worst WIP 1 against WIP 1 rolls again on 362 of 400 pairs', () => {
    // The simulation rolls until a roll decides; this is why it ends. Only 1 against 1 succeeds for
    // either player, so the decisive pairs are "one rolls a 1, the other does not": 2 · 19 = 38.
    let mostAgain = 0;
    for (const crits of [true, false]) {
      for (let wipA = 1; wipA <= 30; wipA++) {
        for (let wipB = 1; wipB <= 30; wipB++) mostAgain = Math.max(mostAgain, bruteForce(wipA, wipB, crits).again);
      }
    }
    expect(mostAgain).toBe(362);
    expect(bruteForce(1, 1, true).again).toBe(362);
    expect(bruteForce(1, 1, false).again).toBe(362);
  });
});

describe('infinity with a WIP above 20, worked by hand', () => {
  it('WIP 23 against WIP 23 with criticals: even odds, a tie on 32 of 400 pairs', () => {
    // die + 3: dice 17–20 give 20–23, all criticals (4 faces); dice 1–16 give ordinary successes 4–19.
    // Rolls again: both critical 4·4 = 16, equal ordinary results 16 → 32/400. Symmetric, so A wins 1/2.
    // rolls.mean = 400/368 = 25/23, rolls.1 = 368/400 = 23/25; each side's critical wins: 4 crit faces ·
    // 16 ordinary faces = 64 pairs, 64/368 = 4/23.
    const found = exactAt(['wipA=23', 'wipB=23']);
    expect(found['a.wins'].equals(Fraction.of(1, 2))).toBe(true);
    expect(found['rolls.mean'].equals(Fraction.of(25, 23))).toBe(true);
    expect(found['rolls.1'].equals(Fraction.of(23, 25))).toBe(true);
    expect(found['a.crit'].equals(Fraction.of(4, 23))).toBe(true);
  });

  it('WIP 30 against WIP 13 with criticals: A wins 377 of 387 decisive pairs', () => {
    // A: die + 10, dice 10–20 critical (11 faces), dice 1–9 ordinary 11–19 — A never fails.
    // B: 1–12 ordinary, 13 critical, 14–20 fail (7 faces).
    // A wins: critical vs B not critical 11·19 = 209; A ordinary vs B fail 9·7 = 63; A ordinary v vs B
    //   ordinary w < v: v = 11 → 10, v = 12 → 11, v = 13–19 → 12 each (84): 105. Total 377.
    // B wins: critical 13 vs A ordinary 9; B 12 vs A 11: 1. Total 10. Again: 11 double criticals + 11=11 + 12=12 = 13.
    // 377 + 10 + 13 = 400. a.wins = 377/387, a.crit = 209/387, rolls.mean = 400/387.
    const found = exactAt(['wipA=30', 'wipB=13']);
    expect(found['a.wins'].equals(Fraction.of(377, 387))).toBe(true);
    expect(found['b.wins'].equals(Fraction.of(10, 387))).toBe(true);
    expect(found['a.crit'].equals(Fraction.of(209, 387))).toBe(true);
    expect(found['b.crit'].equals(Fraction.of(9, 387))).toBe(true);
    expect(found['rolls.mean'].equals(Fraction.of(400, 387))).toBe(true);
  });

  it('WIP 21 against WIP 25 with criticals: B wins 255 of 374 decisive pairs', () => {
    // A: die + 1, dice 19–20 critical (2 faces), dice 1–18 ordinary 2–19.
    // B: die + 5, dice 15–20 critical (6 faces), dice 1–14 ordinary 6–19. Nobody fails.
    // A wins: critical vs B ordinary 2·14 = 28; ordinary v > w for v = 7–19: Σ (v − 6) = 1 + … + 13 = 91. 119.
    // B wins: critical vs A ordinary 6·18 = 108; ordinary w > v for w = 6–19: Σ (w − 2) = 4 + … + 17 = 147. 255.
    // Again: 2·6 double criticals + 14 equal results (6–19) = 26. 119 + 255 + 26 = 400.
    const found = exactAt(['wipA=21', 'wipB=25']);
    expect(found['a.wins'].equals(Fraction.of(119, 374))).toBe(true);
    expect(found['a.crit'].equals(Fraction.of(28, 374))).toBe(true);
    expect(found['b.crit'].equals(Fraction.of(108, 374))).toBe(true);
    expect(found['rolls.1'].equals(Fraction.of(374, 400))).toBe(true);
  });

  it(
    'WIP 23 against WIP 20 with the text alone (crits=false): every roll succeeds, the raw dice decide, even ' + 'odds',
    () => {
      // Both succeed on every face and compare raw dice, so only equal dice (20 of 400) roll again:
      // a.wins = 1/2, rolls.mean = 400/380 = 20/19. WIP 21–30 play as WIP 20 under this reading.
      const found = exactAt(['wipA=23', 'wipB=20', 'crits=false']);
      expect(found['a.wins'].equals(Fraction.of(1, 2))).toBe(true);
      expect(found['rolls.mean'].equals(Fraction.of(20, 19))).toBe(true);
      expect(Object.keys(found)).not.toContain('a.crit');
    },
  );
});
