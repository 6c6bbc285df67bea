/**
 * Numbers as users type them: decimal only. `Number()` also reads `0x10`,
 * `0b100`, `0o7`, `Infinity` and blank text, which no option or parameter
 * means, so those are refused here (NaN) before any range check.
 */
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** The value of decimal text such as `12`, `-0.5`, `1e6`; NaN for anything else. */
export function parseDecimal(raw: string): number {
  const text = raw.trim();
  return DECIMAL.test(text) ? Number(text) : Number.NaN;
}
