/**
 * Stream 2 (engine/random.ts): xoshiro128** seeded per chunk from tyche-i,
 * with dice counted or read together drawn several to an output by Lemire's
 * method on 20 bits, exactly fair, and a lone die one uniform each.
 *
 * Known answers come from implementations written here from the published
 * algorithms (xoshiro128** by Blackman and Vigna, checked against the
 * reference C code's published outputs; seedrandom's tychei for the seed
 * words; Lemire's rejection as the module header states it), never from the
 * module's own tables. The statistical tests use fixed seeds, and each bound
 * is either an explicit chi-square tail probability (both tails ≥ 1e-6: a
 * correct generator fails one such test with probability 2e-6) or 5σ of a
 * normal statistic (two-sided tail 5.7e-7). This file runs a few hundred
 * such tests, so a correct build fails one with probability below about
 * 1e-3 for a random seed; the seeds are fixed, so it never flakes.
 */
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { compare, parseOptions, poissonTails } from '../../scripts/validate-streams.js';
import type { Rng } from '../../src/contract/types.js';
import { chunkStream, TycheStream, XoshiroStream } from '../../src/engine/random.js';
import { rules } from '../../src/rules/index.js';
import { chiSquareTails } from '../../src/stats/incomplete-gamma.js';

const TWO_TO_20 = 2 ** 20;
const TWO_TO_32 = 2 ** 32;
/** Both tails of every chi-square statistic must be at least this probable under the null hypothesis. */
const CHI_SQUARE_TAIL = 1e-6;
/** Bound on a standard normal statistic: P(|Z| > 5) = 5.7e-7. */
const SIGMAS = 5;

// ---------------------------------------------------------------------------
// Independent references
// ---------------------------------------------------------------------------

/** The chunk key every release used: muster/<rule>/<seed>/<chunk> (written out here, not imported). */
const keyOf = (seed: string, rule: string, chunk: number) => `muster/${rule}/${seed}/${chunk}`;

/**
 * Stream 2's four seed words for `key`, from seedrandom itself: tyche-i's first four outputs at "muster2/" + key, as
 * int32.
 */
function seedWords(key: string): number[] {
  const tychei = seedrandom.tychei(`muster2/${key}`);
  return [0, 1, 2, 3].map(() => (tychei() * TWO_TO_32) | 0);
}

const MASK = 0xffffffffn;
const rotl = (x: bigint, k: bigint) => ((x << k) | (x >> (32n - k))) & MASK;

/**
 * xoshiro128** 1.1 as Blackman and Vigna publish it (xoshiro128starstar.c),
 * in BigInt arithmetic masked to 32 bits: nothing shared with the module's
 * Math.imul/int32 version. Returns each output as an unsigned 32-bit number.
 */
function referenceXoshiro(words: readonly number[]): () => number {
  const s = words.map((w) => BigInt(w >>> 0));
  return () => {
    const result = (rotl((s[1] * 5n) & MASK, 7n) * 9n) & MASK;
    const t = (s[1] << 9n) & MASK;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 11n);
    return Number(result);
  };
}

/**
 * Stream 2's documented dice on top of a reference generator: `below(b)`
 * takes the top 20 bits x of one output, accepts when (x·b mod 2^20) ≥
 * (2^20 mod b) and returns ⌊x·b / 2^20⌋ (Lemire), else draws again; the
 * uniform u is output / 2^32; a lone die, `roll(s)`, is 1 + ⌊s·u⌋ of one
 * uniform, as on stream 1. Plain double arithmetic (x·b < 2^32, exact),
 * not the module's bit operations.
 */
function referenceStream2(words: readonly number[]) {
  const next = referenceXoshiro(words);
  const dice = {
    rejections: 0,
    uniform: () => next() / TWO_TO_32,
    below(bound: number): number {
      for (;;) {
        const x = Math.floor(next() / 4096);
        const product = x * bound;
        if (product % TWO_TO_20 >= TWO_TO_20 % bound) return Math.floor(product / TWO_TO_20);
        dice.rejections++;
      }
    },
    roll: (sides: number) => 1 + Math.floor((next() / TWO_TO_32) * sides),
  };
  return dice;
}

/**
 * Pearson's chi-square of `observed` against `probabilities` (summing to 1),
 * adjacent cells pooled until each pooled expectation is at least 10 so the
 * chi-square approximation holds. A draw in a cell of probability 0 fails
 * outright. Asserts both tails ≥ CHI_SQUARE_TAIL: too poor a fit is bias,
 * too good a fit is a pattern (such as a generator cycling through faces).
 */
function expectFit(label: string, observed: ArrayLike<number>, probabilities: ArrayLike<number>): void {
  let draws = 0;
  for (let i = 0; i < observed.length; i++) draws += observed[i];
  const pooledObserved: number[] = [];
  const pooledExpected: number[] = [];
  let o = 0;
  let e = 0;
  for (let i = 0; i < observed.length; i++) {
    if (probabilities[i] === 0 && observed[i] !== 0)
      expect.fail(`${label}: ${observed[i]} draws of value ${i}, which has probability 0`);
    o += observed[i];
    e += probabilities[i] * draws;
    if (e >= 10) {
      pooledObserved.push(o);
      pooledExpected.push(e);
      o = 0;
      e = 0;
    }
  }
  if (pooledExpected.length === 0) expect.fail(`${label}: too few draws for a chi-square test`);
  pooledObserved[pooledObserved.length - 1] += o;
  pooledExpected[pooledExpected.length - 1] += e;
  let stat = 0;
  for (let i = 0; i < pooledExpected.length; i++)
    stat += (pooledObserved[i] - pooledExpected[i]) ** 2 / pooledExpected[i];
  const df = pooledExpected.length - 1;
  if (df === 0) return; // one pooled cell: nothing to compare (the caller tests degenerate cases exactly)
  const { lower, upper } = chiSquareTails(stat, df);
  if (!(lower >= CHI_SQUARE_TAIL && upper >= CHI_SQUARE_TAIL)) {
    expect.fail(
      `${label}: chi-square ${stat.toFixed(1)} on ${df} df, tails ${lower.toExponential(2)} / ` +
        `${upper.toExponential(2)} (need both ≥ ${CHI_SQUARE_TAIL})`,
    );
  }
}

const uniform = (cells: number) => new Float64Array(cells).fill(1 / cells);

/** n choose k · p^k · (1 − p)^(n − k), k = 0..n. */
function binomial(n: number, p: number): number[] {
  const pmf: number[] = [];
  let choose = 1;
  for (let k = 0; k <= n; k++) {
    pmf.push(choose * p ** k * (1 - p) ** (n - k));
    choose = (choose * (n - k)) / (k + 1);
  }
  return pmf;
}

/** Pearson's correlation of two equal-length samples. */
function correlation(x: ArrayLike<number>, y: ArrayLike<number>): number {
  const n = x.length;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += x[i];
    my += y[i];
  }
  mx /= n;
  my /= n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) ** 2;
    syy += (y[i] - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}

const stream2 = (seed: string, rule = 'validate', chunk = 0): Rng => chunkStream(seed, rule, chunk, 2);

// ---------------------------------------------------------------------------

describe('the references this file relies on', () => {
  it('reference xoshiro128** gives the reference C code’s published outputs', () => {
    // rand_xoshiro's test of Xoshiro128StarStar: state {1, 2, 3, 4}, "produced with the reference
    // implementation (v1.1)" xoshiro128starstar.c.
    const a = referenceXoshiro([1, 2, 3, 4]);
    expect(Array.from({ length: 10 }, a)).toEqual([
      11520, 0, 5927040, 70819200, 2031721883, 1637235492, 1287239034, 3734860849, 3729100597, 4258142804,
    ]);
    // edorfaus/xoshiro-6502 test-rom/testdata.asm, generated with the C reference: its seed bytes read as
    // little-endian words, and the ** column of its verification values.
    const b = referenceXoshiro([0x964d4a0c, 0xd40ab895, 0xad7fdecb, 0x3006f0f0]);
    expect(Array.from({ length: 4 }, b)).toEqual([0xf1391922, 0x6fe53806, 0xa5be2840, 0xf510ee70]);
  });

  it('chiSquareTails agrees with the closed form for even df, deep into both tails', () => {
    // For df = 2k, P(X ≥ x) = P(Poisson(x/2) ≤ k − 1) and P(X ≤ x) = P(Poisson(x/2) ≥ k): each tail summed
    // on its own side (terms e^{−m} m^i / i! in logs), so a small tail keeps its relative precision.
    const poissonTerms = (x: number) => {
      const m = x / 2;
      let lnFactorial = 0;
      const terms: number[] = [];
      for (let i = 0; i < m + 40 * Math.sqrt(m) + 50; i++) {
        if (i > 0) lnFactorial += Math.log(i);
        terms.push(Math.exp(-m + i * Math.log(m) - lnFactorial));
      }
      return terms;
    };
    const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
    for (const df of [2, 6, 36, 100, 1294]) {
      const sd = Math.sqrt(2 * df);
      for (const z of [-4, -2, 0, 1, 3, 5, 6]) {
        const x = df + z * sd;
        if (x <= 0) continue;
        const terms = poissonTerms(x);
        const upper = sum(terms.slice(0, df / 2));
        const lower = sum(terms.slice(df / 2));
        const tails = chiSquareTails(x, df);
        expect(Math.abs(tails.upper - upper), `upper tail, df ${df}, x ${x}`).toBeLessThanOrEqual(1e-9 * upper);
        expect(Math.abs(tails.lower - lower), `lower tail, df ${df}, x ${x}`).toBeLessThanOrEqual(1e-9 * lower);
      }
    }
  });
});

describe('stream 2 is xoshiro128** seeded from seedrandom’s tychei, bit for bit', () => {
  const cases: [string, string, number][] = [];
  for (const seed of ['muster', '', 'Ünïcødé ✓', '🎲 seed', 'x'.repeat(200)]) {
    for (const rule of ['reserves', 'fow', 'my-rule.mjs'])
      for (const chunk of [0, 1, 15, 65_535, 1_000_000]) cases.push([seed, rule, chunk]);
  }

  it(`${cases.length} chunk keys, 3,000 uniforms each: fresh, one reseeded stream, and chunkStream(…, 2)`, () => {
    const reused = new XoshiroStream();
    for (const [seed, rule, chunk] of cases) {
      const key = keyOf(seed, rule, chunk);
      const words = seedWords(key);
      // The all-zero guard would change the state only if tyche-i's first four outputs were all 0 (chance
      // 2^-128 a key): the reference applies no guard, so matching it shows the guard never fired here.
      expect(words.some((w) => w !== 0)).toBe(true);
      const reference = referenceXoshiro(words);
      const fresh = new XoshiroStream(key).random;
      const viaChunk = stream2(seed, rule, chunk);
      reused.reseedChunk(seed, rule, chunk);
      expect(fresh.stream).toBe(2);
      for (let draw = 0; draw < 3_000; draw++) {
        const expected = reference() / TWO_TO_32;
        const got = [fresh(), viaChunk(), reused.random()];
        if (got.some((value) => value !== expected))
          expect({ key, draw, got }).toEqual({ key, draw, got: [expected, expected, expected] });
      }
    }
  });

  it('reseed() restarts exactly, whatever was drawn before (uniforms, dice, rejected draws)', () => {
    const stream = new XoshiroStream('first key');
    const rng = stream.random;
    for (let i = 0; i < 10_001; i++) {
      rng();
      rng.below(4095);
      rng.count(7, 6, 4);
      rng.count(5, 20, 11);
    }
    for (const key of ['second', keyOf('muster', 'reserves', 3)]) {
      stream.reseed(key);
      const reference = referenceXoshiro(seedWords(key));
      for (let draw = 0; draw < 1_000; draw++) expect(rng() * TWO_TO_32).toBe(reference());
    }
  });

  it(
    'below follows Lemire’s method on the top 20 bits, rejected draws included, and roll is one uniform a die ' +
      '(100,000 calls)',
    () => {
      // Bounds with the most rejections (2^20 mod b up to b − 1: 2731 rejects 2603 of 2^20, 0.25%) mixed with
      // exact powers of two (no rejection) and small dice, so the sequence depends on every branch.
      const bounds = [6, 1296, 2731, 3000, 4095, 4096, 7, 20, 1000, 1, 2, 36];
      for (const key of [keyOf('muster', 'reserves', 0), keyOf('kat', 'fow', 77)]) {
        const reference = referenceStream2(seedWords(key));
        const rng = new XoshiroStream(key).random;
        for (let i = 0; i < 100_000; i++) {
          const bound = bounds[i % bounds.length];
          const kind = Math.floor(i / bounds.length) % 3; // every bound with every kind of call
          const got = kind === 0 ? rng.below(bound) : kind === 1 ? rng.roll(bound) : rng();
          const expected =
            kind === 0 ? reference.below(bound) : kind === 1 ? reference.roll(bound) : reference.uniform();
          if (got !== expected) expect({ key, i, bound, kind, got }).toEqual({ key, i, bound, kind, got: expected });
        }
        // Each bound takes 1/3 of its 100,000/12 calls as below(); Σ (2^20 mod b) over the bounds is 5,151, so
        // about 100,000 · (1/3) / 12 · 5,151 / 2^20 ≈ 14 rejections are expected (Poisson: P(0) = e^-14). None
        // would mean the rejecting branch went untested.
        expect(reference.rejections).toBeGreaterThan(0);
      }
    },
  );
});

describe('below(b) is exactly uniform', () => {
  it('Lemire on 20 bits: each value has exactly ⌊2^20 / b⌋ of the 2^20 inputs (enumerated)', () => {
    // Independent of the module: for x = 0 … 2^20 − 1, accept when (x·b mod 2^20) ≥ (2^20 mod b) and count
    // ⌊x·b / 2^20⌋. With the top 20 bits of a uniform 32-bit output uniform, every accepted value then has
    // probability exactly 1/b.
    for (const bound of [1, 2, 3, 5, 6, 7, 20, 36, 400, 1000, 1296, 2731, 3000, 4095, 4096]) {
      const hits = new Int32Array(bound);
      for (let x = 0; x < TWO_TO_20; x++) {
        const product = x * bound;
        if (product % TWO_TO_20 >= TWO_TO_20 % bound) hits[Math.floor(product / TWO_TO_20)]++;
      }
      const each = Math.floor(TWO_TO_20 / bound);
      const wrong = hits.findIndex((h) => h !== each);
      expect({ bound, wrong, hits: wrong < 0 ? each : hits[wrong] }).toEqual({ bound, wrong: -1, hits: each });
    }
  });

  it('chi-square over the full range for b = 6, 36, 1296, 20, 400, 4096, 7', () => {
    for (const bound of [6, 36, 1296, 20, 400, 4096, 7]) {
      const rng = stream2(`below-${bound}`);
      // At least 250 expected a cell (and 10^6 draws): the chi-square approximation is then excellent.
      const draws = Math.max(1_000_000, 250 * bound);
      const counts = new Float64Array(bound);
      for (let i = 0; i < draws; i++) counts[rng.below(bound)]++;
      expectFit(`below(${bound})`, counts, uniform(bound));
    }
  });

  it('the uniform rng(): 1,024 equal bins and each of the 32 bits', () => {
    const rng = stream2('uniform');
    const draws = 1 << 21;
    const bins = new Float64Array(1024);
    const bits = new Float64Array(32);
    let outside = 0;
    for (let i = 0; i < draws; i++) {
      const u = rng();
      outside += +!(u >= 0 && u < 1);
      bins[Math.floor(u * 1024)]++;
      const word = u * TWO_TO_32;
      if (!Number.isInteger(word)) outside++;
      for (let bit = 0; bit < 32; bit++) bits[bit] += (word >>> bit) & 1;
    }
    expect(outside, 'uniforms outside [0, 1) or not multiples of 2^-32').toBe(0);
    expectFit('rng() in 1,024 bins', bins, uniform(1024));
    // Each bit ~ Binomial(draws, 1/2): within 5σ = 5·√draws / 2 of draws / 2.
    for (let bit = 0; bit < 32; bit++)
      expect(Math.abs(bits[bit] - draws / 2), `bit ${bit}`).toBeLessThanOrEqual((SIGMAS * Math.sqrt(draws)) / 2);
  });
});

describe('four d6 from one below(1296)', () => {
  // Die i (from 0) shows 1 + ⌊v / 6^i⌋ mod 6, as Rng.below documents.
  const digit = (v: number, i: number) => Math.floor(v / 6 ** i) % 6;

  it('the four dice are jointly uniform (1,296 cells) and each is a fair d6', () => {
    const rng = stream2('four-d6');
    const draws = 1296 * 500;
    const joint = new Float64Array(1296);
    const single = [0, 1, 2, 3].map(() => new Float64Array(6));
    for (let i = 0; i < draws; i++) {
      const v = rng.below(1296);
      const d = [0, 1, 2, 3].map((k) => digit(v, k));
      joint[((d[3] * 6 + d[2]) * 6 + d[1]) * 6 + d[0]]++;
      for (let k = 0; k < 4; k++) single[k][d[k]]++;
    }
    expectFit('four d6 jointly', joint, uniform(1296));
    for (let k = 0; k < 4; k++) expectFit(`die ${k} of four`, single[k], uniform(6));
  });

  it('successive draws are independent: all 1296 × 1296 pairs, and every pair of dice across them', () => {
    const rng = stream2('four-d6-pairs');
    // Disjoint pairs (v_2k, v_2k+1), 5 expected in each of 1,679,616 cells; expectFit pools neighbouring
    // cells to at least 10 expected each (about 840,000 pooled cells), where the chi-square tail is accurate.
    const pairs = 1296 * 1296 * 5;
    const joint = new Float64Array(1296 * 1296);
    const dicePairs = Array.from({ length: 16 }, () => new Float64Array(36));
    for (let i = 0; i < pairs; i++) {
      const v = rng.below(1296);
      const w = rng.below(1296);
      joint[v * 1296 + w]++;
      if (i < 1_000_000)
        for (let a = 0; a < 4; a++) for (let b = 0; b < 4; b++) dicePairs[a * 4 + b][digit(v, a) * 6 + digit(w, b)]++;
    }
    const cells = new Float64Array(1296 * 1296).fill(1 / (1296 * 1296));
    expectFit('successive below(1296) pairs', joint, cells);
    for (let k = 0; k < 16; k++)
      expectFit(`die ${k >> 2} of a draw with die ${k & 3} of the next`, dicePairs[k], uniform(36));
    // Serial correlation of successive draws' values over the first 10^6 pairs: 5/√n.
    const first = new Float64Array(1_000_000);
    const second = new Float64Array(1_000_000);
    const again = stream2('four-d6-serial');
    let previous = again.below(1296);
    for (let i = 0; i < first.length; i++) {
      first[i] = previous;
      previous = again.below(1296);
      second[i] = previous;
    }
    expect(Math.abs(correlation(first, second))).toBeLessThanOrEqual(SIGMAS / Math.sqrt(first.length));
  });
});

describe('count(n, sides, atLeast) is Binomial(n, p)', () => {
  /**
   * Checks count(n, sides, t) over `draws` calls against Binomial(n, p), p = (sides + 1 − t)/sides clamped to [0, 1].
   */
  function expectBinomial(rng: Rng, n: number, sides: number, t: number, draws: number): void {
    const p = Math.min(1, Math.max(0, (sides + 1 - t) / sides));
    const counts = new Float64Array(n + 1);
    for (let i = 0; i < draws; i++) {
      const hits = rng.count(n, sides, t);
      if (!(Number.isInteger(hits) && hits >= 0 && hits <= n))
        expect.fail(`count(${n}, ${sides}, ${t}) returned ${hits}`);
      counts[hits]++;
    }
    // p = 0 or 1: every die misses or hits, exactly.
    if (p === 0 || p === 1) expect(counts[p * n], `count(${n}, ${sides}, ${t})`).toBe(draws);
    else expectFit(`count(${n}, ${sides}, ${t})`, counts, binomial(n, p));
  }

  it('d6 (four to a draw, counted by table): n = 1 … 9, t = 0 … 8, and n = 17, 30', () => {
    const rng = stream2('count-d6');
    for (let n = 1; n <= 9; n++) for (let t = 0; t <= 8; t++) expectBinomial(rng, n, 6, t, 60_000);
    for (const n of [17, 30]) for (const t of [2, 4, 6]) expectBinomial(rng, n, 6, t, 60_000);
  });

  it('other dice (several to a draw as digits, the last group short): d20, d8, d3, d2, d4096', () => {
    const rng = stream2('count-other');
    // Dice a draw: d20 two (400), d8 four (4096), d3 seven (2187), d2 twelve (4096), d4096 one; n = 1 … 9
    // covers a short last group and, for d20 and d8, several groups.
    const thresholds: Record<number, number[]> = {
      20: [0, 1, 2, 7, 11, 20, 21, 22],
      8: [0, 1, 2, 5, 8, 9],
      3: [1, 2, 3, 4],
      2: [1, 2, 3],
      4096: [1, 2049, 4096, 4097],
    };
    for (const [sides, ts] of Object.entries(thresholds)) {
      for (let n = 1; n <= 9; n++) for (const t of ts) expectBinomial(rng, n, Number(sides), t, 25_000);
    }
    for (const t of [2, 11, 19]) expectBinomial(rng, 30, 20, t, 25_000);
  });

  it('a bound outside 1 … 4096 is an error, never an endless redraw (a rule’s bug surfaces as a failed task)', () => {
    const rng = stream2('bad-bound');
    for (const bound of [0, -6, 4097, 1.5, Number.NaN])
      expect(() => rng.below(bound), String(bound)).toThrow(RangeError);
    expect(() => rng.count(3, 5000, 2)).toThrow(RangeError);
  });

  it('a one-sided die (d1) always shows 1: count(n, 1, t) is n for t ≤ 1 and 0 above, and returns', () => {
    // d1 once sent the grouping loop round forever (1^k never exceeds the bound); on both streams now.
    for (const rng of [stream2('d1'), chunkStream('d1', 'validate', 0, 1)]) {
      for (const n of [0, 1, 5, 13]) {
        expect(rng.count(n, 1, 1)).toBe(n);
        expect(rng.count(n, 1, 0)).toBe(n);
        expect(rng.count(n, 1, 2)).toBe(0);
      }
      expect(rng.roll(1)).toBe(1);
      expect(rng.below(1)).toBe(0);
    }
  });

  it('count(0, …) rolls nothing: it returns 0 and draws nothing', () => {
    const rng = stream2('count-zero');
    const twin = stream2('count-zero');
    for (const sides of [6, 20]) expect(rng.count(0, sides, 1)).toBe(0);
    for (let i = 0; i < 10; i++) expect(rng()).toBe(twin());
  });
});

describe('roll(sides) is uniform on 1 … sides', () => {
  // 1 + ⌊sides·u⌋ of a 32-bit uniform: each face within 2^-32 of 1/sides, far below what these draws can see.
  it('d6, d20, d1000', () => {
    for (const sides of [6, 20, 1000]) {
      const rng = stream2(`roll-${sides}`);
      const draws = Math.max(1_000_000, 500 * sides);
      const counts = new Float64Array(sides + 1);
      for (let i = 0; i < draws; i++) counts[rng.roll(sides)]++;
      const probabilities = new Float64Array(sides + 1).fill(1 / sides);
      probabilities[0] = 0; // a 0 fails outright
      expectFit(`roll(${sides})`, counts, probabilities);
    }
  });
});

describe('chunk streams are independent of each other', () => {
  /** First 32-bit output, first die, and second output of each stream: the draws most exposed to weak seeding. */
  function firsts(streams: Iterable<Rng>) {
    const first: number[] = [];
    const second: number[] = [];
    const die: number[] = [];
    for (const rng of streams) {
      first.push(rng() * TWO_TO_32);
      second.push(rng() * TWO_TO_32);
      die.push(rng.roll(6));
    }
    return { first, second, die };
  }

  function expectUnrelated(label: string, { first, second, die }: ReturnType<typeof firsts>): void {
    const n = first.length;
    // Correlation of neighbours' first uniforms, and of a stream's first and second: each ~ N(0, 1/n).
    const u = first.map((w) => w / TWO_TO_32);
    expect(
      Math.abs(correlation(u.slice(0, -1), u.slice(1))),
      `${label}: neighbours' first uniforms`,
    ).toBeLessThanOrEqual(SIGMAS / Math.sqrt(n - 1));
    expect(Math.abs(correlation(u, second)), `${label}: first and second output`).toBeLessThanOrEqual(
      SIGMAS / Math.sqrt(n),
    );
    // Each bit of (first output of stream k) xor (first of stream k + 1) ~ Binomial(n − 1, 1/2): a seeding
    // that left neighbours' states close would show here. Within 5σ = 5·√(n − 1)/2 of (n − 1)/2.
    for (let bit = 0; bit < 32; bit++) {
      let ones = 0;
      for (let k = 0; k + 1 < n; k++) ones += Math.floor(((first[k] ^ first[k + 1]) >>> 0) / 2 ** bit) % 2;
      expect(Math.abs(ones - (n - 1) / 2), `${label}: bit ${bit} of neighbours' xor`).toBeLessThanOrEqual(
        (SIGMAS * Math.sqrt(n - 1)) / 2,
      );
    }
    // First die of every stream, and of disjoint neighbouring pairs (2k, 2k + 1) jointly.
    const faces = new Float64Array(6);
    for (const d of die) faces[d - 1]++;
    expectFit(`${label}: first die`, faces, uniform(6));
    const pairs = new Float64Array(36);
    for (let k = 0; k + 1 < n; k += 2) pairs[(die[k] - 1) * 6 + die[k + 1] - 1]++;
    expectFit(`${label}: first dice of neighbouring streams`, pairs, uniform(36));
  }

  it('chunks 0 … 99,999 of one seed', () => {
    const stream = new XoshiroStream();
    function* chunks() {
      for (let chunk = 0; chunk < 100_000; chunk++) yield stream.reseedChunk('muster', 'reserves', chunk).random;
    }
    expectUnrelated('chunks', firsts(chunks()));
  });

  it('chunk 0 of 65,536 seeds differing in one character (every UTF-16 unit), at the end and at the start', () => {
    const stream = new XoshiroStream();
    for (const [label, seedOf] of [
      ['last character', (c: number) => `muster${String.fromCharCode(c)}`],
      ['first character', (c: number) => `${String.fromCharCode(c)}muster`],
    ] as const) {
      function* seeds() {
        for (let c = 0; c < 0x10000; c++) yield stream.reseedChunk(seedOf(c), 'fow', 0).random;
      }
      expectUnrelated(label, firsts(seeds()));
    }
  });
});

describe('stream 1’s dice draw one uniform a die, in order (seedrandom.tychei)', () => {
  it('roll, count and below mixed with plain uniforms, 20,000 rounds', () => {
    for (const [seed, rule, chunk] of [
      ['muster', 'reserves', 0],
      ['s1', 'warbands', 9],
    ] as const) {
      const key = keyOf(seed, rule, chunk);
      const rng = chunkStream(seed, rule, chunk, 1);
      expect(rng.stream).toBe(1);
      const tychei = seedrandom.tychei(key);
      const die = (sides: number) => 1 + Math.floor(tychei() * sides);
      for (let round = 0; round < 20_000; round++) {
        const n = round % 10;
        const sides = [6, 20, 8, 1000][round % 4];
        const t = round % 9;
        let hits = 0;
        const gotCount = rng.count(n, sides, t);
        for (let k = 0; k < n; k++) hits += +(die(sides) >= t);
        const gotRoll = rng.roll(sides);
        const expectedRoll = die(sides);
        const bound = [6, 1296, 4096, 7][round % 4];
        const gotBelow = rng.below(bound);
        const expectedBelow = Math.floor(tychei() * bound);
        const gotUniform = rng();
        const expectedUniform = tychei();
        const got = [gotCount, gotRoll, gotBelow, gotUniform];
        const expected = [hits, expectedRoll, expectedBelow, expectedUniform];
        if (got.some((value, i) => value !== expected[i]))
          expect({ key, round, got }).toEqual({ key, round, got: expected });
      }
    }
  });

  it('TycheStream reseeded mid-way gives the same dice as a fresh one', () => {
    const stream = new TycheStream('before');
    for (let i = 0; i < 1_001; i++) stream.random.count(3, 6, 4);
    const key = keyOf('muster', 'fow', 5);
    stream.reseed(key);
    const tychei = seedrandom.tychei(key);
    for (let i = 0; i < 1_000; i++) expect(stream.random.roll(6)).toBe(1 + Math.floor(tychei() * 6));
  });
});

describe('validate-streams scores rare outcomes by their Poisson tail', () => {
  it('poissonTails agrees with the pmf summed term by term', () => {
    // P(X = i) = e^{−m} m^i / i!, in logs; each tail summed on its own side.
    for (const mean of [0.054, 1, 7.5, 120, 5_000]) {
      const terms: number[] = [];
      let lnFactorial = 0;
      for (let i = 0; i < mean + 60 * Math.sqrt(mean) + 60; i++) {
        if (i > 0) lnFactorial += Math.log(i);
        terms.push(Math.exp(-mean + i * Math.log(mean) - lnFactorial));
      }
      for (const k of [0, 1, 2, Math.floor(mean), Math.ceil(mean + 5 * Math.sqrt(mean) + 3)]) {
        const atMost = terms.slice(0, k + 1).reduce((a, b) => a + b, 0);
        const atLeast = terms.slice(k).reduce((a, b) => a + b, 0);
        const tails = poissonTails(k, mean);
        expect(Math.abs(tails.atMost - atMost), `P(X ≤ ${k}), mean ${mean}`).toBeLessThanOrEqual(1e-9 * atMost);
        expect(Math.abs(tails.atLeast - atLeast), `P(X ≥ ${k}), mean ${mean}`).toBeLessThanOrEqual(1e-9 * atLeast);
      }
    }
  });

  it(
    'one or two trials of a 5·10^-10 outcome in 10^8 are unremarkable; the normal z would call them 4.3σ and ' + '8.6σ',
    () => {
      // fow, attacker.atLeast.2.by.8 at one golden setting: p = 1 − 5.38·10^-10, so 0.054 failures expected.
      const p = 1 - 5.38e-10;
      const n = 1e8;
      for (const [failures, twoSided] of [
        [0, 1],
        [1, 2 * (1 - Math.exp(-0.0538))],
        [2, 2 * (1 - Math.exp(-0.0538) * (1 + 0.0538))],
      ]) {
        const result = compare({ kind: 'proportion', successes: n - failures, trials: n }, p);
        // The normal z with the same two-sided tail: 0, then 1.62 and 2.99 (below, not above, the estimate).
        const expected = failures === 0 ? 0 : -Math.SQRT2 * inverseErfc(twoSided);
        expect(result.kind).toBe('z');
        if (result.kind === 'z') expect(result.z).toBeCloseTo(expected, 6);
      }
      // Far from 0 and 1 it is the plain normal z.
      const plain = compare({ kind: 'proportion', successes: 5_000_500, trials: 1e7 }, 0.5);
      expect(plain.kind).toBe('z');
      if (plain.kind === 'z') expect(plain.z).toBeCloseTo(500 / Math.sqrt(0.25 * 1e7), 9);
    },
  );
});

/**
 * erfc⁻¹ by bisection on erfc(x) = Q(1/2, x²) (the same incomplete gamma the chi-square uses): slow but independent of
 * normalQuantile.
 */
function inverseErfc(y: number): number {
  const erfc = (x: number) => chiSquareTails(2 * x * x, 1).upper;
  let lo = 0;
  let hi = 10;
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (erfc(mid) > y) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

describe('validate-streams covers every built-in rule', () => {
  it('with no --rules, checks each rule the registry has, a rule added since the golden file included', () => {
    // It refused to start once a rule was added without golden settings: the default run named every rule.
    expect(parseOptions([]).rules.map((rule) => rule.id)).toEqual(rules.map((rule) => rule.id));
  });
});
