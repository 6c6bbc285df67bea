/**
 * Trials are cut into chunks of a fixed size that does not depend on the
 * thread count: chunk k always holds trials k·CHUNK_TRIALS onwards and
 * always draws from stream k. Threads only decide who runs which chunk.
 */
export const CHUNK_TRIALS = 65_536;

export interface ChunkRange {
  /** First chunk index. */
  first: number;
  /** One past the last chunk index. */
  end: number;
  /** Trials in the whole range; only the run's final chunk may be short. */
  trials: number;
}

/** Trials in chunk `index` of a run of `totalTrials`. */
export function chunkTrials(index: number, totalTrials: number): number {
  return Math.max(0, Math.min(CHUNK_TRIALS, totalTrials - index * CHUNK_TRIALS));
}

/** Trials in chunks [first, end) of a run of `totalTrials`. */
export function trialsInChunks(first: number, end: number, totalTrials: number): number {
  let trials = 0;
  for (let k = first; k < end; k++) trials += chunkTrials(k, totalTrials);
  return trials;
}

/** Chunks in a run of `totalTrials`. */
export function chunkCount(totalTrials: number): number {
  return Math.ceil(totalTrials / CHUNK_TRIALS);
}

/**
 * Chunks a task of `chunks` in all should hold: at least eight tasks a
 * thread (to keep every thread busy and report progress), at most 16
 * chunks a task beyond that (few enough messages to cost nothing).
 */
export function chunksPerTask(chunks: number, threads: number): number {
  return Math.ceil(chunks / Math.min(chunks, Math.max(threads * 8, Math.ceil(chunks / 16))));
}

/**
 * Splits chunks [firstChunk, endChunk) of a run of `totalTrials` into
 * tasks of consecutive chunks: enough tasks to keep every thread busy and
 * report progress, few enough that messages cost nothing against the work.
 */
export function planTasks(
  firstChunk: number,
  totalTrials: number,
  threads: number,
  endChunk = chunkCount(totalTrials),
): ChunkRange[] {
  const chunks = endChunk - firstChunk;
  if (chunks <= 0) return [];
  const perTask = chunksPerTask(chunks, threads);
  const ranges: ChunkRange[] = [];
  for (let first = firstChunk; first < endChunk; first += perTask) {
    const end = Math.min(endChunk, first + perTask);
    let trials = 0;
    for (let k = first; k < end; k++) trials += chunkTrials(k, totalTrials);
    ranges.push({ first, end, trials });
  }
  return ranges;
}

/**
 * The chunks shard `index` of `shards` runs: consecutive blocks as even as
 * possible, so shards on separate machines together run each chunk once.
 */
export function shardChunks(totalTrials: number, index: number, shards: number): { first: number; end: number } {
  const chunks = chunkCount(totalTrials);
  return { first: Math.floor((index * chunks) / shards), end: Math.floor(((index + 1) * chunks) / shards) };
}
