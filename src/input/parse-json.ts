/**
 * JSON as muster reads it from a file (a shard, a checkpoint): RFC 8259,
 * and stricter where JSON.parse lets a file say two things at once or be
 * used against the reader.
 *
 * - A key given twice in one object is refused: JSON.parse keeps the last,
 *   another reader the first, so the file means what its reader chooses.
 * - The key `__proto__` is refused: no file muster writes has it (it is
 *   refused as a parameter or metric name), and code that copies a parsed
 *   object could set a prototype through it. `constructor`, `toString` and
 *   the like are a rule's names like any other (a rule file may name a
 *   parameter so): they are read as own entries only (src/keyed.ts), and a
 *   field muster does not know is refused by the file's own checks.
 * - Nesting is bounded (MAX_JSON_DEPTH): muster's files nest a few levels,
 *   and a recursive reader of a file nested 100,000 deep would overflow the
 *   stack. The parser itself recurses only up to the bound.
 *
 * Keys are compared after their escapes are read, so `"__proto\u005f_"` is
 * `__proto__`. A problem is a JsonInputError saying what and where (line
 * and column), for the caller to put in its one-line refusal.
 */

/** Arrays and objects inside one another; muster's own files use at most 6. */
export const MAX_JSON_DEPTH = 64;

const FORBIDDEN_KEYS = new Set(['__proto__']);

export class JsonInputError extends Error {
  override readonly name = 'JsonInputError';
}

/** `text` parsed as JSON with the restrictions above; throws a JsonInputError. */
export function parseJsonInput(text: string): unknown {
  return new JsonReader(text).document();
}

/** One pass over the text: `at` is where the reader is. */
class JsonReader {
  private at = 0;

  constructor(private readonly text: string) {}

  document(): unknown {
    const value = this.readValue(0);
    this.skipSpace();
    if (this.at < this.text.length) this.fail(`more text after the JSON value`);
    return value;
  }

  private where(position: number): string {
    let line = 1;
    let start = 0;
    for (let i = this.text.indexOf('\n'); i !== -1 && i < position; i = this.text.indexOf('\n', i + 1)) {
      line++;
      start = i + 1;
    }
    return `line ${line}, column ${position - start + 1}`;
  }
  private fail(what: string, position = this.at): never {
    throw new JsonInputError(`${what} at ${this.where(position)}`);
  }
  private skipSpace() {
    for (;;) {
      const c = this.text.charCodeAt(this.at);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) this.at++;
      else return;
    }
  }
  private unexpected(): never {
    return this.at >= this.text.length
      ? this.fail('the text ends too early')
      : this.fail(`unexpected ${JSON.stringify(this.text[this.at])}`);
  }

  private readString(): string {
    const start = this.at;
    this.at++; // the opening quote
    let plain = true;
    for (;;) {
      if (this.at >= this.text.length) return this.fail('a string is not closed', start);
      const c = this.text.charCodeAt(this.at);
      if (c === 0x22) break;
      if (c < 0x20) return this.fail('a control character inside a string');
      if (c === 0x5c) {
        plain = false;
        const next = this.text[this.at + 1];
        if (next === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(this.text.slice(this.at + 2, this.at + 6))) return this.fail('a bad \\u escape');
          this.at += 6;
        } else if (next !== undefined && '"\\/bfnrt'.includes(next)) {
          this.at += 2;
        } else {
          return this.fail('a bad escape');
        }
        continue;
      }
      this.at++;
    }
    this.at++; // the closing quote
    return plain ? this.text.slice(start + 1, this.at - 1) : (JSON.parse(this.text.slice(start, this.at)) as string);
  }

  private static isDigit(c: number): boolean {
    return c >= 0x30 && c <= 0x39;
  }
  private skipDigits() {
    if (!JsonReader.isDigit(this.text.charCodeAt(this.at))) this.fail('a number with a part that has no digits');
    while (JsonReader.isDigit(this.text.charCodeAt(this.at))) this.at++;
  }
  // Read by hand, not with a regular expression: a shard's tallies are mostly numbers.
  private readNumber(): number {
    const start = this.at;
    const negative = this.text.charCodeAt(this.at) === 0x2d; // -
    if (negative) this.at++;
    const first = this.text.charCodeAt(this.at);
    let whole = 0;
    if (first === 0x30) this.at++;
    else if (JsonReader.isDigit(first)) {
      for (let c = first; JsonReader.isDigit(c); c = this.text.charCodeAt(++this.at)) whole = whole * 10 + (c - 0x30);
    } else {
      this.at = start;
      return this.unexpected();
    }
    const next = this.text.charCodeAt(this.at);
    // A whole number of at most 15 digits is exact as summed (below 2^53); anything else is Number's to read.
    if (next !== 0x2e && next !== 0x65 && next !== 0x45 && this.at - start - (negative ? 1 : 0) <= 15)
      return negative ? -whole : whole;
    if (this.text.charCodeAt(this.at) === 0x2e) {
      this.at++;
      this.skipDigits();
    }
    const e = this.text.charCodeAt(this.at);
    if (e === 0x65 || e === 0x45) {
      this.at++;
      const sign = this.text.charCodeAt(this.at);
      if (sign === 0x2b || sign === 0x2d) this.at++;
      this.skipDigits();
    }
    return Number(this.text.slice(start, this.at));
  }
  private readWord<T>(word: string, value: T): T {
    if (!this.text.startsWith(word, this.at)) return this.unexpected();
    this.at += word.length;
    return value;
  }

  private readValue(depth: number): unknown {
    this.skipSpace();
    switch (this.text[this.at]) {
      case '{':
      case '[':
        if (depth >= MAX_JSON_DEPTH) return this.fail(`nesting deeper than ${MAX_JSON_DEPTH} levels`);
        return this.text[this.at] === '{' ? this.readObject(depth + 1) : this.readArray(depth + 1);
      case '"':
        return this.readString();
      case 't':
        return this.readWord('true', true);
      case 'f':
        return this.readWord('false', false);
      case 'n':
        return this.readWord('null', null);
      default:
        return this.readNumber();
    }
  }

  private readArray(depth: number): unknown[] {
    this.at++;
    const items: unknown[] = [];
    this.skipSpace();
    if (this.text[this.at] === ']') {
      this.at++;
      return items;
    }
    for (;;) {
      items.push(this.readValue(depth));
      this.skipSpace();
      if (this.text[this.at] === ',') this.at++;
      else if (this.text[this.at] === ']') {
        this.at++;
        return items;
      } else return this.unexpected();
    }
  }

  private readObject(depth: number): Record<string, unknown> {
    this.at++;
    const record: Record<string, unknown> = {};
    const keys = new Set<string>();
    this.skipSpace();
    if (this.text[this.at] === '}') {
      this.at++;
      return record;
    }
    for (;;) {
      this.skipSpace();
      if (this.text[this.at] !== '"') return this.unexpected();
      const keyAt = this.at;
      const key = this.readString();
      if (FORBIDDEN_KEYS.has(key)) return this.fail(`the key ${JSON.stringify(key)}, which no muster file has`, keyAt);
      if (keys.has(key)) return this.fail(`the key ${JSON.stringify(key)} twice in one object`, keyAt);
      keys.add(key);
      this.skipSpace();
      if (this.text[this.at] !== ':') return this.unexpected();
      this.at++;
      // Safe as a plain assignment: `__proto__`, the one key that reaches a prototype, is refused above.
      record[key] = this.readValue(depth);
      this.skipSpace();
      if (this.text[this.at] === ',') this.at++;
      else if (this.text[this.at] === '}') {
        this.at++;
        return record;
      } else return this.unexpected();
    }
  }
}
