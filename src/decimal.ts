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

/**
 * Whether the double `value` holds the decimal `text` exactly as typed, in the sense the exact solvers read a
 * parameter (Fraction.fromParameter reads the shortest text that gives the double back): `0.15` does, as does any
 * decimal of up to 15 significant digits; `1.0000000000000001` does not (it reads back as 1). Compared digit by
 * digit, so an exponent of any size costs nothing.
 */
export function holdsAsTyped(text: string, value: number): boolean {
  const typed = significand(text.trim());
  const held = significand(String(value));
  return (
    typed !== null &&
    held !== null &&
    typed.sign === held.sign &&
    typed.digits === held.digits &&
    typed.exponent === held.exponent
  );
}

/** A decimal as sign, significant digits (no leading or trailing zeros) and the exponent of its first digit. */
function significand(text: string): { sign: string; digits: string; exponent: number } | null {
  const match = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!match) return null;
  const [, sign, whole, fractional = '', exponentText = '0'] = match;
  const all = whole + fractional;
  const lead = all.length - all.replace(/^0+/, '').length;
  const digits = all.slice(lead).replace(/0+$/, '');
  // Zero has no sign and no exponent: -0, 0.000 and 0e5 are all 0.
  if (digits === '') return { sign: '', digits: '', exponent: 0 };
  return { sign: sign === '-' ? '-' : '', digits, exponent: Number(exponentText) + whole.length - lead };
}
