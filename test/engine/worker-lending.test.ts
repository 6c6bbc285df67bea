import { describe, expect, it } from 'vitest';
import { isPacked, type TallyMessage, unpackTally } from '../../src/engine/packed-tally.js';
import { runChunks } from '../../src/engine/run-chunks.js';
import { resolveParams } from '../../src/rules/params.js';
import { reserves } from '../../src/rules/reserves/reserves.js';
import simulateChunks, { Lending } from '../../workers/simulate.js';

/**
 * The buffers a pool worker keeps for its tallies (workers/simulate.ts),
 * in this thread: a sweep of reserves at 7 to 11 squads has tallies of
 * (S+1)^5 outcome codes, 32,768 to 248,832 entries, each sent packed. Made
 * as long as the longest (the task's tallyRoom) the first time, one buffer
 * serves them all; grown to each in turn, the shorter ones were left to the
 * collector, 2.8 MB per worker in the sweep of issue 25.
 */
const lengths = [8, 9, 10, 11].map((squads) => (squads + 1) ** 5);
const room = 12 ** 5;

/** A tally as sparse as an outcome histogram: packed on the way back, which frees its buffer for the next. */
function sparse(tally: Float64Array): Float64Array {
  tally[1] = 3;
  return tally;
}

describe('a worker’s kept tally buffer', () => {
  it('tallies of 9^5 to 12^5 entries, the room 12^5: one buffer, made once, 12^5 entries long', () => {
    const buffers = new Set<ArrayBufferLike>();
    for (const length of [...lengths, room]) {
      const lending = new Lending();
      const tally = lending.take(length, room);
      expect(tally.length).toBe(length);
      buffers.add(tally.buffer);
      expect(isPacked(lending.answer(sparse(tally)))).toBe(true);
    }
    expect(buffers.size).toBe(1);
    expect([...buffers][0].byteLength).toBe(room * Float64Array.BYTES_PER_ELEMENT);
  });

  it('a tally too short ever to travel packed (100 entries) gets a buffer of its own length, not the room', () => {
    const lending = new Lending();
    const held = lending.take(room, room); // the kept buffer of the test above, held by this task
    const short = lending.take(100, room);
    expect(short.buffer).not.toBe(held.buffer);
    expect(short.buffer.byteLength).toBe(100 * Float64Array.BYTES_PER_ELEMENT);
  });

  it('seed "room": a batch of 7 to 11 squads with the room of 11 answers each part as runChunks alone', async () => {
    const parts = [7, 8, 9, 10, 11].map((squads) => ({
      ruleId: 'reserves',
      params: resolveParams(reserves, [`squads=${squads}`]),
      seed: 'room',
      stream: 5 as const,
      firstChunk: 0,
      endChunk: 1,
      totalTrials: 20_000,
      tallyRoom: room,
    }));
    const answers = (await simulateChunks({ parts })) as TallyMessage[];
    expect(answers).toHaveLength(parts.length);
    for (const [index, part] of parts.entries())
      expect(Array.from(unpackTally(answers[index]))).toEqual(Array.from(runChunks(part, reserves)));
  });
});
