/**
 * How numbers read in reports. Tables carry three decimals of a percentage
 * (the terminal's precision, src/cli/format.ts); charts, where a label has
 * to fit beside a point or inside a heatmap cell, carry fewer.
 */

/**
 * A probability as a percentage with `digits` decimals. Rounding never
 * claims a certainty that is not there: only exactly 0 and 1 print as 0% and
 * 100%; anything else that would round to them prints as "<0.1%" or ">99.9%".
 *
 * @example percent(0.123456, 1) // '12.3%'
 * @example percent(0.99996, 1) // '>99.9%'
 */
export function percent(value: number, digits: number): string {
  if (value === 0 || value === 1) return `${value * 100}%`;
  const step = 10 ** -digits;
  const text = (value * 100).toFixed(digits);
  if (Number(text) <= 0 && value > 0) return `<${step.toFixed(digits)}%`;
  if (Number(text) >= 100 && value < 1) return `>${(100 - step).toFixed(digits)}%`;
  return `${text}%`;
}

/** A mean with enough decimals to compare neighbours. @example plain(3.14159) // '3.142' */
export function plain(value: number, digits = 3): string {
  return value.toFixed(digits);
}

/** A chart label for a probability or a mean. */
export function chartLabel(value: number, probability: boolean, digits = 1): string {
  return probability ? percent(value, digits) : plain(value, digits + 1);
}
