/**
 * JSON as muster writes it: pretty-printed, and with every character a
 * terminal or a JavaScript parser could trip on (DEL, C1 controls, the line
 * and paragraph separators, bidi controls) as a \u escape, so `--json -`
 * is safe on a terminal and the same value when parsed.
 */
const UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/gu;

export function toJson(value: unknown, indent: number | undefined = 2): string {
  const hex = (c: string) => `\\u${(c.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`;
  return `${JSON.stringify(value, null, indent).replace(UNSAFE, hex)}\n`;
}
