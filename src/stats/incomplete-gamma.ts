/**
 * The regularized incomplete gamma functions, for tail probabilities the
 * normal approximation gets wrong: the chi-square distribution's two tails
 * (test/engine/stream2.test.ts) and the Poisson tails of rare outcomes
 * (scripts/validate-streams.ts).
 */

/** ln Γ(x) for x > 0: Lanczos' approximation (g = 7, 9 terms; about 15 significant digits). */
function lnGamma(x: number): number {
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - lnGamma(1 - x);
  const z = x - 1;
  let sum = c[0];
  for (let i = 1; i < 9; i++) sum += c[i] / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

/**
 * P(a, x) and Q(a, x) = 1 − P(a, x), each computed directly (the series
 * below a + 1, Lentz's continued fraction above; Numerical Recipes §6.2),
 * so a small one keeps its relative precision.
 */
export function incompleteGamma(a: number, x: number): { lower: number; upper: number } {
  if (x <= 0) return { lower: 0, upper: 1 };
  const front = Math.exp(-x + a * Math.log(x) - lnGamma(a));
  if (x < a + 1) {
    let term = 1 / a;
    let sum = term;
    for (let n = 1; n < 10_000_000 && term >= sum * 1e-17; n++) {
      term *= x / (a + n);
      sum += term;
    }
    return { lower: sum * front, upper: 1 - sum * front };
  }
  const tiny = 1e-300;
  let b = x + 1 - a;
  let c = 1 / tiny;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 10_000_000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    if (Math.abs(d * c - 1) < 1e-16) break;
  }
  return { lower: 1 - front * h, upper: front * h };
}

/** The chi-square distribution with `df` degrees of freedom: P(X ≤ stat) and P(X ≥ stat). */
export function chiSquareTails(stat: number, df: number): { lower: number; upper: number } {
  return incompleteGamma(df / 2, stat / 2);
}
