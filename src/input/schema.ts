/**
 * A small schema checker for data muster is handed (a rule file's
 * declarations, JSON it reads): each check returns the value typed, or calls
 * `fail` with one line that names the field by its path and says what is
 * allowed: `presentation.charts[0].kind: got "pie"; allowed: one of split,
 * bars, …`. Checkers of a particular shape extend it with their own fields.
 */
import { describeValue } from '../guard/rule-text.js';

/** Reports a mistake in one line; never returns. */
export type Fail = (what: string) => never;
/** An object whose fields have been checked to be only those allowed. */
export type Data = Record<string, unknown>;

export class Schema {
  constructor(protected readonly fail: Fail) {}

  /** `path: got …; allowed: …`. */
  bad(path: string, got: unknown, allowed: string): never {
    return this.fail(`${path}: got ${describeValue(got)}; allowed: ${allowed}`);
  }

  /** A plain object with every `required` field and no field but those and the `optional` ones. */
  object(path: string, got: unknown, required: readonly string[], optional: readonly string[]): Data {
    const allowed = [...required, ...optional];
    if (got === null || typeof got !== 'object' || Array.isArray(got))
      this.bad(path, got, `an object with ${allowed.join(', ')}`);
    for (const key of Object.keys(got as Data))
      if (!allowed.includes(key))
        this.fail(`${path}: unknown field ${JSON.stringify(key)}; allowed: ${allowed.join(', ')}`);
    for (const key of required)
      if ((got as Data)[key] === undefined)
        this.fail(`${path}.${key}: missing; allowed: ${required.join(', ')} are required`);
    return got as Data;
  }

  /** An array of 1 to `most` entries, each checked by `each` at `path[i]`. */
  list<T>(path: string, got: unknown, most: number, each: (item: unknown, at: string) => T): T[] {
    if (!Array.isArray(got) || got.length === 0 || got.length > most)
      this.bad(path, got, `an array of 1 to ${most} entries`);
    return (got as unknown[]).map((item, i) => each(item, `${path}[${i}]`));
  }

  text(path: string, got: unknown, most = 200): string {
    if (typeof got !== 'string' || got.length > most) this.bad(path, got, `text of at most ${most} characters`);
    return got as string;
  }

  integer(path: string, got: unknown, min: number, max: number): number {
    if (typeof got !== 'number' || !Number.isInteger(got) || got < min || got > max)
      this.bad(path, got, `an integer from ${min} to ${max}`);
    return got as number;
  }

  flag(path: string, got: unknown): boolean {
    if (typeof got !== 'boolean') this.bad(path, got, 'true or false');
    return got as boolean;
  }

  oneOf<T extends string>(path: string, got: unknown, choices: readonly T[]): T {
    if (!choices.includes(got as T)) this.bad(path, got, `one of ${choices.join(', ')}`);
    return got as T;
  }

  /** `{ key: checked }` when `data` has `key`, else `{}`: spread into the object being built. */
  optional<T>(data: Data, key: string, check: (got: unknown, at: string) => T, path: string): Record<string, T> {
    return data[key] === undefined ? {} : { [key]: check(data[key], `${path}.${key}`) };
  }
}
