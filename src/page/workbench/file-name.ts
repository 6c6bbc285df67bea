/**
 * The file name Download gives a rule written in the page: its id, as the
 * rule file convention has it (`<id>.mjs`), made safe for any file system.
 * The id is read from the version of the text that loaded, or, for a text
 * that has not run (a link's, behind its gate; one that does not load yet),
 * from the text itself as data: the first `id: '…'` it declares.
 */

/** The longest file name given, without `.mjs`: rule ids are at most 64 characters (docs/custom-rules.md). */
const MAX_STEM = 64;

/** `<id>.mjs` with every character outside letters, digits, `-` and `_` a `-`; null when nothing of the id is left. */
export function fileNameOfId(id: string): string | null {
  const stem = id
    .normalize('NFKC')
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_STEM)
    .replace(/-+$/, '');
  return stem ? `${stem}.mjs` : null;
}

/** The id a rule file's text declares (`id: 'x'`, with any quote), read as text and never run; null if none. */
export function declaredId(source: string): string | null {
  return /\bid\s*:\s*(['"`])([^'"`\n]{1,200})\1/.exec(source)?.[2] ?? null;
}
