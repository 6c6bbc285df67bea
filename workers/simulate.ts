// A pool worker: run the chunks it is handed and send a copy of the tally back.
// A rule file is imported once per worker (cached by path and hash); a user's
// mistake comes back as data, so the CLI prints one line and no worker stack.
import type { ExactPointsAnswer, ExactPointsTask } from '../src/analysis/exact-points-task.js';
import { PACK_FROM_ENTRIES, packTally, type TallyMessage } from '../src/engine/packed-tally.js';
import type { WorkerUsageError } from '../src/engine/pool.js';
import { type ChunkBatch, type ChunkTask, type PartFailure, runChunks } from '../src/engine/run-chunks.js';
import { UsageError } from '../src/errors.js';
import { type CallMarker, noteExit, watchRuleCalls } from '../src/guard/rule-calls.js';
import { getRule } from '../src/rules/index.js';

// process.exit in a worker ends only this thread: noted in the task's marker, so the pool reports that the
// rule's code called it instead of calling it a bug of muster's.
const exit = process.exit.bind(process);
process.exit = ((code?: number | string | null) => {
  noteExit(code);
  return exit(code as number);
}) as typeof process.exit;

/**
 * The tally is returned as it is, or packed when mostly zeros (an outcome
 * histogram: engine/packed-tally.ts), so the message carries a copy of a few
 * kilobytes. Transferring the buffer instead (piscina's `move`) detaches an
 * ArrayBuffer in this thread, after which V8 takes its slower path for typed
 * arrays here, the rules' tallies included: measured slower end to end.
 */
export default async function simulateChunks(
  task: ChunkTask | ChunkBatch | (ExactPointsTask & { calls?: CallMarker }),
): Promise<TallyMessage | TallyMessage[] | WorkerUsageError | PartFailure | ExactPointsAnswer> {
  // A rule file's task says where to mark the rule's function this thread runs (guard/rule-calls.ts).
  watchRuleCalls(task.calls);
  try {
    if ('exactPoints' in task) return await solveExact(task);
    return await runAny(task);
  } finally {
    watchRuleCalls(null);
  }
}

/** A grid's exact points (analysis/exact-points-task.ts), each rule found as a chunk task's is. */
async function solveExact(task: ExactPointsTask): Promise<ExactPointsAnswer> {
  const { solveExactPoints } = await (exactPoints ??= import('../src/analysis/exact-points-task.js'));
  return solveExactPoints(task, async (point) =>
    point.ruleFile
      ? (await loadRules()).loadRuleFile(point.ruleFile.path, point.ruleFile.origin, point.ruleFile.sha256, true)
      : getRule(point.ruleId),
  );
}

type Answer = TallyMessage | TallyMessage[] | WorkerUsageError | PartFailure;

async function runAny(task: ChunkTask | ChunkBatch): Promise<Answer> {
  if ('parts' in task) {
    // A batch: every part alone, each tally kept apart. A part that throws is named, so the
    // message gives its chunks, not the whole batch's.
    const tallies: TallyMessage[] = [];
    const lending = new Lending();
    for (const [index, part] of task.parts.entries()) {
      try {
        tallies.push(lending.answer(await runTask(part, lending)));
      } catch (error) {
        if (error instanceof UsageError) return { usageError: error.message };
        return { failedPart: index, reason: error instanceof Error ? error.message : String(error) };
      }
    }
    return tallies;
  }
  try {
    const lending = new Lending();
    return lending.answer(await runTask(task, lending));
  } catch (error) {
    if (error instanceof UsageError) return { usageError: error.message };
    throw error;
  }
}

async function runTask(task: ChunkTask, lending: Lending): Promise<Float64Array> {
  const rule = task.ruleFile
    ? await (await loadRules()).loadRuleFile(task.ruleFile.path, task.ruleFile.origin, task.ruleFile.sha256, true)
    : getRule(task.ruleId);
  return runChunks(task, rule, undefined, lending.take(rule.tally.length(task.params), task.tallyRoom));
}

/** Most tally entries (8 bytes each) a thread keeps for reuse; a tally beyond it gets a buffer of its own. */
const KEPT_ENTRIES = 1 << 20;
/** Buffers kept for reuse: the k-th tally a task holds at once is written into the k-th (a view of its start). */
const kept: Float64Array[] = [];
let keptEntries = 0;

/**
 * The tally buffers of one task. Piscina copies a task's answer into its
 * message as soon as the task returns, before the next task arrives, so the
 * next task may write into the same buffers; and a tally sent packed is
 * copied out at once, so the task's next part may write into its buffer.
 * A buffer serves any tally as long or shorter: a sweep whose points have
 * tallies of a dozen lengths (reserves at 1 to 11 squads) then keeps about
 * one buffer of the longest, not one of each length (each megabytes the
 * collector of a thread that allocates little frees only long after).
 * And a buffer for a tally that may travel packed (and so frees it for the
 * next) is made as long as the longest tally of the task's runs (`room`)
 * the first time: grown point by point instead, the sweep's buffers of 1
 * to 10 squads (2.8 MB) stayed resident as garbage beside the last one.
 * Exported for its test only.
 */
export class Lending {
  #held = 0;

  take(length: number, room = 0): Float64Array {
    const slot = this.#held++;
    let buffer = kept[slot];
    if (buffer === undefined || buffer.length < length) {
      const others = keptEntries - (buffer?.length ?? 0);
      let size = length >= PACK_FROM_ENTRIES ? Math.max(length, room) : length;
      if (others + size > KEPT_ENTRIES) size = length;
      if (others + size > KEPT_ENTRIES) return new Float64Array(length);
      buffer = new Float64Array(size);
      kept[slot] = buffer;
      keptEntries = others + size;
    }
    return buffer.length === length ? buffer : buffer.subarray(0, length);
  }

  /**
   * The tally as the task sends it back: packed (and its buffer free for the
   * task's next tally), or as it is. A view of a longer buffer is copied, as
   * a message would carry the whole buffer behind it.
   */
  answer(tally: Float64Array): TallyMessage {
    const message = packTally(tally);
    if (message !== tally) {
      this.#held--;
      return message;
    }
    return tally.length === tally.buffer.byteLength / Float64Array.BYTES_PER_ELEMENT ? tally : tally.slice();
  }
}

/**
 * The rule-file loader (node:crypto, node:child_process, the adapter) is
 * imported by the first task that needs it, not by every worker as it
 * starts: a third of a worker's start-up, which every simulating command
 * waits for.
 */
let ruleFiles: Promise<typeof import('../src/rule-files/load.js')> | undefined;
const loadRules = () => (ruleFiles ??= import('../src/rule-files/load.js'));
/** The exact solvers, likewise imported by the first task that solves exact points. */
let exactPoints: Promise<typeof import('../src/analysis/exact-points-task.js')> | undefined;
