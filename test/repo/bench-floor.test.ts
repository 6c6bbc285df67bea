/**
 * `npm run bench` holds reserves-2d6.mjs against its floor: the file's trial written by hand with the dice in local
 * variables (scripts/bench/floor.ts). The comparison means something only if the port does the file's work on the
 * file's dice, so here it must count exactly what muster counts running the file, chunk for chunk, on each xoshiro128**
 * stream and at settings away from the defaults (the first squad always in at target 2, never at target 16).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { reserves2d6Chunk } from '../../scripts/bench/floor.js';
import type { StreamVersion } from '../../src/contract/types.js';
import { CHUNK_TRIALS } from '../../src/engine/chunks.js';
import { chunkStream, xoshiroState } from '../../src/engine/random.js';
import { runChunks } from '../../src/engine/run-chunks.js';
import { loadRuleFile } from '../../src/rule-files/load.js';
import { resolveParams } from '../../src/rules/params.js';

const file = fileURLToPath(new URL('../../examples/rules/reserves-2d6.mjs', import.meta.url));

describe('bench floor: reserves-2d6.mjs by hand', () => {
  it.each([
    [5, []],
    [5, ['squads=1', 'target=2']],
    [4, ['squads=12', 'target=16']],
    [3, ['squads=5', 'target=12']],
  ] as Array<[StreamVersion, string[]]>)(
    'stream %i, %j: the same counts as the file through muster',
    async (stream, set) => {
      const rule = await loadRuleFile(file);
      const params = resolveParams(rule, set);
      const chunks = 3;
      const tally = runChunks(
        {
          ruleId: rule.id,
          params,
          seed: 'floor',
          stream,
          firstChunk: 0,
          endChunk: chunks,
          totalTrials: chunks * CHUNK_TRIALS,
        },
        rule,
      );
      const read = rule.tally.summarize(params, tally, chunks * CHUNK_TRIALS);
      const counts = new Float64Array(3);
      for (let chunk = 0; chunk < chunks; chunk++) {
        const state = xoshiroState(chunkStream('floor', rule.id, chunk, stream)) as Int32Array;
        reserves2d6Chunk(state, params.squads as number, params.target as number, counts);
      }
      const allIn = read['all.by.4'];
      const lost = read['lost.mean'];
      if (allIn.kind !== 'proportion' || lost.kind !== 'mean')
        throw new Error('reserves-2d6.mjs: metrics changed kind');
      expect([counts[0], counts[1], counts[2]]).toEqual([allIn.successes, lost.sum, lost.sumOfSquares]);
      // Not a vacuous agreement: the counts are neither empty nor every trial.
      if (set.includes('target=2')) expect(counts[1]).toBe(0);
      else expect(counts[1]).toBeGreaterThan(0);
    },
  );
});
