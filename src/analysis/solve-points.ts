/**
 * The points of a sweep, a comparison or a balance solved exactly, one after
 * another, pausing every EXACT_PAUSE_MS to hear a signal: the points solved
 * when it comes are the result, as a simulation's finished chunks are.
 * Apart from evaluate.ts because it needs no pool: the calculator page and
 * the browser library (library/browser.ts) solve their grids with it.
 */

import type { Params, Rule } from '../contract/types.js';
import { UsageError } from '../errors.js';
import type { Evaluated, EvaluateOptions, GridSettings } from './evaluate-types.js';
import { buildResult, withDecisions } from './result-of.js';

/** How long an exact sweep or comparison solves before it pauses to hear a signal. */
const EXACT_PAUSE_MS = 50;

/** Every point solved with the rule's exact(), in order, until `options.signal` stops it (the rest left out). */
export async function solveUntilInterrupted(
  rule: Rule,
  paramsList: readonly Params[],
  settings: Extract<GridSettings, { method: 'exact' }>,
  options: Pick<EvaluateOptions, 'signal' | 'onPoint' | 'seeds' | 'rules' | 'resultsOnly'> = {},
): Promise<{ evaluated: Evaluated[]; interrupted: boolean; indices: number[] }> {
  const evaluated: Evaluated[] = [];
  let paused = performance.now();
  for (const params of paramsList) {
    // Every 50 ms of solving, a pause in which a signal (Ctrl-C, SIGTERM, the caller's abort) is heard.
    if (options.signal && performance.now() - paused >= EXACT_PAUSE_MS) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      paused = performance.now();
    }
    if (options.signal?.aborted) break;
    const pointRule = options.rules?.[evaluated.length] ?? rule;
    if (!pointRule.exact)
      throw new UsageError(`--exact: ${pointRule.id} has no exact solution; allowed: simulate it (leave out --exact)`);
    const exact = pointRule.exact.values(params);
    evaluated.push({
      // A rule with decisions: the objective and policy under best play beside its metrics (result.ts).
      result: withDecisions(
        pointRule,
        params,
        buildResult({
          rule: pointRule,
          params,
          seed: options.seeds?.[evaluated.length] ?? settings.seed,
          stream: settings.stream,
          threads: 0,
          confidence: 1,
          trials: 0,
          tally: null,
          exact,
        }),
      ),
      tallied: null,
      ...(options.resultsOnly ? {} : { exact }),
    });
    options.onPoint?.(evaluated.length, paramsList.length);
  }
  const interrupted = evaluated.length < paramsList.length;
  return { evaluated, interrupted, indices: evaluated.map((_, index) => index) };
}
