import { describe, expect, it } from 'vitest';
import { DEFAULT_STREAM } from '../../src/engine/random.js';
import { getRule } from '../../src/rules/index.js';
import { resolveParams } from '../../src/rules/params.js';
import { estimate } from '../../src/stats/estimate.js';
import { wholeRunTally } from '../support/whole-run.js';

/**
 * Honest intervals: over many independent runs, a 95% interval must cover
 * the exact value about 95% of the time. Each run here is 1,000 trials (one
 * short chunk) on its own seed; 2,000 runs.
 *
 * Bound: the count of covering runs is Binomial(2000, c) with c the true
 * coverage, σ = √(0.95·0.05/2000) = 0.0049 in proportion. Wilson and normal
 * intervals at n = 1000 have true coverage within about ±0.006 of nominal
 * (Brown, Cai & DasGupta 2001, Fig. 5, for p away from 0 and 1), so the test
 * accepts 0.95 ± (0.006 + 5σ) = 0.95 ± 0.031; a build whose intervals are a
 * fifth too narrow (coverage ≈ 0.89) or too wide (≈ 0.99) fails.
 */
const RUNS = 2000;
const TRIALS = 1000;

function coverage(ruleId: string, settings: string[], metric: string): number {
  const rule = getRule(ruleId);
  const params = resolveParams(rule, settings);
  const exact = rule.exact!.values(params)[metric].toNumber();
  let covered = 0;
  for (let run = 0; run < RUNS; run++) {
    const tally = wholeRunTally({
      ruleId,
      params,
      seed: `coverage-${run}`,
      stream: DEFAULT_STREAM,
      trials: TRIALS,
      chunks: 1,
    });
    const { lo, hi } = estimate(rule.tally.summarize(params, tally, TRIALS)[metric], 0.95);
    if (lo <= exact && exact <= hi) covered++;
  }
  return covered / RUNS;
}

describe('95% intervals cover the exact value 95% of the time', () => {
  it('seeds "coverage-0" … "coverage-1999": Wilson interval of Infinity a.wins at WIP 13 against 15', () => {
    expect(Math.abs(coverage('infinity', ['wipA=13', 'wipB=15'], 'a.wins') - 0.95)).toBeLessThanOrEqual(0.031);
  });

  it('seeds "coverage-0" … "coverage-1999": normal interval of the mean reserve dice thrown', () => {
    expect(Math.abs(coverage('reserves', ['chosenRound=2', 'command=3'], 'dice.mean') - 0.95)).toBeLessThanOrEqual(
      0.031,
    );
  });

  it('seeds "coverage-0" … "coverage-1999": per-trial share interval when squads share the commander’s fate', () => {
    // The naive binomial interval here would cover far less often (its width is a third of the honest one).
    expect(
      Math.abs(
        coverage('reserves', ['squads=30', 'chosenRound=2', 'command=6', 'leaderLoss=0.5'], 'squad.round.2') - 0.95,
      ),
    ).toBeLessThanOrEqual(0.031);
  });
});
