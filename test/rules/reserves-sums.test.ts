import { describe, expect, it } from 'vitest';
import type { Rng, StreamVersion } from '../../src/contract/types.js';
import { chunkStream } from '../../src/engine/random.js';
import { runChunks } from '../../src/engine/run-chunks.js';
import { resolveParams } from '../../src/rules/params.js';
import { reserves } from '../../src/rules/reserves/reserves.js';
import { chunkCoding } from '../../src/rules/reserves/sums.js';

/**
 * Beyond reserves' outcome histogram (more than 2^18 outcomes) the tally is
 * running sums, added trial by trial or from a chunk histogram folded once
 * a chunk (rules/reserves/sums.ts). The oracle here rolls the same dice
 * from the rule text and the stream's documented dice (docs/streams.md)
 * and adds every trial into the documented layout one by one, so each
 * tally must equal it entry for entry, whichever way the rule added it.
 */

interface Setting {
  squads: number;
  rounds: number;
  target: number;
  chosenRound: number;
  command: number;
  leaderLoss: number;
  fallbackCommand: number;
  firstRound: number;
}

/**
 * The face a squad needs in round r (Genesys §6.5: 1d6 + round, + command in the chosen round, reaches the target); 7:
 * no roll.
 */
function needed(s: Setting, bonus: number, round: number): number {
  if (round < s.firstRound) return 7;
  return Math.min(7, Math.max(1, s.target - round - (round === s.chosenRound ? bonus : 0)));
}

/**
 * Round index a squad arrives in (rounds: lost), its dice one uniform each (streams 1 to 3) or four to a `below` draw
 * (streams 4 and 5, whose reserves are the same dice).
 */
function arrival(s: Setting, bonus: number, rng: Rng, stream: StreamVersion): number {
  if (stream < 4) {
    for (let round = s.firstRound; round <= s.rounds; round++)
      if (1 + Math.floor(rng() * 6) >= needed(s, bonus, round)) return round - 1;
    return s.rounds;
  }
  for (let start = s.firstRound; start <= s.rounds; start += 4) {
    const dice = Math.min(4, s.rounds - start + 1);
    const value = rng.below(6 ** dice);
    for (let die = 0; die < dice; die++)
      if (1 + (Math.floor(value / 6 ** die) % 6) >= needed(s, bonus, start + die)) return start + die - 1;
  }
  return s.rounds;
}

/**
 * The running-sums tally of `trials` trials, trial by trial, in the layout reserves documents (rules/reserves/sums.ts).
 */
function oracle(s: Setting, stream: StreamVersion, seed: string, trials: number): number[] {
  const { squads, rounds } = s;
  const perRound = rounds + 1;
  const arrivals = 0;
  const arrivalsSquared = perRound;
  const lastArrival = 2 * perRound;
  const arrivedBySquared = 3 * perRound;
  const dice = 3 * perRound + rounds;
  const arrivedByCount = 3 * perRound + rounds + 2;
  const tally = new Array<number>(arrivedByCount + rounds * (squads + 1)).fill(0);
  const rng = chunkStream(seed, 'reserves', 0, stream);
  // The commander is alive at the chosen round with chance (1 − leaderLoss)^(chosenRound − 1); its fate is drawn only
  // when it matters.
  const survives = s.chosenRound <= 1 ? 1 : (1 - s.leaderLoss) ** (s.chosenRound - 1);
  const fateMatters = s.chosenRound !== 0 && s.command !== s.fallbackCommand && survives !== 0 && survives !== 1;
  for (let trial = 0; trial < trials; trial++) {
    const bonus = fateMatters && rng() >= survives ? s.fallbackCommand : s.command;
    const count = new Array<number>(rounds + 1).fill(0);
    for (let squad = 0; squad < squads; squad++) count[arrival(s, bonus, rng, stream)]++;
    let arrivedBy = 0;
    let rolled = 0;
    let last = 0;
    for (let index = 0; index <= rounds; index++) {
      tally[arrivals + index] += count[index];
      tally[arrivalsSquared + index] += count[index] ** 2;
      if (count[index] > 0) last = index;
      // A squad rolls in each rolling round up to the one it arrives in; a lost one in every rolling round.
      rolled += count[index] * (Math.min(index + 1, rounds) - s.firstRound + 1);
      if (index < rounds) {
        arrivedBy += count[index];
        tally[arrivedBySquared + index] += arrivedBy ** 2;
        tally[arrivedByCount + index * (squads + 1) + arrivedBy]++;
      }
    }
    tally[lastArrival + last]++;
    tally[dice] += rolled;
    tally[dice + 1] += rolled ** 2;
  }
  return tally;
}

const defaults: Setting = {
  squads: 4,
  rounds: 4,
  target: 7,
  chosenRound: 0,
  command: 2,
  leaderLoss: 0,
  fallbackCommand: 0,
  firstRound: 1,
};

// Every one beyond 2^18 outcomes, (squads + 1)^(rounds + 1). Which way the sums are added follows from the
// outcomes a trial can have (rounds after one needing a 1 hold no arrivals, nor can squads then be lost).
const settings: Array<[string, Partial<Setting>]> = [
  ['2 squads, 12 rounds: 3^6 outcomes (round 6 needs a 1), a chunk histogram', { squads: 2, rounds: 12 }],
  ['12 squads, 4 rounds: 13^5, a chunk histogram', { squads: 12, rounds: 4 }],
  ['15 squads, 4 rounds: 16^4 codes, a chunk histogram', { squads: 15, rounds: 4 }],
  [
    '12 squads, 4 rounds, target 9: only rounds 3 and 4 bring one in, else lost, a chunk histogram',
    { squads: 12, rounds: 4, target: 9 },
  ],
  [
    '8 squads, 12 rounds, the commander lost half the time: 9^6, a chunk histogram',
    { squads: 8, rounds: 12, chosenRound: 3, command: 3, leaderLoss: 0.5, fallbackCommand: 1 },
  ],
  [
    '3 squads, 12 rounds, target 20 (no face brings one in): every squad lost, 4 outcomes',
    { squads: 3, rounds: 12, target: 20 },
  ],
  ['20 squads, 4 rounds: 21^4 codes, a chunk histogram', { squads: 20, rounds: 4 }],
  ['31 squads, 4 rounds: 32^4 = 2^20 codes, the largest chunk histogram', { squads: 31, rounds: 4 }],
  ['32 squads, 4 rounds: 33^4 codes, past 2^20, trial by trial', { squads: 32, rounds: 4 }],
  [
    '12 squads, 8 rounds, target 10, first roll in round 2: squads can be lost, 13^5 codes, a chunk histogram',
    { squads: 12, rounds: 8, target: 10, firstRound: 2, chosenRound: 4, command: 2 },
  ],
  [
    '30 squads, 6 rounds, the commander lost half the time: trial by trial with a shared fate',
    { squads: 30, rounds: 6, chosenRound: 3, command: 4, leaderLoss: 0.5, fallbackCommand: 2 },
  ],
];

describe('reserves beyond its outcome histogram: running sums equal the trial-by-trial oracle, entry for entry', () => {
  for (const [label, change] of settings) {
    const setting = { ...defaults, ...change };
    for (const stream of [1, 3, 4, 5] as const) {
      it(`seed "sums", stream ${stream}: ${label}`, () => {
        expect((setting.squads + 1) ** (setting.rounds + 1)).toBeGreaterThan(2 ** 18);
        const params = resolveParams(
          reserves,
          Object.entries(change).map(([name, value]) => `${name}=${value}`),
        );
        const trials = 3_001;
        const tally = runChunks(
          { ruleId: 'reserves', params, seed: 'sums', stream, firstChunk: 0, endChunk: 1, totalTrials: trials },
          reserves,
        );
        expect(Array.from(tally)).toEqual(oracle(setting, stream, 'sums', trials));
      });
    }
  }
});

/**
 * The ways S squads can split over the arrival indices that can occur, by
 * brute force: every count for each index but the last, the last taking
 * the rest.
 */
function splits(squads: number, indices: number): number[][] {
  if (indices === 1) return [[squads]];
  return Array.from({ length: squads + 1 }, (_, first) =>
    splits(squads - first, indices - 1).map((rest) => [first, ...rest]),
  ).flat();
}

describe('the chunk histogram codes a trial by the squads in every slot but the last', () => {
  // Genesys §6.5 at target 7, rounds 1 to 4 need 6, 5, 4, 3 (7 − round); none certain, so squads can also be lost:
  // five arrival indices (rounds 1 to 4, lost), whose counts add up to S.
  const needed = Int32Array.from([7, 6, 5, 4, 3]);
  for (const squads of [1, 12, 15, 31]) {
    it(`${squads} squads over 5 indices: (S+1)^4 codes, one for each split, none shared`, () => {
      const coding = chunkCoding(4, 1, squads, [needed]);
      expect(coding).not.toBeNull();
      // (S+1)^4: four free counts of 0 … S; the fifth is S less them.
      expect(coding!.outcomes).toBe((squads + 1) ** 4);
      const codes = splits(squads, 5).map((counts) =>
        counts.reduce((code, count, index) => code + count * coding!.weight[index], 0),
      );
      expect(codes.every((code) => code >= 0 && code < coding!.outcomes)).toBe(true);
      expect(new Set(codes).size).toBe(codes.length);
    });
  }

  it('32 squads over 5 indices: 33^4 codes, past 2^20, so no chunk histogram (trial by trial)', () => {
    expect(chunkCoding(4, 1, 32, [needed])).toBeNull();
  });
});
