/**
 * Records keyed by user text: parameter and metric names, variant labels.
 *
 * A plain object answers `constructor`, `toString` or `hasOwnProperty` from
 * its prototype as if they were keys, and turns `__proto__` into a change
 * of prototype. A keyed record has no prototype, so every name is only a
 * key; `own` reads an entry only when the record holds it itself, whatever
 * object it was handed (a plain one parsed from JSON or spread from
 * another).
 */

/** A record with no prototype, filled from `entries` in order. */
export function keyedRecord<T>(entries: Iterable<readonly [string, T]> = []): Record<string, T> {
  const record = Object.create(null) as Record<string, T>;
  for (const [key, value] of entries) record[key] = value;
  return record;
}

/** The record's own entry for `key`, or undefined: never a value its prototype supplies. */
export function own<T>(record: Readonly<Record<string, T>> | null | undefined, key: string): T | undefined {
  return record !== null && record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}
