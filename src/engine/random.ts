import type { Rng } from '../rules/types.js';

/**
 * The random streams: tyche-i, one stream per chunk of trials, keyed by
 * (seed, rule, chunk index) alone, so a seed gives the same numbers whatever
 * the thread count or the machine that runs the chunk.
 *
 * tyche-i was chosen by measurement (npm run bench:generators, each
 * generator alone in its process): the fastest of seedrandom's algorithms on
 * a d6 loop, 1.7× alea and 11× the default ARC4. It is Neves and Araujo's
 * ChaCha-quarter-round generator (period about 2^127), which passes TestU01's
 * BigCrush; xor128, nearly as fast, is a plain xorshift and fails its
 * linear-complexity tests. Every character of the key is mixed into the
 * state and 20 rounds follow, so neighbouring chunk indices start far apart.
 *
 * The streams are seedrandom's `tychei(key)` bit for bit (tested against it
 * for many keys), computed here rather than through seedrandom so that a
 * thread keeps one generator for all its chunks: seedrandom builds a new
 * closure and a state object per stream and reads and writes that object's
 * properties on every draw, which profiles showed as most of a simple rule's
 * time (about two thirds of reserves).
 */

/** The key of chunk `chunkIndex` of a run: the one seedrandom's tychei was given since the first release. */
export function chunkKey(seed: string, ruleId: string, chunkIndex: number): string {
  return `muster/${ruleId}/${seed}/${chunkIndex}`;
}

/** tyche-i's initial state before the key is mixed in (Neves and Araujo; seedrandom's constants). */
const INITIAL_C = 2654435769 | 0;
const INITIAL_D = 1367130551;
const TWO_TO_32 = 4294967296;

/**
 * One tyche-i generator whose state lives in a typed array, reseeded in
 * place: a worker keeps one for every chunk it runs, so the rules' call
 * site `rng()` always sees the same function. `random` is the uniform on
 * [0, 1) the rules draw from, 32 bits of one output each.
 */
export class TycheStream {
  /** a, b, c, d of tyche-i; int32 arithmetic throughout, as in the paper. */
  readonly #state = new Int32Array(4);
  /** The next uniform on [0, 1), a multiple of 2^-32. */
  readonly random: Rng;

  constructor(key?: string) {
    const state = this.#state;
    this.random = () => {
      let a = state[0];
      let b = state[1];
      let c = state[2];
      let d = state[3];
      b = (b << 25) ^ (b >>> 7) ^ c;
      c = (c - d) | 0;
      d = (d << 24) ^ (d >>> 8) ^ a;
      a = (a - b) | 0;
      b = (b << 20) ^ (b >>> 12) ^ c;
      c = (c - d) | 0;
      d = (d << 16) ^ (c >>> 16) ^ a;
      a = (a - b) | 0;
      state[0] = a;
      state[1] = b;
      state[2] = c;
      state[3] = d;
      return (a >>> 0) / TWO_TO_32;
    };
    if (key !== undefined) this.reseed(key);
  }

  /** Restarts the stream at `key`, exactly as seedrandom.tychei(key) starts: each character xored into b, then a round, 20 more rounds after the last. */
  reseed(key: string): this {
    const state = this.#state;
    state[0] = 0;
    state[1] = 0;
    state[2] = INITIAL_C;
    state[3] = INITIAL_D;
    for (let k = 0; k < key.length + 20; k++) {
      if (k < key.length) state[1] ^= key.charCodeAt(k);
      this.random();
    }
    return this;
  }

  /** Restarts the stream at chunk `chunkIndex` of (seed, rule). */
  reseedChunk(seed: string, ruleId: string, chunkIndex: number): this {
    return this.reseed(chunkKey(seed, ruleId, chunkIndex));
  }
}

/**
 * The random stream of one chunk of trials, as a fresh generator of its
 * own: for callers that hold several streams at once (tests). The engine's
 * loops, the calculator page's included, reuse one TycheStream per thread.
 */
export function chunkStream(seed: string, ruleId: string, chunkIndex: number): Rng {
  return new TycheStream(chunkKey(seed, ruleId, chunkIndex)).random;
}
