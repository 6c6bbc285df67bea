/**
 * `balance` in the browser (browser.ts re-exports it): `muster
 * balance`'s question asked of a grid computed on the calling thread, with
 * the CLI's own plan and answer (analysis/balance.ts), so the `balance`
 * block is `muster balance --json`'s for the same question. Exact wherever
 * the rule has exact values at every setting (each point solved with
 * analysis/solve-points.ts, as the CLI solves it); else each point is
 * simulated here in turn with the CLI's streams (the result records 1
 * thread). No pool, no Node.
 *
 *   options ─► planBalance (the CLI's checks and words) ─► solveUntilInterrupted │ simulateRunInThread per point
 *           ─► assembleSweep ─► assembleBalance ─► BalanceResult
 */
import { assembleBalance, type BalanceResult, planBalance } from '../analysis/balance.js';
import { simulateRunInThread } from '../analysis/run-in-thread.js';
import { solveUntilInterrupted } from '../analysis/solve-points.js';
import { assembleSweep } from '../analysis/sweep.js';
import type { ParamValue, Rule, StreamVersion } from '../contract/types.js';
import { UsageError } from '../errors.js';
import type { RunResult } from '../result.js';
import { assignments, checkCallOptions, type ParamSettings, varyText } from './core.js';

export type { BalanceResult };

/** The question `balance` answers, in Node and in the browser alike: each field as its flag takes it. */
export interface BalanceQuestion {
  /** The varied parameters: a list of values, or the text `--vary name=` takes ("0..4", "1..9:2", "a,b"). */
  vary: Readonly<Record<string, string | readonly ParamValue[]>>;
  /** The one metric to bring near the target. */
  metric: string;
  /** The value to come nearest to, as `--target` takes it: "50%", "1/2", "0.5" (probabilities) or "2.5" (means). */
  target: string;
  /** Constraints the settings must meet, as `--keep` takes them ("all.by.4>=80%"). */
  keep?: readonly string[];
  /** Also list every setting this near the target, as `--within` takes it ("2pp"). */
  within?: string;
  /** The jump between neighbouring settings listed as a cliff, as `--cliff` takes it (default "10pp"; 1 for a mean). */
  cliff?: string;
  /** Simulate even where the rule has exact values (as `--simulate`). */
  simulate?: boolean;
}

/** The options of the browser's `balance`: the library's, without a pool or threads (it runs on this thread). */
export interface BrowserBalanceOptions extends BalanceQuestion {
  set?: ParamSettings;
  /** Solve every point exactly (the default where the rule has exact values at every point). */
  exact?: boolean;
  /** Trials a point, when simulated (default 1,000,000). */
  trials?: number;
  seed?: string;
  stream?: StreamVersion;
  confidence?: number;
  /** Stops the work; the promise then resolves to the points that finished, with `partial: true`. */
  signal?: AbortSignal;
  /** Called as the work goes: points solved and points, or trials done and trials in all (simulated). */
  onProgress?: (done: number, target: number) => void;
}

const BALANCE_OPTIONS = [
  'vary',
  'metric',
  'target',
  'keep',
  'within',
  'cliff',
  'set',
  'exact',
  'simulate',
  'trials',
  'seed',
  'stream',
  'confidence',
  'signal',
  'onProgress',
] as const;

/**
 * The settings of the varied parameters that bring a metric nearest a target, computed on this thread (giving the
 * page a turn every twentieth of a second): `muster balance --json`'s object for the same question.
 */
export async function balanceOf(rule: Rule, options: BrowserBalanceOptions): Promise<BalanceResult> {
  checkCallOptions(options, BALANCE_OPTIONS, 'balance');
  if (options === undefined || options.vary === null || typeof options.vary !== 'object')
    throw new UsageError('vary: missing; allowed: { name: [values] } or { name: "a..b" }, one entry per parameter');
  for (const name of ['metric', 'target', 'within', 'cliff', 'seed'] as const)
    if (options[name] !== undefined && typeof options[name] !== 'string')
      throw new UsageError(`${name}: got ${typeof options[name]}; allowed: text, as --${name} takes it`);
  if (options.keep !== undefined && !(Array.isArray(options.keep) && options.keep.every((k) => typeof k === 'string')))
    throw new UsageError('keep: not a list of text; allowed: ["all.by.4>=80%", …]');
  const number = (name: 'trials' | 'stream' | 'confidence') => {
    const value = options[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'number') throw new UsageError(`${name}: got ${typeof value}; allowed: a number`);
    return String(value);
  };
  const given = {
    trials: number('trials'),
    seed: options.seed,
    stream: number('stream'),
    confidence: number('confidence'),
  };
  const plan = planBalance(rule, {
    ...Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)),
    set: assignments(options.set),
    vary: Object.entries(options.vary).map(([name, values]) => `${name}=${varyText(name, values)}`),
    metric: options.metric,
    target: options.target,
    keep: options.keep ? [...options.keep] : undefined,
    within: options.within,
    cliff: options.cliff,
    exact: options.exact,
    simulate: options.simulate,
  });
  const { grid, settings } = plan.sweep;
  const { signal, onProgress } = options;
  let results: RunResult[];
  let threads: number;
  if (settings.method === 'exact') {
    const solved = await solveUntilInterrupted(plan.sweep.rule, grid, settings, {
      signal,
      onPoint: onProgress,
      resultsOnly: true,
      // A balance reads each point's metrics, never its distributions (assembleSweep keeps none).
      withoutDistributions: true,
    });
    results = solved.evaluated.map(({ result }) => result);
    threads = settings.threads;
  } else {
    threads = 1;
    results = [];
    const simulation = { ...settings, threads };
    for (const params of grid) {
      if (signal?.aborted) break;
      const before = results.length * settings.trials;
      const result = await simulateRunInThread(plan.sweep.rule, params, simulation, {
        signal,
        onProgress: onProgress && ((done) => onProgress(before + done, grid.length * settings.trials)),
      });
      // A point stopped part way is left out, as the CLI leaves out the points an interruption cut short.
      if (result.partial) break;
      results.push(result);
    }
  }
  return assembleBalance(plan, assembleSweep(plan.sweep, results, threads, results.length < grid.length));
}
