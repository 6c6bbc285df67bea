/**
 * Standard output that cannot be written, on the real command line (the
 * built CLI in a child process): a reader that has gone (`| head -1`) is a
 * quiet success, a full device (`> /dev/full`) one line and exit status 2.
 * Before, both were Node's "Unhandled 'error' event" trace with exit 1, and
 * the internal-error path printed the control characters an error message
 * quoted from user input raw.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { internalErrorText } from '../../src/output/standard-streams.js';
import { scratchFolder } from '../support/cli.js';

const folder = scratchFolder('streams');
const CLI = new URL('../../dist/cli.js', import.meta.url).pathname;
/** Raw control characters that must never reach a terminal (the line feed excepted). */
const RAW = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/u;
/** A sweep whose --json - is about 100 kB: more than a pipe holds (64 kB), so the writer meets the closed end. */
const BIG_SWEEP = ['sweep', 'reserves', '--vary', 'chosenRound=0..4', '--vary', 'command=1..4', '--exact', '--all'];

interface Finished {
  status: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/** Runs the CLI; with `readThenClose`, reads the first chunk of stdout and closes the pipe, as `head -c` does. */
function runCli(argv: string[], stdout: 'close-after-first-chunk' | number): Promise<Finished> {
  const child = spawn(process.execPath, [CLI, ...argv], {
    cwd: folder,
    stdio: ['ignore', stdout === 'close-after-first-chunk' ? 'pipe' : stdout, 'pipe'],
  });
  if (stdout === 'close-after-first-chunk') child.stdout!.once('data', () => child.stdout!.destroy());
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on('close', (status, signal) => resolve({ status, signal, stderr })));
}

describe('a closed pipe on standard output: quiet, exit 0', () => {
  it('sweep --json - | head: the report on stderr, no trace, exit 0, the --csv file still written', async () => {
    const csv = join(folder, 'pipe.csv');
    const { status, signal, stderr } = await runCli(
      [...BIG_SWEEP, '--json', '-', '--csv', csv],
      'close-after-first-chunk',
    );
    expect({ status, signal }).toEqual({ status: 0, signal: null });
    expect(stderr).not.toMatch(/EPIPE|Error|node:/);
    expect(stderr).toContain('sweep of 20 points');
    expect(readFileSync(csv, 'utf8').split('\r\n')[0]).toMatch(/^chosenRound,command,metric/);
  });

  it('the plain table | head: exit 0, nothing on stderr', async () => {
    const { status, signal, stderr } = await runCli([...BIG_SWEEP, '--quiet'], 'close-after-first-chunk');
    expect({ status, signal, stderr }).toEqual({ status: 0, signal: null, stderr: '' });
  });

  it('stdout and stderr into one pipe that closes (2>&1 | head -c 100): exit 0, no trace past the first bytes', () => {
    const script =
      `"${process.execPath}" "${CLI}" ${BIG_SWEEP.join(' ')} --json - 2>&1 | head -c 100; echo " ` +
      `status=\${PIPESTATUS[0]}"`;
    const run = spawnSync('bash', ['-c', script], { cwd: folder, encoding: 'utf8' });
    expect(run.stdout).toMatch(/ status=0\n$/);
    expect(run.stderr).toBe('');
  });
});

describe('a full device on standard output: one line, exit 2', () => {
  const full = existsSync('/dev/full');
  it.skipIf(!full)('run > /dev/full', async () => {
    const descriptor = openSync('/dev/full', 'w');
    try {
      const { status, stderr } = await runCli(['run', 'infinity', '--exact', '--quiet'], descriptor);
      expect(status).toBe(2);
      expect(stderr).toBe(
        'muster: standard output: cannot write (no space left on the device); allowed: a pipe, terminal or file ' +
          'with room\n',
      );
    } finally {
      closeSync(descriptor);
    }
  });

  it.skipIf(!full)('run --json - > /dev/full: the same line after the report on stderr', async () => {
    const descriptor = openSync('/dev/full', 'w');
    try {
      const { status, stderr } = await runCli(['run', 'infinity', '--exact', '--json', '-'], descriptor);
      expect(status).toBe(2);
      const lines = stderr.trimEnd().split('\n');
      expect(lines.filter((line) => line.startsWith('muster:'))).toEqual([
        'muster: standard output: cannot write (no space left on the device); allowed: a pipe, terminal or file ' +
          'with room',
      ]);
      expect(stderr).not.toMatch(/ENOSPC|node:| {4}at /);
    } finally {
      closeSync(descriptor);
    }
  });
});

describe('the internal-error path shows control characters as escapes', () => {
  it('internalErrorText escapes the message and the stack', () => {
    const error = new Error('got "\x1b]52;c;aGk=\x07\u202e"');
    const text = internalErrorText(error);
    expect(text.startsWith('muster: internal error (please report): Error: got "\\x1b]52;c;aGk=\\x07\\u202e"\n')).toBe(
      true,
    );
    expect(text).not.toMatch(RAW);
    expect(internalErrorText('\x9b2J')).toBe('muster: internal error (please report): \\x9b2J\n');
    // A line feed in the message cannot forge a line of its own; the stack frames still follow, one a line.
    const forged = internalErrorText(new Error('got "x\nmuster: all fine"'));
    expect(forged.split('\n')[0]).toBe('muster: internal error (please report): Error: got "x\\x0amuster: all fine"');
    expect(forged.split('\n')[1]).toMatch(/^ {4}at /);
  });

  it('an error no handler claims, from a rule file, reaches stderr escaped', async () => {
    // A getter that throws with a clipboard-writing OSC 52 sequence in its message (whichever handler reports it).
    const rule = join(folder, 'hostile-getter.mjs');
    writeFileSync(
      rule,
      'export default { get id() { throw new Error("x\\u001b]52;c;aGk=\\u0007\\u009b2J\\u202e") } };\n',
    );
    const { status, stderr } = await runCli(['run', rule], 'close-after-first-chunk');
    expect(status).not.toBe(0);
    expect(stderr).toContain('x\\x1b]52;c;aGk=\\x07\\x9b2J\\u202e');
    expect(stderr).not.toMatch(RAW);
  });

  it(
    "an error thrown outside the command (from a timer a rule file set) reaches stderr escaped, as the rule's " +
      'fault: exit 2',
    async () => {
      const rule = join(folder, 'hostile-timer.mjs');
      const example = readFileSync(new URL('../../examples/rules/roll-off-reroll.mjs', import.meta.url), 'utf8');
      writeFileSync(rule, `setTimeout(() => { throw new Error("late \\u001b[2J\\u202e"); }, 0);\n${example}`);
      const { status, stderr } = await runCli(['run', rule, '--exact'], 'close-after-first-chunk');
      // The rule thread names a fault of the rule file's own making (docs/errors.md, Exit status).
      expect(status).toBe(2);
      expect(stderr).toMatch(
        /hostile-timer\.mjs \(rule [\w-]+\): Error: late \\x1b\[2J\\u202e was thrown outside any call of muster's/,
      );
      expect(stderr).not.toMatch(RAW);
    },
  );
});
