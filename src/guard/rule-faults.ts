/**
 * What muster says when a rule file's code fails in a way only a watcher
 * sees (rule-calls.ts): it does not return, ends its thread, fills the heap
 * or throws from a timer of its own. One wording for the rule thread's
 * supervisor (cli/supervisor.ts) and for the pool (engine/pool.ts), each a
 * line that names the file and the function.
 */
import { UsageError } from '../errors.js';
import { lastRuleCall, type RuleCallSeen } from './rule-calls.js';
import { describeError, isA } from './rule-text.js';

/**
 * A fault of the rule the user gave, not of muster: reported as bad input,
 * one line, exit status 2, nothing written.
 */
export class RuleFault extends UsageError {}

const TOP_LEVEL = 'top-level code';
const NOTHING = 'nothing was written';

/** The code a fault names: "./r.mjs (rule r): exact(params)", or "./r.mjs: its top-level code". */
function faultSubject(seen: RuleCallSeen): string {
  return seen.call === TOP_LEVEL ? `${seen.rule}: its top-level code` : `${seen.rule}: ${seen.call}`;
}

/** The code running when the thread ended: the open call, or what the rule left behind after its last call returned. */
function culprit(seen: RuleCallSeen | null): string {
  if (!seen?.rule) return 'the rule file';
  return seen.running ? faultSubject(seen) : `${seen.rule}: code it left running (a timer or a promise)`;
}

/** Where on the pool, for a message: " in chunk 3", or nothing for the rule thread. */
const at = (chunks: string | undefined) => (chunks ? ` in ${chunks}` : '');

/** `seen` ran past --timeout; `running` says which chunks were still running, on the pool. */
export function overTime(seen: RuleCallSeen, seconds: number, running?: string): string {
  const verb = seen.call === TOP_LEVEL ? 'did not finish' : 'did not return';
  const where = running ? ` (${running} still running)` : '';
  const limit = `--timeout ${Number(seconds.toFixed(3))} s`;
  return `${faultSubject(seen)} ${verb} within ${limit}${where}; it was stopped and nothing was written`;
}

/** `seen` still ran `graceSeconds` after the signal (and was stopped). */
export function pastSignal(seen: RuleCallSeen, graceSeconds: number, signal: string): string {
  const verb = seen.call === TOP_LEVEL ? 'had not finished' : 'had not returned';
  const heard = signal === 'SIGINT' ? 'Ctrl-C (SIGINT)' : signal;
  return `interrupted: ${faultSubject(seen)} ${verb} ${graceSeconds} s after ${heard}, so it was stopped; ${NOTHING}`;
}

/** The rule's code called process.exit (noted in the marker) and so ended its thread. */
export function calledExit(seen: RuleCallSeen, chunks?: string): string {
  const why = "a rule's code must return, not end the program";
  return `${culprit(seen)} called process.exit(${seen.exitCode})${at(chunks)}; ${why}; ${NOTHING}`;
}

/** The thread ran out of heap while (or just after) the rule's code ran. */
export function outOfMemory(seen: RuleCallSeen | null, chunks?: string): string {
  if (seen?.rule && !seen.running) {
    const after = seen.call === TOP_LEVEL ? 'its top-level code' : seen.call;
    const why = 'what the rule file keeps fills the heap';
    return `${seen.rule}: out of memory${at(chunks)} after ${after} returned (${why}); ${NOTHING}`;
  }
  return `${culprit(seen)} ran out of memory${at(chunks)}; it was stopped and nothing was written`;
}

/** An error the rule's own timer or promise threw, outside any call muster made (`thrown`: "Name: message"). */
export function thrownOutside(rule: string | undefined, thrown: string, chunks?: string): string {
  const source = 'from a timer or a promise the rule file left running';
  const file = rule || 'the rule file';
  return `${file}: ${thrown} was thrown outside any call of muster's (${source})${at(chunks)}, so it was stopped`;
}

/** The import was all that was left to wait for, and it never settled (Node ends such a thread with code 13). */
export function neverSettled(seen: RuleCallSeen, exitCode: number): string {
  const why = `it awaits a promise that never settles (exit code ${exitCode})`;
  return `${faultSubject(seen)} never finished: ${why}; ${NOTHING}`;
}

/** Whether a stack runs through a rule file: a file: URL imported with its hash, or a compiled rule's data: URL. */
export function thrownByRuleFile(stack: string): boolean {
  return /\?sha256=[0-9a-f]{64}|data:text\/javascript/.test(stack);
}

/**
 * What a rule file threw past every check of the adapter's, as one line, or
 * null when muster is to blame: a value that is not an Error (muster throws
 * only Errors: a symbol, null, a Proxy came from the rule's code), or an
 * Error raised while a rule file's code was on the stack (a getter or a
 * Proxy's trap of its own). The line names the rule's call entered last.
 */
export function escapedRuleFault(error: unknown): RuleFault | null {
  // A UsageError already says what is wrong, in muster's words.
  if (isA(error, UsageError)) return null;
  let fromRule = false;
  if (isA(error, Error)) {
    let stack = '';
    try {
      stack = String((error as Error).stack);
    } catch {
      // A stack that cannot be read is no evidence either way: not blamed on the rule.
    }
    if (!thrownByRuleFile(stack)) return null;
    fromRule = true;
  }
  const seen = lastRuleCall();
  if (!seen && !fromRule) return null;
  const subject = seen ? faultSubject({ ...seen, running: false, sequence: 0 }) : 'the rule file';
  return new RuleFault(`${subject} threw ${describeError(error)}; ${NOTHING}`);
}

export const isTopLevel = (seen: RuleCallSeen) => seen.call === TOP_LEVEL;
