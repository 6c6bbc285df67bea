import { badValue, UsageError } from '../errors.js';

/**
 * The longest seed: every chunk's stream hashes the seed, so a seed is kept
 * short enough that hashing it costs nothing beside the dice. The CLI's
 * `--seed` and the calculator's seed field share this check (no Node imports
 * here, so the page bundles it).
 */
const MAX_SEED_LENGTH = 200;

/** A seed: any text of 1 to MAX_SEED_LENGTH characters. A refused long seed is named by its length, not echoed. */
export function parseSeed(raw: string, option = '--seed'): string {
  const allowed = `any text of 1 to ${MAX_SEED_LENGTH} characters`;
  if (raw.length > MAX_SEED_LENGTH)
    throw new UsageError(`${option}: got ${raw.length.toLocaleString('en-US')} characters; allowed: ${allowed}`);
  if (raw.length === 0) throw badValue(option, raw, allowed);
  return raw;
}
