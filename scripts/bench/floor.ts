/**
 * The floor of a rule file's trial: examples/rules/reserves-2d6.mjs's trial
 * written by hand, as fast as JavaScript runs it — the chunk's xoshiro128**
 * state copied into local variables, each die one output read as the
 * stream's own `dice.d` reads it (1 + ⌊6 · output · 2^-32⌋), the two metrics
 * counted in locals. What is left is the file's own logic: its loops and
 * their exits, which depend on the dice.
 *
 * It draws the very dice the file draws on stream 5 (and 2 to 4), chunk for
 * chunk, so the two must count the same successes and the same sum of
 * squads lost; the probe says whether they did. A rule file that ran at its
 * floor would have dice and a harness that cost nothing beyond these locals.
 */
import { join } from 'node:path';
import type { StreamVersion } from '../../src/contract/types.js';
import { chunkStream, xoshiroState } from '../../src/engine/random.js';
import { loadFromBuild as load } from './load-build.js';

const CHUNK = 65_536;
const TWO_TO_MINUS_32 = 2 ** -32;

/** One chunk of reserves-2d6's trial at (squads, target) on a xoshiro128** state; adds into counts[0..2]. */
export function reserves2d6Chunk(state: Int32Array, squads: number, target: number, counts: Float64Array): void {
  let s0 = state[0];
  let s1 = state[1];
  let s2 = state[2];
  let s3 = state[3];
  let all = 0;
  let lostSum = 0;
  let lostSquares = 0;
  for (let t = 0; t < CHUNK; t++) {
    let lost = 0;
    for (let squad = 0; squad < squads; squad++) {
      let arrived = false;
      for (let round = 1; round <= 4 && !arrived; round++) {
        // Two dice, each one xoshiro128** step (engine/random.ts xoshiroNext) read as the file's dice.d(6).
        let m = Math.imul(s1, 5);
        let output = Math.imul((m << 7) | (m >>> 25), 9);
        let t2 = s2 ^ s0;
        let t3 = s3 ^ s1;
        s0 ^= t3;
        s2 = t2 ^ (s1 << 9);
        s1 ^= t2;
        s3 = (t3 << 11) | (t3 >>> 21);
        const first = 1 + (((output >>> 0) * TWO_TO_MINUS_32 * 6) | 0);
        m = Math.imul(s1, 5);
        output = Math.imul((m << 7) | (m >>> 25), 9);
        t2 = s2 ^ s0;
        t3 = s3 ^ s1;
        s0 ^= t3;
        s2 = t2 ^ (s1 << 9);
        s1 ^= t2;
        s3 = (t3 << 11) | (t3 >>> 21);
        const second = 1 + (((output >>> 0) * TWO_TO_MINUS_32 * 6) | 0);
        arrived = first + second + round >= target;
      }
      if (!arrived) lost++;
    }
    if (lost === 0) all++;
    lostSum += lost;
    lostSquares += lost * lost;
  }
  counts[0] += all;
  counts[1] += lostSum;
  counts[2] += lostSquares;
}

/**
 * CPU nanoseconds a trial of reserves-2d6.mjs at its defaults, through muster's loop (runChunks, as a worker runs it)
 * and at its floor (above), taken turn about on the same chunks of one seed, the median of each; and whether the two
 * counted the same.
 */
export async function ruleFileFloor(
  root: string,
  seed: string,
  stream = 5,
  turns = 5,
  chunks = 12,
): Promise<{ fileNsPerTrial: number; floorNsPerTrial: number; agree: boolean }> {
  // ROOT's muster runs the file; the floor's dice are this checkout's stream (the same on every build that has it).
  const [{ runChunks }, { resolveParams }, { loadRuleFile }] = await Promise.all([
    load(root, 'src/engine/run-chunks.js'),
    load(root, 'src/rules/params.js'),
    load(root, 'src/rule-files/load.js'),
  ]);
  const file = join(root, 'examples/rules/reserves-2d6.mjs');
  const rule = await loadRuleFile(file);
  const params = resolveParams(rule);
  const cpu = (work: () => void) => {
    const started = process.cpuUsage();
    work();
    const { user, system } = process.cpuUsage(started);
    return ((user + system) * 1000) / (chunks * CHUNK);
  };
  let fileTally: Float64Array = new Float64Array(0);
  const counts = new Float64Array(3);
  const viaMuster = () => {
    fileTally = runChunks(
      { ruleId: rule.id, params, seed, stream, firstChunk: 0, endChunk: chunks, totalTrials: chunks * CHUNK },
      rule,
    );
  };
  const atFloor = () => {
    counts.fill(0);
    for (let chunk = 0; chunk < chunks; chunk++) {
      const state = xoshiroState(chunkStream(seed, rule.id, chunk, stream as StreamVersion)) as Int32Array;
      reserves2d6Chunk(state, params.squads as number, params.target as number, counts);
    }
  };
  // Warm-up: each compiled before it is timed.
  viaMuster();
  atFloor();
  const viaFile: number[] = [];
  const floor: number[] = [];
  for (let turn = 0; turn < turns; turn++) {
    viaFile.push(cpu(viaMuster));
    floor.push(cpu(atFloor));
  }
  // A baseline built before the rule contract was grouped (issue 34) has summarize on the rule itself.
  const read = (rule.tally ?? rule).summarize(params, fileTally, chunks * CHUNK);
  const agree =
    read['all.by.4'].successes === counts[0] &&
    read['lost.mean'].sum === counts[1] &&
    read['lost.mean'].sumOfSquares === counts[2];
  const middle = (list: number[]) => [...list].sort((a, b) => a - b)[list.length >> 1];
  return { fileNsPerTrial: middle(viaFile), floorNsPerTrial: middle(floor), agree };
}
