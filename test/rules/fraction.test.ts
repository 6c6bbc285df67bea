import { describe, expect, it } from 'vitest';
import { Fraction, sumFractions } from '../../src/exact/fraction.js';

describe('Fraction', () => {
  it('reduces to lowest terms with a positive denominator', () => {
    expect(Fraction.of(2, -6).toString()).toBe('-1/3');
    expect(Fraction.of(10, 5).toString()).toBe('2');
  });

  it('adds, subtracts, multiplies and divides exactly: 1/6 + 2/6 = 1/2, (1/2)/(1/3) = 3/2', () => {
    const sixth = Fraction.of(1, 6);
    expect(sixth.add(Fraction.of(2, 6)).equals(Fraction.of(1, 2))).toBe(true);
    expect(Fraction.ONE.sub(sixth).equals(Fraction.of(5, 6))).toBe(true);
    expect(Fraction.of(1, 2).div(Fraction.of(1, 3)).equals(Fraction.of(3, 2))).toBe(true);
    expect(Fraction.of(5, 6).pow(3).equals(Fraction.of(125, 216))).toBe(true);
    expect(sumFractions([sixth, sixth, sixth]).equals(Fraction.of(1, 2))).toBe(true);
  });

  it('takes a double exactly: 0.1 is 3602879701896397/2^55', () => {
    expect(Fraction.fromNumber(0.1).equals(Fraction.of(3602879701896397n, 2n ** 55n))).toBe(true);
    expect(Fraction.fromNumber(0.1).toNumber()).toBe(0.1);
  });

  it('reads decimals from their text exactly: 0.15 is 3/20, in every form JavaScript prints', () => {
    expect(Fraction.fromDecimal('0.15').equals(Fraction.of(3, 20))).toBe(true);
    expect(Fraction.fromDecimal('-2.50').equals(Fraction.of(-5, 2))).toBe(true);
    expect(Fraction.fromDecimal('.5').equals(Fraction.of(1, 2))).toBe(true);
    expect(Fraction.fromDecimal('7').equals(Fraction.of(7))).toBe(true);
    expect(Fraction.fromDecimal('1.5e-7').equals(Fraction.of(3, 20_000_000))).toBe(true);
    expect(Fraction.fromDecimal('2e+21').equals(Fraction.of(2n * 10n ** 21n))).toBe(true);
    for (const bad of ['', '.', '1..2', '0x10', '1e', 'NaN', '1,5'])
      expect(() => Fraction.fromDecimal(bad), bad).toThrow(RangeError);
  });

  it(
    'takes a number parameter as the decimal typed: fromParameter(0.15) is 3/20, where fromNumber(0.15) is the ' +
      'double',
    () => {
      expect(Fraction.fromParameter(0.15).equals(Fraction.of(3, 20))).toBe(true);
      expect(Fraction.fromNumber(0.15).equals(Fraction.of(3, 20))).toBe(false);
      expect(Fraction.fromParameter(1e-7).equals(Fraction.of(1, 10_000_000))).toBe(true);
      // Any decimal of up to 15 significant digits prints back as typed: spot-check a spread of them.
      for (const typed of ['0.1', '0.3', '0.123456789012345', '0.999999999999999', '0.000001', '0.7']) {
        const [, digits] = typed.split('.');
        expect(
          Fraction.fromParameter(Number(typed)).equals(Fraction.of(BigInt(digits), 10n ** BigInt(digits.length))),
          typed,
        ).toBe(true);
      }
    },
  );

  it('converts huge numerators and denominators without overflow', () => {
    const tiny = Fraction.of(5n ** 900n, 6n ** 900n);
    expect(tiny.toNumber()).toBeCloseTo(Math.exp(900 * Math.log(5 / 6)), 80);
    expect(tiny.toNumber()).toBeGreaterThan(0);
    expect(Fraction.of(6n ** 600n + 1n, 6n ** 600n).toNumber()).toBe(1);
  });

  it('adds zero and multiplies by one as any other value, negatives and whole numbers included', () => {
    const values = [
      Fraction.of(-3, 4),
      Fraction.of(7),
      Fraction.of(-1),
      Fraction.of(0),
      Fraction.of(5, 6),
      Fraction.of(6n ** 40n, 5n ** 30n),
    ];
    for (const x of values) {
      for (const y of values) {
        // Against the definition: (a/b)(c/d) = ac/bd and a/b + c/d = (ad + cb)/bd, reduced.
        expect(
          x.mul(y).equals(Fraction.of(x.numerator * y.numerator, x.denominator * y.denominator)),
          `${x} · ${y}`,
        ).toBe(true);
        expect(
          x
            .add(y)
            .equals(
              Fraction.of(x.numerator * y.denominator + y.numerator * x.denominator, x.denominator * y.denominator),
            ),
          `${x} + ${y}`,
        ).toBe(true);
      }
    }
    expect(Fraction.of(-1).mul(Fraction.of(2, 3)).toString()).toBe('-2/3');
    expect(Fraction.ZERO.add(Fraction.of(-2, 3)).toString()).toBe('-2/3');
  });

  it(
    'reduces to lowest terms on both sides of 2^53, where the divisor is found in doubles below it and in BigInts ' +
      'above',
    () => {
      // A separate Euclid on BigInts, and pairs with known common factors either side of 2^53 (fixed, no randomness).
      const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? a : gcd(b, a % b));
      const limit = 2n ** 53n;
      const pairs: Array<[bigint, bigint]> = [];
      for (const scale of [1n, 6n ** 10n, limit - 1n, limit, limit + 1n, 6n ** 25n]) {
        for (const [a, b] of [
          [2n, 4n],
          [3n, 9n],
          [35n, 14n],
          [1n, 1n],
          [9007199254740881n, 3n],
          [7n ** 18n, 7n ** 12n * 5n],
        ])
          pairs.push([a * scale, b * scale], [a, b * scale], [a * scale, b]);
      }
      for (const [a, b] of pairs) {
        const f = Fraction.of(a, b);
        expect(f.numerator * b, `${a}/${b}`).toBe(a * f.denominator);
        expect(gcd(f.numerator, f.denominator), `${a}/${b}`).toBe(1n);
        expect(f.denominator > 0n).toBe(true);
      }
    },
  );

  it('takes the complement, 1 - n/d = (d - n)/d, in lowest terms without reducing: small, big and negative', () => {
    // Written out by hand beside a textbook Euclid: gcd(d - n, d) = gcd(n, d) = 1 for n/d in lowest terms.
    const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? (a < 0n ? -a : a) : gcd(b, a % b));
    expect(Fraction.of(1, 6).complement().toString()).toBe('5/6');
    expect(Fraction.of(3, 4).complement().toString()).toBe('1/4');
    expect(Fraction.ZERO.complement().toString()).toBe('1');
    expect(Fraction.ONE.complement().toString()).toBe('0');
    expect(Fraction.of(5, 3).complement().toString()).toBe('-2/3');
    expect(Fraction.of(-1, 2).complement().toString()).toBe('3/2');
    const big = 6n ** 400n;
    for (const numerator of [1n, 5n ** 300n, big - 1n, big / 2n + 1n, 7n ** 100n]) {
      const f = Fraction.of(numerator, big);
      const complement = f.complement();
      expect(complement.numerator * f.denominator).toBe((f.denominator - f.numerator) * complement.denominator);
      expect(gcd(complement.numerator, complement.denominator)).toBe(1n);
      expect(complement.add(f).equals(Fraction.ONE)).toBe(true);
    }
  });

  it('reduces over a denominator of small primes past 2^256 (factored once) as Euclid does, and over any other', () => {
    // A textbook Euclid on BigInts is the oracle; the pairs come from a fixed xorshift, no randomness.
    const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? a : gcd(b, a % b));
    let state = 0x9e3779b9;
    const next = () => {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      return state >>> 0;
    };
    const bigRandom = (words: number) => {
      let value = 0n;
      for (let i = 0; i < words; i++) value = (value << 32n) | BigInt(next());
      return value;
    };
    const denominators = [
      6n ** 400n,
      36n ** 101n,
      2n ** 300n,
      3n ** 200n * 5n ** 90n,
      2n ** 17n * 3n ** 160n * 5n ** 3n * 7n ** 20n * 11n * 13n ** 5n,
      10n ** 120n,
      6n ** 400n * 101n, // another prime: Lehmer's
      (1n << 400n) + 1n,
    ];
    let cases = 0;
    for (let round = 0; round < 3; round++)
      for (const d of denominators) {
        const numerators = [0n, 1n, d - 1n, d, 2n * d, bigRandom(12), bigRandom(3) * 6n ** 50n, 2n ** 80n * 3n ** 40n];
        for (const [k, numerator] of numerators.entries()) {
          for (const n of [numerator, -numerator]) {
            const f = Fraction.of(n, d);
            const g = gcd(n < 0n ? -n : n, d) || 1n;
            expect(`${f.numerator}/${f.denominator}`, `case ${k} of ${d.toString(16).slice(0, 12)}`).toBe(
              `${n / g}/${d / g}`,
            );
            cases++;
          }
        }
      }
    expect(cases).toBe(3 * denominators.length * 16);
  });

  it('compares', () => {
    expect(Fraction.of(1, 3).compare(Fraction.of(1, 2))).toBe(-1);
    expect(Fraction.of(2, 4).compare(Fraction.of(1, 2))).toBe(0);
  });
});
