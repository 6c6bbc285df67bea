import type { Rng, StreamVersion } from '../contract/types.js';

/**
 * The random streams: one stream per chunk of trials, keyed by
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
 *
 * That is stream 1. Stream 2 (the default since it passed the checks in
 * docs/streams.md) is xoshiro128** (Blackman and Vigna; period 2^128 − 1,
 * passes BigCrush), whose state for each chunk is the first four outputs of
 * tyche-i at the chunk's key with "muster2/" in front. Dice counted or read
 * together come several to a draw and are exactly uniform: `below(b)` takes
 * the top 20 bits x of one output and returns ⌊x·b / 2^20⌋, drawing again
 * when (x·b mod 2^20) < (2^20 mod b) (Lemire's method, so each value has
 * exactly ⌊2^20 / b⌋ chances), and four d6 are one `below(1296)`. A rule's
 * loop then spends one generator step on four dice instead of four, which
 * is what took reserves past five times numpy's rate. A lone die, `roll`,
 * is 1 + ⌊sides·u⌋ of one uniform on both streams (each face within
 * sides·2^-32 of fair): measured, a rejection test on every single die cost
 * the dice-by-dice rules (noctvale, infinity) a quarter of their speed.
 *
 * Stream 3 (the default from its adoption until stream 5's) is stream 2's
 * generator, chunk seeds and dice, bit for bit; what differs is how one rule
 * reads them. fow draws several turns of a side's reserve dice at once, as
 * digits of the base its hit chance needs (rules/fow/plan.ts), instead of a
 * turn's dice four to a draw as on stream 2: that changes which dice a seed
 * gives fow, so it is a new stream, and stream 2 stays for reproducing its
 * results. Every other rule, rule files included, draws on stream 3 exactly
 * as on stream 2 (a test checks their tallies are equal).
 *
 * Stream 4 is stream 3 but for reserves beyond its outcome histogram (more
 * than 2^18 outcomes: many squads or rounds), where streams 1 to 3 roll one
 * uniform a die; stream 4 reads a squad's dice four to a draw there too, as
 * below the limit, so reserves costs about the same a die at every size.
 *
 * Stream 5 (the default since it passed the checks of docs/streams.md at
 * 10^8 trials) is stream 4 but for infinity, deployment and warbands, which
 * read several rolls, or several trials' dice, from one output, exactly
 * uniform (rules/draw-digits.ts, rules/warbands/dice.ts), and count outcomes
 * without branches. Every other rule draws on it exactly as on stream 4.
 */

/** The stream new runs use, and the ones `--stream` accepts. */
export const DEFAULT_STREAM: StreamVersion = 5;
export const STREAM_VERSIONS: readonly StreamVersion[] = [1, 2, 3, 4, 5];
/** The versions as a list for messages: "1, 2, 3, 4 or 5". */
export const STREAM_LIST =
  `${STREAM_VERSIONS.slice(0, -1).join(', ')} or ` + `${STREAM_VERSIONS[STREAM_VERSIONS.length - 1]}`;
/** What `--stream` (and the calculator's stream field) allows, for its error message. */
export const STREAMS_ALLOWED =
  '5 (the default), 4 (as 5 but infinity, deployment and warbands die by die: reproduces results made with stream ' +
  '4), 3 (as 4 but reserves one uniform a die beyond 2^18 outcomes: results made with stream 3, the default ' +
  'before 5), 2 (as 3 but fow turn by turn) or 1 (tyche-i, one uniform a die: results made before stream 2)';
/** `--stream`'s help line, the same on every command that simulates. */
export const STREAM_HELP =
  'random stream: 5 (default); 4, 3, 2 or 1 reproduce results made with those streams (docs/streams.md)';

/**
 * Largest bound `below` takes, and so the most faces a die may have: 2^12, so a rejected draw is rarer than 1 in 256.
 */
export const MAX_BOUND = 4096;

/** The key of chunk `chunkIndex` of a run: the one seedrandom's tychei was given since the first release. */
export function chunkKey(seed: string, ruleId: string, chunkIndex: number): string {
  return `muster/${ruleId}/${seed}/${chunkIndex}`;
}

/** tyche-i's initial state before the key is mixed in (Neves and Araujo; seedrandom's constants). */
const INITIAL_C = 2654435769 | 0;
const INITIAL_D = 1367130551;
const TWO_TO_32 = 4294967296;
/**
 * 2^-32, exactly: x · 2^-32 is x / 2^32 bit for bit for every 32-bit x (a power of two scales exactly), and a
 * multiplication is cheaper than a division (measured: a quarter of a rule file's die).
 */
export const TWO_TO_MINUS_32 = 1 / TWO_TO_32;

/**
 * One tyche-i generator whose state lives in a typed array, reseeded in
 * place: a worker keeps one for every chunk it runs, so the rules' call
 * site `rng()` always sees the same function. `random` is the uniform on
 * [0, 1) the rules draw from, 32 bits of one output each.
 */
export class TycheStream {
  /** a, b, c, d of tyche-i; int32 arithmetic throughout, as in the paper. */
  readonly #state = new Int32Array(4);
  /** The next uniform on [0, 1), a multiple of 2^-32, with stream 1's dice (one uniform a die) as its methods. */
  readonly random: Rng;

  constructor(key?: string) {
    const state = this.#state;
    const random = () => {
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
      return (a >>> 0) * TWO_TO_MINUS_32;
    };
    this.random = Object.assign(random, {
      stream: 1 as const,
      roll: (sides: number) => 1 + ((random() * sides) | 0),
      count: (n: number, sides: number, atLeast: number) => {
        let hits = 0;
        for (let die = 0; die < n; die++) hits += +(1 + ((random() * sides) | 0) >= atLeast);
        return hits;
      },
      below: (bound: number) => (random() * bound) | 0,
    });
    if (key !== undefined) this.reseed(key);
  }

  /** The next 32-bit output as an int32 (what `random` divides by 2^32). */
  nextInt32(): number {
    return (this.random() * TWO_TO_32) | 0;
  }

  /**
   * Restarts the stream at `key`, exactly as seedrandom.tychei(key) starts: each character xored into b, then a round,
   * 20 more rounds after the last.
   */
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

const TWENTY_BITS = 1 << 20;
/** Four d6 as one draw: `below(FOUR_D6)` gives them as base-6 digits. */
export const FOUR_D6 = 6 ** 4;

/** Stream 2's lookup tables; made by the first XoshiroStream, so a command that never simulates does not build them. */
interface DiceTables {
  /** 2^20 mod b for every bound b: a draw whose low part falls below it is drawn again. */
  rejectBelow: Int32Array;
  /**
   * For `count` with other dice: groupSize[s] dice of s faces come from one draw (the most whose s^k ≤ MAX_BOUND; one
   * for a d1), groupBound[s] = s^k.
   */
  groupSize: Uint8Array;
  groupBound: Int32Array;
}

let tables: DiceTables | undefined;
let count6: Uint8Array | undefined;

/**
 * d6 counted four at a time: count6[(n · 8 + t) · 1296 + v] is how many of
 * the first n base-6 digits of v are at least t − 1, i.e. how many of n
 * dice show t or more. Built by the first `count` of d6, not with the other
 * tables: most rules never count dice, and this one took a few milliseconds
 * of every simulating command's start-up.
 */
function countTable(): Uint8Array {
  if (count6) return count6;
  count6 = new Uint8Array(5 * 8 * FOUR_D6);
  const faces = new Int32Array(4);
  for (let v = 0; v < FOUR_D6; v++) {
    for (let die = 0, rest = v; die < 4; die++, rest = (rest / 6) | 0) faces[die] = 1 + (rest % 6);
    for (let atLeast = 0; atLeast < 8; atLeast++) {
      let hits = 0;
      for (let n = 1; n <= 4; n++) {
        hits += +(faces[n - 1] >= atLeast);
        count6[(n * 8 + atLeast) * FOUR_D6 + v] = hits;
      }
    }
  }
  return count6;
}

function diceTables(): DiceTables {
  if (tables) return tables;
  const rejectBelow = new Int32Array(MAX_BOUND + 1);
  for (let bound = 1; bound <= MAX_BOUND; bound++) rejectBelow[bound] = TWENTY_BITS % bound;
  const groupSize = new Uint8Array(MAX_BOUND + 1);
  const groupBound = new Int32Array(MAX_BOUND + 1);
  for (let sides = 1; sides <= MAX_BOUND; sides++) {
    let size = 1;
    let bound = sides;
    // A one-sided die has one face whatever the count: one of them a draw (sides^k would never pass the bound).
    while (sides > 1 && bound * sides <= MAX_BOUND) {
      bound *= sides;
      size++;
    }
    groupSize[sides] = size;
    groupBound[sides] = bound;
  }
  tables = { rejectBelow, groupSize, groupBound };
  return tables;
}

/** Each XoshiroStream's `random` and its state, for dice that step the generator themselves (xoshiroState). */
const xoshiroStates = new WeakMap<Rng, Int32Array>();

/**
 * One step of xoshiro128** on `state` (s0 … s3, updated in place): its next 32-bit output as a signed int32.
 * The one copy of the generator: XoshiroStream draws through it, and so do the rule files' dice
 * (rule-files/dice.ts) on the stream's own state.
 */
export function xoshiroNext(state: Int32Array): number {
  const s0 = state[0];
  const s1 = state[1];
  const s2 = state[2] ^ s0;
  const s3 = state[3] ^ s1;
  const m = Math.imul(s1, 5);
  const out = Math.imul((m << 7) | (m >>> 25), 9);
  state[0] = s0 ^ s3;
  state[1] = s1 ^ s2;
  state[2] = s2 ^ (s1 << 9);
  state[3] = (s3 << 11) | (s3 >>> 21);
  return out;
}

/**
 * The state s0 … s3 of the xoshiro128** stream `rng` (streams 2 to 4), or undefined for another stream: a caller that
 * steps it as XoshiroStream's `next` does draws the very numbers the stream's own methods would, cheaper (the rule
 * files' dice, rule-files/dice.ts). The stream's methods and the caller then share one state.
 */
export function xoshiroState(rng: Rng): Int32Array | undefined {
  return xoshiroStates.get(rng);
}

/**
 * Stream 2: xoshiro128** with its state in a typed array (int32 values in
 * closure variables would be boxed), reseeded in place per chunk like
 * TycheStream, and dice drawn as described at the top of this file.
 */
export class XoshiroStream {
  readonly #state = new Int32Array(4);
  readonly #seeder = new TycheStream();
  /** The next uniform on [0, 1), a multiple of 2^-32, with stream 2's dice as its methods. */
  readonly random: Rng;

  /** `version` 2 to 5: the same generator and dice; the rules read the version off `random.stream`. */
  constructor(key?: string, version: 2 | 3 | 4 | 5 = 2) {
    const state = this.#state;
    const { rejectBelow, groupSize, groupBound } = diceTables();
    const next = (): number => xoshiroNext(state);
    const below = (bound: number): number => {
      const reject = rejectBelow[bound];
      // Outside 1 … MAX_BOUND (or not whole) there is no entry, and the loop below would never end.
      if (reject === undefined || bound < 1)
        throw new RangeError(`below: bound ${bound}; allowed: a whole number from 1 to ${MAX_BOUND}`);
      for (;;) {
        const product = (next() >>> 12) * bound;
        if ((product & (TWENTY_BITS - 1)) >= reject) return product >>> 20;
      }
    };
    // `count` with its d6 table, put in place by the first call (the table is built then, not with the stream).
    const countWith =
      (table: Uint8Array) =>
      (n: number, sides: number, atLeast: number): number => {
        if (sides !== 6) return countOther(n, sides, atLeast);
        const t = atLeast < 0 ? 0 : Math.min(atLeast, 7);
        let hits = 0;
        for (let left = n; left > 0; left -= 4) hits += table[(Math.min(left, 4) * 8 + t) * FOUR_D6 + below(FOUR_D6)];
        return hits;
      };
    const count = (n: number, sides: number, atLeast: number): number => {
      const counting = countWith(countTable());
      (this.random as { count: Rng['count'] }).count = counting;
      return counting(n, sides, atLeast);
    };
    const countOther = (n: number, sides: number, atLeast: number): number => {
      const group = groupSize[sides];
      let hits = 0;
      for (let left = n; left > 0; left -= group) {
        const size = Math.min(left, group);
        let rest = below(size === group ? groupBound[sides] : sides ** size);
        for (let die = 0; die < size; die++) {
          hits += +(1 + (rest % sides) >= atLeast);
          rest = Math.floor(rest / sides);
        }
      }
      return hits;
    };
    const uniform = () => (next() >>> 0) * TWO_TO_MINUS_32;
    this.random = Object.assign(uniform, {
      stream: version,
      // One die as on stream 1, 1 + ⌊sides·u⌋ (each face within sides·2^-32 of fair): a lone die costs no
      // rejection test, and the built-in rules' single dice, written that way inline, are the same dice.
      roll: (sides: number) => 1 + ((uniform() * sides) | 0),
      count,
      below,
    });
    xoshiroStates.set(this.random, state);
    if (key !== undefined) this.reseed(key);
  }

  /** Restarts the stream at `key`: the state is tyche-i's first four outputs at "muster2/" + key (never all zero). */
  reseed(key: string): this {
    const seeder = this.#seeder.reseed(`muster2/${key}`);
    const state = this.#state;
    for (let word = 0; word < 4; word++) state[word] = seeder.nextInt32();
    if ((state[0] | state[1] | state[2] | state[3]) === 0) state[0] = 1;
    return this;
  }

  /** Restarts the stream at chunk `chunkIndex` of (seed, rule). */
  reseedChunk(seed: string, ruleId: string, chunkIndex: number): this {
    return this.reseed(chunkKey(seed, ruleId, chunkIndex));
  }
}

/** One generator of each stream, for a thread that reuses them chunk after chunk. */
export interface ChunkStreams {
  /** The stream `version` reseeded at chunk `chunkIndex` of (seed, rule). */
  chunk(version: StreamVersion, seed: string, ruleId: string, chunkIndex: number): Rng;
}

export function chunkStreams(): ChunkStreams {
  // Each made on first use: a thread that only merges (the CLI's main thread) never builds the dice tables.
  const made: Array<TycheStream | XoshiroStream | undefined> = [];
  const generator = (version: StreamVersion) =>
    (made[version] ??= version === 1 ? new TycheStream() : new XoshiroStream(undefined, version));
  return {
    chunk: (version, seed, ruleId, chunkIndex) => generator(version).reseedChunk(seed, ruleId, chunkIndex).random,
  };
}

/**
 * The random stream of one chunk of trials, as a fresh generator of its
 * own: for callers that hold several streams at once (tests). The engine's
 * loops, the calculator page's included, reuse one generator per thread.
 */
export function chunkStream(seed: string, ruleId: string, chunkIndex: number, version: StreamVersion): Rng {
  const key = chunkKey(seed, ruleId, chunkIndex);
  return version === 1 ? new TycheStream(key).random : new XoshiroStream(key, version).random;
}
