import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { badValue, UsageError } from '../errors.js';

/** Largest run: keeps every tally's sums of squares below 2^53, where doubles count exactly. */
export const MAX_TRIALS = 4e9;

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
  const value = raw.trim() === '' ? Number.NaN : Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) throw badValue(option, raw, `an integer from ${min} to ${max}`);
  return value;
}

/** A number strictly between `low` and `high`. */
export function parseOpenInterval(option: string, raw: string, low: number, high: number): number {
  const value = raw.trim() === '' ? Number.NaN : Number(raw);
  if (!Number.isFinite(value) || value <= low || value >= high) throw badValue(option, raw, `a number greater than ${low} and less than ${high}`);
  return value;
}

export function parseSeed(raw: string): string {
  if (raw.length === 0 || raw.length > 200) throw badValue('--seed', raw, 'any text of 1 to 200 characters');
  return raw;
}

/** An output file: its folder must exist now, so a long run never ends in a failed write. */
export function checkOutputFile(option: string, file: string): string {
  const path = resolve(file);
  const folder = dirname(path);
  if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new UsageError(`${option}: folder ${folder} does not exist; allowed: a file in an existing folder`);
  // Writes go through a rename, which would replace a device such as /dev/null: only regular files may be overwritten.
  if (existsSync(path) && !statSync(path).isFile()) throw new UsageError(`${option}: ${path} is not a regular file; allowed: a new or existing regular file`);
  return path;
}

/** Commander's collector for repeatable and variadic options. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
