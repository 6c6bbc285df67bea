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
    const magnitude = n < 0n ? -n : n;
    const g = (d > BELOW_2_TO_256 && smoothDivisor(magnitude, d)) || greatestCommonDivisor(magnitude, d);
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

  /**
   * 1 − this: the complement of a probability. In lowest terms with no reduction: a number dividing both d − n
   * and d divides n, and n/d is in lowest terms.
   */
  complement(): Fraction {
    return new Fraction(this.denominator - this.numerator, this.denominator);
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

/**
 * The greatest common divisor of two whole numbers from 0 (1 for 0 and 0: a divisor to reduce by). Lehmer's
 * algorithm (Knuth, TAOCP vol. 2, §4.5.2, Algorithm L): while the numbers are past 2^53, Euclid's steps are run on
 * their leading 50 bits in doubles, as long as those steps are sure to be the full numbers' own, and then applied
 * to the full numbers at once, two products by a small cofactor instead of a BigInt remainder a step; below 2^53,
 * Euclid in doubles. Measured against Euclid on BigInt remainders (random pairs sharing a factor): 2.4× as fast
 * at 200 bits, 2.7× at 1,000, 5× at 5,000.
 */
export function greatestCommonDivisor(a: bigint, b: bigint): bigint {
  // Both below 2^53 (most fractions): Euclid in doubles from the start.
  if (a <= SAFE && b <= SAFE) return BigInt(doubleEuclid(Number(a), Number(b)));
  if (a < b) [a, b] = [b, a];
  while (b > SAFE) {
    const shift = BigInt(leadingShift(a));
    let x = Number(a >> shift);
    let y = Number(b >> shift);
    // The cofactors: the numbers after these steps are A·a + B·b and C·a + D·b.
    let A = 1;
    let B = 0;
    let C = 0;
    let D = 1;
    // A step is the full numbers' own while both ends of the range the leading bits allow give the same quotient.
    while (y + C !== 0 && y + D !== 0) {
      const q = Math.floor((x + A) / (y + C));
      if (q !== Math.floor((x + B) / (y + D))) break;
      const nextC = A - q * C;
      A = C;
      C = nextC;
      const nextD = B - q * D;
      B = D;
      D = nextD;
      const nextY = x - q * y;
      x = y;
      y = nextY;
    }
    if (B === 0) {
      // Not one step was sure (a quotient too large for the leading bits): one remainder on the full numbers.
      const rest = a % b;
      a = b;
      b = rest;
    } else {
      const nextA = BigInt(A) * a + BigInt(B) * b;
      b = BigInt(C) * a + BigInt(D) * b;
      a = nextA;
    }
  }
  if (b === 0n) return a;
  return BigInt(doubleEuclid(Number(b), Number(a % b)));
}

/**
 * Euclid on whole numbers below 2^53, whose remainders are exact in doubles (a double's % is far cheaper than a
 * BigInt's); 1 for 0 and 0.
 */
function doubleEuclid(x: number, y: number): number {
  while (y !== 0) {
    const rest = x % y;
    x = y;
    y = rest;
  }
  return x === 0 ? 1 : x;
}

const BELOW_2_TO_1023 = 1n << 1023n;
const BELOW_2_TO_256 = 1n << 256n;

/** The primes a die's or a typed chance's denominator is made of, on the common dice (d6, d8, d10, d12, d20, d100). */
const SMALL_PRIMES = [2n, 3n, 5n, 7n, 11n, 13n];
/** A prime's power divided out at once while a number holds it (so a prime of exponent 2,000 takes 125 steps). */
const CHUNK = 16;
const CHUNK_POWERS = SMALL_PRIMES.map((prime) => prime ** BigInt(CHUNK));

/**
 * The last few denominators past 2^256 met, each with its exponent of each small prime, or null where it has
 * another prime factor. A chance's denominator is a product of die sides, and a sum or a distribution reduces
 * fraction after fraction over the same one: factored once, a reduction is then a remainder by each of its primes,
 * where Lehmer's gcd costs the square of the length (an exact point of reserves at a hundred squads was mostly that).
 */
const factored: Array<{ denominator: bigint; exponents: number[] | null }> = [];
const FACTORED_KEPT = 4;

/**
 * gcd(a, d) for d a product of SMALL_PRIMES (found by factoring d once, kept in `factored`): the power of each of
 * d's primes that a holds, up to d's own; 0 where d has another prime factor (the caller then takes Lehmer's).
 */
function smoothDivisor(a: bigint, d: bigint): bigint {
  const exponents = exponentsOf(d);
  if (exponents === null) return 0n;
  if (a === 0n) return d;
  let divisor = 1n;
  for (const [index, most] of exponents.entries()) {
    if (most === 0) continue;
    const prime = SMALL_PRIMES[index];
    const [times, rest] = exponentOf(a, index, most);
    if (times > 0) divisor *= prime ** BigInt(times);
    a = rest;
  }
  return divisor;
}

/** d's exponent of each small prime, or null where d has another prime factor (kept for the next call). */
function exponentsOf(d: bigint): number[] | null {
  for (const entry of factored) if (entry.denominator === d) return entry.exponents;
  const exponents: number[] = [];
  let rest = d;
  for (const index of SMALL_PRIMES.keys()) {
    const [times, left] = exponentOf(rest, index, Number.POSITIVE_INFINITY);
    exponents.push(times);
    rest = left;
  }
  const entry = { denominator: d, exponents: rest === 1n ? exponents : null };
  if (factored.length >= FACTORED_KEPT) factored.shift();
  factored.push(entry);
  return entry.exponents;
}

/** How many times (at most `most`) the small prime at `index` divides `value` (not 0), and what is left. */
function exponentOf(value: bigint, index: number, most: number): [number, bigint] {
  const prime = SMALL_PRIMES[index];
  const chunk = CHUNK_POWERS[index];
  let times = 0;
  while (times + CHUNK <= most && value % chunk === 0n) {
    value /= chunk;
    times += CHUNK;
  }
  while (times < most && value % prime === 0n) {
    value /= prime;
    times++;
  }
  return [times, value];
}

/** A shift that leaves `value` (past 2^53) with at most 50 bits and at least 47: its bit length, less 50. */
function leadingShift(value: bigint): number {
  // A double's log2 is exact at a power of two and rounds no lower than one between, so the length is never short.
  const bits = value < BELOW_2_TO_1023 ? Math.floor(Math.log2(Number(value))) + 1 : value.toString(16).length * 4;
  return bits - 50;
}

/**
 * Integers of fewer than 1000 bits are those below 2^999: both parts convert to doubles without overflow. A comparison,
 * where counting the bits wrote out the binary digits.
 */
const BELOW_1000_BITS = 1n << 999n;

function bitLength(value: bigint): number {
  return value === 0n ? 0 : value.toString(2).length;
}
