import type { Params, Rule, RuleFile, StreamVersion } from '../contract/types.js';
import type { CallMarker } from '../guard/rule-calls.js';
import { chunkTrials } from './chunks.js';
import { chunkStreams } from './random.js';

/** What one worker task asks for: a range of chunks of one run. */
export interface ChunkTask {
  ruleId: string;
  params: Params;
  seed: string;
  /** Which random stream the chunks draw from (engine/random.ts). */
  stream: StreamVersion;
  firstChunk: number;
  endChunk: number;
  /** The run's total trials, which fixes the length of its final chunk. */
  totalTrials: number;
  /** For a rule file's rule: the file the worker imports (and checks by hash) instead of looking up ruleId. */
  ruleFile?: RuleFile;
  /** For a rule file's task: where the worker marks the rule's function it runs (guard/rule-calls.ts). */
  calls?: CallMarker;
  /**
   * The longest tally of the runs this task is one of (many runs at once: engine/simulate-many.ts), so that a worker
   * makes the buffer it keeps for tallies once, that long, instead of again for each longer one (workers/simulate.ts).
   */
  tallyRoom?: number;
}

/**
 * Several small tasks sent as one message (a sweep's points of a chunk or
 * two each): each part is run exactly as it would be alone, on its own
 * streams into its own tally, so batching changes no count, only how many
 * messages cross between the threads.
 */
export interface ChunkBatch {
  parts: ChunkTask[];
  /** As ChunkTask.calls, for the whole batch. */
  calls?: CallMarker;
}

/**
 * A part of a batch that threw: which part, and the first line of why (a bug, reported as a WorkerError naming its
 * chunks).
 */
export interface PartFailure {
  failedPart: number;
  reason: string;
}

/**
 * The one generator of each stream in this thread, reseeded for every
 * chunk: the rules' `rng()` call sites then see a single function for the
 * life of the thread, and no stream is allocated per chunk. A rule's
 * simulate runs to the end before the next chunk starts, so sharing them is
 * safe.
 */
const streams = chunkStreams();

/**
 * Runs chunks [firstChunk, endChunk), each on its own stream, into one
 * tally. The same function runs in workers, in-process and in the
 * calculator page's workers, so a tally never depends on where it was
 * computed. `onChunk` hears the trials of each chunk as it finishes. The
 * tally is `into`, cleared, when given one of the rule's length (a worker's
 * reused buffer), else a new one.
 */
export function runChunks(
  task: ChunkTask,
  rule: Rule,
  onChunk?: (trials: number) => void,
  into?: Float64Array,
): Float64Array {
  const length = rule.tally.length(task.params);
  const tally = into?.length === length ? into.fill(0) : new Float64Array(length);
  for (let chunk = task.firstChunk; chunk < task.endChunk; chunk++) {
    const trials = chunkTrials(chunk, task.totalTrials);
    if (trials > 0)
      rule.tally.simulate(task.params, streams.chunk(task.stream, task.seed, task.ruleId, chunk), trials, tally);
    onChunk?.(trials);
  }
  return tally;
}

/**
 * Adds `from` into `into`. Entries are integer counts below 2^53, so the sum is exact and the merge order cannot
 * matter.
 */
export function mergeTally(into: Float64Array, from: Float64Array): void {
  if (into.length !== from.length) throw new Error(`tally length mismatch: ${into.length} vs ${from.length}`);
  for (let i = 0; i < into.length; i++) into[i] += from[i];
}
