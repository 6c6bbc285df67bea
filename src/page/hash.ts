/**
 * The calculator's state lives in the URL hash, so a link opens the same
 * question: `#<rule>?<param>=<value>&…`, e.g. `#infinity?wipA=13&wipB=15`.
 * Four names are the page's own options rather than rule parameters:
 * `simulate=1` (simulate even where an exact solution exists), `trials=N`,
 * `seed=S` and `stream=1|2|3` (the simulation's trials, seed and random
 * stream, as `muster run --trials --seed --stream`).
 * A rule parameter of the same name wins over the option.
 *
 * Values are percent-encoded where they must be; `:`, `,`, `+` and `/` stay
 * readable (`a=forward:1`, `allies=2+3`), and `+` means plus, never a space.
 *
 * A link is data from anywhere: one longer than MAX_HASH_LENGTH, or with more
 * than MAX_HASH_ENTRIES entries, is refused whole (the page shows one line and
 * the defaults); the parser is a single loop, so no nesting can exhaust the stack.
 * A link that carries a rule's code has a longer bound (MAX_CODE_HASH_LENGTH).
 */
import { CODE_MARK, MAX_PACKED_LENGTH } from './workbench/share.js';

export interface HashState {
  /** The rule id, or null for an empty hash. */
  ruleId: string | null;
  /** `name=value` pairs in the order written (a name without `=` has the value ''). */
  entries: Array<[string, string]>;
  /** Why the link was refused as a whole (then ruleId is null and entries empty). */
  refused?: string;
}

/**
 * The longest hash read, in characters. The longest honest link (six
 * warbands, a 200-character seed, every parameter written out) is under 2,000;
 * 16,384 leaves room for a rule file's many parameters and stays far below
 * what would slow a tab.
 */
export const MAX_HASH_LENGTH = 16_384;
/** The most `name=value` entries read: no rule has more than a few dozen parameters. */
export const MAX_HASH_ENTRIES = 256;

/**
 * The longest hash of a link that carries a rule's code (`#~<packed>?…`, see ./workbench/share.ts): the packed code
 * may take up to MAX_PACKED_LENGTH characters, the parameters as much as any link.
 */
export const MAX_CODE_HASH_LENGTH = MAX_PACKED_LENGTH + MAX_HASH_LENGTH;

export const PAGE_OPTIONS = ['simulate', 'trials', 'seed', 'stream'] as const;

/** Reads a hash (with or without its leading `#`). Never throws: malformed escapes are kept as written. */
export function parseHash(hash: string): HashState {
  const text = hash.startsWith('#') ? hash.slice(1) : hash;
  const limit = text.startsWith(CODE_MARK) ? MAX_CODE_HASH_LENGTH : MAX_HASH_LENGTH;
  if (text.length > limit) {
    return {
      ruleId: null,
      entries: [],
      refused:
        `link: got ${text.length.toLocaleString('en-US')} characters; allowed: at most ` +
        `${limit.toLocaleString('en-US')} (the defaults are shown)`,
    };
  }
  if (text.trim() === '') return { ruleId: null, entries: [] };
  const question = text.indexOf('?');
  const ruleId = decode(question < 0 ? text : text.slice(0, question));
  const query = question < 0 ? '' : text.slice(question + 1);
  const entries: Array<[string, string]> = [];
  for (const part of query.split('&')) {
    if (part === '') continue;
    if (entries.length === MAX_HASH_ENTRIES) {
      return {
        ruleId: null,
        entries: [],
        refused:
          `link: more than ${MAX_HASH_ENTRIES} name=value entries; allowed: one per parameter (the defaults ` +
          `are shown)`,
      };
    }
    const equals = part.indexOf('=');
    entries.push(equals < 0 ? [decode(part), ''] : [decode(part.slice(0, equals)), decode(part.slice(equals + 1))]);
  }
  return { ruleId, entries };
}

/**
 * Writes the hash (without `#`) for a rule and its entries. @example formatHash('deployment', [['a', 'forward:1']]) //
 * 'deployment?a=forward:1'
 */
export function formatHash(ruleId: string, entries: ReadonlyArray<readonly [string, string]>): string {
  const query = entries.map(([name, value]) => `${encode(name)}=${encode(value)}`).join('&');
  return query ? `${encode(ruleId)}?${query}` : encode(ruleId);
}

function encode(text: string): string {
  return encodeURIComponent(text).replace(/%(3A|2C|2B|2F)/g, (match) => decodeURIComponent(match));
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
