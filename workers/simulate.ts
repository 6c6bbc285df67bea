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
export default async function simulateChunks(
  task: ChunkTask | ChunkBatch,
): Promise<Float64Array | Float64Array[] | WorkerUsageError | PartFailure> {
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
    const lending = new Lending();
    for (const [index, part] of task.parts.entries()) {
      try {
        tallies.push(await runTask(part, lending));
      } catch (error) {
        if (error instanceof UsageError) return { usageError: error.message };
        return { failedPart: index, reason: error instanceof Error ? error.message : String(error) };
      }
    }
    return tallies;
  }
  try {
    return await runTask(task, new Lending());
  } catch (error) {
    if (error instanceof UsageError) return { usageError: error.message };
    throw error;
  }
}

async function runTask(task: ChunkTask, lending: Lending): Promise<Float64Array> {
  const rule = task.ruleFile
    ? await (await loadRules()).loadRuleFile(task.ruleFile.path, task.ruleFile.origin, task.ruleFile.sha256, true)
    : getRule(task.ruleId);
  return runChunks(task, rule, undefined, lending.take(rule.tallyLength(task.params)));
}

/** Most tally entries (8 bytes each) a thread keeps for reuse; beyond it, the buffers kept are let go. */
const KEPT_ENTRIES = 1 << 20;
/** Buffers kept for reuse, by length: the k-th tally of that length in a task is the k-th buffer. */
const kept = new Map<number, Float64Array[]>();
let keptEntries = 0;

/**
 * The tally buffers of one task. Piscina copies a task's answer into its
 * message as soon as the task returns, before the next task arrives, so the
 * next task may write into the same buffers: a sweep of a thousand points
 * with tallies of megabytes then allocates a few of them, not a thousand
 * (each a megabyte the collector frees only long after).
 */
class Lending {
  readonly #used = new Map<number, number>();

  take(length: number): Float64Array {
    const used = this.#used.get(length) ?? 0;
    this.#used.set(length, used + 1);
    let list = kept.get(length);
    if (list === undefined) {
      list = [];
      kept.set(length, list);
    }
    if (used < list.length) return list[used];
    if (keptEntries + length > KEPT_ENTRIES) {
      kept.clear();
      keptEntries = 0;
      list = [];
      kept.set(length, list);
      // Buffers this task already holds stay its own; the kept ones are started afresh.
      this.#used.clear();
      this.#used.set(length, 1);
    }
    const tally = new Float64Array(length);
    list.push(tally);
    keptEntries += length;
    return tally;
  }
}

/**
 * The rule-file loader (node:crypto, node:child_process, the adapter) is
 * imported by the first task that needs it, not by every worker as it
 * starts: a third of a worker's start-up, which every simulating command
 * waits for.
 */
let ruleFiles: Promise<typeof import('../src/rules/load-rule.js')> | undefined;
const loadRules = () => (ruleFiles ??= import('../src/rules/load-rule.js'));
