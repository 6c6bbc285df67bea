/**
 * A rule's result with nothing simulated: its exact values and distributions, as `muster run --exact` builds them
 * (stream null, no threads, no trials, no tally). The tests that read exact distributions, readings or charts build
 * their result this one way.
 */

import { buildResult } from '../../src/analysis/result-of.js';
import type { Params, Rule } from '../../src/contract/types.js';
import type { RunResult } from '../../src/result.js';

export function exactResult(rule: Rule, params: Params, seed: string, percentiles?: readonly number[]): RunResult {
  return buildResult({
    rule,
    params,
    seed,
    stream: null,
    threads: 0,
    confidence: 1,
    trials: 0,
    tally: null,
    ...(percentiles ? { percentiles } : {}),
  });
}
