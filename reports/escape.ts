/**
 * Text that a user typed (scenario names, variant labels, parameter values)
 * reaches a report in three places, each with its own escaping:
 *
 *   HTML text and attributes ─► escapeHtml
 *   JSON inside <script>      ─► jsonForScript (no `<`, `>`, `&` left, so `</script>` cannot close the block)
 *   CSS strings (@page header) ─► cssString
 */

const HTML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text safe inside an HTML element or a quoted attribute. @example escapeHtml('<b>') // '&lt;b&gt;' */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ENTITIES[character]);
}

/**
 * JSON safe inside a `<script>` element: `<`, `>` and `&` become \u escapes
 * (still valid JSON and JavaScript), as do U+2028/U+2029, which JavaScript
 * before ES2019 read as line ends.
 *
 * @example jsonForScript({ a: '</script>' }) // '{"a":"\\u003c/script\\u003e"}'
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * A double-quoted CSS string: every character but letters, digits, spaces and
 * a few harmless marks becomes a six-digit CSS escape, so neither `"` nor
 * `</style>` can end it early.
 *
 * @example cssString('a"b') // '"a\\000022b"'
 */
export function cssString(text: string): string {
  let quoted = '';
  for (const character of text) {
    quoted += /[A-Za-z0-9 .,:;=+\-_()·×]/.test(character)
      ? character
      : `\\${character.codePointAt(0)!.toString(16).padStart(6, '0')}`;
  }
  return `"${quoted}"`;
}
