/**
 * A small roll-off written as a rule file's default export, as text (the
 * CLI reads it from a file, a page evaluates it), and its exact values by
 * brute force over the 6^4 rolls, written from the rule below and not from
 * muster: each side rolls 2d6, A adds `bonus`, A wins only on a higher total
 * (a tie goes to B); the margin is A's total minus B's.
 */
export const ROLL_OFF_SOURCE = `{
  id: 'inline-rolloff',
  title: 'Roll-off, 2d6 each, ties to B',
  params: [{ name: 'bonus', type: 'integer', default: 0, min: -3, max: 3, doc: "A's bonus" }],
  metrics: [
    { name: 'a.wins', probability: true, doc: 'A rolls a higher total' },
    { name: 'margin.mean', probability: false, doc: "A's total minus B's" },
  ],
  trial(dice, p, out) {
    const a = dice.d(6) + dice.d(6) + p.bonus;
    const b = dice.d(6) + dice.d(6);
    out['a.wins'] = a > b;
    out['margin.mean'] = a - b;
  },
}`;

/** The module a rule file holds: the same object, exported. */
export const ROLL_OFF_FILE = `export default ${ROLL_OFF_SOURCE};\n`;

function gcd(a: bigint, b: bigint): bigint {
  return b === 0n ? (a < 0n ? -a : a) : gcd(b, a % b);
}

/** "n/d" in lowest terms, "n" for an integer: how a result writes a fraction. */
function fractionText(numerator: bigint, denominator: bigint): string {
  const common = gcd(numerator, denominator);
  const [n, d] = [numerator / common, denominator / common];
  return d === 1n ? String(n) : `${n}/${d}`;
}

/** Each metric's exact value at `bonus`, as a result's `fraction`. */
export function rollOffBruteForce(bonus: number): Record<string, string> {
  let wins = 0n;
  let margin = 0n;
  let paths = 0n;
  for (let a1 = 1; a1 <= 6; a1++)
    for (let a2 = 1; a2 <= 6; a2++)
      for (let b1 = 1; b1 <= 6; b1++)
        for (let b2 = 1; b2 <= 6; b2++) {
          const a = a1 + a2 + bonus;
          const b = b1 + b2;
          if (a > b) wins++;
          margin += BigInt(a - b);
          paths++;
        }
  return { 'a.wins': fractionText(wins, paths), 'margin.mean': fractionText(margin, paths) };
}
