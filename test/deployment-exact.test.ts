import { describe, expect, it } from 'vitest';
import { Fraction } from '../src/exact/fraction.js';
import { deployment, DEPLOYMENT_STRATEGIES } from '../src/rules/deployment.js';
import { resolveParams } from '../src/rules/params.js';
import { bruteForce } from './deployment-brute-force.js';

const COMPARES = ['raw', 'modified'] as const;

function exactAt(a: string, b: string, compare: 'raw' | 'modified' = 'raw'): Record<string, Fraction> {
  return deployment.exact!(resolveParams(deployment, [`a=${a}`, `b=${b}`, `compare=${compare}`]));
}

describe('deployment strategy space (000 §6.1–6.2)', () => {
  it('lists exactly the legal standard sets (three of zones 1–6, two or more on the long edge 1–3) and the six forward choices', () => {
    const legalStandard: string[] = [];
    for (let x = 1; x <= 6; x++) {
      for (let y = x + 1; y <= 6; y++) {
        for (let z = y + 1; z <= 6; z++) {
          if ([x, y, z].filter((zone) => zone <= 3).length >= 2) legalStandard.push(`standard:${x},${y},${z}`);
        }
      }
    }
    const forward = [1, 2, 3, 4, 5, 6].map((zone) => `forward:${zone}`);
    expect(legalStandard).toHaveLength(10);
    expect([...DEPLOYMENT_STRATEGIES].sort()).toEqual([...legalStandard, ...forward].sort());
    expect(deployment.matrix!.defaultValues(resolveParams(deployment))).toEqual([...DEPLOYMENT_STRATEGIES]);
  });

  it('writes every strategy in its canonical form: zones sorted, keyword lower case, no spaces', () => {
    for (const strategy of DEPLOYMENT_STRATEGIES) expect(resolveParams(deployment, [`a=${strategy}`]).a).toBe(strategy);
    expect(resolveParams(deployment, ['a=standard:3,1,2']).a).toBe('standard:1,2,3');
    expect(resolveParams(deployment, ['b=Standard: 4, 2 ,1']).b).toBe('standard:1,2,4');
    expect(resolveParams(deployment, ['a=FORWARD:5']).a).toBe('forward:5');
  });
});

describe('deployment exact solution against brute-force enumeration', () => {
  it('gives every metric, exactly, for all 16 × 16 strategy pairs under both readings of the lost die', () => {
    for (const compare of COMPARES) {
      for (const a of DEPLOYMENT_STRATEGIES) {
        for (const b of DEPLOYMENT_STRATEGIES) {
          const params = resolveParams(deployment, [`a=${a}`, `b=${b}`, `compare=${compare}`]);
          const exact = deployment.exact!(params);
          const expected = bruteForce(a, b, compare).metrics;
          const names = deployment.metrics(params).map((metric) => metric.name);
          expect(Object.keys(exact).sort()).toEqual([...names].sort());
          expect(Object.keys(expected).sort()).toEqual([...names].sort());
          for (const name of names) {
            expect(exact[name].equals(expected[name]), `${a} vs ${b}, compare=${compare}, ${name}: ${exact[name]} vs brute force ${expected[name]}`).toBe(true);
          }
        }
      }
    }
  });
});

describe('deployment questions players ask', () => {
  it('forward:1 against standard:1,2,3 wins initiative with probability 11/72, going to a roll-off 1/12 of the time', () => {
    // Standard 1-2-3 totals 6. Forward from zone 1 (raw): a 1 is lost, a d
    // of 2–6 adds zone d + 2 (4–8). Totals: both dice lost → 1 (1/36); zones
    // {1,4} from dice in {1,2} with a 2 → 5 (3/36); zones {1,5} from dice in
    // {1,3} with a 3 → 6, a tie (3/36); anything else exceeds 6.
    // P = 4/36 + ½ · 3/36 = 11/72 ≈ 15.3%.
    const exact = exactAt('forward:1', 'standard:1,2,3');
    expect(exact['a.initiative'].equals(Fraction.of(11, 72))).toBe(true);
    expect(exact.rolloff.equals(Fraction.of(1, 12))).toBe(true);
  });

  it('forward:1 against standard:1,2,3 wins initiative with only 5/72 if the die + 2 is what gets lost', () => {
    // Modified: nothing is lost from zone 1 (d + 2 ≥ 3), so a 1 now adds zone 3.
    // Totals below 6: double 1 → {1,3} = 4; double 2 → {1,4} = 5; double 3 →
    // {1,5} = 6 ties; two different dice give at least 1 + 3 + 4 = 8.
    // P = 2/36 + ½ · 1/36 = 5/72.
    expect(exactAt('forward:1', 'standard:1,2,3', 'modified')['a.initiative'].equals(Fraction.of(5, 72))).toBe(true);
  });

  it('forward from zone 4, 5 or 6 leaves no board edge with probability 25/36', () => {
    // Only a rolled 1 gives an edge zone (1 + 2 = 3); neither of two dice shows 1 with (5/6)² = 25/36.
    for (const zone of [4, 5, 6]) {
      for (const compare of COMPARES) expect(exactAt(`forward:${zone}`, 'standard:1,2,3', compare)['a.noEdge'].equals(Fraction.of(25, 36))).toBe(true);
    }
  });

  it('forward:6 is left with zone 6 alone with probability 1/9 as written, and 1/36 if the die + 2 is compared', () => {
    // Raw: a 6 is lost and a 4 adds zone 6 again (a duplicate), so both dice
    // in {4, 6} leave zone 6 alone: 4/36 = 1/9. Modified: a 4 is lost
    // (4 + 2 = 6) but a 6 now adds zone 8, so only double 4 does: 1/36.
    expect(exactAt('forward:6', 'standard:1,2,3', 'raw')['a.zones.1'].equals(Fraction.of(4, 36))).toBe(true);
    expect(exactAt('forward:6', 'standard:1,2,3', 'modified')['a.zones.1'].equals(Fraction.of(1, 36))).toBe(true);
  });
});
