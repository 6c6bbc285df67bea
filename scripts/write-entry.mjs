// tsc mirrors the source tree into dist/ (dist/src/cli.js, dist/workers/…);
// this writes the dist/cli.js entry that the design's contract names.
import { chmodSync, writeFileSync } from 'node:fs';

writeFileSync(
  'dist/cli.js',
  `#!/usr/bin/env node
import { cliEntry } from './src/cli/entry.js';
import { holdSignals } from './src/cli/interrupt.js';
import { guardStandardStreams, internalErrorText } from './src/output/standard-streams.js';
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
`,
);
chmodSync('dist/cli.js', 0o755);
