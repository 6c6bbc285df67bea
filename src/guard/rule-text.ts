/**
 * How a rule file's values and errors are shown in a one-line message.
 * Nothing here may throw, whatever the value: a rule file can hand muster a
 * Proxy whose every trap throws, an object whose toString, valueOf or
 * Symbol.toPrimitive throws, an error whose `message` getter throws, a
 * symbol or null, and the message about it must still be one line.
 */

/** `read()`, or `fallback` when reading throws. */
function attempt<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    return fallback;
  }
}

/** What stands for a value that neither JSON nor String can show (a Proxy whose traps throw). */
const UNSHOWN_ARRAY = 'an array that cannot be shown';
const UNSHOWN_OBJECT = 'an object that cannot be shown';
const UNSHOWN = 'a value that cannot be shown';

/** A value as a message shows it: short, on one line. */
export function describeValue(value: unknown): string {
  const shown = oneLine(attempt(() => shownAs(value), UNSHOWN));
  return shown.length > 80 ? `${shown.slice(0, 77)}...` : shown;
}

function shownAs(value: unknown): string {
  switch (typeof value) {
    case 'undefined':
      return 'undefined';
    case 'function':
      return 'a function';
    case 'bigint':
      return `${value}n`;
    case 'number':
    case 'boolean':
      return String(value);
    case 'string':
      return JSON.stringify(value);
    case 'symbol':
      return attempt(() => (value as symbol).toString(), 'a symbol');
    default: {
      if (value === null) return 'null';
      const json = attempt(() => JSON.stringify(value) as string | undefined, undefined);
      if (typeof json === 'string') return json;
      const array = attempt(() => Array.isArray(value), false);
      return attempt(() => String(value), array ? UNSHOWN_ARRAY : UNSHOWN_OBJECT);
    }
  }
}

/** What a rule's code threw, as "Name: message", or "the value …" for what is not an Error. */
export function describeError(error: unknown): string {
  const isError = attempt(() => error instanceof Error, false);
  if (!isError) {
    const shown = describeValue(error);
    return [UNSHOWN, UNSHOWN_ARRAY, UNSHOWN_OBJECT].includes(shown) ? shown : `the value ${shown}`;
  }
  const name = attempt(() => textOf((error as Error).name), undefined) ?? 'Error';
  const message = attempt(() => textOf((error as Error).message), undefined);
  return oneLine(message === undefined ? `${name} (its message cannot be read)` : `${name}: ${message}`);
}

/** A string as is; anything else (a getter's odd value) is not text. */
function textOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * A rule's text on one line: its line breaks folded to spaces. Other control characters are kept, so that where it
 * is shown they are shown as escapes (the terminal's terminalLine, HTML's escaping), not lost.
 */
export function oneLine(text: string): string {
  return text.replace(/[\n\r\t\v\f\u2028\u2029]+/g, ' ').trim();
}

/**
 * `value instanceof type`, false where asking throws: a thrown Proxy's
 * getPrototypeOf trap runs the rule's code, which may throw in turn.
 */
export function isA<T>(value: unknown, type: abstract new (...args: never[]) => T): value is T {
  return attempt(() => value instanceof type, false);
}
