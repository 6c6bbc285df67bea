/**
 * Which of a rule file's functions a thread is running, written where
 * another thread can read it: a small SharedArrayBuffer (the call marker).
 * A rule file's code runs on a thread a supervisor watches (the command's
 * thread, or a pool worker); when that code loops, exits its thread or runs
 * out of memory, the watcher reads the marker and names the file and the
 * function in one line, instead of hanging or blaming muster.
 *
 *   adapter (rule-files/: loop.ts, check.ts, load.ts) ─► enterRuleCall / leaveRuleCall ─► marker
 *   supervisor (cli/supervisor.ts), pool (engine/pool.ts) ─► readRuleCall(marker)
 *
 * The marker is written once a call, not once a trial (trial is marked for a
 * whole chunk), so it costs nothing measurable. Nothing else is imported: the
 * calculator page bundles this module with rule-files/rule.ts, and there no
 * marker is ever set, so every call just runs.
 */
/**
 * Int32 slots before the text: a sequence (odd while written), its length, calls open, an exit's note and code,
 * and the signal the watcher heard (0 none, 2 SIGINT, 15 SIGTERM), written by the watcher.
 */
const SEQUENCE = 0;
const LENGTH = 1;
const OPEN = 2;
const EXITED = 3;
const EXIT_CODE = 4;
const SIGNAL = 5;
const HEADER_INTS = 6;
/** Characters of "rule\u0000call" kept: a long path is cut, never overflows. */
const TEXT_CHARS = 600;

/** A marker: shared memory a rule thread writes and its watcher reads. */
export type CallMarker = Int32Array;

/** A new, empty marker (its buffer is shared when posted to another thread, not copied). */
export function newCallMarker(): CallMarker {
  return new Int32Array(new SharedArrayBuffer(HEADER_INTS * 4 + TEXT_CHARS * 2));
}

/**
 * What a marker says: the rule (as messages name it), the call, whether it
 * is still running, and a sequence that changes with every call.
 */
export interface RuleCallSeen {
  rule: string;
  call: string;
  running: boolean;
  sequence: number;
  /** The code a process.exit() in rule code was given (see noteExit), if one was called. */
  exitCode?: number;
}

let marker: CallMarker | null = null;
/** The calls open on this thread, innermost last ("rule\u0000call" each). */
const open: string[] = [];
/** The last call entered on this thread, open or not. */
let last: string | undefined;

/** This thread's calls are written into `target` from now on (a pool worker sets its task's marker). */
export function watchRuleCalls(target: CallMarker | null | undefined): void {
  marker = target ?? null;
  if (marker && open.length > 0) write(open[open.length - 1], open.length);
}

function write(text: string, depth: number): void {
  const target = marker as CallMarker;
  Atomics.add(target, SEQUENCE, 1); // odd: being written
  const length = Math.min(text.length, TEXT_CHARS);
  const chars = new Uint16Array(target.buffer, target.byteOffset + HEADER_INTS * 4, TEXT_CHARS);
  for (let i = 0; i < length; i++) chars[i] = text.charCodeAt(i);
  Atomics.store(target, LENGTH, length);
  Atomics.store(target, OPEN, depth);
  Atomics.add(target, SEQUENCE, 1);
}

/**
 * Marks the start of a call of rule code: `rule` names the file as messages
 * do ("./my-rule.mjs (rule my-rule)"), `call` the function ("exact(params)",
 * "top-level code"). Returns what leaveRuleCall needs; calls nest.
 */
export function enterRuleCall(rule: string, call: string): number {
  const depth = open.length;
  last = `${rule}\u0000${call}`;
  open.push(last);
  if (marker) write(open[depth], depth + 1);
  return depth;
}

/** Marks the end of the call `enterRuleCall` returned `depth` for (and of any it left open). */
export function leaveRuleCall(depth: number): void {
  const left = open[depth];
  open.length = Math.min(open.length, depth);
  if (!marker || left === undefined) return;
  // Back in the outer call. At depth 0 the last call's text stays, marked finished: an out-of-memory just after
  // it still names it.
  write(depth > 0 ? open[depth - 1] : left, depth);
}

/** Runs `run` as the rule's `call` (see enterRuleCall). */
export function ruleCall<T>(rule: string, call: string, run: () => T): T {
  const depth = enterRuleCall(rule, call);
  try {
    return run();
  } finally {
    leaveRuleCall(depth);
  }
}

/** The call of rule code this thread entered last (open or finished), or null when it never entered one. */
export function lastRuleCall(): { rule: string; call: string } | null {
  if (last === undefined) return null;
  const cut = last.indexOf('\u0000');
  return { rule: last.slice(0, cut), call: last.slice(cut + 1) };
}

/** Notes in this thread's marker that process.exit(code) was called (the thread ends right after). */
export function noteExit(code: unknown): void {
  if (!marker) return;
  const number = Number(code ?? 0);
  Atomics.store(marker, EXIT_CODE, Number.isInteger(number) ? number : 1);
  Atomics.store(marker, EXITED, 1);
}

/**
 * The watcher notes in `target` the signal it heard, at once: the thread reads it (signalNoted) even while it
 * is too busy to take the message that says the same.
 */
export function noteSignal(target: CallMarker, signal: 'SIGINT' | 'SIGTERM'): void {
  Atomics.compareExchange(target, SIGNAL, 0, signal === 'SIGINT' ? 2 : 15);
}

/** The signal this thread's watcher heard (noteSignal), if any. */
export function signalNoted(): 'SIGINT' | 'SIGTERM' | null {
  const code = marker ? Atomics.load(marker, SIGNAL) : 0;
  return code === 2 ? 'SIGINT' : code === 15 ? 'SIGTERM' : null;
}

/** What `target` says, or null when no rule call was ever marked in it. */
export function readRuleCall(target: CallMarker): RuleCallSeen | null {
  for (let attempt = 0; attempt < 100; attempt++) {
    const before = Atomics.load(target, SEQUENCE);
    if (before % 2 === 1) continue; // being written: read again
    const length = Atomics.load(target, LENGTH);
    const depth = Atomics.load(target, OPEN);
    const chars = new Uint16Array(target.buffer, target.byteOffset + HEADER_INTS * 4, length);
    const text = String.fromCharCode(...chars);
    if (Atomics.load(target, SEQUENCE) !== before) continue;
    if (before === 0) return exitOnly(target);
    const cut = text.indexOf('\u0000');
    const seen: RuleCallSeen = {
      rule: text.slice(0, cut),
      call: text.slice(cut + 1),
      running: depth > 0,
      sequence: before,
    };
    if (Atomics.load(target, EXITED) === 1) seen.exitCode = Atomics.load(target, EXIT_CODE);
    return seen;
  }
  return null;
}

function exitOnly(target: CallMarker): RuleCallSeen | null {
  if (Atomics.load(target, EXITED) !== 1) return null;
  return { rule: '', call: '', running: false, sequence: 0, exitCode: Atomics.load(target, EXIT_CODE) };
}
