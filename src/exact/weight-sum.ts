/**
 * A sum of weights given as integer over integer, kept over one common
 * denominator and reduced only when read. The enumerator adds a path's
 * weight per metric per path; the denominators of one procedure's paths are
 * nearly always multiples of one another (6^3 and 6^5), so an addition is a
 * divisibility test and a product, not a greatest common divisor.
 */
import { Fraction, greatestCommonDivisor } from './fraction.js';

export class WeightSum {
  numerator = 0n;
  denominator = 1n;

  /** Adds numerator/denominator (denominator > 0). */
  add(numerator: bigint, denominator: bigint): void {
    if (numerator === 0n) return;
    const mine = this.denominator;
    if (denominator === mine) {
      this.numerator += numerator;
      return;
    }
    // One division and a check by multiplying back, rather than a remainder and then the same division: the
    // quotient is mostly small (6^k), so the product costs a pass over the digits where a division costs several.
    if (mine > denominator) {
      const times = mine / denominator;
      if (times * denominator === mine) {
        this.numerator += numerator * times;
        return;
      }
    } else {
      const times = denominator / mine;
      if (times * mine === denominator) {
        this.numerator = this.numerator * times + numerator;
        this.denominator = denominator;
        return;
      }
    }
    const common = (mine / greatestCommonDivisor(mine, denominator)) * denominator;
    this.numerator = this.numerator * (common / mine) + numerator * (common / denominator);
    this.denominator = common;
  }

  addSum(other: WeightSum): void {
    this.add(other.numerator, other.denominator);
  }

  /** Adds numerator/denominator times value/valueDenominator. */
  addScaled(numerator: bigint, denominator: bigint, value: bigint, valueDenominator: bigint): void {
    this.add(numerator * value, denominator * valueDenominator);
  }

  toFraction(): Fraction {
    return Fraction.of(this.numerator, this.denominator);
  }
}
