/// <reference lib="dom" />
/**
 * Rules written in the page, kept in the browser's own storage
 * (localStorage) until deleted: each by its file name, with its text. What
 * storage holds is read as data, every entry checked; a browser that keeps
 * nothing (storage off, or full) keeps nothing, and the page still works.
 */

export interface KeptRule {
  name: string;
  source: string;
}

const KEY = 'muster.workbench.rules.v1';

export function keptRules(): KeptRule[] {
  let text: string | null = null;
  try {
    text = localStorage.getItem(KEY);
  } catch {
    return [];
  }
  if (!text) return [];
  try {
    const parsed: unknown = JSON.parse(text);
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(
      (entry): entry is KeptRule =>
        typeof entry === 'object' &&
        entry !== null &&
        typeof (entry as KeptRule).name === 'string' &&
        typeof (entry as KeptRule).source === 'string',
    );
  } catch {
    return [];
  }
}

function write(list: readonly KeptRule[]): boolean {
  try {
    localStorage.setItem(KEY, JSON.stringify(list));
    return true;
  } catch {
    return false;
  }
}

/** Keeps a rule under its name, replacing one of the same name; false if the browser would not keep it. */
export function keepRule(rule: KeptRule): boolean {
  return write([...keptRules().filter((entry) => entry.name !== rule.name), rule]);
}

export function deleteKept(name: string): boolean {
  return write(keptRules().filter((entry) => entry.name !== name));
}
