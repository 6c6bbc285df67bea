/**
 * The one checker of data muster is handed (a rule file's declarations and
 * presentation, shard and checkpoint files, a library call's options), so
 * every validator refuses in the same one line, named by its path, saying
 * what is allowed: `presentation.charts[0].kind: got "pie"; allowed: one of
 * split, bars, …`. Each check returns the value typed, or calls `fail`,
 * which frames the line as its caller's refusals read (`${file}: …`) and
 * throws. How a value is shown is the caller's (a shard quotes it, a
 * library option names its kind); a file checked as a whole refuses in
 * one sentence of its own (`refuse`, `exactly`). Checkers of a particular
 * shape extend it with their own fields.
 */
import { describeValue } from '../guard/rule-text.js';

/** Reports a mistake in one line; never returns. */
export type Fail = (what: string) => never;
/** A value as a refusal shows it after `got`. */
export type Show = (value: unknown) => string;
/** An object whose fields have been checked to be only those allowed. */
export type Data = Record<string, unknown>;

/** A count a tally may hold: a whole number from 0 to 2^53 − 1, where doubles still count exactly. */
export function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** Whether `value` is a plain object: not null, not an array. */
export function isData(value: unknown): value is Data {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Whether `value` is a plain object with exactly these own keys. */
export function hasExactly(value: unknown, keys: readonly string[]): value is Data {
  return isData(value) && Object.keys(value).length === keys.length && keys.every((key) => Object.hasOwn(value, key));
}

export class Schema {
  constructor(
    protected readonly fail: Fail,
    private readonly show: Show = describeValue,
  ) {}

  /** `path: got …; allowed: …`. */
  bad(path: string, got: unknown, allowed: string): never {
    return this.fail(`${path}: got ${this.show(got)}; allowed: ${allowed}`);
  }

  /** The input refused as a whole, in the caller's sentence (`fail` frames it). */
  refuse(what: string): never {
    return this.fail(what);
  }

  /** A plain object, else `path: got …; allowed: <allowed>`; its keys are the caller's to check (`only`). */
  data(path: string, got: unknown, allowed: string): Data {
    if (!isData(got)) this.bad(path, got, allowed);
    return got as Data;
  }

  /** `data` with no own key but `allowed`; the first other key is refused by `unknown`, in the caller's words. */
  only(data: Data, allowed: readonly string[], unknown: (key: string) => never): Data {
    for (const key of Object.keys(data)) if (!allowed.includes(key)) unknown(key);
    return data;
  }

  /** A plain object whose own keys are exactly `keys`, else the whole input refused: `why`. */
  exactly(got: unknown, keys: readonly string[], why: string): Data {
    if (!hasExactly(got, keys)) this.refuse(why);
    return got as Data;
  }

  /** A plain object with every `required` field and no field but those and the `optional` ones. */
  object(path: string, got: unknown, required: readonly string[], optional: readonly string[]): Data {
    const allowed = [...required, ...optional];
    const data = this.data(path, got, `an object with ${allowed.join(', ')}`);
    this.only(data, allowed, (key) =>
      this.fail(`${path}: unknown field ${JSON.stringify(key)}; allowed: ${allowed.join(', ')}`),
    );
    for (const key of required)
      if (data[key] === undefined) this.fail(`${path}.${key}: missing; allowed: ${required.join(', ')} are required`);
    return data;
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

  integer(path: string, got: unknown, min: number, max: number, allowed = `an integer from ${min} to ${max}`): number {
    if (typeof got !== 'number' || !Number.isInteger(got) || got < min || got > max) this.bad(path, got, allowed);
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
