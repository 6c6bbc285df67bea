// A pool worker: run the chunks it is handed and send a copy of the tally back.
// A rule file is imported once per worker (cached by path and hash); a user's
// mistake comes back as data, so the CLI prints one line and no worker stack.
import type { WorkerUsageError } from '../src/engine/pool.js';
import { runChunks, type ChunkBatch, type ChunkTask, type PartFailure } from '../src/engine/run-chunks.js';
import { UsageError } from '../src/errors.js';
import { getRule } from '../src/rules/index.js';
import { noteExit, watchRuleCalls } from '../src/rules/rule-calls.js';

// process.exit in a worker ends only this thread: noted in the task's marker, so the pool reports that the
// rule's code called it instead of calling it a bug of muster's.
const exit = process.exit.bind(process);
process.exit = ((code?: number | string | null) => {
  noteExit(code);
  return exit(code as number);
}) as typeof process.exit;

/**
 * The tally is returned as it is, so the message carries a copy of its few
 * kilobytes. Transferring the buffer instead (piscina's `move`) detaches an
 * ArrayBuffer in this thread, after which V8 takes its slower path for typed
 * arrays here, the rules' tallies included: measured slower end to end.
 */
export default async function simulateChunks(task: ChunkTask | ChunkBatch): Promise<Float64Array | Float64Array[] | WorkerUsageError | PartFailure> {
  // A rule file's task says where to mark the rule's function this thread runs (rules/rule-calls.ts).
  watchRuleCalls(task.calls);
  try {
    return await runAny(task);
  } finally {
    watchRuleCalls(null);
  }
}

type Answer = Float64Array | Float64Array[] | WorkerUsageError | PartFailure;

async function runAny(task: ChunkTask | ChunkBatch): Promise<Answer> {
  if ('parts' in task) {
    // A batch: every part alone, each tally kept apart. A part that throws is named, so the
    // message gives its chunks, not the whole batch's.
    const tallies: Float64Array[] = [];
    for (const [index, part] of task.parts.entries()) {
      try {
        tallies.push(await runTask(part));
      } catch (error) {
        if (error instanceof UsageError) return { usageError: error.message };
        return { failedPart: index, reason: error instanceof Error ? error.message : String(error) };
      }
    }
    return tallies;
  }
  try {
    return await runTask(task);
  } catch (error) {
    if (error instanceof UsageError) return { usageError: error.message };
    throw error;
  }
}

async function runTask(task: ChunkTask): Promise<Float64Array> {
  const rule = task.ruleFile ? await (await loadRules()).loadRuleFile(task.ruleFile.path, task.ruleFile.origin, task.ruleFile.sha256, true) : getRule(task.ruleId);
  return runChunks(task, rule);
}

/**
 * The rule-file loader (node:crypto, node:child_process, the adapter) is
 * imported by the first task that needs it, not by every worker as it
 * starts: a third of a worker's start-up, which every simulating command
 * waits for.
 */
let ruleFiles: Promise<typeof import('../src/rules/load-rule.js')> | undefined;
const loadRules = () => (ruleFiles ??= import('../src/rules/load-rule.js'));
