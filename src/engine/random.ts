import seedrandom from 'seedrandom';
import type { Rng } from '../rules/types.js';

/**
 * The random stream of one chunk of trials, derived from (seed, rule, chunk
 * index) alone, so a seed gives the same numbers whatever the thread count
 * or the machine that runs the chunk.
 *
 * alea was chosen by measurement (scripts/bench/generators.ts): the fastest
 * of seedrandom's algorithms on a d6 loop, with a period near 2^116 and clean
 * results on the usual batteries; seedrandom's default ARC4 is about six
 * times slower. Its string seed goes through Baagøe's Mash hash, so streams
 * of neighbouring chunk indices are unrelated.
 */
export function chunkStream(seed: string, ruleId: string, chunkIndex: number): Rng {
  return seedrandom.alea(`muster/${ruleId}/${seed}/${chunkIndex}`);
}
