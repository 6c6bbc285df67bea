/**
 * A tally as it crosses between threads: as it is, or packed to its
 * non-zero entries when they are few. An outcome histogram is mostly zeros
 * (reserves at 11 squads: 248,832 codes, of which only the 1,365 ways 11
 * squads can split among 5 round indices can happen), and sent as it is
 * each task's copy is a buffer of megabytes the receiving thread allocates
 * and frees only at its next collection: a sweep of such points then holds
 * tens of megabytes of tallies already read. Packed, the same task sends
 * kilobytes, which the receiver adds into a tally it reuses.
 */
import { mergeTally } from './run-chunks.js';

/** A tally of `length` entries, zero except at `at[k]`, which holds `values[k]` (indices ascending). */
export interface PackedTally {
  length: number;
  at: Int32Array;
  values: Float64Array;
}

/** What a worker sends back for one tally. */
export type TallyMessage = Float64Array | PackedTally;

/** Tallies shorter than this travel as they are: packed, they would save a few kilobytes at most. */
export const PACK_FROM_ENTRIES = 4096;

/**
 * The tally packed when at most a quarter of its entries are non-zero (12
 * bytes each packed against 8 an entry as it is), else the tally itself.
 * Stops counting as soon as the quarter is passed, so a dense tally costs
 * a fraction of one pass over it.
 *
 * @example packTally(Float64Array.from({ length: 8192 }, (_, i) => (i === 5 ? 3 : 0)))
 * // { length: 8192, at: Int32Array [5], values: Float64Array [3] }
 */
export function packTally(tally: Float64Array): TallyMessage {
  if (tally.length < PACK_FROM_ENTRIES) return tally;
  const most = tally.length >> 2;
  let nonZero = 0;
  for (let i = 0; i < tally.length; i++) {
    if (tally[i] !== 0 && ++nonZero > most) return tally;
  }
  const at = new Int32Array(nonZero);
  const values = new Float64Array(nonZero);
  for (let i = 0, k = 0; k < nonZero; i++) {
    if (tally[i] !== 0) {
      at[k] = i;
      values[k++] = tally[i];
    }
  }
  return { length: tally.length, at, values };
}

/** Whether a message is packed. */
export function isPacked(message: TallyMessage): message is PackedTally {
  return !(message instanceof Float64Array);
}

/** The message's entries as a whole tally (the message itself when it was sent as it is). */
export function unpackTally(message: TallyMessage): Float64Array {
  if (!isPacked(message)) return message;
  const tally = new Float64Array(message.length);
  addPacked(tally, message);
  return tally;
}

/**
 * Adds a message's entries into `into`, as mergeTally adds a whole tally:
 * entries are integer counts below 2^53, so leaving out the zeros changes
 * no bit of the sum.
 */
export function addTallyMessage(into: Float64Array, message: TallyMessage): void {
  if (isPacked(message)) addPacked(into, message);
  else mergeTally(into, message);
}

function addPacked(into: Float64Array, packed: PackedTally): void {
  if (into.length !== packed.length) throw new Error(`tally length mismatch: ${into.length} vs ${packed.length}`);
  const { at, values } = packed;
  for (let k = 0; k < at.length; k++) into[at[k]] += values[k];
}
