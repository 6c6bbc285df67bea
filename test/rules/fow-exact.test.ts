import { describe, expect, it } from 'vitest';
import { Fraction } from '../../src/exact/fraction.js';
import { resolveParams } from '../../src/rules/params.js';
import { fow } from '../../src/rules/fow.js';
import type { Params } from '../../src/rules/types.js';

/**
 * Brute force, independent of the Markov chain in fow.exact: walk every
 * sequence of die faces one side can roll, turn by turn (t − start + 1
 * reserve dice a turn, then one scatter die per arriving defending platoon),
 * and weigh each leaf by 6^(maxDice − dice rolled) over the common
 * denominator 6^maxDice. Nothing here uses binomial counts or fractions
 * until the very end.
 */
interface SideCase {
  platoons: number;
  reserves: number;
  start: number;
  hit: number;
  guarantee: number;
  turns: number;
  /** Place of each face 1–6 (index 0 unused), for the defender's Scattered Reserves; null for the attacker. */
  placeOfFace: string[] | null;
}

interface Enumerated {
  onTable: bigint[]; // Σ weight · platoons on the table after turn t (index t − 1)
  allIn: bigint[];
  /** atLeast[t][k]: Σ weight over sequences with at least k reserve platoons arrived after turn t + 1. */
  atLeast: bigint[][];
  first: bigint[];
  entered: Map<string, bigint>; // Σ weight · platoons entering at each place
  denominator: bigint;
}

/** Every face tuple of `count` dice, as arrays of faces 1–6. */
function* allFaces(count: number): Generator<number[]> {
  const faces = new Array<number>(count).fill(1);
  while (true) {
    yield faces;
    let i = 0;
    while (i < count && faces[i] === 6) faces[i++] = 1;
    if (i === count) return;
    faces[i]++;
  }
}

function enumerateSide(side: SideCase): Enumerated {
  let maxDice = 0;
  for (let turn = side.start; turn <= side.turns; turn++) maxDice += turn - side.start + 1;
  if (side.placeOfFace) maxDice += side.reserves;
  const totals: Enumerated = {
    onTable: new Array(side.turns).fill(0n),
    allIn: new Array(side.turns).fill(0n),
    atLeast: Array.from({ length: side.turns }, () => new Array(side.reserves + 1).fill(0n)),
    first: new Array(side.turns).fill(0n),
    entered: new Map(),
    denominator: 6n ** BigInt(maxDice),
  };
  const remainingAfter = new Array<number>(side.turns).fill(0);
  const entered = new Map<string, number>();

  const walk = (turn: number, remaining: number, firstTurn: number, diceRolled: number): void => {
    if (turn > side.turns) {
      const weight = 6n ** BigInt(maxDice - diceRolled);
      for (let t = 0; t < side.turns; t++) {
        totals.onTable[t] += weight * BigInt(side.platoons - remainingAfter[t]);
        if (remainingAfter[t] === 0) totals.allIn[t] += weight;
        for (let k = 1; k <= side.reserves; k++)
          if (side.reserves - remainingAfter[t] >= k) totals.atLeast[t][k] += weight;
        if (firstTurn === t + 1) totals.first[t] += weight;
      }
      for (const [place, count] of entered)
        totals.entered.set(place, (totals.entered.get(place) ?? 0n) + weight * BigInt(count));
      return;
    }
    if (turn < side.start || remaining === 0) {
      remainingAfter[turn - 1] = remaining;
      walk(turn + 1, remaining, firstTurn, diceRolled);
      return;
    }
    const dice = turn - side.start + 1;
    for (const faces of allFaces(dice)) {
      const scored = faces.filter((face) => face >= side.hit).length;
      let arriving = Math.min(scored, remaining);
      if (scored === 0 && side.guarantee > 0 && dice >= side.guarantee) arriving = 1;
      const left = remaining - arriving;
      remainingAfter[turn - 1] = left;
      const nextFirst = firstTurn === 0 && arriving > 0 ? turn : firstTurn;
      if (!side.placeOfFace || arriving === 0) {
        walk(turn + 1, left, nextFirst, diceRolled + dice);
        continue;
      }
      for (const scatterFaces of allFaces(arriving)) {
        const places = scatterFaces.map((face) => side.placeOfFace![face]);
        for (const place of places) entered.set(place, (entered.get(place) ?? 0) + 1);
        walk(turn + 1, left, nextFirst, diceRolled + dice + arriving);
        for (const place of places) entered.set(place, entered.get(place)! - 1);
      }
    }
  };
  walk(1, side.reserves, 0, 0);
  return totals;
}

/** The rule's metrics by brute force, both sides enumerated on their own (they never interact). */
function bruteForce(params: Params): Record<string, Fraction> {
  const result: Record<string, Fraction> = {};
  for (const side of ['attacker', 'defender'] as const) {
    // 0 stands for the mission's minimum: half the platoons, rounded up.
    const reserves = Number(params[`${side}Reserves`]) || Math.ceil(Number(params[`${side}Platoons`]) / 2);
    const scatter = side === 'defender' ? facesToPlaces(String(params.scatter)) : null;
    // The end check comes at the start of the defender's turn endTurn, after the attacker's whole turn endTurn
    // (the attacker moves first) and before the defender's roll of that turn.
    const checkedAfter = side === 'attacker' ? Number(params.endTurn) : Number(params.endTurn) - 1;
    const totals = enumerateSide({
      platoons: Number(params[`${side}Platoons`]),
      reserves,
      start: Number(params[`${side}Start`]),
      hit: Number(params.hit),
      guarantee: Number(params.guarantee),
      turns: Math.max(Number(params.turns), checkedAfter),
      placeOfFace: scatter,
    });
    const share = (count: bigint) => Fraction.of(count, totals.denominator);
    result[`${side}.reserves`] = Fraction.of(reserves);
    for (let t = 1; t <= Number(params.turns); t++) {
      result[`${side}.onTable.${t}.mean`] = share(totals.onTable[t - 1]);
      result[`${side}.allIn.by.${t}`] = share(totals.allIn[t - 1]);
      result[`${side}.first.${t}`] = share(totals.first[t - 1]);
      for (let k = 1; k < reserves; k++) result[`${side}.atLeast.${k}.by.${t}`] = share(totals.atLeast[t - 1][k]);
    }
    if (side === 'defender') {
      result['defender.onTable.atEnd.mean'] = share(totals.onTable[checkedAfter - 1]);
      result['defender.allIn.atEnd'] = share(totals.allIn[checkedAfter - 1]);
    } else {
      result['attacker.allIn.atEnd'] = share(totals.allIn[checkedAfter - 1]);
    }
    if (scatter) {
      // The share the simulation estimates: expected platoons entering at a place over expected arrivals.
      let arrivals = 0n;
      for (const count of totals.entered.values()) arrivals += count;
      for (const place of new Set(scatter.slice(1)))
        result[`defender.scatter.${place}`] = Fraction.of(totals.entered.get(place) ?? 0n, arrivals);
    }
  }
  return result;
}

/** Reads a scatter map the long way, face by face, without fow's parser. */
function facesToPlaces(map: string): string[] {
  const placeOfFace = new Array<string>(7).fill('');
  for (const entry of map.split(',')) {
    const [faces, place] = entry.split(':');
    const [from, to] = faces.includes('-') ? faces.split('-').map(Number) : [Number(faces), Number(faces)];
    for (let face = from; face <= to; face++) placeOfFace[face] = place;
  }
  return placeOfFace;
}

function expectExactMatchesBruteForce(settings: string[]): void {
  const params = resolveParams(fow, settings);
  const exact = fow.exact!(params);
  const brute = bruteForce(params);
  const names = fow.metrics(params).map((m) => m.name);
  expect(Object.keys(exact)).toEqual(names);
  expect(Object.keys(brute).sort()).toEqual([...names].sort());
  for (const name of names) {
    expect(exact[name].equals(brute[name]), `${name}: exact ${exact[name]} vs brute force ${brute[name]}`).toBe(true);
  }
}

describe('fow exact solution against enumeration of every die', () => {
  it(
    '3 of 6 platoons at the defaults, the attacker rolling from turn 3 and the defender from turn 4, to turn ' + '5',
    () => {
      // Kept to six reserve dice a side (the defender's arrivals add a scatter die each), so the walk stays small.
      expectExactMatchesBruteForce(['turns=5', 'attackerStart=3', 'defenderStart=4']);
    },
  );

  it(
    '4 of 5 attacking platoons from turn 1 at 4+ with a two-dice guarantee; the defender from turn 2, ' + 'scattering',
    () => {
      expectExactMatchesBruteForce([
        'turns=3',
        'attackerPlatoons=5',
        'attackerReserves=4',
        'hit=4',
        'guarantee=2',
        'defenderStart=2',
        'endTurn=4',
      ]);
    },
  );

  it('no guarantee at 6+, all four defending platoons in reserve without an ambush, lopsided scatter', () => {
    expectExactMatchesBruteForce([
      'turns=3',
      'endTurn=3',
      'guarantee=0',
      'hit=6',
      'attackerPlatoons=2',
      'defenderPlatoons=4',
      'ambush=false',
      'defenderReserves=4',
      'defenderStart=2',
      'scatter=1:left,2-5:centre,6:right',
    ]);
  });

  it('a guarantee of one die: every rolling turn brings a platoon, even with 3+ to hit', () => {
    expectExactMatchesBruteForce([
      'turns=4',
      'attackerStart=2',
      'guarantee=1',
      'hit=3',
      'attackerPlatoons=8',
      'attackerReserves=5',
      'endTurn=4',
    ]);
  });

  it("the end check at the start of the defender's turn 6, followed past the turns shown (turns=2)", () => {
    // Reserves rolled through turn 5: the attacker from turn 3 (1 + 2 + 3 dice), the defender from turn 4 (1 + 2 dice
    // and a scatter die per arrival).
    expectExactMatchesBruteForce([
      'turns=2',
      'attackerStart=2',
      'defenderStart=2',
      'attackerPlatoons=3',
      'defenderPlatoons=4',
      'endTurn=5',
    ]);
  });

  it('the end check before the turns shown end: endTurn=3 within turns=3', () => {
    expectExactMatchesBruteForce([
      'turns=3',
      'attackerStart=1',
      'defenderStart=2',
      'attackerPlatoons=3',
      'defenderPlatoons=3',
      'endTurn=3',
    ]);
  });
});

describe('fow: the questions players ask', () => {
  const defaults = fow.exact!(resolveParams(fow, []));

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
      const lone = fow.exact!(resolveParams(fow, ['defenderPlatoons=2', 'guarantee=0']));
      expect(lone['defender.allIn.atEnd'].equals(Fraction.of(729 - 64, 729))).toBe(true);
      expect(lone['defender.onTable.atEnd.mean'].equals(Fraction.of(2 * 729 - 64, 729))).toBe(true);
      // One turn later the check would also count turn 6's four dice: (2/3)^10.
      const later = fow.exact!(resolveParams(fow, ['defenderPlatoons=2', 'guarantee=0', 'endTurn=7']));
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
      const late = fow.exact!(resolveParams(fow, ['attackerStart=3']));
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
    const odd = fow.exact!(resolveParams(fow, ['attackerPlatoons=7', 'defenderPlatoons=7']));
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
    const exact = fow.exact!(params);
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
