/**
 * warbands on stream 5 (src/rules/warbands/dice.ts, warbands/fast.ts): the dice tables against brute force
 * written from the Mordheim setup chapter, the factorisation that lets stream 5 draw a roll-off's outcome apart
 * from its dice, the exactness of the draw, and the dice the fast path counts against the brute-force law.
 *
 * Brute force, independent of the tables: every face row of every throw (6^m rows for m dice, m up to 8),
 * read as the text reads it. "The player with the highest roll gets the first turn … additional rolls should
 * be performed until a single player has the highest dice roll" (the defender's "roll a dice" read the same
 * way): the dice on the highest face throw again while two or more share it. "Remaining warbands to setup are
 * determined by the players rolling a D6 … For ties, additional rolls should be performed": every face shown
 * by two or more dice is a group that throws again for its places. The law of the dice thrown, P(D = d) for
 * each d up to DICE_MAX, follows by summing over the rows (the all-tied row repeats the roll-off: its term is
 * the same law at d − m, already known). The tables' law is read off their classes alone: each class's share
 * of the draws, its dice, and for the groups it leaves the tables' own laws convolved.
 */
import { describe, expect, it } from 'vitest';
import { chunkStream } from '../../src/engine/random.js';
import { Fraction } from '../../src/exact/fraction.js';
import { belowExact, rejectBelow } from '../../src/rules/draw-digits.js';
import { getRule } from '../../src/rules/index.js';
import { resolveParams } from '../../src/rules/params.js';
import { diceCount, diceTable, jointDigits, type RollOffKind } from '../../src/rules/warbands/dice.js';
import { DICE_HISTOGRAM, layout } from '../../src/rules/warbands/layout.js';
import type { Warbands } from '../../src/rules/warbands/setup.js';
import { wholeRunTally } from '../support/whole-run.js';

const DICE_MAX = 26;
type Law = Fraction[];

const point = (d: number): Law =>
  Array.from({ length: DICE_MAX + 1 }, (_, k) => (k === d ? Fraction.ONE : Fraction.ZERO));

function convolve(a: Law, b: Law): Law {
  const out = point(-1);
  for (let i = 0; i <= DICE_MAX; i++)
    if (!a[i].equals(Fraction.ZERO))
      for (let j = 0; i + j <= DICE_MAX; j++) out[i + j] = out[i + j].add(a[i].mul(b[j]));
  return out;
}

/** Calls `visit` with every row of m faces 1–6 (the same array, changed in place), 6^m calls. */
function forEachRow(m: number, visit: (faces: Int8Array) => void): void {
  const faces = new Int8Array(m).fill(1);
  for (;;) {
    visit(faces);
    let i = 0;
    while (i < m && faces[i] === 6) faces[i++] = 1;
    if (i === m) return;
    faces[i]++;
  }
}

/** The groups that throw again after one row, as the text reads it (sizes, largest first). */
function rethrowing(kind: RollOffKind, faces: Int8Array): number[] {
  const shown = [0, 0, 0, 0, 0, 0, 0];
  for (const face of faces) shown[face]++;
  if (kind === 'top') {
    const highest = Math.max(...faces);
    return shown[highest] >= 2 ? [shown[highest]] : [];
  }
  return shown.filter((count) => count >= 2).sort((a, b) => b - a);
}

const bruteMemo = new Map<string, Law>();

/** P(D = d), d ≤ DICE_MAX, for a roll-off of `kind` among m players, from every face row of every throw. */
function bruteLaw(kind: RollOffKind, m: number): Law {
  if (m <= 1) return point(0);
  const key = `${kind}${m}`;
  const known = bruteMemo.get(key);
  if (known) return known;
  // How many rows leave each set of groups to throw again.
  const rows = new Map<string, number>();
  forEachRow(m, (faces) => {
    const groups = rethrowing(kind, faces).join('+');
    rows.set(groups, (rows.get(groups) ?? 0) + 1);
  });
  // Each set of groups' follow-up law once; the all-tied rows repeat this very law, read below d.
  const row = Fraction.of(1, 6 ** m);
  let allTied = Fraction.ZERO;
  const follows: [Fraction, Law][] = [];
  for (const [groups, count] of rows) {
    const sizes = groups === '' ? [] : groups.split('+').map(Number);
    if (sizes.length === 1 && sizes[0] === m) allTied = row.mul(Fraction.of(count));
    else
      follows.push([
        row.mul(Fraction.of(count)),
        sizes.reduce((acc, size) => convolve(acc, bruteLaw(kind, size)), point(0)),
      ]);
  }
  const law = point(-1);
  for (let d = m; d <= DICE_MAX; d++) {
    let p = allTied.mul(law[d - m]);
    for (const [chance, follow] of follows) p = p.add(chance.mul(follow[d - m]));
    law[d] = p;
  }
  bruteMemo.set(key, law);
  return law;
}

const tableMemo = new Map<string, Law>();

/** The law a table gives: its classes' shares, dice and left groups (those settled from the 8-dice tables). */
function tableLaw(kind: RollOffKind, m: number, digits = 8): Law {
  const key = `${kind}${m}/${digits}`;
  const known = tableMemo.get(key);
  if (known) return known;
  const { bound, classes } = diceTable(kind, m, digits);
  // A class that leaves the whole group again, on an 8-dice table, repeats this very law (below d: it threw dice).
  const repeats = (pending: number[]) => digits === 8 && pending.length === 1 && pending[0] === m;
  const follows = classes.map((c) => ({
    share: Fraction.of(c.ways, bound),
    dice: c.dice,
    follow: repeats(c.pending) ? null : c.pending.reduce((acc, size) => convolve(acc, tableLaw(kind, size)), point(0)),
  }));
  const law = point(-1);
  for (let d = 0; d <= DICE_MAX; d++) {
    let p = Fraction.ZERO;
    for (const { share, dice, follow } of follows) if (dice <= d) p = p.add(share.mul((follow ?? law)[d - dice]));
    law[d] = p;
  }
  tableMemo.set(key, law);
  return law;
}

const show = (law: Law) => law.map((p) => p.toString());

describe('stream 5 warbands: each dice table gives the law of the dice the rule text throws', () => {
  for (const kind of ['top', 'sort'] as const) {
    for (let m = 2; m <= 8; m++) {
      it(`${kind} among ${m}: its classes cover every draw once, and its law is the face-by-face one to ${DICE_MAX} dice`, () => {
        const { bound, classes } = diceTable(kind, m);
        expect(bound).toBe(6 ** 8);
        expect(classes.reduce((sum, c) => sum + c.ways, 0)).toBe(bound);
        expect(show(tableLaw(kind, m))).toEqual(show(bruteLaw(kind, m)));
      });
    }
    // The tables an outcome index shares a draw with read 6 or 7 dice (jointDigits), and only groups that fit.
    for (const digits of [6, 7]) {
      it(`${kind} read ${digits} dice a draw, groups of 2 to ${digits}: the same law`, () => {
        for (let m = 2; m <= digits; m++) {
          const { bound, classes } = diceTable(kind, m, digits);
          expect(classes.reduce((sum, c) => sum + c.ways, 0)).toBe(bound);
          expect(show(tableLaw(kind, m, digits)), `${kind} ${m}`).toEqual(show(bruteLaw(kind, m)));
        }
      });
    }
  }

  it('the hand-worked pair: 2 dice with chance 5/6, 4 with 5/36, 2k with (1/6)^(k−1)·5/6', () => {
    const law = tableLaw('sort', 2);
    for (let k = 1; 2 * k <= DICE_MAX; k++)
      expect(law[2 * k].equals(Fraction.of(5, 6).mul(Fraction.of(1, 6).pow(k - 1))), `${2 * k} dice`).toBe(true);
    expect(law[3].equals(Fraction.ZERO)).toBe(true);
  });

  it('an outcome index shares a draw only while six dice still fit: 6 · 6^7 and 44 · 6^6 do, 45 · 6^6 does not', () => {
    expect(jointDigits(6)).toBe(7);
    expect(jointDigits(44)).toBe(6);
    expect(jointDigits(45)).toBe(0);
  });
});

describe('stream 5 warbands: a drawn value reads the class its table puts it in, at every class edge', () => {
  /** Plays back `first` as the first draw of a bound-`bound` table, then 0 for every draw after. */
  const playback = (first: number, bound: number) => {
    let calls = 0;
    return Object.assign(() => (calls++ === 0 ? (first + 0.5) / bound : 0.5 / 6 ** 8), {
      stream: 5 as const,
      roll: () => 1,
      count: () => 0,
      below: () => 0,
    });
  };
  /** The dice of a roll-off whose draws after the first are all 0: the first class of each table, followed. */
  const afterZero = (kind: RollOffKind, size: number): number => {
    const c = diceTable(kind, size).classes[0];
    return c.pending.reduce((sum, group) => sum + afterZero(kind, group), c.dice);
  };
  const cases: [RollOffKind, number, number][] = [];
  for (const kind of ['top', 'sort'] as const) {
    for (let size = 2; size <= 8; size++) cases.push([kind, size, 1]);
    for (const outcomes of [4, 6, 24, 44])
      for (let size = 2; size <= jointDigits(outcomes); size++) cases.push([kind, size, outcomes]);
  }
  for (const [kind, size, outcomes] of cases) {
    it(`${kind} among ${size}${outcomes > 1 ? `, with ${outcomes} outcomes` : ''}: both sides of every class start`, () => {
      const { bound, classes } = diceTable(kind, size, outcomes > 1 ? jointDigits(outcomes) : 8);
      const count = diceCount(kind, size, outcomes);
      const wrong: string[] = [];
      for (let outcome = 0; outcome < outcomes; outcome++) {
        let start = outcome * bound;
        for (const c of classes) {
          const expected = c.pending.reduce((sum, group) => sum + afterZero(kind, group), c.dice);
          for (const draw of [start, start + c.ways - 1]) {
            const counts = new Int32Array(outcomes);
            const dice = count(playback(draw, bound * outcomes), counts);
            if (dice !== expected) wrong.push(`draw ${draw}: ${dice} dice, not ${expected}`);
            if (outcomes > 1 && counts[outcome] !== 1) wrong.push(`draw ${draw}: not counted as outcome ${outcome}`);
          }
          start += c.ways;
        }
      }
      expect(wrong).toEqual([]);
    });
  }
});

// ---------------------------------------------------------------- the factorisation, over named players

type Joint = Map<string, Fraction[]>; // outcome (winner, or the order joined by ',') → P(outcome, D = d), d ≤ SMALL_MAX

const SMALL_MAX = 14;
const jointMemo = new Map<string, Joint>();

function addJoint(into: Joint, outcome: string, d: number, p: Fraction): void {
  if (d > SMALL_MAX) return;
  const row = into.get(outcome) ?? Array.from({ length: SMALL_MAX + 1 }, () => Fraction.ZERO);
  row[d] = row[d].add(p);
  into.set(outcome, row);
}

/** The joint laws of groups that throw independently, their outcomes laid end to end and their dice added. */
function combine(parts: readonly Joint[]): Joint {
  let combined: Joint = new Map([['', point(0).slice(0, SMALL_MAX + 1)]]);
  for (const part of parts) {
    const next: Joint = new Map();
    for (const [head, a] of combined)
      for (const [tail, b] of part)
        for (let i = 0; i <= SMALL_MAX; i++)
          for (let j = 0; i + j <= SMALL_MAX; j++)
            if (!a[i].equals(Fraction.ZERO) && !b[j].equals(Fraction.ZERO))
              addJoint(next, head === '' ? tail : `${head},${tail}`, i + j, a[i].mul(b[j]));
    combined = next;
  }
  return combined;
}

/**
 * The joint law of (outcome, dice) of a roll-off among the named `players`, every row of every throw
 * followed: the highest face's group plays on (top), or every face's group in face order (sort), each
 * group's own joint law combined with the others' (they throw independently).
 */
function namedJoint(kind: RollOffKind, players: readonly number[]): Joint {
  const key = `${kind}:${players.join(',')}`;
  const known = jointMemo.get(key);
  if (known) return known;
  const m = players.length;
  const joint: Joint = new Map();
  if (m === 1) addJoint(joint, String(players[0]), 0, Fraction.ONE);
  else {
    // Rows by the groups they leave (the same groups, the same follow-up); the all-tied rows apart.
    const byGroups = new Map<string, { rows: number; groups: number[][] }>();
    let allTied = 0;
    forEachRow(m, (faces) => {
      const groups: number[][] = [];
      for (let face = 6; face >= 1; face--) {
        const group = players.filter((_, i) => faces[i] === face);
        if (group.length > 0) groups.push(group);
      }
      const playing = kind === 'top' ? [groups[0]] : groups;
      if (playing.length === 1 && playing[0].length === m) {
        allTied++;
        return;
      }
      const name = playing.map((group) => group.join(',')).join('|');
      const entry = byGroups.get(name) ?? { rows: 0, groups: playing };
      entry.rows++;
      byGroups.set(name, entry);
    });
    const follows = [...byGroups.values()].map(({ rows, groups }) => ({
      rows,
      joint: combine(groups.map((group) => namedJoint(kind, group))),
    }));
    const row = Fraction.of(1, 6 ** m);
    // By total dice, so that the all-tied rows read this very law below d.
    for (let d = m; d <= SMALL_MAX; d++) {
      for (const { rows, joint: follow } of follows)
        for (const [outcome, law] of follow) addJoint(joint, outcome, d, row.mul(Fraction.of(rows)).mul(law[d - m]));
      for (const [outcome, law] of [...joint])
        addJoint(joint, outcome, d, row.mul(Fraction.of(allTied)).mul(law[d - m]));
    }
  }
  jointMemo.set(key, joint);
  return joint;
}

describe('stream 5 warbands: who wins a roll-off and its order tell nothing about the dice it took', () => {
  // So stream 5 may draw the outcome uniformly and the dice apart: P(outcome, D = d) = P(D = d) / outcomes.
  for (const kind of ['top', 'sort'] as const) {
    for (let m = 2; m <= 4; m++) {
      it(`${kind} among ${m} named players: every outcome has the same law of dice, 1/${kind === 'top' ? m : `${m}!`} of it`, () => {
        const players = Array.from({ length: m }, (_, i) => i);
        const joint = namedJoint(kind, players);
        const outcomes = kind === 'top' ? m : [1, 1, 2, 6, 24][m];
        expect(joint.size).toBe(outcomes);
        const law = bruteLaw(kind, m);
        for (const [outcome, row] of joint)
          for (let d = 0; d <= SMALL_MAX; d++)
            expect(row[d].equals(law[d].div(Fraction.of(outcomes))), `${outcome}, ${d} dice`).toBe(true);
      });
    }
  }
});

// ---------------------------------------------------------------- the draw

describe('belowExact: Lemire on the 32 bits of one uniform, exactly uniform', () => {
  const TWO_32 = 2n ** 32n;
  /** The draw belowExact makes of the 32-bit word x, or null when it draws again. */
  const drawOf = (x: bigint, bound: number): number | null => {
    let calls = 0;
    // A redraw gets the first word value 0 keeps, ⌈s/bound⌉ (s = 2^32 mod bound): the call count tells it apart.
    const kept = Number(((TWO_32 % BigInt(bound)) + BigInt(bound) - 1n) / BigInt(bound));
    const rng = Object.assign(() => (calls++ === 0 ? Number(x) / 2 ** 32 : kept / 2 ** 32), {
      stream: 5 as const,
      roll: () => 1,
      count: () => 0,
      below: () => 0,
    });
    const value = belowExact(rng, bound, rejectBelow(bound));
    return calls === 1 ? value : null;
  };
  for (const bound of [2, 3, 6, 7, 24, 1296, 40_320, 6 * 6 ** 7, 44 * 6 ** 6, 6 ** 8, 2 ** 21]) {
    it(`bound ${bound}: each value keeps ⌊2^32/bound⌋ words; the words at each value's edges go where Lemire says`, () => {
      const b = BigInt(bound);
      const keep = TWO_32 / b;
      const s = TWO_32 % b;
      // Value v keeps the words x with v·2^32 + s ≤ x·b < (v + 1)·2^32: count them for some v, then try the edges.
      const ceilDiv = (a: bigint) => (a + b - 1n) / b;
      const values = [0, 1, 2, bound >> 1, bound - 2, bound - 1].filter((v) => v >= 0 && v < bound);
      for (let k = 0; k < 40; k++) values.push(Math.floor((((k * 2654435761) % 2 ** 32) / 2 ** 32) * bound));
      for (const v of values) {
        const firstKept = ceilDiv(BigInt(v) * TWO_32 + s);
        const pastLast = ceilDiv(BigInt(v + 1) * TWO_32);
        expect(pastLast - firstKept, `value ${v}`).toBe(keep);
        expect(drawOf(firstKept, bound), `first word of ${v}`).toBe(v);
        expect(drawOf(pastLast - 1n, bound), `last word of ${v}`).toBe(v);
        // The word before the first kept one is rejected (it maps to v with a low part below s) or is v − 1's.
        const before = firstKept - 1n;
        if (before >= 0n) {
          const mapsTo = Number((before * b) / TWO_32);
          expect(drawOf(before, bound), `word before ${v}`).toBe(mapsTo === v ? null : mapsTo);
        }
      }
    });
  }
});

// ---------------------------------------------------------------- the fast path's dice against the law

/**
 * Bounds: a histogram bin with chance p over N trials holds N·p ± √(N·p(1 − p)); 5σ each. Bins expected to
 * hold fewer than 25 trials are pooled into one (the tail, and the bins between the counts a roll-off can
 * take), checked the same way. About 20 checks a roll-off, 3 a setting, 9 settings: with 5σ each (5.7e-7 by
 * chance), a correct build fails for about one seed in 3,000; the seed is fixed, so it never flakes.
 */
describe('stream 5 warbands: the dice every roll-off counts follow the face-by-face law', () => {
  const rule = getRule('warbands');
  const TRIALS = 400_000;
  const settings: string[][] = [
    [], // the setup pair carries the outcome (7 dice a draw); three roll for the first turn
    ['warbands=150:9,150:9'], // a defender roll-off of two; the first turn carries the outcome
    ['warbands=150:9,150:9', 'defender=false'],
    ['warbands=152:9,148:11,120:8,100:5'], // a setup sort of three read 6 dice a draw, with the outcome
    ['warbands=120:9,120:9,120:9,80:12'], // 72 outcomes: drawn on their own
    ['warbands=100:10,100:10,100:10,100:10,60:5', 'allies=1+2', 'defender=false'],
    ['warbands=100:5,100:5,90:5,80:5,70:5,60:5', 'allies=1+2,3+4'],
    [`warbands=${Array(8).fill('100:5').join(',')}`], // eight roll for defender; seven sort; the first alone
    [`warbands=${Array(8).fill('100:5').join(',')}`, 'defender=false'],
  ];
  for (const set of settings) {
    const seed = `warbands-dice-${set.join('&')}`;
    it(`${set.join(' ') || '(defaults)'}, seed "${seed}": each roll-off's dice histogram within 5σ`, () => {
      const params = resolveParams(rule, set);
      const tally = wholeRunTally({ ruleId: 'warbands', params, seed, stream: 5, trials: TRIALS });
      const at = layout(params as Warbands);
      const bands = String(params.warbands)
        .split(',')
        .map((entry) => entry.split(':').map(Number));
      const level = bands.filter((w) => w[0] === Math.max(...bands.map((x) => x[0])));
      const candidates = level.filter((w) => w[1] === Math.max(...level.map((x) => x[1]))).length;
      const rollOffs: [string, number, Law][] = [
        ['first', at.firstDice, bruteLaw('top', bands.length)],
        ['setup', at.setupDice, bruteLaw('sort', at.rollers)],
        ['defender', at.defenderDice, params.defender ? bruteLaw('top', candidates) : point(0)],
      ];
      const wrong: string[] = [];
      for (const [name, from, law] of rollOffs) {
        let pooledSeen = 0;
        let pooledChance = 0;
        for (let d = 0; d < DICE_HISTOGRAM; d++) {
          const seen = tally[from + d];
          const chance = d <= DICE_MAX ? law[d].toNumber() : 0;
          if (TRIALS * chance < 25) {
            pooledSeen += seen;
            pooledChance += chance;
            continue;
          }
          const sigma = Math.sqrt(TRIALS * chance * (1 - chance));
          if (Math.abs(seen - TRIALS * chance) > 5 * sigma)
            wrong.push(`${name} ${d} dice: ${seen} vs ${TRIALS * chance}`);
        }
        // Beyond DICE_MAX dice: the law's remaining mass, and the tally's rare large counts (kept as sums).
        const beyond = 1 - law.reduce((sum, p) => sum + p.toNumber(), 0);
        pooledChance += beyond;
        pooledSeen += TRIALS - [...tally.subarray(from, from + DICE_HISTOGRAM)].reduce((a, c) => a + c, 0);
        const sigma = Math.sqrt(TRIALS * pooledChance * (1 - pooledChance));
        if (Math.abs(pooledSeen - TRIALS * pooledChance) > 5 * Math.max(sigma, 1))
          wrong.push(`${name} pooled: ${pooledSeen} vs ${TRIALS * pooledChance}`);
      }
      expect(wrong).toEqual([]);
    });
  }

  it("stream 5's uniforms are whole multiples of 2^-32, as belowExact's exactness needs", () => {
    const rng = chunkStream('warbands-dice', 'warbands', 0, 5);
    expect(rng.stream).toBe(5);
    for (let k = 0; k < 10_000; k++) expect(Number.isInteger(rng() * 2 ** 32)).toBe(true);
  });
});
