/**
 * Only regular files are read as input. Before, `muster merge /dev/zero`
 * read zeros until memory ran out, and `merge` of a FIFO (or a checkpoint
 * or rule file that is one) waited forever for a writer. Each command runs
 * here as its own process with a deadline, so a hang fails the test rather
 * than stalling the suite: a device, a FIFO, a folder and a symbolic link to
 * a device, as a shard, a sweep's shard after a real one, a checkpoint and a
 * rule file, each refused in one line naming it, exit 2, within seconds.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cli, scratchFolder } from '../support/cli.js';

const folder = scratchFolder('input-kinds');
const file = (name: string) => join(folder, name);
const muster = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

/**
 * The CLI as a child process, killed (SIGKILL: muster holds SIGTERM while it winds down) after 20 s: a read that blocks
 * shows up as a timeout, not a hung test run.
 */
function run(...argv: string[]): { status: number | null; stderr: string; timedOut: boolean } {
  const child = spawnSync(process.execPath, [muster, ...argv], {
    encoding: 'utf8',
    timeout: 20_000,
    killSignal: 'SIGKILL',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return { status: child.status, stderr: child.stderr, timedOut: child.error !== undefined };
}

/** Each kind of file that is not regular, named so a rule file's ending is kept where needed. */
function specials(ending: string): Array<[string, string, RegExp]> {
  const fifo = file(`fifo${ending}`);
  expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
  const dir = file(`dir${ending}`);
  mkdirSync(dir);
  const link = file(`zero-link${ending}`);
  symlinkSync('/dev/zero', link);
  const cases: Array<[string, string, RegExp]> = [
    ['a FIFO', fifo, /is a FIFO \(named pipe\), not a regular file/],
    ['a folder', dir, /is a folder, not a regular file/],
    ['a link to /dev/zero', link, /is a device, not a regular file/],
  ];
  if (ending === '') cases.push(['/dev/zero', '/dev/zero', /is a device, not a regular file/]);
  return cases;
}

function expectRefused(argv: string[], what: string, message: RegExp): void {
  const result = run(...argv);
  expect(result.timedOut, `${what}: hung`).toBe(false);
  expect(result.status, `${what}: ${result.stderr}`).toBe(2);
  expect(result.stderr, what).toMatch(message);
  expect(result.stderr.split('\n'), what).toHaveLength(2);
}

describe('inputs that are not regular files are refused before they are read', () => {
  it(
    'merge: a shard that is a device, a FIFO, a folder or a link to a device; alone or after a real shard of a ' +
      'sweep',
    async () => {
      const sweep = ['sweep', 'reserves', '--vary', 'command=2..3', '--trials', '70k', '--threads', '1', '--quiet'];
      for (const index of [0, 1])
        expect((await cli(...sweep, '--shard', `${index}/2`, '--out', file(`sweep-${index}.tally`))).status).toBe(0);
      for (const [what, path, message] of specials('')) {
        expectRefused(
          ['merge', path],
          what,
          new RegExp(`^muster: files: ".*" ${message.source}; allowed: tally files`),
        );
        expectRefused(['merge', file('sweep-0.tally'), path], `${what} after a sweep shard`, message);
      }
    },
  );

  it('--checkpoint: a device, a FIFO, a folder or a link to a device', () => {
    for (const [what, path, message] of specials('.ckpt')) {
      expectRefused(
        ['run', 'reserves', '--trials', '70k', '--threads', '1', '--quiet', '--checkpoint', path],
        what,
        new RegExp(`^muster: --checkpoint: .*(${message.source}|not a regular file|a folder|device|FIFO)`),
      );
    }
  });

  it('a rule file (run, and merge --rule) that is a FIFO, a folder or a link to /dev/zero', async () => {
    expect(
      (
        await cli(
          'shard',
          new URL('../../examples/rules/reserves-2d6.mjs', import.meta.url).pathname,
          '--trials',
          '70k',
          '--threads',
          '1',
          '--quiet',
          '--shard',
          '0/1',
          '--out',
          file('rule-shard.json'),
        )
      ).status,
    ).toBe(0);
    for (const [what, path, message] of specials('.mjs')) {
      expectRefused(
        ['run', path, '--trials', '70k', '--threads', '1', '--quiet'],
        `run ${what}`,
        new RegExp(`^muster: rule: ".*" ${message.source}`),
      );
      expectRefused(
        ['merge', file('rule-shard.json'), '--rule', path],
        `merge --rule ${what}`,
        new RegExp(`^muster: rule: ".*" ${message.source}`),
      );
    }
    // A rule file that imports a helper which is a FIFO, or a link to /dev/zero (named as esbuild resolves it): refused
    // while it
    // is hashed, before any import.
    const source = readFileSync(new URL('../../examples/rules/reserves-2d6.mjs', import.meta.url), 'utf8');
    for (const helper of ['fifo.mjs', 'zero-link.mjs']) {
      const rule = file(`imports-${helper}`);
      writeFileSync(rule, `import './${helper}';\n${source}`);
      expectRefused(
        ['run', rule, '--trials', '70k', '--threads', '1', '--quiet'],
        `a rule importing ${helper}`,
        new RegExp(
          `^muster: rule: ".*imports-${helper.replace('.', '\\.')}" imports ".*", which is not a regular file`,
        ),
      );
    }
  });
});
