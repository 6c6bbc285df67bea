/**
 * Exact rational numbers on BigInt, always in lowest terms with a positive
 * denominator. Every exact solver in muster computes in these, so tests can
 * compare a solver with brute-force enumeration by exact equality. A decimal
 * parameter such as a probability enters through `Fraction.fromParameter`:
 * the value the user typed (0.15 is 3/20), not the double nearest it.
 */
export class Fraction {
  static readonly ZERO = new Fraction(0n, 1n);
  static readonly ONE = new Fraction(1n, 1n);

  readonly numerator: bigint;
  readonly denominator: bigint;

  private constructor(numerator: bigint, denominator: bigint) {
    this.numerator = numerator;
    this.denominator = denominator;
  }

  /** `numerator / denominator`, reduced. @example Fraction.of(2, 6).toString() // '1/3' */
  static of(numerator: bigint | number, denominator: bigint | number = 1n): Fraction {
    let n = BigInt(numerator);
    let d = BigInt(denominator);
    if (d === 0n) throw new RangeError('Fraction denominator must not be zero');
    if (d < 0n) {
      n = -n;
      d = -d;
    }
    const g = greatestCommonDivisor(n < 0n ? -n : n, d);
    return new Fraction(n / g, d / g);
  }

  /** The exact value of a finite double. @example Fraction.fromNumber(0.25).toString() // '1/4' */
  static fromNumber(value: number): Fraction {
    if (!Number.isFinite(value)) throw new RangeError(`Fraction.fromNumber needs a finite number, got ${value}`);
    if (Number.isInteger(value)) return Fraction.of(BigInt(value));
    let denominator = 1n;
    let scaled = value;
    // Doubling is exact in binary floating point, and a finite double has at most 1074 fraction bits.
    while (!Number.isInteger(scaled)) {
      scaled *= 2;
      denominator *= 2n;
    }
    return Fraction.of(BigInt(scaled), denominator);
  }

  /**
   * A decimal written as text, exactly: optional sign, digits with an
   * optional point, optional exponent (the forms JavaScript prints numbers in).
   * @example Fraction.fromDecimal('0.15').toString() // '3/20'
   * @example Fraction.fromDecimal('1.5e-7').toString() // '3/20000000'
   */
  static fromDecimal(text: string): Fraction {
    const match = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text.trim());
    if (!match || match[2] + (match[3] ?? '') === '')
      throw new RangeError(`Fraction.fromDecimal needs a decimal number, got ${JSON.stringify(text)}`);
    const [, sign, whole, fractional = '', exponentText = '0'] = match;
    const exponent = Number(exponentText) - fractional.length;
    let numerator = BigInt(whole + fractional);
    let denominator = 1n;
    if (exponent >= 0) numerator *= 10n ** BigInt(exponent);
    else denominator = 10n ** BigInt(-exponent);
    return Fraction.of(sign === '-' ? -numerator : numerator, denominator);
  }

  /**
   * A `number` parameter as the decimal the user wrote. Parameters travel as
   * doubles (JSON, worker messages), but the shortest text that reads back
   * as the same double, which is what `String` prints, is the decimal typed
   * for any decimal of up to 15 significant digits: so `leaderLoss=0.15`
   * reaches an exact solver as 3/20, not as 0.1499999999999999944….
   * @example Fraction.fromParameter(0.15).toString() // '3/20'
   */
  static fromParameter(value: number): Fraction {
    if (!Number.isFinite(value)) throw new RangeError(`Fraction.fromParameter needs a finite number, got ${value}`);
    return Fraction.fromDecimal(String(value));
  }

  // Both operands are in lowest terms, so adding zero or multiplying by one needs no reduction: the
  // exact solvers start every sum at zero and weight by one often (a sweep point's cost is mostly theirs).
  add(other: Fraction): Fraction {
    if (this.numerator === 0n) return other;
    if (other.numerator === 0n) return this;
    return sumOver(this, other.numerator, other.denominator);
  }

  sub(other: Fraction): Fraction {
    return sumOver(this, -other.numerator, other.denominator);
  }

  mul(other: Fraction): Fraction {
    if (this.numerator === this.denominator) return other; // this is 1
    if (other.numerator === other.denominator) return this;
    return Fraction.of(this.numerator * other.numerator, this.denominator * other.denominator);
  }

  div(other: Fraction): Fraction {
    return Fraction.of(this.numerator * other.denominator, this.denominator * other.numerator);
  }

  /** `this` raised to a non-negative integer power. */
  pow(exponent: number): Fraction {
    let result: Fraction = Fraction.ONE;
    for (let i = 0; i < exponent; i++) result = result.mul(this);
    return result;
  }

  /** 1 − this: the complement of a probability. */
  complement(): Fraction {
    return Fraction.ONE.sub(this);
  }

  equals(other: Fraction): boolean {
    return this.numerator === other.numerator && this.denominator === other.denominator;
  }

  compare(other: Fraction): number {
    const difference = this.numerator * other.denominator - other.numerator * this.denominator;
    return difference < 0n ? -1 : difference > 0n ? 1 : 0;
  }

  /**
   * The nearest double (to within about one unit in the last place).
   * Numerator and denominator may each exceed the double range while their
   * ratio does not, so big ones are divided in BigInt first, keeping 64
   * significant bits of the quotient.
   */
  toNumber(): number {
    const magnitude = this.numerator < 0n ? -this.numerator : this.numerator;
    if (magnitude < BELOW_1000_BITS && this.denominator < BELOW_1000_BITS)
      return Number(this.numerator) / Number(this.denominator);
    const shift = bitLength(this.denominator) - bitLength(magnitude) + 64;
    const quotient =
      shift >= 0
        ? (this.numerator << BigInt(shift)) / this.denominator
        : this.numerator / (this.denominator << BigInt(-shift));
    // Two steps, since 2^-shift alone may underflow where the result does not.
    const half = Math.trunc(shift / 2);
    return Number(quotient) * 2 ** -half * 2 ** -(shift - half);
  }

  toString(): string {
    return this.denominator === 1n ? `${this.numerator}` : `${this.numerator}/${this.denominator}`;
  }
}

/** Σ of fractions. */
export function sumFractions(values: Iterable<Fraction>): Fraction {
  let total = Fraction.ZERO;
  for (const value of values) total = total.add(value);
  return total;
}

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** The greatest common divisor of two non-negative integers (1 when both are 0). */
/**
 * a + n/d, reduced. Over a denominator one of the two already divides (the chances of one distribution, a sum over
 * one common denominator), the other is scaled up to it: the reduction then works on numbers half the size of the
 * cross product's, most of a sweep point's exact cost before.
 */
function sumOver(a: Fraction, n: bigint, d: bigint): Fraction {
  const ad = a.denominator;
  if (ad === d) return Fraction.of(a.numerator + n, d);
  if (ad > d ? ad % d === 0n : d % ad === 0n) {
    const common = ad > d ? ad : d;
    return Fraction.of(a.numerator * (common / ad) + n * (common / d), common);
  }
  return Fraction.of(a.numerator * d + n * ad, ad * d);
}

export function greatestCommonDivisor(a: bigint, b: bigint): bigint {
  // Below 2^53 the remainders are exact in doubles, and a double's % is far cheaper than a BigInt's.
  if (a <= SAFE && b <= SAFE) {
    let x = Number(a);
    let y = Number(b);
    while (y !== 0) [x, y] = [y, x % y];
    return x === 0 ? 1n : BigInt(x);
  }
  while (b !== 0n) [a, b] = [b, a % b];
  return a === 0n ? 1n : a;
}

/**
 * Integers of fewer than 1000 bits are those below 2^999: both parts convert to doubles without overflow. A comparison,
 * where counting the bits wrote out the binary digits.
 */
const BELOW_1000_BITS = 1n << 999n;

function bitLength(value: bigint): number {
  return value === 0n ? 0 : value.toString(2).length;
}
