/**
 * Standard output and standard error as the process writes them. A write
 * that fails (the reader of a pipe has gone, `> /dev/full`, a full disk)
 * comes back as an 'error' event on the stream, after the write returned,
 * and with no listener Node printed it as a stack trace. Here:
 *
 * - a closed pipe (EPIPE) is the reader saying it has enough
 *   (`muster sweep … --json - | head -1`): further writes to that stream are
 *   dropped, the command finishes (its files are still written), and the exit
 *   status is the command's own, 0 when it succeeded, as for other Unix tools;
 * - any other fault (ENOSPC, EIO, …) is the environment, a fault the user can
 *   fix like a full disk under an output file: one line on stderr (when stderr
 *   still works) and exit status 2 if the command would otherwise exit 0.
 */

import { faultReason } from './files.js';
import { terminalLine, terminalSafe } from './terminal.js';

type Stream = 'stdout' | 'stderr';

const closed = new Set<Stream>();
let fault: string | null = null;

function onError(stream: Stream, error: NodeJS.ErrnoException): void {
  closed.add(stream);
  if (error.code === 'EPIPE') return;
  if (fault !== null) return;
  const reason = faultReason(error.code) ?? terminalLine(error.code ?? error.message);
  // No output option is offered: the table goes to standard output beside --json FILE or --csv FILE, so adding
  // one leaves the same stream full (test/cli/hints.test.ts follows that and fails).
  fault =
    `muster: standard ${stream === 'stdout' ? 'output' : 'error'}: cannot write (${reason}); allowed: a ` +
    'pipe, terminal or file with room\n';
  if (!closed.has('stderr')) process.stderr.write(fault);
}

let guarded = false;

/**
 * Listens for write faults on both standard streams and, at exit, turns a
 * fault other than a closed pipe into exit status 2. Installed once by the
 * entry script (dist/cli.js); tests that call main() with their own Io
 * never reach these streams.
 */
export function guardStandardStreams(): void {
  if (guarded) return;
  guarded = true;
  process.stdout.on('error', (error: NodeJS.ErrnoException) => onError('stdout', error));
  process.stderr.on('error', (error: NodeJS.ErrnoException) => onError('stderr', error));
  process.on('exit', () => {
    if (fault !== null && (process.exitCode === undefined || process.exitCode === 0)) process.exitCode = 2;
  });
}

/** Writes to standard output unless it has failed (a closed pipe, a full device): then the text is dropped. */
export function writeStdout(text: string): void {
  if (!closed.has('stdout') && !process.stdout.destroyed) process.stdout.write(text);
}

/** The same for standard error. */
export function writeStderr(text: string): void {
  if (!closed.has('stderr') && !process.stderr.destroyed) process.stderr.write(text);
}

/**
 * The one message for a bug in muster (an error no other handler claimed):
 * its stack, with any control characters the error's message quotes from
 * user input (a --metric, a label) shown as escapes, never sent raw.
 */
export function internalErrorText(error: unknown): string {
  if (!(error instanceof Error)) return `muster: internal error (please report): ${terminalLine(String(error))}\n`;
  // The message, which may quote input, stays on the first line; the stack frames (muster's own file names) follow.
  const head = `${error.name}: ${error.message}`;
  const stack = error.stack ?? head;
  const frames = stack.startsWith(head) ? stack.slice(head.length) : `\n${stack}`;
  return `muster: internal error (please report): ${terminalLine(head)}${terminalSafe(frames)}\n`;
}
