/**
 * A step form's state as one string: JSON with every object's keys sorted,
 * so two states are the same state exactly when their strings are equal,
 * however the rule built them. A state must be a plain JSON value (null,
 * true/false, a finite number, a string, an array or a plain object of
 * those): anything else has no canonical text, and is refused by name —
 * so is what JSON cannot hold (-0, symbol keys, fields that are not
 * enumerable or are getters, holes), which would otherwise merge two states
 * that differ, or split one.
 */

/** What a state may hold, as a refusal's "allowed:" says it. */
export const PLAIN_JSON = 'null, true or false, finite numbers, strings, and arrays and plain objects of them';

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

/**
 * What keeps an object or array from being plain JSON, or null: JSON.parse
 * of its text must give back the same value, so only Object and Array
 * prototypes, no symbol keys, no field JSON would drop (not enumerable) or
 * that runs code when read (a getter), no holes in an array and no field
 * on an array but its elements. `fields` receives the object's keys (its
 * own enumerable string keys; for an array nothing), read without running
 * any getter.
 */
function objectProblem(value: object, fields: string[]): string | null {
  const prototype = Object.getPrototypeOf(value);
  const array = Array.isArray(value);
  if (prototype !== (array ? Array.prototype : Object.prototype)) {
    if (prototype === null) return 'an object without a prototype (Object.create(null))';
    return `an object of a class (${className(prototype)})`;
  }
  const keys = Reflect.ownKeys(value);
  const length = array ? (value as unknown[]).length : 0;
  if (array && keys.length !== length + 1) {
    return keys.length < length + 1 ? 'an array with holes' : 'an array with fields besides its elements';
  }
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (typeof key === 'symbol') return `an object with a symbol key (${String(key.description)})`;
    if (array && key === 'length') continue;
    const descriptor = Reflect.getOwnPropertyDescriptor(value, key) as PropertyDescriptor;
    if (!('value' in descriptor)) return `an object with a getter or setter (${JSON.stringify(key)})`;
    if (!descriptor.enumerable) return `an object with a field that is not enumerable (${JSON.stringify(key)})`;
    if (array && String(i) !== key) return 'an array with holes';
    if (!array) fields.push(key);
  }
  return null;
}

function className(prototype: object): string {
  const maker = Reflect.getOwnPropertyDescriptor(prototype, 'constructor')?.value;
  const name = typeof maker === 'function' ? Reflect.getOwnPropertyDescriptor(maker, 'name')?.value : null;
  return typeof name === 'string' ? name.slice(0, 40) : 'unknown';
}

/** A key as JSON writes it, kept: a step returns the same few keys on every path, each quoted once. */
const quotedKeys = new Map<string, string>();
function quoted(key: string): string {
  let text = quotedKeys.get(key);
  if (text === undefined) {
    text = JSON.stringify(key);
    if (quotedKeys.size >= 4096) quotedKeys.clear();
    quotedKeys.set(key, text);
  }
  return text;
}

/**
 * Sorts an object's keys in place as Array.prototype.sort does (by UTF-16 code units; the keys are distinct): a
 * state's few keys by insertion, since sort() makes a work array each call (a sixth of the bytes a step-form walk
 * allocated, measured).
 */
function sortKeys(keys: string[]): void {
  if (keys.length > 16) {
    keys.sort();
    return;
  }
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i];
    let j = i - 1;
    for (; j >= 0 && keys[j] > key; j--) keys[j + 1] = keys[j];
    keys[j + 1] = key;
  }
}

/** The text, or NOT_PLAIN thrown: the same walk as writeAt's, without a path for every value it passes. */
function write(value: unknown, depth: number): string {
  if (depth > MAX_DEPTH) throw NOT_PLAIN;
  switch (typeof value) {
    case 'number':
      if (!Number.isFinite(value) || Object.is(value, -0)) throw NOT_PLAIN;
      return String(value);
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      const keys: string[] = [];
      if (objectProblem(value, keys) !== null) throw NOT_PLAIN;
      if (Array.isArray(value)) {
        let text = '[';
        for (let i = 0; i < value.length; i++) text += (i ? ',' : '') + write(value[i], depth + 1);
        return `${text}]`;
      }
      sortKeys(keys);
      let text = '{';
      for (let i = 0; i < keys.length; i++) {
        const inner = write((value as Record<string, unknown>)[keys[i]], depth + 1);
        text += `${i ? ',' : ''}${quoted(keys[i])}:${inner}`;
      }
      return `${text}}`;
    }
    default:
      throw NOT_PLAIN;
  }
}

/**
 * The canonical text of a state, read by value: the text canonicalState writes for a plain JSON value, without
 * reading each field's descriptor (a step's paths return thousands of states that are equal to one seen before;
 * Reflect.ownKeys and a descriptor a field were a third of a small step's time). What it cannot write (a number
 * JSON has no text for, a class, a hole, a field that throws when read) falls back to canonicalState, which names
 * the fault. It does not look for what JSON would drop (a symbol key, a field that is not enumerable or is a
 * getter, a field on an array): the enumerator checks each state in full with canonicalState the first time its
 * text is seen (enumerate-steps.ts), and a later path that reaches the same text is the same state by value.
 */
export function stateText(value: unknown): string {
  try {
    return writeByValue(value, 0);
  } catch {
    return canonicalState(value);
  }
}

function writeByValue(value: unknown, depth: number): string {
  if (depth > MAX_DEPTH) throw NOT_PLAIN;
  switch (typeof value) {
    case 'number':
      if (!Number.isFinite(value) || Object.is(value, -0)) throw NOT_PLAIN;
      return String(value);
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      const prototype = Object.getPrototypeOf(value);
      if (Array.isArray(value)) {
        if (prototype !== Array.prototype) throw NOT_PLAIN;
        let text = '[';
        for (let i = 0; i < value.length; i++) text += (i ? ',' : '') + writeByValue(value[i], depth + 1);
        return `${text}]`;
      }
      if (prototype !== Object.prototype) throw NOT_PLAIN;
      const keys = Object.keys(value);
      sortKeys(keys);
      let text = '{';
      for (let i = 0; i < keys.length; i++) {
        const inner = writeByValue((value as Record<string, unknown>)[keys[i]], depth + 1);
        text += `${i ? ',' : ''}${quoted(keys[i])}:${inner}`;
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
      if (Object.is(value, -0)) throw new NotPlainJson(path, '-0 (JSON has no negative zero; write 0)');
      return String(value);
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      const keys: string[] = [];
      const problem = objectProblem(value, keys);
      if (problem !== null) throw new NotPlainJson(path, problem);
      if (Array.isArray(value)) {
        let text = '[';
        for (let i = 0; i < value.length; i++) text += (i ? ',' : '') + writeAt(value[i], `${path}[${i}]`, depth + 1);
        return `${text}]`;
      }
      keys.sort();
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

/**
 * Whether `value` is the same state as `plain`, a state whose canonical text has been written (so plain JSON):
 * the same by value, compared without writing a text. A step's path is run twice (replay-dice.ts) and only the run
 * that is kept is written and checked field by field; the other must equal it by value, which is all the replay
 * check asks. What JSON would not keep on that run (a symbol key, a field on an array) is not looked for, since its
 * state is not the one kept.
 */
export function sameState(value: unknown, plain: unknown): boolean {
  if (typeof plain !== 'object' || plain === null) return Object.is(value, plain);
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(plain)) {
    if (!Array.isArray(value) || Object.getPrototypeOf(value) !== Array.prototype) return false;
    if (value.length !== plain.length) return false;
    for (let i = 0; i < plain.length; i++) if (!(i in value) || !sameState(value[i], plain[i])) return false;
    return true;
  }
  if (Array.isArray(value) || Object.getPrototypeOf(value) !== Object.prototype) return false;
  return sameFields(value, plain, !inheritsNoField());
}

/**
 * Whether Object.prototype has no enumerable field (none unless a script adds one): then for…in over an object of
 * that prototype lists its own enumerable fields only, and sameFields need not ask of each key whether it is own.
 */
function inheritsNoField(): boolean {
  for (const _ in Object.prototype) return false;
  return true;
}

/**
 * sameState of two objects, `value` of Object.prototype, by for…in over its fields (no array of keys made);
 * `askOwn` where Object.prototype has an enumerable field, which for…in lists too, so each key is asked.
 */
function sameFields(value: object, plain: object, askOwn: boolean): boolean {
  let fields = 0;
  for (const key in value) {
    if ((askOwn && !Object.hasOwn(value, key)) || !Object.hasOwn(plain, key)) return false;
    const mine = (value as Record<string, unknown>)[key];
    const kept = (plain as Record<string, unknown>)[key];
    fields++;
    // The same number, string or boolean is settled here, without a call a field; 0 goes to the call, where
    // Object.is tells -0 (which no plain state holds) from it.
    if (mine === kept && typeof kept !== 'object' && kept !== 0) continue;
    if (!sameState(mine, kept)) return false;
  }
  for (const _ in plain) fields--;
  return fields === 0;
}

/**
 * A state whose fields all hold a number, string, boolean or null, as a step wrote it: its keys in the order the
 * step's object lists them, and their values. A step builds its states from one literal, so the states it returns
 * list their keys in one order; `matchFlat` compares one to this by walking its fields once, with no key looked up
 * by name (a field looked up by a name held in a variable cost most of sameState, measured).
 */
export interface FlatShape {
  readonly keys: readonly string[];
  readonly values: readonly unknown[];
}

/**
 * The shape of a state already checked as plain JSON (canonicalState), or null where a field holds an object. The
 * keys of `like` (the shape of a state found before) are kept in place of the same keys: a step's states share one
 * array of keys, and a walk keeps a shape a state to its end.
 */
export function flatShape(state: unknown, like?: FlatShape | null): FlatShape | null {
  if (typeof state !== 'object' || state === null || Array.isArray(state) || !inheritsNoField()) return null;
  const keys: string[] = [];
  const values: unknown[] = [];
  for (const key in state) {
    const value = (state as Record<string, unknown>)[key];
    if (typeof value === 'object' && value !== null) return null;
    keys.push(key);
    values.push(value);
  }
  const before = like?.keys;
  if (before?.length === keys.length && keys.every((key, i) => key === before[i])) return { keys: before, values };
  return { keys, values };
}

/** What matchFlat tells: the same state, another state, or nothing (sameState must say). */
export const SAME = 1;
export const OTHER = 0;
export const UNTOLD = -1;

/**
 * Whether `value` is the state of `shape`, where that can be told from its fields in the shape's order: SAME only
 * where sameState would say the same, OTHER only where it would say not; UNTOLD for anything else (a class, keys
 * in another order, a -0 where the state holds 0), which sameState settles.
 */
export function matchFlat(value: unknown, shape: FlatShape): number {
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return UNTOLD;
  if (!inheritsNoField()) return UNTOLD;
  const { keys, values } = shape;
  let i = 0;
  for (const key in value) {
    // A field the state has not (for…in lists own fields only here): sameState says not the same.
    if (i === keys.length) return OTHER;
    if (key !== keys[i]) return UNTOLD;
    const mine = (value as Record<string, unknown>)[key];
    const kept = values[i];
    // A field of another value: kept is never an object, NaN or -0 (plain JSON), so no sameState says the same.
    if (mine !== kept) return OTHER;
    if (kept === 0 && Object.is(mine, -0)) return UNTOLD;
    i++;
  }
  return i === keys.length ? SAME : UNTOLD;
}
