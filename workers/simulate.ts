// A pool worker: run the chunks it is handed and transfer the tally's buffer back.
// A rule file is imported once per worker (cached by path and hash); a user's
// mistake comes back as data, so the CLI prints one line and no worker stack.
import { move } from 'piscina';
import type { WorkerUsageError } from '../src/engine/pool.js';
import { runChunks, type ChunkTask } from '../src/engine/run-chunks.js';
import { UsageError } from '../src/errors.js';
import { getRule } from '../src/rules/index.js';
import { loadRuleFile } from '../src/rules/load-rule.js';

export default async function simulateChunks(task: ChunkTask): Promise<ArrayBuffer | WorkerUsageError> {
  try {
    const rule = task.ruleFile ? await loadRuleFile(task.ruleFile.path, task.ruleFile.origin, task.ruleFile.sha256, true) : getRule(task.ruleId);
    const tally = runChunks(task, rule);
    return move(tally.buffer as ArrayBuffer) as unknown as ArrayBuffer;
  } catch (error) {
    if (error instanceof UsageError) return { usageError: error.message };
    throw error;
  }
}
