/**
 * A one-page odds card's computing (`muster card`): the parameter points its design asks for
 * (reports/card/layout.ts planCard reads them off the rule's presentation), exact where the rule allows,
 * else simulated on one pool. reports/card/ lays the card out from these results.
 */

import type { Params, Rule } from '../contract/types.js';
import { SimulationPool } from '../engine/pool.js';
import type { SimulationSettings } from '../engine/settings.js';
import type { RunResult } from '../result.js';
import { evaluateAll, evaluateUntilInterrupted } from './evaluate.js';

/** The card's points computed, in plan order; null when an interruption stopped the simulation first. */
export async function evaluateCard(
  rule: Rule,
  plan: readonly Params[],
  /** null: the card is exact (every point solved); else how to simulate each point. */
  settings: SimulationSettings | null,
  signal?: AbortSignal,
): Promise<RunResult[] | null> {
  if (settings === null) {
    const exact = { method: 'exact', seed: '', stream: null, confidence: 1, trials: 0, threads: 0 } as const;
    return (await evaluateAll(rule, [...plan], exact)).map((point) => point.result);
  }
  const pool = SimulationPool.take(settings.threads);
  try {
    const grid = {
      method: 'simulation' as const,
      seed: settings.seed,
      stream: settings.stream,
      confidence: settings.confidence,
      trials: settings.trials,
      threads: settings.threads,
      timeout: settings.timeout,
    };
    const outcome = await evaluateUntilInterrupted(rule, [...plan], grid, { pool, signal });
    return outcome.interrupted ? null : outcome.evaluated.map((point) => point.result);
  } finally {
    await pool.close();
  }
}
