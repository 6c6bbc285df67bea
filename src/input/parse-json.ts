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
  let at = 0;

  const where = (position: number): string => {
    let line = 1;
    let start = 0;
    for (let i = text.indexOf('\n'); i !== -1 && i < position; i = text.indexOf('\n', i + 1)) {
      line++;
      start = i + 1;
    }
    return `line ${line}, column ${position - start + 1}`;
  };
  const fail = (what: string, position = at): never => {
    throw new JsonInputError(`${what} at ${where(position)}`);
  };
  const skipSpace = () => {
    for (;;) {
      const c = text.charCodeAt(at);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) at++;
      else return;
    }
  };
  const unexpected = (): never =>
    at >= text.length ? fail('the text ends too early') : fail(`unexpected ${JSON.stringify(text[at])}`);

  const readString = (): string => {
    const start = at;
    at++; // the opening quote
    let plain = true;
    for (;;) {
      if (at >= text.length) return fail('a string is not closed', start);
      const c = text.charCodeAt(at);
      if (c === 0x22) break;
      if (c < 0x20) return fail('a control character inside a string');
      if (c === 0x5c) {
        plain = false;
        const next = text[at + 1];
        if (next === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(at + 2, at + 6))) return fail('a bad \\u escape');
          at += 6;
        } else if (next !== undefined && '"\\/bfnrt'.includes(next)) {
          at += 2;
        } else {
          return fail('a bad escape');
        }
        continue;
      }
      at++;
    }
    at++; // the closing quote
    return plain ? text.slice(start + 1, at - 1) : (JSON.parse(text.slice(start, at)) as string);
  };

  const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
  const skipDigits = () => {
    if (!isDigit(text.charCodeAt(at))) fail('a number with a part that has no digits');
    while (isDigit(text.charCodeAt(at))) at++;
  };
  // Read by hand, not with a regular expression: a shard's tallies are mostly numbers.
  const readNumber = (): number => {
    const start = at;
    const negative = text.charCodeAt(at) === 0x2d; // -
    if (negative) at++;
    const first = text.charCodeAt(at);
    let whole = 0;
    if (first === 0x30) at++;
    else if (isDigit(first)) {
      for (let c = first; isDigit(c); c = text.charCodeAt(++at)) whole = whole * 10 + (c - 0x30);
    } else {
      at = start;
      return unexpected();
    }
    const next = text.charCodeAt(at);
    // A whole number of at most 15 digits is exact as summed (below 2^53); anything else is Number's to read.
    if (next !== 0x2e && next !== 0x65 && next !== 0x45 && at - start - (negative ? 1 : 0) <= 15)
      return negative ? -whole : whole;
    if (text.charCodeAt(at) === 0x2e) {
      at++;
      skipDigits();
    }
    const e = text.charCodeAt(at);
    if (e === 0x65 || e === 0x45) {
      at++;
      const sign = text.charCodeAt(at);
      if (sign === 0x2b || sign === 0x2d) at++;
      skipDigits();
    }
    return Number(text.slice(start, at));
  };
  const readWord = <T>(word: string, value: T): T => {
    if (!text.startsWith(word, at)) return unexpected();
    at += word.length;
    return value;
  };

  const readValue = (depth: number): unknown => {
    skipSpace();
    switch (text[at]) {
      case '{':
      case '[':
        if (depth >= MAX_JSON_DEPTH) return fail(`nesting deeper than ${MAX_JSON_DEPTH} levels`);
        return text[at] === '{' ? readObject(depth + 1) : readArray(depth + 1);
      case '"':
        return readString();
      case 't':
        return readWord('true', true);
      case 'f':
        return readWord('false', false);
      case 'n':
        return readWord('null', null);
      default:
        return readNumber();
    }
  };

  const readArray = (depth: number): unknown[] => {
    at++;
    const items: unknown[] = [];
    skipSpace();
    if (text[at] === ']') {
      at++;
      return items;
    }
    for (;;) {
      items.push(readValue(depth));
      skipSpace();
      if (text[at] === ',') at++;
      else if (text[at] === ']') {
        at++;
        return items;
      } else return unexpected();
    }
  };

  const readObject = (depth: number): Record<string, unknown> => {
    at++;
    const record: Record<string, unknown> = {};
    const keys = new Set<string>();
    skipSpace();
    if (text[at] === '}') {
      at++;
      return record;
    }
    for (;;) {
      skipSpace();
      if (text[at] !== '"') return unexpected();
      const keyAt = at;
      const key = readString();
      if (FORBIDDEN_KEYS.has(key)) return fail(`the key ${JSON.stringify(key)}, which no muster file has`, keyAt);
      if (keys.has(key)) return fail(`the key ${JSON.stringify(key)} twice in one object`, keyAt);
      keys.add(key);
      skipSpace();
      if (text[at] !== ':') return unexpected();
      at++;
      // Safe as a plain assignment: `__proto__`, the one key that reaches a prototype, is refused above.
      record[key] = readValue(depth);
      skipSpace();
      if (text[at] === ',') at++;
      else if (text[at] === '}') {
        at++;
        return record;
      } else return unexpected();
    }
  };

  const value = readValue(0);
  skipSpace();
  if (at < text.length) fail(`more text after the JSON value`);
  return value;
}
