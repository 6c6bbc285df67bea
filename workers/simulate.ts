// A pool worker: run the chunks it is handed and transfer the tally's buffer back.
import { move } from 'piscina';
import { runChunks, type ChunkTask } from '../src/engine/run-chunks.js';

export default function simulateChunks(task: ChunkTask): ArrayBuffer {
  const tally = runChunks(task);
  return move(tally.buffer as ArrayBuffer) as unknown as ArrayBuffer;
}
