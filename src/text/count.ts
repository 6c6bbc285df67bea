/**
 * A count as en-US writes it, without Intl: a leaf, so that the exact engine's refusals and the terminal and
 * reports (through src/output/format.ts) write counts the same way.
 */

/**
 * A whole number with commas between thousands, as en-US writes it; other
 * numbers as toLocaleString('en-US') gives them. Written out rather than
 * asked of Intl, whose first call loads locale data: 10 ms of every command.
 * @example formatCount(6553600) // '6,553,600'
 */
export function formatCount(count: number): string {
  if (!Number.isSafeInteger(count)) return count.toLocaleString('en-US');
  const digits = String(Math.abs(count));
  let grouped = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let at = grouped.length; at < digits.length; at += 3) grouped += `,${digits.slice(at, at + 3)}`;
  return count < 0 ? `-${grouped}` : grouped;
}
