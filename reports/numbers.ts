/**
 * How numbers read in reports. Tables carry three decimals of a percentage
 * (the terminal's precision, src/cli/format.ts); charts, where a label has
 * to fit beside a point or inside a heatmap cell, carry fewer.
 */

/** A probability as a percentage with `digits` decimals. @example percent(0.123456, 1) // '12.3%' */
export function percent(value: number, digits: number): string {
  return `${(value * 100).toFixed(digits)}%`;
}

/** A mean with enough decimals to compare neighbours. @example plain(3.14159) // '3.142' */
export function plain(value: number, digits = 3): string {
  return value.toFixed(digits);
}

/** A chart label for a probability or a mean. */
export function chartLabel(value: number, probability: boolean, digits = 1): string {
  return probability ? percent(value, digits) : plain(value, digits + 1);
}
