/**
 * A rule, frozen through and through. A rule object is shared: the
 * library hands the same built-in, or the same loaded rule file, to every
 * caller in a process, and the CLI, the page and the workers read it too.
 * Were it open, one caller's change (a wrapped exact(), a widened `max`)
 * would change every later answer in the process: 207/352 printed for
 * 145/352, `bonusA=50` let through. Frozen, a change throws where it is
 * made (modules run in strict mode) and computes nothing.
 *
 * Functions are frozen too (their own properties: a solver's `prototype`);
 * what they close over is their own. Typed arrays cannot be frozen: none
 * is reachable from a rule (test/analysis/library-options.test.ts walks
 * every built-in).
 */

/** `value` and everything reachable through its own properties, frozen; `value` itself is returned. */
export function deepFreeze<T>(value: T): T {
  const pending: object[] = [];
  const seen = new Set<object>();
  const visit = (item: unknown) => {
    if (item === null || (typeof item !== 'object' && typeof item !== 'function')) return;
    if (seen.has(item as object) || ArrayBuffer.isView(item)) return;
    seen.add(item as object);
    pending.push(item as object);
  };
  visit(value);
  while (pending.length > 0) {
    const object = pending.pop() as object;
    for (const key of Reflect.ownKeys(object)) {
      const descriptor = Object.getOwnPropertyDescriptor(object, key);
      if (descriptor && 'value' in descriptor) visit(descriptor.value);
    }
    Object.freeze(object);
  }
  return value;
}
