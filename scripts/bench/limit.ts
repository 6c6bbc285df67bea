/**
 * The limit the bench holds the rules against: the tightest JavaScript loop
 * this machine runs that makes fair d6 as muster's streams 2 and 3 do —
 * xoshiro128** (Blackman and Vigna) with its state in local variables, one
 * output a draw, its top 20 bits read by Lemire's method as one value below
 * 6^4 = 1296 (rejected when the low part falls below 2^20 mod 1296 = 112),
 * whose four base-6 digits are four dice, each one added in:
 *
 *   tight        that loop; the limit
 *
 * The older yardsticks stay for comparison with earlier reports (the
 * fastest of them was the limit; the tight loop is 2.5–5 times faster):
 *
 *   one a draw   1 + ⌊6u⌋ from one uniform (tyche-i), as stream 1 draws them
 *   bulk         four d6 from one 32-bit output: each byte below 252 gives
 *                1 + byte mod 6 (252 = 42·6, so every face is exactly 42
 *                bytes of 256; bytes 252–255 are dropped), into a buffer the
 *                loop then consumes
 *
 * with tyche-i (stream 1's generator), sfc32 (Doty-Humphrey's small fast
 * chaotic generator) and xoshiro128**, all of which pass TestU01's BigCrush.
 */
import { TycheStream } from '../../src/engine/random.js';

export const LIMIT_GENERATORS = [
  'xoshiro128ss-tight',
  'tychei',
  'tychei-bulk',
  'sfc32-bulk',
  'xoshiro128ss-bulk',
] as const;
export type LimitGenerator = (typeof LIMIT_GENERATORS)[number];
/** The one the rules are measured against. */
export const LIMIT: LimitGenerator = 'xoshiro128ss-tight';

export const LIMIT_LABELS: Record<LimitGenerator, string> = {
  'xoshiro128ss-tight': 'xoshiro128** in locals, four d6 a Lemire draw (the limit)',
  tychei: 'old yardstick: tyche-i, one d6 a uniform (stream 1)',
  'tychei-bulk': 'old yardstick: tyche-i, four d6 an output, in bulk',
  'sfc32-bulk': 'old yardstick: sfc32, four d6 an output, in bulk',
  'xoshiro128ss-bulk': 'old yardstick: xoshiro128**, four d6 an output, in bulk (the old limit)',
};

/** Face of each byte, 0 for the four bytes dropped. */
const FACE = Uint8Array.from({ length: 256 }, (_, byte) => (byte < 252 ? 1 + (byte % 6) : 0));
const BUFFER = 4096;

/** A 32-bit generator as a function of no arguments returning an int32. */
type Next = () => number;

function sfc32(seed: number): Next {
  let a = seed | 0;
  let b = 0x9e3779b9 | 0;
  let c = 0x243f6a88 | 0;
  let d = 1;
  const next = () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t;
  };
  for (let i = 0; i < 12; i++) next();
  return next;
}

function xoshiro128ss(seed: number): Next {
  let s0 = seed | 0 || 1;
  let s1 = 0x9e3779b9 | 0;
  let s2 = 0x243f6a88 | 0;
  let s3 = 0x85a308d3 | 0;
  const next = () => {
    const m = Math.imul(s1, 5);
    const result = Math.imul((m << 7) | (m >>> 25), 9);
    const t = s1 << 9;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = (s3 << 11) | (s3 >>> 21);
    return result;
  };
  for (let i = 0; i < 12; i++) next();
  return next;
}

function tycheInt32(key: string): Next {
  const stream = new TycheStream(key);
  // random() is (a >>> 0) / 2^32 exactly, so this recovers the 32-bit output.
  return () => (stream.random() * 4294967296) | 0;
}

/** Fills `dice` with fair d6 from 32-bit outputs, four bytes each; returns how many it wrote. */
function fillDice(next: Next, dice: Uint8Array): number {
  let n = 0;
  const stop = dice.length - 4;
  while (n <= stop) {
    const x = next();
    let byte = x & 255;
    dice[n] = FACE[byte];
    n += +(byte < 252);
    byte = (x >>> 8) & 255;
    dice[n] = FACE[byte];
    n += +(byte < 252);
    byte = (x >>> 16) & 255;
    dice[n] = FACE[byte];
    n += +(byte < 252);
    byte = x >>> 24;
    dice[n] = FACE[byte];
    n += +(byte < 252);
  }
  return n;
}

const TWENTY_BITS = 1 << 20;
const FOUR_D6 = 1296;
const REJECT_FOUR_D6 = TWENTY_BITS % FOUR_D6;

/**
 * The tight loop: `dice` d6 (a multiple of four) from xoshiro128** seeded
 * with `seed`, summed. The generator's step is written out in the loop, on
 * locals, so nothing is called, boxed or stored per draw.
 */
function tightDiceSum(seed: number, dice: number): number {
  let s0 = seed | 0 || 1;
  let s1 = 0x9e3779b9 | 0;
  let s2 = 0x243f6a88 | 0;
  let s3 = 0x85a308d3 | 0;
  let total = 0;
  for (let made = 0; made < dice; ) {
    const m = Math.imul(s1, 5);
    const out = Math.imul((m << 7) | (m >>> 25), 9);
    const t = s1 << 9;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = (s3 << 11) | (s3 >>> 21);
    const product = (out >>> 12) * FOUR_D6;
    if ((product & (TWENTY_BITS - 1)) < REJECT_FOUR_D6) continue;
    // The value's base-6 digits, v = d0 + 6·d1 + 36·d2 + 216·d3, each a die less one; truncated
    // int32 quotients (measured: a third faster than `%` and an exact float division).
    const v = product >>> 20;
    const q1 = (v / 6) | 0;
    const q2 = (q1 / 6) | 0;
    const q3 = (q2 / 6) | 0;
    total += v - 6 * q1 + (q1 - 6 * q2) + (q2 - 6 * q3) + q3 + 4;
    made += 4;
  }
  return total;
}

const DICE = 6e7;

/** d6 per second and per CPU-second of one bare loop making and summing DICE dice, medians of five after a warm-up. */
export function bareDiceRate(generator: LimitGenerator): { dicePerSecond: number; dicePerCpuSecond: number } {
  const rates: number[] = [];
  const cpuRates: number[] = [];
  for (let repeat = 0; repeat < 6; repeat++) {
    let total = 0;
    let made = 0;
    const started = performance.now();
    const cpu = process.cpuUsage();
    if (generator === 'xoshiro128ss-tight') {
      total = tightDiceSum(repeat + 1, DICE);
      made = DICE;
    } else if (generator === 'tychei') {
      const rng = new TycheStream(`bench/${repeat}`).random;
      for (; made < DICE; made++) total += 1 + ((rng() * 6) | 0);
    } else {
      const next =
        generator === 'sfc32-bulk'
          ? sfc32(repeat + 1)
          : generator === 'xoshiro128ss-bulk'
            ? xoshiro128ss(repeat + 1)
            : tycheInt32(`bench/${repeat}`);
      const dice = new Uint8Array(BUFFER);
      while (made < DICE) {
        const n = fillDice(next, dice);
        for (let i = 0; i < n; i++) total += dice[i];
        made += n;
      }
    }
    const seconds = (performance.now() - started) / 1000;
    const { user, system } = process.cpuUsage(cpu);
    // A fair d6 averages 3.5 (σ 1.71, so 0.01 is over 40σ on 6e7 dice); the check also keeps the loop from being
    // optimised away.
    if (Math.abs(total / made - 3.5) > 0.01) throw new Error(`${generator}: mean die ${total / made}, not 3.5`);
    if (repeat > 0) {
      rates.push(made / seconds);
      cpuRates.push(made / ((user + system) / 1e6));
    }
  }
  const middle = (values: number[]) => values.sort((a, b) => a - b)[2];
  return { dicePerSecond: middle(rates), dicePerCpuSecond: middle(cpuRates) };
}
