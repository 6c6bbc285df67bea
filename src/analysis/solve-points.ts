/**
 * The points of a sweep, a comparison or a balance solved exactly, one after
 * another, pausing every EXACT_PAUSE_MS to hear a signal: the points solved
 * when it comes are the result, as a simulation's finished chunks are.
 * Apart from evaluate.ts because it needs no pool: the calculator page and
 * the browser library (library/browser.ts) solve their grids with it. The
 * CLI's grids hand their long tails to the pool's threads (exact-grid.ts).
 */

import type { Params, Rule } from '../contract/types.js';
import type { Evaluated, EvaluateOptions, GridSettings } from './evaluate-types.js';
import { solvePoint } from './solve-point.js';

/** How long an exact sweep or comparison solves before it pauses to hear a signal. */
const EXACT_PAUSE_MS = 50;

/** Asked before each point after the first: whether to stop here, having solved `solved` points in `elapsedMs`. */
export type HandOff = (solved: number, elapsedMs: number) => boolean;

/**
 * Every point solved with the rule's exact(), in order, until `options.signal` stops it (the rest left out), or
 * until `handOff` says to stop (`next` is then the first point not solved, for the caller to solve elsewhere).
 */
export async function solveUntilInterrupted(
  rule: Rule,
  paramsList: readonly Params[],
  settings: Extract<GridSettings, { method: 'exact' }>,
  options: Pick<
    EvaluateOptions,
    'signal' | 'onPoint' | 'seeds' | 'rules' | 'resultsOnly' | 'bestPlay' | 'withoutDistributions' | 'known'
  > & {
    handOff?: HandOff;
  } = {},
): Promise<{ evaluated: Evaluated[]; interrupted: boolean; indices: number[]; next: number }> {
  const evaluated: Evaluated[] = [];
  const shape = {
    resultsOnly: options.resultsOnly ?? false,
    bestPlay: options.bestPlay ?? true,
    withoutDistributions: options.withoutDistributions,
  };
  const started = performance.now();
  let paused = started;
  for (const params of paramsList) {
    // Every 50 ms of solving, a pause in which a signal (Ctrl-C, SIGTERM, the caller's abort) is heard.
    if (options.signal && performance.now() - paused >= EXACT_PAUSE_MS) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      paused = performance.now();
    }
    if (options.signal?.aborted) break;
    if (evaluated.length > 0 && options.handOff?.(evaluated.length, performance.now() - started)) break;
    const index = evaluated.length;
    const pointRule = options.rules?.[index] ?? rule;
    evaluated.push(
      solvePoint(pointRule, params, options.seeds?.[index] ?? settings.seed, shape, options.known?.[index]),
    );
    options.onPoint?.(evaluated.length, paramsList.length);
  }
  const interrupted = evaluated.length < paramsList.length;
  return { evaluated, interrupted, indices: evaluated.map((_, index) => index), next: evaluated.length };
}
