import { describe, expect, it } from 'vitest';
import type { StreamVersion } from '../../src/contract/types.js';
import { CHUNK_TRIALS } from '../../src/engine/chunks.js';
import { DEFAULT_STREAM, STREAM_VERSIONS } from '../../src/engine/random.js';
import { resolveParams } from '../../src/rules/params.js';
import { reserves } from '../../src/rules/reserves/reserves.js';
import { estimate } from '../../src/stats/estimate.js';
import { estimateWithTolerance } from '../support/bounds.js';
import { wholeRunTally } from '../support/whole-run.js';

const CHUNKS = 4;
const TRIALS = CHUNKS * CHUNK_TRIALS; // 262,144

/**
 * Each estimate must lie within 5σ of the exact value. σ is exact for a
 * proportion (√(p(1−p)/n)); for a mean it is the sample standard deviation
 * read back from the 95% interval's half-width (half-width / 1.96 · √n),
 * which at n = 262,144 is within a fraction of a percent of the true one.
 * 5σ per comparison: ~20 metrics × 5.7e-7 ≈ 1e-5 chance of a false alarm
 * for a correct build at a random seed; the seeds here are fixed.
 */
function expectSimulationMatchesExact(seed: string, settings: string[]): void {
  // On every stream: 5, the default, and 1 to 4, kept for reproducing older results.
  for (const stream of STREAM_VERSIONS) expectSimulationMatchesExactOnStream(stream, seed, settings);
}

function expectSimulationMatchesExactOnStream(stream: StreamVersion, seed: string, settings: string[]): void {
  const params = resolveParams(reserves, settings);
  const tally = wholeRunTally({ ruleId: 'reserves', params, seed, stream, trials: TRIALS, chunks: CHUNKS });
  const tallied = reserves.tally.summarize(params, tally, TRIALS);
  const exact = reserves.exact!.values(params);
  for (const metric of reserves.metrics(params)) {
    const truth = exact[metric.name].toNumber();
    const { value, tolerance } = estimateWithTolerance(tallied[metric.name], truth);
    expect(Math.abs(value - truth), `${metric.name}: ${value} vs exact ${truth}`).toBeLessThanOrEqual(tolerance);
  }
}

describe('reserves simulation against the exact solution', () => {
  it('covers both tally layouts: a histogram of outcomes when they are few, running sums otherwise', () => {
    // 4 squads, 4 rounds: (4+1)^(4+1) = 3125 outcomes. 12 squads, 8 rounds: 13^9 outcomes, far past 2^18.
    expect(reserves.tally.length(resolveParams(reserves, []))).toBe(3125);
    expect(reserves.tally.length(resolveParams(reserves, ['squads=12', 'rounds=8']))).toBe(3 * 9 + 8 + 2 + 8 * 13);
  });

  it('seed "reserves-defaults": the text as written', () => {
    expectSimulationMatchesExact('reserves-defaults', []);
  });

  it('seed "chosen-3": chosen round 3 with command 3', () => {
    expectSimulationMatchesExact('chosen-3', ['chosenRound=3', 'command=3']);
  });

  it('seed "leader-loss": a commander lost at 30% a round, shared by all six squads', () => {
    expectSimulationMatchesExact('leader-loss', [
      'squads=6',
      'chosenRound=4',
      'command=4',
      'leaderLoss=0.3',
      'fallbackCommand=1',
    ]);
  });

  it('seed "waiting": reserves that first roll in round 2, chosen round 3, both tally layouts', () => {
    expectSimulationMatchesExact('waiting', ['firstRound=2', 'chosenRound=3', 'command=2', 'leaderLoss=0.25']);
    expectSimulationMatchesExact('waiting', [
      'squads=12',
      'rounds=8',
      'target=10',
      'firstRound=3',
      'chosenRound=5',
      'command=3',
    ]);
  });

  it('seed "long-game": 8 rounds, target 10, 12 squads', () => {
    expectSimulationMatchesExact('long-game', ['squads=12', 'rounds=8', 'target=10', 'chosenRound=2', 'command=5']);
  });
});

describe('reserves intervals stay honest when squads share the commander', () => {
  it(
    'seed "cluster": with a shared fate the squad metrics use per-trial shares, 3.17 times wider than a naive ' +
      'binomial interval',
    () => {
      // Commander alive at round 2 with probability 1/2. Alive: round 2 with +6 is certain, so P(arrive in round 2) =
      // 5/6;
      // lost: needs 5+, 5/6 · 1/3 = 5/18. Overall p = 5/9.
      // Variance of one trial's share of 30 squads = Var(conditional mean) + E(conditional variance)
      //   = 1/4 · (5/9)² + 1/2 · (5/6·1/6 + 5/18·13/18) / 30 = 0.0828189.
      // Naive binomial variance per trial-equivalent = p(1 − p)/30 = 0.0082305; ratio of widths √10.0625 = 3.1721.
      // The sample standard deviation at n = 65,536 is within about 0.5% of the truth, so ±0.08 (2.5%) is > 5σ.
      const params = resolveParams(reserves, [
        'squads=30',
        'chosenRound=2',
        'command=6',
        'leaderLoss=0.5',
        'fallbackCommand=0',
      ]);
      const tally = wholeRunTally({
        ruleId: 'reserves',
        params,
        seed: 'cluster',
        stream: DEFAULT_STREAM,
        trials: CHUNK_TRIALS,
        chunks: 1,
      });
      const found = reserves.tally.summarize(params, tally, CHUNK_TRIALS)['squad.round.2'];
      expect(found.kind).toBe('mean');
      const honest = estimate(found, 0.95);
      const p = honest.estimate;
      const naive = 1.959963984540054 * Math.sqrt((p * (1 - p)) / (30 * CHUNK_TRIALS));
      expect(Math.abs((honest.hi - honest.lo) / 2 / naive - 3.1721)).toBeLessThan(0.08);
    },
  );
});
