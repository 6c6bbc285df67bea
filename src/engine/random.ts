import seedrandom from 'seedrandom';
import type { Rng } from '../rules/types.js';

/**
 * The random stream of one chunk of trials, derived from (seed, rule, chunk
 * index) alone, so a seed gives the same numbers whatever the thread count
 * or the machine that runs the chunk.
 *
 * tyche-i was chosen by measurement (npm run bench:generators, each
 * generator alone in its process): the fastest of seedrandom's algorithms on
 * a d6 loop, 1.7× alea and 11× the default ARC4. It is Neves and Araujo's
 * ChaCha-quarter-round generator (period about 2^127), which passes TestU01's
 * BigCrush; xor128, nearly as fast, is a plain xorshift and fails its
 * linear-complexity tests. Every character of the key is mixed into the
 * state and 20 rounds follow, so neighbouring chunk indices start far apart.
 */
export function chunkStream(seed: string, ruleId: string, chunkIndex: number): Rng {
  return seedrandom.tychei(`muster/${ruleId}/${seed}/${chunkIndex}`);
}
