import type { Command } from 'commander';
import { parseDecimal } from '../decimal.js';
import { badValue, UsageError } from '../errors.js';
import { defaultThreads } from '../engine/pool.js';
import { DEFAULT_STREAM, STREAM_VERSIONS, STREAMS_ALLOWED } from '../engine/random.js';
import type { StreamVersion } from '../rules/types.js';

/** Largest run: keeps every tally's sums of squares below 2^53, where doubles count exactly. */
export const MAX_TRIALS = 4e9;
/** Trials of a run, and of each point of a sweep or variant of a comparison, when --trials is not given. */
export const DEFAULT_TRIALS = 1_000_000;

const SUFFIXES: Record<string, number> = { k: 1e3, K: 1e3, m: 1e6, M: 1e6, g: 1e9, G: 1e9, b: 1e9, B: 1e9 };

/** A trial count: `1000000`, `1e6`, `1_000_000`, `10M`, `2.5k`. */
export function parseCount(option: string, raw: string): number {
  const text = raw.trim().replaceAll('_', '');
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

/**
 * Most confidence allowed: beyond six nines the normal quantile runs out of double precision and intervals turn to NaN.
 */
export const MAX_CONFIDENCE = 0.999999;

/** A confidence level: greater than 0, at most MAX_CONFIDENCE. */
export function parseConfidence(raw: string): number {
  const value = parseDecimal(raw);
  if (!Number.isFinite(value) || value <= 0 || value > MAX_CONFIDENCE)
    throw badValue('--confidence', raw, `a number greater than 0 and at most ${MAX_CONFIDENCE}, such as 0.95`);
  return value;
}

export { parseSeed } from '../input/seed.js';

/** --stream: 1 (tyche-i, every result before stream 2), 2 or 3; the default when not given. */
export function parseStream(raw: string | undefined): StreamVersion {
  if (raw === undefined) return DEFAULT_STREAM;
  const version = STREAM_VERSIONS.find((stream) => String(stream) === raw.trim());
  if (version === undefined) throw badValue('--stream', raw, STREAMS_ALLOWED);
  return version;
}

export { checkOutputFile } from '../output/files.js';

/** Commander's collector for repeatable and variadic options. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/**
 * One rule for every single-valued option: giving it twice is an error
 * (`--trials 1e6 --trials 2e6` would otherwise keep the last silently).
 * Repeatable options (--set, --vary, --variant, --metric) and flags are
 * left alone.
 */
export function rejectRepeats(program: Command): void {
  const visit = (command: Command) => {
    for (const option of command.options) {
      if (option.variadic || option.parseArg || !(option.required || option.optional)) continue;
      option.argParser((value: string, previous: unknown) => {
        if (previous !== undefined)
          throw new UsageError(
            `${option.long}: given twice (${JSON.stringify(previous)} and ${JSON.stringify(value)}); allowed: once`,
          );
        return value;
      });
    }
    for (const sub of command.commands) visit(sub);
  };
  visit(program);
}
