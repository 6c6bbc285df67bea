/** What every chart spec shares: its schema, and titles Vega can draw whatever a rule names its parameters. */
export const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';

/** Names Vega cannot take as a title: Object.prototype's own, and `then` (see safeTitle). */
const RESERVED_TITLES = new Set([...Object.getOwnPropertyNames(Object.prototype), 'then']);

/**
 * A title (of an axis, a legend, a tooltip entry) as Vega can draw it. Vega 6 stops a chart whose axis
 * title is `constructor` or `toString` ("Operator not defined"), drops one titled `__proto__`, and
 * refuses such a name or `then` as a tooltip entry's title, which Vega-Lite makes the key of an object
 * in an expression ("Illegal property"); a line or paragraph separator ends the string literal a title
 * becomes there. Such a name gets a zero-width space after it, so it prints as it is; a separator becomes a
 * space. A parameter or metric a rule file named `constructor` is titled `constructor` on its axis.
 */
export function safeTitle(text: string): string {
  const title = text.replace(/[\u2028\u2029]/g, ' ');
  return RESERVED_TITLES.has(title) ? `${title}\u200b` : title;
}
