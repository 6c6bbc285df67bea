/**
 * The exact value an enumerated procedure meant by a number it wrote. A
 * trial computes in doubles, so `arrived / squads` writes the double nearest
 * 1/3, not 1/3. It is read as the first continued-fraction convergent of
 * the double whose own nearest double is that double, when its denominator
 * is at most 2^20 (about a million) — 1/3 for 1 / 3, 3/20 for 0.15, 7 for 7 — and otherwise
 * as the double's exact binary value. A convergent is the simplest fraction
 * near the double in the sense that no fraction with a smaller denominator
 * is nearer; the reading is the same on every run.
 */
import { Fraction } from './fraction.js';

/**
 * Within 2^20 a double that is not meant as a fraction is almost never taken for one: a convergent h/k
 * rounds to it only when the next partial quotient exceeds about 2^54 / k², once in some 2^14 doubles.
 */
const MAX_DENOMINATOR = 2n ** 20n;
const read = new Map<number, readonly [bigint, bigint]>();

/**
 * A finite double as numerator and denominator (in lowest terms).
 * @example rationalOf(1 / 3) // [1n, 3n]
 * @example rationalOf(0.1 + 0.2) // [5404319552844596n, 18014398509481984n]: not the double nearest 3/10
 */
export function rationalOf(value: number): readonly [bigint, bigint] {
  if (Number.isInteger(value)) return [BigInt(value), 1n];
  let found = read.get(value);
  if (found) return found;
  const exact = Fraction.fromNumber(value);
  found = [exact.numerator, exact.denominator];
  // Convergents h/k of the exact value n/d: h_i = a_i h_(i−1) + h_(i−2), likewise k.
  let [n, d] = [exact.numerator, exact.denominator];
  let [h0, h1, k0, k1] = [0n, 1n, 1n, 0n];
  while (d !== 0n) {
    let a = n / d;
    if (n < 0n && a * d !== n) a -= 1n; // floor for a negative value
    [n, d] = [d, n - a * d];
    [h0, h1] = [h1, a * h1 + h0];
    [k0, k1] = [k1, a * k1 + k0];
    if (k1 > MAX_DENOMINATOR) break;
    if (Number(h1) / Number(k1) === value && absolute(h1) < 2n ** 53n) {
      found = [h1, k1];
      break;
    }
  }
  if (read.size > 4096) read.clear();
  read.set(value, found);
  return found;
}

const absolute = (x: bigint) => (x < 0n ? -x : x);
