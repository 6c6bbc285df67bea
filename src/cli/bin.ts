#!/usr/bin/env node
/**
 * The process entry, `muster` (dist/cli.js, bundled from this file by scripts/write-entry.mjs): the guards a whole
 * process needs, then the CLI's first step (./entry.ts), which decides where the command runs.
 */
import { holdSignals } from '../output/interrupt.js';
import { guardStandardStreams, internalErrorText } from '../output/standard-streams.js';
import { cliEntry } from './entry.js';

// A closed pipe on stdout is a quiet success, a full device one line and exit 2: never a trace.
guardStandardStreams();
// An error thrown outside the command's promise (a timer, an event handler) is reported as any other bug,
// escaped, instead of by Node's default handler, which prints the raw message.
process.on('uncaughtException', (error) => {
  process.stderr.write(internalErrorText(error));
  process.exit(1);
});
// Held until the process exits: a Ctrl-C after the command has printed, while
// worker threads shut down, must not turn its exit status into a signal death.
holdSignals();
try {
  process.exitCode = await cliEntry(process.argv.slice(2));
} catch (error) {
  process.stderr.write(internalErrorText(error));
  process.exitCode = 1;
}
