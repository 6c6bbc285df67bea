import { describe, expect, it } from 'vitest';
import { Fraction } from '../../src/exact/fraction.js';
import { deployment } from '../../src/rules/deployment/deployment.js';
import { DEPLOYMENT_STRATEGIES } from '../../src/rules/deployment/params.js';
import { resolveParams } from '../../src/rules/params.js';
import {
  aPlacesLast,
  BOARDS,
  bruteForce,
  edgesTouched,
  type Reading,
  readingSettings,
  TEXT_READING,
  zoneRectangles,
  zonesWithEdge,
} from './deployment-brute-force.js';

const COMPARES = ['raw', 'modified'] as const;

/**
 * The three readings of which zones give a board edge: geometric with 7 and 8 above 4 and 6 (default), geometric with
 * them inset, long edge only.
 */
const EDGE_READINGS: Reading[] = [
  TEXT_READING,
  { ...TEXT_READING, aocSides: false },
  { ...TEXT_READING, edges: 'long' },
];

function exactAt(
  a: string,
  b: string,
  compare: 'raw' | 'modified' = 'raw',
  settings: string[] = [],
): Record<string, Fraction> {
  return deployment.exact!.values(resolveParams(deployment, [`a=${a}`, `b=${b}`, `compare=${compare}`, ...settings]));
}

describe('which zones give a board edge, from the zones drawn on the board (§6)', () => {
  it(
    'rows of three 16" zones (4 × 4) or 24" zones (4 × 6) fill the width: zones 1, 4, 7 touch the left edge and ' +
      '3, 6, 8 the right',
    () => {
      for (const board of BOARDS) {
        const zones = zoneRectangles(board, true);
        expect(zones.get(3)!.x1).toBe(board.width); // three zones across fill the board
        expect(edgesTouched(zones.get(1)!, board)).toEqual(['own long edge', 'left side edge']);
        expect(edgesTouched(zones.get(5)!, board)).toEqual([]);
        expect(edgesTouched(zones.get(7)!, board)).toEqual(['left side edge']);
        expect(edgesTouched(zones.get(8)!, board)).toEqual(['right side edge']);
      }
    },
  );

  it('both board sizes agree on every reading, so one answer serves both', () => {
    for (const reading of EDGE_READINGS)
      expect([...zonesWithEdge(reading, BOARDS[1])].sort()).toEqual([...zonesWithEdge(reading, BOARDS[0])].sort());
  });
});

describe('deployment strategy space (000 §6.1–6.2)', () => {
  it(
    'lists exactly the legal standard sets (three of zones 1–6, two or more on the long edge 1–3) and the six ' +
      'forward choices',
    () => {
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
      expect(deployment.presentation!.matrix!.defaultValues(resolveParams(deployment))).toEqual([
        ...DEPLOYMENT_STRATEGIES,
      ]);
    },
  );

  it('writes every strategy in its canonical form: zones sorted, keyword lower case, no spaces', () => {
    for (const strategy of DEPLOYMENT_STRATEGIES) expect(resolveParams(deployment, [`a=${strategy}`]).a).toBe(strategy);
    expect(resolveParams(deployment, ['a=standard:3,1,2']).a).toBe('standard:1,2,3');
    expect(resolveParams(deployment, ['b=Standard: 4, 2 ,1']).b).toBe('standard:1,2,4');
    expect(resolveParams(deployment, ['a=FORWARD:5']).a).toBe('forward:5');
  });
});

describe('deployment exact solution against brute-force enumeration', () => {
  it(
    'gives every metric, exactly, for all 16 × 16 strategy pairs under both readings of the lost die and all ' +
      'three readings of the edges',
    () => {
      for (const reading of EDGE_READINGS) {
        for (const compare of COMPARES) {
          for (const a of DEPLOYMENT_STRATEGIES) {
            for (const b of DEPLOYMENT_STRATEGIES) {
              const params = resolveParams(deployment, [
                `a=${a}`,
                `b=${b}`,
                `compare=${compare}`,
                ...readingSettings(reading),
              ]);
              const exact = deployment.exact!.values(params);
              const expected = bruteForce(a, b, compare, reading).metrics;
              const names = deployment.metrics(params).map((metric) => metric.name);
              expect(Object.keys(exact).sort()).toEqual([...names].sort());
              expect(Object.keys(expected).sort()).toEqual([...names].sort());
              for (const name of names) {
                expect(
                  exact[name].equals(expected[name]),
                  `${a} vs ${b}, compare=${compare}, edges=${reading.edges}, aocSides=${reading.aocSides}, ${name}: ` +
                    `${exact[name]} vs brute force ${expected[name]}`,
                ).toBe(true);
              }
            }
          }
        }
      }
    },
  );

  it('gives who places the last squad, exactly, for squad counts and squads per turn around every tie of turns', () => {
    const strategies = ['forward:1', 'standard:1,2,3', 'forward:3'];
    for (const squadsA of [1, 2, 3, 4, 5, 7]) {
      for (const squadsB of [1, 2, 3, 4, 6]) {
        for (const perTurn of [1, 2, 3]) {
          const reading: Reading = { ...TEXT_READING, squadsA, squadsB, perTurn };
          for (const a of strategies) {
            for (const b of strategies) {
              const exact = exactAt(a, b, 'raw', readingSettings(reading));
              const expected = bruteForce(a, b, 'raw', reading).metrics;
              for (const name of ['a.placesLast', 'b.placesLast']) {
                expect(
                  exact[name].equals(expected[name]),
                  `${a} vs ${b}, ${squadsA} vs ${squadsB} squads, ${perTurn} a turn, ${name}: ${exact[name]} vs ` +
                    `${expected[name]}`,
                ).toBe(true);
              }
            }
          }
        }
      }
    }
  });
});

describe('deployment questions players ask', () => {
  it(
    'forward:1 against standard:1,2,3 wins initiative with probability 11/72, going to a roll-off 1/12 of the ' +
      'time',
    () => {
      // Standard 1-2-3 totals 6. Forward from zone 1 (raw): a 1 is lost, a d
      // of 2–6 adds zone d + 2 (4–8). Totals: both dice lost → 1 (1/36); zones
      // {1,4} from dice in {1,2} with a 2 → 5 (3/36); zones {1,5} from dice in
      // {1,3} with a 3 → 6, a tie (3/36); anything else exceeds 6.
      // P = 4/36 + ½ · 3/36 = 11/72 ≈ 15.3%.
      const exact = exactAt('forward:1', 'standard:1,2,3');
      expect(exact['a.initiative'].equals(Fraction.of(11, 72))).toBe(true);
      expect(exact.rolloff.equals(Fraction.of(1, 12))).toBe(true);
    },
  );

  it('forward:1 against standard:1,2,3 wins initiative with only 5/72 if the die + 2 is what gets lost', () => {
    // Modified: nothing is lost from zone 1 (d + 2 ≥ 3), so a 1 now adds zone 3.
    // Totals below 6: double 1 → {1,3} = 4; double 2 → {1,4} = 5; double 3 →
    // {1,5} = 6 ties; two different dice give at least 1 + 3 + 4 = 8.
    // P = 2/36 + ½ · 1/36 = 5/72.
    expect(exactAt('forward:1', 'standard:1,2,3', 'modified')['a.initiative'].equals(Fraction.of(5, 72))).toBe(true);
  });

  it(
    'as drawn, only a forward gamble from zone 5 can leave no board edge: 1/9 as written, 1/36 if the die + 2 is ' +
      'compared',
    () => {
      // Zones 1–4 and 6–8 touch a board edge; zone 5 does not. From zone 5,
      // raw: a 5 is lost and a 3 adds zone 5 again, every other die adds an
      // edge zone (3, 4, 6 or 8): both dice in {3, 5}, 4/36 = 1/9. Modified: a
      // 3 is lost (3 + 2 = 5), a 5 now adds zone 7: only double 3, 1/36.
      for (const zone of [1, 2, 3, 4, 6]) {
        for (const compare of COMPARES)
          expect(exactAt(`forward:${zone}`, 'standard:1,2,3', compare)['a.noEdge'].equals(Fraction.ZERO)).toBe(true);
      }
      expect(exactAt('forward:5', 'standard:1,2,3', 'raw')['a.noEdge'].equals(Fraction.of(1, 9))).toBe(true);
      expect(exactAt('forward:5', 'standard:1,2,3', 'modified')['a.noEdge'].equals(Fraction.of(1, 36))).toBe(true);
    },
  );

  it('with zones 7 and 8 inset from the sides, forward from zone 5 leaves no edge with probability 1/4', () => {
    // Raw: dice 3 (zone 5 again), 5 (lost) and 6 (zone 8, no edge) give nothing with an edge: (3/6)² = 1/4.
    // Modified: 3 (lost), 5 (zone 7) and 6 (zone 8): also (3/6)² = 1/4.
    for (const compare of COMPARES)
      expect(
        exactAt('forward:5', 'standard:1,2,3', compare, ['aocSides=false'])['a.noEdge'].equals(Fraction.of(1, 4)),
      ).toBe(true);
  });

  it(
    'counting only the long board edge, forward from zone 4, 5 or 6 leaves no board edge with probability ' + '25/36',
    () => {
      // Only a rolled 1 gives an edge zone (1 + 2 = 3); neither of two dice shows 1 with (5/6)² = 25/36.
      for (const zone of [4, 5, 6]) {
        for (const compare of COMPARES)
          expect(
            exactAt(`forward:${zone}`, 'standard:1,2,3', compare, ['edges=long'])['a.noEdge'].equals(
              Fraction.of(25, 36),
            ),
          ).toBe(true);
      }
    },
  );

  it(
    'with six squads each, two at a time, the player with initiative places the last squad; with five against ' +
      'six, b always does',
    () => {
      // Equal turns (3 and 3): the player without initiative goes first, so the other goes last.
      const equal = exactAt('forward:1', 'standard:1,2,3');
      expect(equal['a.placesLast'].equals(equal['a.initiative'])).toBe(true);
      expect(aPlacesLast(true, TEXT_READING)).toBe(true);
      // 5 squads need 3 turns as 6 do; 7 need 4, so a with 7 always places last.
      expect(
        exactAt('forward:1', 'standard:1,2,3', 'raw', ['squadsA=5'])['a.placesLast'].equals(Fraction.of(11, 72)),
      ).toBe(true);
      expect(exactAt('forward:1', 'standard:1,2,3', 'raw', ['squadsA=7'])['a.placesLast'].equals(Fraction.ONE)).toBe(
        true,
      );
      expect(exactAt('forward:1', 'standard:1,2,3', 'raw', ['squadsA=4'])['b.placesLast'].equals(Fraction.ONE)).toBe(
        true,
      );
    },
  );

  it('forward:6 is left with zone 6 alone with probability 1/9 as written, and 1/36 if the die + 2 is compared', () => {
    // Raw: a 6 is lost and a 4 adds zone 6 again (a duplicate), so both dice
    // in {4, 6} leave zone 6 alone: 4/36 = 1/9. Modified: a 4 is lost
    // (4 + 2 = 6) but a 6 now adds zone 8, so only double 4 does: 1/36.
    expect(exactAt('forward:6', 'standard:1,2,3', 'raw')['a.zones.1'].equals(Fraction.of(4, 36))).toBe(true);
    expect(exactAt('forward:6', 'standard:1,2,3', 'modified')['a.zones.1'].equals(Fraction.of(1, 36))).toBe(true);
  });
});
