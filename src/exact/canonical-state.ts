/**
 * A step form's state as one string: JSON with every object's keys sorted,
 * so two states are the same state exactly when their strings are equal,
 * however the rule built them. A state must be a plain JSON value (null,
 * true/false, a finite number, a string, an array or a plain object of
 * those): anything else has no canonical text, and is refused by name.
 */

/** Thrown for a value that is not plain JSON; `path` says where in the state (`.inBy[2]`). */
export class NotPlainJson extends Error {
  constructor(
    readonly path: string,
    readonly what: string,
  ) {
    super(`${path || 'the state'} is ${what}`);
  }
}

/**
 * The canonical text of a state.
 * @example canonicalState({ round: 2, out: [1, 0] }) // '{"out":[1,0],"round":2}'
 * @example canonicalState({ out: [1, 0], round: 2 }) // '{"out":[1,0],"round":2}': the same state
 */
export function canonicalState(value: unknown): string {
  try {
    return write(value, 0);
  } catch (error) {
    // Where in the state the fault is, found only now: the enumerator writes a state on every path.
    if (error instanceof NotPlainJson) writeAt(value, '', 0);
    throw error;
  }
}

const MAX_DEPTH = 64;
const NOT_PLAIN = new NotPlainJson('', 'not plain JSON');

/** The text, or NOT_PLAIN thrown: the same walk as writeAt's, without a path for every value it passes. */
function write(value: unknown, depth: number): string {
  if (depth > MAX_DEPTH) throw NOT_PLAIN;
  switch (typeof value) {
    case 'number':
      if (!Number.isFinite(value)) throw NOT_PLAIN;
      return Object.is(value, -0) ? '0' : String(value);
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) {
        let text = '[';
        for (let i = 0; i < value.length; i++) text += (i ? ',' : '') + write(value[i], depth + 1);
        return `${text}]`;
      }
      const prototype = Object.getPrototypeOf(value);
      if (prototype !== Object.prototype && prototype !== null) throw NOT_PLAIN;
      const keys = Object.keys(value).sort();
      let text = '{';
      for (let i = 0; i < keys.length; i++) {
        const inner = write((value as Record<string, unknown>)[keys[i]], depth + 1);
        text += `${i ? ',' : ''}${JSON.stringify(keys[i])}:${inner}`;
      }
      return `${text}}`;
    }
    default:
      throw NOT_PLAIN;
  }
}

/** The same walk with the path of every value, to name the first that is not plain JSON (throws it). */
function writeAt(value: unknown, path: string, depth: number): string {
  if (depth > MAX_DEPTH) throw new NotPlainJson(path, `nested more than ${MAX_DEPTH} deep`);
  switch (typeof value) {
    case 'number':
      if (!Number.isFinite(value)) throw new NotPlainJson(path, String(value));
      return Object.is(value, -0) ? '0' : String(value);
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) {
        let text = '[';
        for (let i = 0; i < value.length; i++) text += (i ? ',' : '') + writeAt(value[i], `${path}[${i}]`, depth + 1);
        return `${text}]`;
      }
      const prototype = Object.getPrototypeOf(value);
      if (prototype !== Object.prototype && prototype !== null)
        throw new NotPlainJson(path, `an object of a class (${(value as object).constructor?.name ?? 'unknown'})`);
      const keys = Object.keys(value).sort();
      let text = '{';
      keys.forEach((key, i) => {
        const inner = writeAt((value as Record<string, unknown>)[key], `${path}.${key}`, depth + 1);
        text += `${i ? ',' : ''}${JSON.stringify(key)}:${inner}`;
      });
      return `${text}}`;
    }
    default:
      throw new NotPlainJson(path, typeof value === 'undefined' ? 'undefined' : `a ${typeof value}`);
  }
}

/** A state as a step receives it: read back from its text and frozen, so a step that changes it fails at once. */
export function frozenState(text: string): unknown {
  return deepFreeze(JSON.parse(text));
}

function deepFreeze(value: unknown): unknown {
  if (value !== null && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
