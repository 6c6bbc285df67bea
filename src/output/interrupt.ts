/**
 * Ctrl-C and SIGTERM. The first signal stops the simulation (every running
 * `withInterrupt` sees its AbortSignal fire) and the command reports what
 * finished, marked PARTIAL, with exit status 130 (143 for SIGTERM). While a
 * command holds the signals, further signals are swallowed, so a second
 * Ctrl-C during the wind-down (or a terminal or `timeout` signalling the
 * whole process group) cannot kill it before it prints and writes.
 */
import { setMaxListeners } from 'node:events';
import { signalNoted } from '../guard/rule-calls.js';

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
type Caught = (typeof SIGNALS)[number];

const controllers = new Set<AbortController>();
let holders = 0;
let caught: Caught | null = null;

function onSignal(signal: Caught): void {
  caught ??= signal;
  for (const controller of controllers) controller.abort();
}
const handlers = new Map(SIGNALS.map((signal) => [signal, () => onSignal(signal)]));

/**
 * Catches SIGINT and SIGTERM until the returned release is called (counted,
 * so nested holds are fine). The CLI holds them for a whole command, from
 * parsing to the last file written.
 */
export function holdSignals(): () => void {
  if (holders === 0) {
    caught = null;
    for (const [signal, handler] of handlers) process.on(signal, handler);
  }
  holders++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    holders--;
    if (holders === 0) for (const [signal, handler] of handlers) process.removeListener(signal, handler);
  };
}

/**
 * A signal heard by another thread: the CLI's supervisor (cli/supervisor.ts)
 * owns the process's signals and passes them on to the command's thread,
 * where they act as if caught here.
 */
export function signalled(signal: Caught): void {
  onSignal(signal);
}

/**
 * The signal that interrupted the current command, if any: on the rule
 * thread, one the supervisor heard counts at once, before its message is
 * taken (code that computes without a pause takes none until it is done).
 */
export function interruption(): Caught | null {
  return caught ?? signalNoted();
}

/** The exit status of an interrupted command: 128 + the signal's number. */
export function interruptedStatus(): number {
  return interruption() === 'SIGTERM' ? 143 : 130;
}

/**
 * Runs Ctrl-C-aware work: the first Ctrl-C or SIGTERM aborts the signal, so
 * the simulation stops and reports what it gathered. A signal that came
 * before the work started aborts it at once.
 */
export async function withInterrupt<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const release = holdSignals();
  const controller = new AbortController();
  // Every queued task listens on the signal; there may be hundreds.
  setMaxListeners(0, controller.signal);
  if (interruption()) controller.abort();
  controllers.add(controller);
  try {
    return await work(controller.signal);
  } finally {
    controllers.delete(controller);
    release();
  }
}
