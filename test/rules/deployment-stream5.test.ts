/**
 * Stream 5's reading of deployment's dice, exactly. A trial is one digit, 2·v + coin: v's base-6 digits, least
 * significant first, are a's forward dice (first, second) then b's, each one less than the face, and coin 1 gives a
 * the roll-off. The table of what each digit decides is checked against the rule text as brute-forced in
 * deployment-brute-force.ts (Sets of zones, every pair of dice); the fast path's tally against the same generator's
 * outputs read again in BigInt (test/support/digit-replay.ts) and played out with that brute force. Counts must be
 * equal, not close.
 */
import { describe, expect, it } from 'vitest';
import { chunkStream, xoshiroState } from '../../src/engine/random.js';
import { deployment } from '../../src/rules/deployment/deployment.js';
import { trialOutcomes } from '../../src/rules/deployment/digits.js';
import { DEPLOYMENT_STRATEGIES, type Deployment } from '../../src/rules/deployment/params.js';
import { resolveParams } from '../../src/rules/params.js';
import type { Tallied } from '../../src/stats/estimate.js';
import { DigitReplay } from '../support/digit-replay.js';
import {
  aPlacesLast,
  bruteForce,
  type Reading,
  readingSettings,
  TEXT_READING,
  type ZoneOutcome,
  zoneOutcomes,
  zonesWithEdge,
} from './deployment-brute-force.js';

type Compare = 'raw' | 'modified';
const isForward = (strategy: string) => strategy.startsWith('forward:');
const total = (zones: ZoneOutcome) => [...zones].reduce((sum, zone) => sum + zone, 0);

/** What a trial digit means, decoded as the header says and played with the brute force's zone sets. */
function decode(a: string, b: string, compare: Compare, digit: number) {
  const coin = digit % 2;
  let dice = Math.floor(digit / 2);
  const zonesOf = (strategy: string): ZoneOutcome => {
    const outcomes = zoneOutcomes(strategy, compare);
    if (!isForward(strategy)) return outcomes[0];
    const first = 1 + (dice % 6);
    const second = 1 + (Math.floor(dice / 6) % 6);
    dice = Math.floor(dice / 36);
    // zoneOutcomes lists the pairs first die by first die.
    return outcomes[(first - 1) * 6 + (second - 1)];
  };
  const zonesA = zonesOf(a);
  const zonesB = zonesOf(b);
  const rolloff = total(zonesA) === total(zonesB);
  return { zonesA, zonesB, rolloff, aInitiative: total(zonesA) < total(zonesB) || (rolloff && coin === 1) };
}

const mask = (zones: ZoneOutcome) => [...zones].reduce((set, zone) => set | (1 << zone), 0);

describe("stream 5's trial table: each digit's zones and initiative as §6.2–6.3 give them", () => {
  it('every pair of the 16 strategies, both ways of comparing a forward die', () => {
    const wrong: string[] = [];
    for (const compare of ['raw', 'modified'] as const) {
      for (const a of DEPLOYMENT_STRATEGIES) {
        for (const b of DEPLOYMENT_STRATEGIES) {
          const table = trialOutcomes(
            resolveParams(deployment, [`a=${a}`, `b=${b}`, `compare=${compare}`]) as Deployment,
          );
          expect(table.base).toBe(2 * 36 ** (+isForward(a) + +isForward(b)));
          for (let digit = 0; digit < table.base; digit++) {
            const expected = decode(a, b, compare, digit);
            const found = {
              zonesA: table.zonesA[digit],
              zonesB: table.zonesB[digit],
              rolloff: table.rolloff[digit] === 1,
              aInitiative: table.aInitiative[digit] === 1,
            };
            const want = { ...expected, zonesA: mask(expected.zonesA), zonesB: mask(expected.zonesB) };
            if (JSON.stringify(found) !== JSON.stringify(want)) wrong.push(`${a} ${b} ${compare} digit ${digit}`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it("the coin is the roll-off: each digit equally likely, the table's initiative is the brute force's exactly", () => {
    // §6.3's roll-off (1d6 each, ties again) goes to a in 15 of 30 unequal pairs; the brute force counts them.
    for (const [a, b] of [
      ['forward:3', 'forward:3'],
      ['standard:1,2,6', 'standard:2,3,4'],
      ['forward:1', 'standard:1,2,3'],
    ]) {
      const table = trialOutcomes(resolveParams(deployment, [`a=${a}`, `b=${b}`]) as Deployment);
      const share = (flags: Uint8Array) => flags.reduce((sum, flag) => sum + flag, 0) / table.base;
      const { metrics } = bruteForce(a, b, 'raw');
      expect(share(table.aInitiative)).toBe(metrics['a.initiative'].toNumber());
      expect(share(table.rolloff)).toBe(metrics.rolloff.toNumber());
    }
  });
});

/** The tally the trials give, played from the replayed digits, one call of `trials` after another. */
function replayed(a: string, b: string, compare: Compare, reading: Reading, replay: DigitReplay, calls: number[]) {
  const withEdge = zonesWithEdge(reading);
  const counts = new Map<string, number>();
  const add = (name: string, value: number) => counts.set(name, (counts.get(name) ?? 0) + value);
  const totals = { a: [0, 0], b: [0, 0] };
  let trials = 0;
  for (const callTrials of calls) {
    for (let trial = 0; trial < callTrials; trial++) {
      const { zonesA, zonesB, rolloff, aInitiative } = decode(a, b, compare, replay.next());
      add('a.initiative', +aInitiative);
      add('b.initiative', +!aInitiative);
      add('rolloff', +rolloff);
      const aLast = aPlacesLast(aInitiative, reading);
      add('a.placesLast', +aLast);
      add('b.placesLast', +!aLast);
      for (const [player, zones] of [
        ['a', zonesA],
        ['b', zonesB],
      ] as const) {
        add(`${player}.noEdge`, +![...zones].some((zone) => withEdge.has(zone)));
        add(`${player}.aoc`, +(zones.has(7) || zones.has(8)));
        for (let n = 1; n <= 3; n++) add(`${player}.zones.${n}`, +(zones.size === n));
        for (let zone = 1; zone <= 8; zone++) add(`${player}.zone.${zone}`, +zones.has(zone));
        totals[player][0] += total(zones);
        totals[player][1] += total(zones) ** 2;
      }
    }
    trials += callTrials;
    replay.dropRest();
  }
  const expected: Record<string, Tallied> = {};
  for (const [name, successes] of counts) expected[name] = { kind: 'proportion', successes, trials };
  for (const player of ['a', 'b'] as const) {
    const [sum, sumOfSquares] = totals[player];
    expected[`${player}.total.mean`] = { kind: 'mean', sum, sumOfSquares, count: trials };
  }
  return { expected, trials };
}

// Calls back to back on one generator: a call that ends inside an output leaves the rest of it, and the next call
// starts on a fresh output. Digits an output, by hand (the most digits an output on average, k·(1 − 2^32 mod b^k /
// 2^32), b^k ≤ 2^32, k ≤ 5): base 2592 (four dice and the coin) 2, as 2592^3 > 2^32; base 72 (two dice) 5, 72^5
// redrawn with chance 0.099 (4.5 a draw, against 3.98 for 72^4); base 2 (no dice) 5, never redrawn.
const CALLS = [5003, 1, 2997, 2000];

describe("stream 5's fast path counts exactly what the same outputs, read as documented, give", () => {
  const cases: { a: string; b: string; compare: Compare; reading: Reading; base: number; digits: number }[] = [
    { a: 'forward:1', b: 'standard:1,2,3', compare: 'raw', reading: TEXT_READING, base: 72, digits: 5 },
    {
      a: 'standard:1,2,4',
      b: 'forward:6',
      compare: 'raw',
      reading: { ...TEXT_READING, edges: 'long', perTurn: 3 },
      base: 72,
      digits: 5,
    },
    { a: 'forward:3', b: 'forward:3', compare: 'raw', reading: TEXT_READING, base: 2592, digits: 2 },
    {
      a: 'forward:5',
      b: 'forward:2',
      compare: 'modified',
      reading: { ...TEXT_READING, aocSides: false, squadsA: 5, squadsB: 6, perTurn: 3 },
      base: 2592,
      digits: 2,
    },
    { a: 'standard:1,2,6', b: 'standard:2,3,4', compare: 'raw', reading: TEXT_READING, base: 2, digits: 5 },
    {
      a: 'standard:1,2,3',
      b: 'standard:2,3,4',
      compare: 'raw',
      reading: { ...TEXT_READING, squadsA: 9 },
      base: 2,
      digits: 5,
    },
  ];
  for (const { a, b, compare, reading, base, digits } of cases) {
    const seed = `stream5-${a}-${b}-${compare}`;
    it(`${a} against ${b}, compare=${compare}, seed "${seed}"`, () => {
      const params = resolveParams(deployment, [`a=${a}`, `b=${b}`, `compare=${compare}`, ...readingSettings(reading)]);
      const rng = chunkStream(seed, 'deployment', 0, 5);
      const replay = new DigitReplay(xoshiroState(rng)!, base, digits);
      const tally = new Float64Array(deployment.tally.length(params));
      for (const trials of CALLS) deployment.tally.simulate(params, rng, trials, tally);
      const { expected, trials } = replayed(a, b, compare, reading, replay, CALLS);
      const summary = deployment.tally.summarize(params, tally, trials);
      // The zone totals' histograms are read off the same zone-set counts: each counts every trial once, and its
      // values add up to the mean's sum; the rest must be what the replay gives.
      for (const name of ['a.total.mean', 'b.total.mean']) {
        const total = summary[name];
        if (total.kind !== 'mean' || !total.histogram) throw new Error(`${name}: no histogram`);
        const { min, counts } = total.histogram;
        expect(Array.from(counts).reduce((sum, count) => sum + count, 0)).toBe(trials);
        expect(Array.from(counts).reduce((sum, count, at) => sum + count * (min + at), 0)).toBe(total.sum);
        delete total.histogram;
      }
      expect(summary).toEqual(expected);
      if (base === 72) expect(replay.redrawn).toBeGreaterThan(0);
    });
  }
});
