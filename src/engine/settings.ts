/**
 * The values of the options every simulating analysis shares (--trials, --seed, --stream, --threads,
 * --confidence, --precision, --max-trials, --timeout), parsed and checked before any work starts. Errors name
 * the option as the CLI spells it; the library and the merge of shards check with the same words.
 */

import type { StreamVersion } from '../contract/types.js';
import { parseDecimal } from '../decimal.js';
import { badValue, UsageError } from '../errors.js';
import { DEFAULT_TRIALS, MAX_CONFIDENCE, MAX_TRIALS } from '../input/limits.js';
import { parseSeed } from '../input/seed.js';
import { DEFAULT_STREAM, STREAM_VERSIONS, STREAMS_ALLOWED } from './random.js';
import { defaultThreads } from './threads.js';

export { DEFAULT_TRIALS, MAX_CONFIDENCE, MAX_TRIALS };

const SUFFIXES: Record<string, number> = { k: 1e3, K: 1e3, m: 1e6, M: 1e6, g: 1e9, G: 1e9, b: 1e9, B: 1e9 };

/** A trial count: `1000000`, `1e6`, `10M`, `2.5k`; no `_` or `,` between digits, as no other number takes. */
export function parseCount(option: string, raw: string): number {
  const text = raw.trim();
  const match = /^(\d+(?:\.\d+)?(?:e\d+)?)([kKmMgGbB]?)$/.exec(text);
  const value = match ? Number(match[1]) * (SUFFIXES[match[2]] ?? 1) : Number.NaN;
  if (!Number.isInteger(value) || value < 1 || value > MAX_TRIALS) {
    throw badValue(option, raw, `a whole number of trials from 1 to 4e9, such as 1000000, 1e6 or 10M`);
  }
  return value;
}

export function parseIntegerOption(option: string, raw: string, min: number, max: number): number {
  const value = parseDecimal(raw);
  if (!Number.isInteger(value) || value < min || value > max)
    throw badValue(option, raw, `an integer from ${min} to ${max}`);
  return value;
}

/** --threads: worker threads from 1 to 256; the machine's available cores when not given. */
export function parseThreads(raw: string | undefined): number {
  return raw === undefined ? defaultThreads() : parseIntegerOption('--threads', raw, 1, 256);
}

/** A number strictly between `low` and `high`. */
export function parseOpenInterval(option: string, raw: string, low: number, high: number): number {
  const value = parseDecimal(raw);
  if (!Number.isFinite(value) || value <= low || value >= high)
    throw badValue(option, raw, `a number greater than ${low} and less than ${high}`);
  return value;
}

/** A confidence level: greater than 0, at most MAX_CONFIDENCE. */
export function parseConfidence(raw: string): number {
  const value = parseDecimal(raw);
  if (!Number.isFinite(value) || value <= 0 || value > MAX_CONFIDENCE)
    throw badValue('--confidence', raw, `a number greater than 0 and at most ${MAX_CONFIDENCE}, such as 0.95`);
  return value;
}

/** --stream: 1 (tyche-i, every result before stream 2), 2 or 3; the default when not given. */
export function parseStream(raw: string | undefined): StreamVersion {
  if (raw === undefined) return DEFAULT_STREAM;
  const version = STREAM_VERSIONS.find((stream) => String(stream) === raw.trim());
  if (version === undefined) throw badValue('--stream', raw, STREAMS_ALLOWED);
  return version;
}

/** The simulation options as typed: text, as on the command line. */
export interface SimulationOptions {
  trials?: string;
  seed?: string;
  stream?: string;
  threads?: string;
  precision?: string;
  maxTrials?: string;
  confidence?: string;
  timeout?: string;
}

export const DEFAULT_SEED = 'muster';
export const DEFAULT_MAX_TRIALS = 1e9;

/** Settings shared by every command that simulates, parsed and checked before any work starts. */
export interface SimulationSettings {
  seed: string;
  /** --stream: the random stream (engine/random.ts). */
  stream: StreamVersion;
  threads: number;
  confidence: number;
  trials: number;
  precision?: number;
  maxTrials?: number;
  /** Watchdog in seconds (--timeout). */
  timeout?: number;
}

export function parseSimulationSettings(options: SimulationOptions): SimulationSettings {
  const settings: SimulationSettings = {
    seed: parseSeed(options.seed ?? DEFAULT_SEED),
    stream: parseStream(options.stream),
    threads: parseThreads(options.threads),
    confidence: options.confidence === undefined ? 0.95 : parseConfidence(options.confidence),
    trials: options.trials === undefined ? DEFAULT_TRIALS : parseCount('--trials', options.trials),
  };
  if (options.timeout !== undefined) settings.timeout = parseTimeout(options.timeout);
  if (options.precision !== undefined) {
    if (options.trials !== undefined)
      throw new UsageError(
        '--precision: cannot be combined with --trials; allowed: one of the two (--max-trials caps --precision)',
      );
    settings.precision = parseOpenInterval('--precision', options.precision, 0, 0.5);
    settings.maxTrials =
      options.maxTrials === undefined ? DEFAULT_MAX_TRIALS : parseCount('--max-trials', options.maxTrials);
  } else if (options.maxTrials !== undefined) {
    throw new UsageError('--max-trials: only meaningful with --precision; allowed: --precision E --max-trials N');
  }
  return settings;
}

/** --timeout: seconds without a finished block of trials before the watchdog fails the run. */
export function parseTimeout(raw: string): number {
  const value = parseDecimal(raw);
  if (!Number.isFinite(value) || value <= 0 || value > 86_400)
    throw badValue('--timeout', raw, 'a number of seconds greater than 0 and at most 86400, such as 60');
  return value;
}

/**
 * --percentile: the percentiles of every distribution to report, numbers above 0 and at most 100, comma-separated
 * (`10,90`), each once, in the order given.
 */
export function parsePercentiles(raw: string): number[] {
  const allowed = 'numbers above 0 and at most 100, comma-separated, such as 10,90';
  const values = raw.split(',').map((part) => {
    const value = parseDecimal(part.trim());
    if (!Number.isFinite(value) || value <= 0 || value > 100) throw badValue('--percentile', raw, allowed);
    return value;
  });
  if (new Set(values).size !== values.length) throw badValue('--percentile', raw, `${allowed}, each once`);
  return values;
}
