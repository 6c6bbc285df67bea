/**
 * A built-in rule's whole run computed in this thread, chunk 0 to the last, as the engine computes it: what the
 * tests hold to exact values, or a pool's, a shard's or the CLI's run of the same seed and stream to.
 */
import type { Params, StreamVersion } from '../../src/contract/types.js';
import { CHUNK_TRIALS } from '../../src/engine/chunks.js';
import { runBuiltinChunks } from '../../src/rules/index.js';

export interface WholeRun {
  ruleId: string;
  params: Params;
  seed: string;
  stream: StreamVersion;
  trials: number;
  /** The chunks run, from chunk 0: every chunk of `trials` unless told. */
  chunks?: number;
}

/** The tally of the run's chunks 0 to `chunks` (every chunk of its trials unless told). */
export function wholeRunTally({ ruleId, params, seed, stream, trials, chunks }: WholeRun): Float64Array {
  return runBuiltinChunks({
    ruleId,
    params,
    seed,
    stream,
    firstChunk: 0,
    endChunk: chunks ?? Math.ceil(trials / CHUNK_TRIALS),
    totalTrials: trials,
  });
}
