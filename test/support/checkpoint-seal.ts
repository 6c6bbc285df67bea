import { createHash } from 'node:crypto';

/**
 * A checkpoint's text with its sha256 written again, as a forger who knows
 * the format would (docs/json.md): sha256 over the canonical JSON (keys
 * sorted at every level, no spaces) of every field but the hash. Written
 * here from the documented rule, not imported from the engine, so a test
 * can reach the checks behind the hash.
 */
export function sealCheckpoint(file: Record<string, unknown>): string {
  const { sha256: _old, ...content } = file;
  return JSON.stringify({ ...content, sha256: createHash('sha256').update(canonical(content)).digest('hex') });
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(record[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}
