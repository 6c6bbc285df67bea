/**
 * How the shards of a sweep share its work. Every point runs the same
 * chunks (the same trials, the same streams), so the work is the points'
 * chunks laid end to end, point 0 first; shard i of n takes the i-th of n
 * even consecutive blocks. With more points than shards a shard runs whole
 * points (cutting at most the first and last it touches); with fewer, each
 * point's chunks are split between several shards. Either way each chunk
 * of each point is run by exactly one shard.
 */
import { chunkCount } from '../engine/chunks.js';

/** Chunks [first, end) of point `point`. */
export interface GridPiece {
  point: number;
  first: number;
  end: number;
}

export function gridShardPieces(points: number, trials: number, index: number, shards: number): GridPiece[] {
  const perPoint = chunkCount(trials);
  const total = points * perPoint;
  const from = Math.floor((index * total) / shards);
  const to = Math.floor(((index + 1) * total) / shards);
  const pieces: GridPiece[] = [];
  for (let point = Math.floor(from / perPoint); point * perPoint < to; point++) {
    const first = Math.max(from, point * perPoint) - point * perPoint;
    const end = Math.min(to, (point + 1) * perPoint) - point * perPoint;
    if (end > first) pieces.push({ point, first, end });
  }
  return pieces;
}
