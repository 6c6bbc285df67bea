/**
 * A rule file's values read once, guarded. What a rule file hands muster (its
 * default export, the members of it that are data, what its functions
 * return) may be a Proxy whose traps throw, an object with a getter that
 * throws, or a structure that refers to itself. It is copied here into plain
 * data (arrays and plain objects of primitives, functions kept as they are),
 * every property read exactly once inside a guard, so that a fault of the
 * rule is one line naming the file and the member, and nothing muster checks
 * afterwards can run the rule's code again (a getter that answers one thing
 * to the check and another to the solver reads only once).
 *
 * No node: imports here: the calculator page bundles this module.
 */
import { describeError } from '../guard/rule-text.js';

/** Deeper than any rule's data goes: a structure nested past it is refused rather than walked without end. */
const MAX_DEPTH = 64;
/** More items than any rule's list holds: a Proxy claiming a length of 2^32 − 1 is refused, not walked. */
const MAX_ITEMS = 1_000_000;

/** Throws a UsageError naming the rule file (checkRuleFile's `fail`). */
type Fail = (what: string) => never;

/** Runs `read` (rule code may run in it), naming `member` in one line when it throws. */
export function guarded<T>(member: string, read: () => T, fail: Fail): T {
  try {
    return read();
  } catch (error) {
    return fail(`${member}: reading it threw ${describeError(error)}`);
  }
}

/** Where a rule file may hold a function: its members, and the matrix's values. */
const FUNCTION_AT = /^[A-Za-z]+$|^matrix\.values$/;

/**
 * A function where the contract has none (inside params, metrics, a
 * presentation): it is refused by type, so it is replaced by this one, and
 * neither the check nor anything after it can read a property of the rule's
 * own (a function's Proxy would run its traps).
 */
function refusedFunction(): void {}

/**
 * A rule file's default export as plain data: each member read once, its
 * data copied (see plainData), its functions kept. `fail` names the file.
 */
export function readMembers(moduleDefault: object, fail: Fail): Record<string, unknown> {
  const keys = guarded('default export', () => Object.keys(moduleDefault), fail);
  const members: Record<string, unknown> = {};
  for (const key of keys) {
    const value = guarded(key, () => (moduleDefault as Record<string, unknown>)[key], fail);
    define(members, key, copy(value, key, fail, [moduleDefault]));
  }
  return members;
}

/**
 * `value` copied into plain data, each property read once through `guarded`.
 * `member` names where it came from ("exact(params) returned"); a property
 * is named under it ("… returned.win").
 */
export function plainData(value: unknown, member: string, fail: Fail): unknown {
  return copy(value, member, fail, []);
}

function copy(value: unknown, member: string, fail: Fail, ancestors: object[]): unknown {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return value;
  // A function is the rule's code, called later through the adapter's marked calls.
  if (typeof value === 'function') return FUNCTION_AT.test(member) ? value : refusedFunction;
  const object = value as object;
  if (ancestors.includes(object)) fail(`${member}: refers to itself; allowed: plain data (arrays, objects, values)`);
  if (ancestors.length >= MAX_DEPTH)
    fail(`${member}: nested deeper than ${MAX_DEPTH} levels; allowed: plain data of at most ${MAX_DEPTH} levels`);
  const inner = [...ancestors, object];
  if (guarded(member, () => Array.isArray(object), fail)) {
    const length = guarded(member, () => (object as unknown[]).length, fail);
    if (!Number.isSafeInteger(length) || length < 0 || length > MAX_ITEMS)
      fail(`${member}: an array of length ${String(length)}; allowed: at most ${MAX_ITEMS} items`);
    const items: unknown[] = [];
    for (let index = 0; index < length; index++) {
      const at = `${member}[${index}]`;
      items.push(
        copy(
          guarded(at, () => (object as unknown[])[index], fail),
          at,
          fail,
          inner,
        ),
      );
    }
    return items;
  }
  const keys = guarded(member, () => Object.keys(object), fail);
  if (keys.length > MAX_ITEMS) fail(`${member}: ${keys.length} fields; allowed: at most ${MAX_ITEMS}`);
  const fields: Record<string, unknown> = {};
  for (const key of keys) {
    const at = `${member}.${key}`;
    const field = copy(
      guarded(at, () => (object as Record<string, unknown>)[key], fail),
      at,
      fail,
      inner,
    );
    define(fields, key, field);
  }
  return fields;
}

/** Defined, not assigned: a field named __proto__ stays a field and never sets the copy's prototype. */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
