import { describe, expect, it } from 'vitest';
import type { StreamVersion } from '../../src/contract/types.js';
import { CHUNK_TRIALS } from '../../src/engine/chunks.js';
import { STREAM_VERSIONS } from '../../src/engine/random.js';
import { noctvale } from '../../src/rules/noctvale.js';
import { resolveParams } from '../../src/rules/params.js';
import { estimate } from '../../src/stats/estimate.js';
import { meanTolerance, proportionTolerance } from '../support/bounds.js';
import { wholeRunTally } from '../support/whole-run.js';

const CHUNKS = 3;
const TRIALS = CHUNKS * CHUNK_TRIALS - 1000; // 195,608: the final chunk is short, as in a real run

/** A 2d6 roll-off ties on 146 of 1296 pairs; the roll-off count is geometric with decide-chance d = 1150/1296. */
const DECIDES = 1150 / 1296;
const ROLLOFF_SD = Math.sqrt(1 - DECIDES) / DECIDES;

/**
 * Each estimate must lie within 5σ of the exact value, σ exact: √(p(1−p)/n) for a
 * proportion, the geometric standard deviation above for rolloffs.mean when the counts
 * are equal, and 0 where the value is certain (group sizes, initiative to the smaller
 * retinue) — those must match exactly. 5σ per comparison has a 5.7e-7 chance of a false
 * alarm; 4 settings × 3 random metrics keeps the file below 7e-6 (Bonferroni). Fixed seeds.
 */
function expectSimulationMatchesExact(seed: string, settings: string[]): void {
  // On every stream: 5, the default, and 1 to 4, kept for reproducing older results.
  for (const stream of STREAM_VERSIONS) expectSimulationMatchesExactOnStream(stream, seed, settings);
}

function expectSimulationMatchesExactOnStream(stream: StreamVersion, seed: string, settings: string[]): void {
  const params = resolveParams(noctvale, settings);
  const tally = wholeRunTally({ ruleId: 'noctvale', params, seed, stream, trials: TRIALS, chunks: CHUNKS });
  const tallied = noctvale.tally.summarize(params, tally, TRIALS);
  const exact = noctvale.exact!.values(params);
  const rollOffs = params.fightersA === params.fightersB;
  for (const metric of noctvale.metrics(params)) {
    const truth = exact[metric.name].toNumber();
    const value = estimate(tallied[metric.name], 0.95).estimate;
    let tolerance = 0;
    if (metric.probability) tolerance = proportionTolerance(truth, TRIALS);
    else if (metric.name === 'rolloffs.mean' && rollOffs) tolerance = meanTolerance(ROLLOFF_SD, TRIALS);
    expect(Math.abs(value - truth), `${metric.name}: ${value} vs exact ${truth}`).toBeLessThanOrEqual(tolerance);
  }
}

describe('noctvale simulation against the exact solution', () => {
  it('seed "equal-8": two retinues of 8, decided by 2d6 roll-offs', () => {
    expectSimulationMatchesExact('equal-8', []);
  });

  it('seed "fewer-than-groups": 2 fighters against 5', () => {
    expectSimulationMatchesExact('fewer-than-groups', ['fightersA=2', 'fightersB=5']);
  });

  it('seed "equal-2-of-4": 2 fighters each in 4 groups, so 2 groups each', () => {
    expectSimulationMatchesExact('equal-2-of-4', ['fightersA=2', 'fightersB=2', 'groups=4']);
  });

  it('seed "larger-places-last": 4 fighters against 2 in 4 groups', () => {
    expectSimulationMatchesExact('larger-places-last', ['fightersA=4', 'fightersB=2', 'groups=4']);
  });
});
