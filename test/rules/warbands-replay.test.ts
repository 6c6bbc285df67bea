/**
 * warbands on stream 5 at many warbands (src/rules/warbands/fast.ts, warbands/dice.ts, warbands/fold.ts): the tally
 * a chunk gives is the one of replaying its draws one trial at a time, written out plainly here: each draw in
 * the order the fast path makes them (the outcome index, the first player when it is not in the index, then the
 * defender's, the setup's and the first turn's roll-offs), each roll-off's class found by walking its table's
 * classes (diceTable, checked against brute force in warbands-dice.test.ts) and its left groups followed one
 * after the other, depth first, and each order decoded from its index digit by digit (the factorial number
 * system) and counted place by place. Nothing here reads the compiled buckets, the settling stack or the fold
 * of the orders, so a faster version of any of them must give these very counts, bit for bit.
 */
import { describe, expect, it } from 'vitest';
import type { Rng } from '../../src/contract/types.js';
import { CHUNK_TRIALS, chunkTrials } from '../../src/engine/chunks.js';
import { chunkStream } from '../../src/engine/random.js';
import { belowExact, rejectBelow } from '../../src/rules/draw-digits.js';
import { getRule } from '../../src/rules/index.js';
import { resolveParams } from '../../src/rules/params.js';
import { type DiceTable, diceTable, type RollOffKind } from '../../src/rules/warbands/dice.js';
import { foldOrders } from '../../src/rules/warbands/fold.js';
import { DICE_HISTOGRAM, layout } from '../../src/rules/warbands/layout.js';
import type { Warbands } from '../../src/rules/warbands/setup.js';
import { wholeRunTally } from '../support/whole-run.js';

const tables = new Map<string, DiceTable>();

/** The dice of one roll-off: its draw's class, then each group that class leaves, in its order, to the end. */
function rollOffDice(rng: Rng, kind: RollOffKind, size: number): number {
  const key = `${kind}${size}`;
  const table = tables.get(key) ?? diceTable(kind, size);
  tables.set(key, table);
  const draw = belowExact(rng, table.bound, rejectBelow(table.bound));
  let from = 0;
  for (const c of table.classes) {
    if (draw < from + c.ways) return c.pending.reduce((dice, group) => dice + rollOffDice(rng, kind, group), c.dice);
    from += c.ways;
  }
  throw new Error(`draw ${draw} beyond the table of ${kind} ${size}`);
}

const factorial = (k: number): number => (k <= 1 ? 1 : k * factorial(k - 1));

/** The order numbered `index` among the orders of `items`, lexicographic: its factorial-base digits, one by one. */
function decodeOrder(index: number, items: readonly number[]): number[] {
  const left = [...items];
  const order: number[] = [];
  for (let p = items.length - 1; p >= 0; p--) {
    const block = factorial(p);
    order.push(left.splice(Math.floor(index / block), 1)[0]);
    index %= block;
  }
  return order;
}

/** The counts of `trials` trials of one chunk on `rng`, replayed one trial at a time, added to `tally`. */
function replayChunk(params: Warbands, rng: Rng, trials: number, tally: Float64Array): void {
  const at = layout(params);
  const { n, rollers } = at;
  const bands = String(params.warbands)
    .split(',')
    .map((entry) => entry.split(':').map(Number));
  // The defender's candidates as the text reads them: the highest rating, then the most models.
  const top = Math.max(...bands.map(([rating]) => rating));
  const level = bands.map((band, i) => ({ band, i })).filter(({ band }) => band[0] === top);
  const most = Math.max(...level.map(({ band }) => band[1]));
  const candidates = params.defender ? level.filter(({ band }) => band[1] === most).map(({ i }) => i) : [];
  const choices = Math.max(1, candidates.length);
  const orders = factorial(rollers);
  // The first player rides in the outcome index while the index has at most 2^16 values.
  const joint = choices * orders * n <= 2 ** 16;
  const outcomes = choices * orders * (joint ? n : 1);
  // More than 44 outcomes (outcomes · 6^6 > 2^21): the index is a draw of its own, no roll-off carries it.
  expect(outcomes * 6 ** 6).toBeGreaterThan(2 ** 21);
  const countDice = (from: number, dice: number) => {
    if (dice < DICE_HISTOGRAM) tally[from + dice]++;
    else {
      tally[from + DICE_HISTOGRAM] += dice;
      tally[from + DICE_HISTOGRAM + 1] += dice * dice;
    }
  };
  for (let trial = 0; trial < trials; trial++) {
    const index = belowExact(rng, outcomes, rejectBelow(outcomes));
    const first = joint ? index % n : belowExact(rng, n, rejectBelow(n));
    const rest = joint ? Math.floor(index / n) : index;
    const defender = candidates.length > 0 ? candidates[Math.floor(rest / orders)] : -1;
    countDice(at.defenderDice, candidates.length >= 2 ? rollOffDice(rng, 'top', candidates.length) : 0);
    countDice(at.setupDice, rollers >= 2 ? rollOffDice(rng, 'sort', rollers) : 0);
    countDice(at.firstDice, rollOffDice(rng, 'top', n));
    const rolling = Array.from({ length: n }, (_, i) => i).filter((i) => i !== defender);
    const order = decodeOrder(rest % orders, rolling);
    if (defender >= 0) {
      tally[at.defender + defender]++;
      tally[at.setup + defender * n]++;
    }
    if (at.outcomes > 0) {
      // Few enough setups and first players for one code each: Σ order[p] · n^p, times n, plus the first player.
      const code = order.reduceRight((sum, warband) => sum * n + warband, 0);
      tally[at.outcome + code * n + first]++;
    } else {
      for (const [p, warband] of order.entries()) tally[at.setup + warband * n + p + (defender >= 0 ? 1 : 0)]++;
      tally[at.first + first]++;
    }
  }
}

const equal = (count: number) => Array.from({ length: count }, () => '10000:200').join(',');

describe('stream 5 warbands: each chunk counts what replaying its draws one trial at a time counts', () => {
  const rule = getRule('warbands');
  // A full chunk and a short one, so both the loop and the fold see a chunk that is not the usual size.
  const TOTAL = CHUNK_TRIALS + 5_000;
  const settings: [string, string[]][] = [
    [
      'eight tied for defender, seven sort, allies (no underdog: the lowest sides tie)',
      [`warbands=${equal(8)}`, 'allies=1+2,3+4'],
    ],
    ['eight sort with no defender: 40,320 orders a chunk', [`warbands=${equal(8)}`, 'defender=false']],
    [
      'one defender, seven sort: the first player in the index',
      ['warbands=200:12,200:12,90:7,300:30,10:3,10:3,10:3,10:3'],
    ],
    ['seven sort with no defender, the first player in the index', [`warbands=${equal(7)}`, 'defender=false']],
    ['six tied for defender, five sort', [`warbands=${equal(6)}`]],
    ['five tied for defender, four sort: outcome codes', [`warbands=${equal(5)}`]],
  ];
  for (const [index, [what, set]] of settings.entries()) {
    const seed = `warbands-replay-${index + 1}`;
    it(`${what}, seed "${seed}": the same tally, every count`, () => {
      const params = resolveParams(rule, set) as Warbands;
      const got = wholeRunTally({ ruleId: 'warbands', params, seed, stream: 5, trials: TOTAL, chunks: 2 });
      const replayed = new Float64Array(got.length);
      for (let chunk = 0; chunk < 2; chunk++)
        replayChunk(params, chunkStream(seed, 'warbands', chunk, 5), chunkTrials(chunk, TOTAL), replayed);
      const differ = [...got.keys()]
        .filter((i) => got[i] !== replayed[i])
        .map((i) => `${i}: ${got[i]}, not ${replayed[i]}`);
      expect(differ).toEqual([]);
      // Every trial placed its first setup place once: the replay is not empty.
      const at = layout(params);
      let placedFirst = 0;
      for (let w = 0; w < at.n; w++) placedFirst += replayed[at.setup + w * at.n];
      if (at.outcomes === 0) expect(placedFirst).toBe(TOTAL);
    });
  }
});

describe('foldOrders: the trials of each order counted at each of its places, as decoding every order does', () => {
  // Counts from a fixed 32-bit LCG (Numerical Recipes' constants), some orders left at zero, as in a chunk.
  const countsFor = (length: number, seed: number) => {
    const counts = new Int32Array(length);
    let state = seed;
    for (let i = 0; i < length; i++) {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      counts[i] = state % 5 === 0 ? 0 : state % 97;
    }
    return counts;
  };
  for (let rollers = 1; rollers <= 7; rollers++) {
    it(`${rollers} rollers of 8 warbands, after a defender, from an offset: every place of every warband`, () => {
      const n = 8;
      const rolling = Int32Array.from({ length: rollers }, (_, i) => 2 * i - (i > 3 ? 7 : 0)).sort();
      const orders = factorial(rollers);
      const from = 3 * orders;
      const counts = countsFor(from + 2 * orders, rollers);
      const setupAt = 5;
      const tally = new Float64Array(setupAt + n * n + 3);
      const total = foldOrders(counts, from, rolling, { tally, setupAt, n, offset: 1 });
      const expected = new Float64Array(tally.length);
      let trials = 0;
      for (let o = 0; o < orders; o++) {
        const times = counts[from + o];
        trials += times;
        for (const [p, warband] of decodeOrder(o, [...rolling]).entries())
          expected[setupAt + warband * n + p + 1] += times;
      }
      expect(total).toBe(trials);
      expect([...tally]).toEqual([...expected]);
      expect([...rolling]).toEqual([...Int32Array.from({ length: rollers }, (_, i) => 2 * i - (i > 3 ? 7 : 0)).sort()]);
    });
  }
});
