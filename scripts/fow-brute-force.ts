/**
 * The brute-force oracle for the Flames of War reserve rules (fow), and the
 * script that writes its values to test/golden/fow-brute-force.json.
 * Walking every die is slow for the larger cases (seconds to a minute on a
 * busy 2-core machine), so test/rules/fow-exact.test.ts compares fow.exact
 * with the checked-in values, and re-runs this walk live only on the small
 * cases, checking that they still equal the file. Regenerate after changing
 * the walk or the cases: `npm run build && node dist/scripts/fow-brute-force.js`.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Params } from '../src/contract/types.js';
import { Fraction } from '../src/exact/fraction.js';
import { fow } from '../src/rules/fow/fow.js';
import { resolveParams } from '../src/rules/params.js';

/** One case of the oracle: its settings, and whether the walk is quick enough to re-run in the test. */
export interface BruteForceCase {
  name: string;
  settings: string[];
  /** Under a second: the test re-runs the walk and checks it still equals the file. */
  live: boolean;
}

export const FOW_BRUTE_FORCE_CASES: BruteForceCase[] = [
  {
    // Kept to six reserve dice a side (the defender's arrivals add a scatter die each), so the walk stays small.
    name: '3 of 6 platoons at the defaults, the attacker rolling from turn 3 and the defender from turn 4, to turn 5',
    settings: ['turns=5', 'attackerStart=3', 'defenderStart=4'],
    live: false,
  },
  {
    name: '4 of 5 attacking platoons from turn 1 at 4+ with a two-dice guarantee; the defender from turn 2, scattering',
    settings: [
      'turns=3',
      'attackerPlatoons=5',
      'attackerReserves=4',
      'hit=4',
      'guarantee=2',
      'defenderStart=2',
      'endTurn=4',
    ],
    live: false,
  },
  {
    name: 'no guarantee at 6+, all four defending platoons in reserve without an ambush, lopsided scatter',
    settings: [
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
    ],
    live: true,
  },
  {
    name: 'a guarantee of one die: every rolling turn brings a platoon, even with 3+ to hit',
    settings: [
      'turns=4',
      'attackerStart=2',
      'guarantee=1',
      'hit=3',
      'attackerPlatoons=8',
      'attackerReserves=5',
      'endTurn=4',
    ],
    live: true,
  },
  {
    // Reserves rolled through turn 5: the attacker from turn 3 (1 + 2 + 3 dice), the defender from turn 4 (1 + 2 dice
    // and a scatter die per arrival).
    name: "the end check at the start of the defender's turn 6, followed past the turns shown (turns=2)",
    settings: [
      'turns=2',
      'attackerStart=2',
      'defenderStart=2',
      'attackerPlatoons=3',
      'defenderPlatoons=4',
      'endTurn=5',
    ],
    live: false,
  },
  {
    name: 'the end check before the turns shown end: endTurn=3 within turns=3',
    settings: [
      'turns=3',
      'attackerStart=1',
      'defenderStart=2',
      'attackerPlatoons=3',
      'defenderPlatoons=3',
      'endTurn=3',
    ],
    live: true,
  },
];

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
export function bruteForce(params: Params): Record<string, Fraction> {
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

/** The file's path, beside the other golden values. */
export const FOW_BRUTE_FORCE_FILE = 'golden/fow-brute-force.json';

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = fileURLToPath(new URL(`../../test/${FOW_BRUTE_FORCE_FILE}`, import.meta.url));
  const lines = FOW_BRUTE_FORCE_CASES.map(({ settings }) => {
    const values = bruteForce(resolveParams(fow, settings));
    // In the rule's own order of metrics, each an exact fraction as text.
    const ordered = fow.metrics(resolveParams(fow, settings)).map((m) => [m.name, values[m.name].toString()]);
    return JSON.stringify({ settings, values: ordered });
  });
  // One case a line: a regenerated file diffs case by case.
  writeFileSync(out, `[\n${lines.join(',\n')}\n]\n`);
  process.stdout.write(`wrote ${out}\n`);
}
