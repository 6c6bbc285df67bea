/**
 * The supervisor: a command whose rule is a rule file runs on a worker
 * thread (the rule thread, cli/command-thread.ts) while the main thread
 * only watches it. A rule file's code is then never on the thread that
 * hears the signals and keeps the clock, so a function of it that never
 * returns, calls process.exit or exhausts the heap is stopped and named in
 * one line, instead of hanging muster, passing for success or crashing V8.
 *
 *   main thread                               rule thread
 *   signals ─► { signal } ───────────────────► signalled(): the command stops as on the main thread
 *   marker (shared memory) ◄───────────────── enterRuleCall / leaveRuleCall around rule code
 *   polls the marker: a call past --timeout, or 1 s past a signal ─► terminate, one line
 *   writes { out } / { err } to stdout / stderr ◄─ the command's io
 *   watches for --timeout ◄───────────────── { timeout }, once argv is parsed, before any rule code
 *   exit without { done }: process.exit, out of memory, a top-level await never settling ─► one line
 *
 * Exit status: a rule file's fault is bad input, 2 (the user's rule, not
 * muster); a rule stopped after a signal, 130 or 143 as any interrupted
 * command. Rule code runs with the user's own rights: this catches
 * mistakes, it is no sandbox (process.kill(process.pid) still ends muster),
 * and code blocked in a native call (execSync('sleep 60')) is stopped only
 * once that call returns: Node cannot stop a thread inside one, nor exit
 * while one runs.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { newCallMarker, noteSignal, type RuleCallSeen, readRuleCall } from '../guard/rule-calls.js';
import {
  calledExit,
  isTopLevel,
  neverSettled,
  outOfMemory,
  overTime,
  pastSignal,
  thrownOutside,
} from '../guard/rule-faults.js';
import type { Io } from '../output/io.js';
import type { RuleThreadData, RuleThreadMessage } from './thread-messages.js';

/** How long rule code may run on after a signal before it is stopped (a command that can react does so in ms). */
const SIGNAL_GRACE_MS = 1000;
const POLL_MS = 100;
/** How long the thread may take to end once its command is done (a rule's stray timer may keep it alive). */
const LINGER_MS = 500;

interface Supervision {
  /** The process's writers: the command's output comes already made safe for a terminal. */
  raw: Io;
  /** The same, escaping control characters: for the supervisor's own lines, which quote paths. */
  io: Io;
  /**
   * --timeout in seconds, when the command was given a valid one; the rule
   * thread tells it too, once it has parsed argv (it may be all that did).
   */
  timeout?: number;
  /** A signal the main thread caught before supervision began: passed on at once. */
  signalled?: NodeJS.Signals;
}

interface Fault {
  line: string;
  status: number;
}

/** The rule thread as the build bundles it (scripts/write-entry.mjs); under the TypeScript test runner, the build's. */
function threadFile(): string {
  const here = fileURLToPath(import.meta.url);
  const built = here.endsWith('.ts') ? '../../dist/bundle/rule-thread.js' : '../../bundle/rule-thread.js';
  const file = fileURLToPath(new URL(built, import.meta.url));
  if (!existsSync(file)) throw new Error(`rule thread not built: ${file} (run npm run build)`);
  return file;
}

/** Runs the CLI's `argv` on the rule thread and returns its exit status (see the file's header). */
export function superviseCommand(argv: readonly string[], supervision: Supervision): Promise<number> {
  const { raw, io } = supervision;
  let timeout = supervision.timeout;
  const marker = newCallMarker();
  const data: RuleThreadData = { argv: [...argv], errIsTTY: raw.errIsTTY, columns: raw.columns, marker };
  const worker = new Worker(threadFile(), { workerData: data });

  let done: number | undefined;
  let internal: string | undefined;
  let fault: Fault | undefined;
  let signal: { name: NodeJS.Signals; at: number } | undefined;
  /** The running call as last seen, and since when it has been the same call. */
  let stuck: { sequence: number; since: number } | undefined;
  let poller: NodeJS.Timeout | undefined;
  let linger: NodeJS.Timeout | undefined;

  let stopping = false;
  const stop = (line: string, status: number) => {
    fault ??= { line, status };
    if (stopping) return;
    // Stops JavaScript at once; code blocked in a native call (execSync) stops only when that call returns.
    stopping = true;
    clearInterval(poller);
    void worker.terminate();
  };
  const poll = () => {
    const seen = readRuleCall(marker);
    if (!seen?.running) {
      stuck = undefined;
      return;
    }
    const now = performance.now();
    if (stuck?.sequence !== seen.sequence) stuck = { sequence: seen.sequence, since: now };
    if (timeout !== undefined && now - stuck.since >= timeout * 1000) stop(overTime(seen, timeout), 2);
    else if (signal && now - Math.max(stuck.since, signal.at) >= SIGNAL_GRACE_MS) {
      stop(pastSignal(seen, SIGNAL_GRACE_MS / 1000, signal.name), signal.name === 'SIGTERM' ? 143 : 130);
    }
  };
  const watch = () => (poller ??= setInterval(poll, POLL_MS));
  if (timeout !== undefined) watch();

  const onSignal = (name: NodeJS.Signals) => {
    if (name === 'SIGINT' || name === 'SIGTERM') noteSignal(marker, name);
    worker.postMessage({ signal: name });
    if (signal) return;
    signal = { name, at: performance.now() };
    watch();
  };
  const onInt = () => onSignal('SIGINT');
  const onTerm = () => onSignal('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  if (supervision.signalled) onSignal(supervision.signalled);

  worker.on('message', (message: RuleThreadMessage) => {
    if ('out' in message) raw.out(message.out);
    else if ('err' in message) raw.err(message.err);
    else if ('timeout' in message) {
      timeout = message.timeout;
      if (timeout !== undefined) watch();
    } else if ('done' in message) {
      done = message.done;
      linger = setTimeout(() => {
        if (!stopping) void worker.terminate();
      }, LINGER_MS);
    } else if ('internal' in message) internal = message.internal;
    else if (message.blamed) stop(thrownOutside(readRuleCall(marker)?.rule, message.uncaught), 2);
    else internal = message.uncaught;
  });
  worker.on('error', (error: Error & { code?: string }) => {
    if (error.code !== 'ERR_WORKER_OUT_OF_MEMORY') internal ??= error.stack ?? String(error);
    else {
      // Out of memory with no rule code ever run is muster's own (exit 1); with it, the rule file's.
      const seen = readRuleCall(marker);
      const muster = 'out of memory (the JavaScript heap); nothing was written';
      fault ??= seen?.rule ? { line: outOfMemory(seen), status: 2 } : { line: muster, status: 1 };
    }
  });

  return new Promise<number>((resolve, reject) => {
    worker.on('exit', (code) => {
      clearInterval(poller);
      clearTimeout(linger);
      process.removeListener('SIGINT', onInt);
      process.removeListener('SIGTERM', onTerm);
      if (done !== undefined && fault === undefined) return resolve(done);
      const ended = fault ?? (internal === undefined ? earlyEnd(readRuleCall(marker), code) : undefined);
      if (ended) {
        io.err(`muster: ${ended.line}\n`);
        return resolve(ended.status);
      }
      const error = new Error('the rule thread failed');
      error.stack = internal ?? `Error: the rule thread ended (exit code ${code}) before its command finished`;
      reject(error);
    });
  });
}

/** Why the thread ended before its command was done, when the rule's code is to blame; undefined when it is not. */
function earlyEnd(seen: RuleCallSeen | null, code: number): Fault | undefined {
  if (seen?.exitCode !== undefined) return { line: calledExit(seen), status: 2 };
  // Nothing but the import was left to wait for, and it never settled: Node ends such a thread with code 13.
  if (seen?.running && isTopLevel(seen)) return { line: neverSettled(seen, code), status: 2 };
  return undefined;
}
