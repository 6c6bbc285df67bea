/**
 * The outputs of one command as a set: all written or none, and none of them
 * an input of the command or the same file as the checkpoint. Before, a
 * rename that failed after another had succeeded (--html's target turned into
 * a folder after --json was renamed) left a mixed set; `--json my-rule.mjs`
 * replaced the rule file; a checkpoint could be the same file as --json,
 * --csv, --html or --out; and a checkpoint reached through a symlink was
 * replaced by a regular file.
 */

import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { writeOutputs } from '../../src/output/files.js';
import { sealCheckpoint } from '../support/checkpoint-seal.js';
import { cli, scratchFolder } from '../support/cli.js';

const folder = scratchFolder('output-sets');
const CLI = new URL('../../dist/cli.js', import.meta.url).pathname;
const EXAMPLE_RULE = new URL('../../examples/rules/roll-off-reroll.mjs', import.meta.url).pathname;
let counter = 0;
function caseFolder(): string {
  const path = join(folder, `case-${++counter}`);
  mkdirSync(path);
  return path;
}

/** Every file under `dir` with its contents (folders as "<folder>"), to show that nothing changed. */
function snapshot(dir: string): Record<string, string> {
  const seen: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const path = join(dir, name);
    seen[name] = lstatSync(path).isDirectory() ? '<folder>' : readFileSync(path, 'utf8');
  }
  return seen;
}

describe('a rename that fails puts back every file renamed before it', () => {
  it('--html turned into a folder after every file was staged: --json keeps its old contents', () => {
    const dir = caseFolder();
    const json = join(dir, 'r.json');
    const html = join(dir, 'r.html');
    writeFileSync(json, 'old json');
    writeFileSync(html, 'old html');
    let error: unknown;
    try {
      writeOutputs(
        [
          { path: json, contents: 'new json', option: '--json' },
          { path: html, contents: 'new html', option: '--html' },
        ],
        undefined,
        {
          // The race the check cannot see: between staging and renaming, the target becomes a folder with a file in it.
          afterStaging: () => {
            // A non-empty folder: a rename onto it fails even for root.
            rmSync(html);
            mkdirSync(html);
            writeFileSync(join(html, 'inside'), 'x');
          },
        },
      );
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(/^--html: cannot write .*r\.html \(/);
    // --json was renamed first and is put back; no temporary or kept-old file is left.
    expect(snapshot(dir)).toEqual({ 'r.json': 'old json', 'r.html': '<folder>', [join('r.html', 'inside')]: 'x' });
  });

  it('a new file renamed before the failure is removed again', () => {
    const dir = caseFolder();
    expect(() =>
      writeOutputs(
        [
          { path: join(dir, 'a.json'), contents: 'new', option: '--json' },
          { path: join(dir, 'c.csv'), contents: 'new', option: '--csv' },
        ],
        undefined,
        {
          afterStaging: () => {
            mkdirSync(join(dir, 'c.csv'));
            writeFileSync(join(dir, 'c.csv', 'inside'), 'x');
          },
        },
      ),
    ).toThrow(/^--csv: cannot write/);
    expect(snapshot(dir)).toEqual({ 'c.csv': '<folder>', [join('c.csv', 'inside')]: 'x' });
  });

  it('a target that became a folder before the write is refused by name, nothing written', () => {
    const dir = caseFolder();
    writeFileSync(join(dir, 'a.json'), 'old');
    mkdirSync(join(dir, 'b.html'));
    expect(() =>
      writeOutputs([
        { path: join(dir, 'a.json'), contents: 'new', option: '--json' },
        { path: join(dir, 'b.html'), contents: 'new', option: '--html' },
      ]),
    ).toThrow(/^--html: .*b\.html became a folder after it was checked; allowed: a new or existing regular file$/);
    expect(snapshot(dir)).toEqual({ 'a.json': 'old', 'b.html': '<folder>' });
  });

  it(
    'a write that fails mid-file (a file-size limit, as a full disk would): one line, exit 2, nothing left ' + 'behind',
    () => {
      const dir = caseFolder();
      writeFileSync(join(dir, 'a.json'), 'old');
      // ulimit -f 2: writes past 1 kB fail with EFBIG (SIGXFSZ ignored, as the shell passes on to node).
      const run = spawnSync(
        'sh',
        [
          '-c',
          `trap "" XFSZ; ulimit -f 2; exec "${process.execPath}" "${CLI}" run infinity --exact --quiet --json a.json ` +
            `--csv b.csv`,
        ],
        { cwd: dir, encoding: 'utf8' },
      );
      expect(run.status).toBe(2);
      expect(run.stderr).toBe(
        `muster: --json: cannot write ${join(dir, 'a.json')} (the file is too large); allowed: a file in a folder ` +
          `you can write, on a disk with room\n`,
      );
      expect(snapshot(dir)).toEqual({ 'a.json': 'old' });
    },
  );

  it(
    'on success no kept-old or temporary file is left, and a hard link to a replaced file keeps the old ' + 'contents',
    () => {
      const dir = caseFolder();
      writeFileSync(join(dir, 'a.json'), 'old');
      writeOutputs([
        { path: join(dir, 'a.json'), contents: 'new a' },
        { path: join(dir, 'b.csv'), contents: 'new b' },
      ]);
      expect(snapshot(dir)).toEqual({ 'a.json': 'new a', 'b.csv': 'new b' });
    },
  );
});

describe('no output may be an input of the command: one line, exit 2, nothing changed', () => {
  const cases: Array<[string, (rule: string, dir: string) => string[], RegExp]> = [
    [
      'run --json onto the rule file',
      (rule) => ['run', rule, '--exact', '--json', rule],
      /^muster: --json: ".*rule\.mjs" is the same file as input/,
    ],
    [
      'run --csv onto the rule file, spelled differently',
      (rule, dir) => ['run', rule, '--exact', '--csv', join(dir, '.', 'sub', '..', 'rule.mjs')],
      /^muster: --csv: .* is the same file as input/,
    ],
    [
      'run --html onto a symlink to the rule file',
      (rule, dir) => {
        symlinkSync(rule, join(dir, 'link.html'));
        return ['run', rule, '--exact', '--html', join(dir, 'link.html')];
      },
      /^muster: --html: .* is the same file as input/,
    ],
    [
      'sweep --csv onto the rule file',
      (rule) => ['sweep', rule, '--exact', '--vary', 'sides=4..6', '--csv', rule],
      /^muster: --csv: .* is the same file as input/,
    ],
    [
      "compare --html onto a variant's rule file",
      (rule) => [
        'compare',
        'reserves',
        '--exact',
        '--variant',
        'A: target=7',
        '--variant',
        `B: rule=${rule}`,
        '--html',
        rule,
      ],
      /^muster: --html: .* is the same file as input/,
    ],
    [
      'card --out onto the rule file',
      (rule) => ['card', rule, '--out', rule],
      /^muster: --out: .* is the same file as input/,
    ],
    [
      'shard --out onto the rule file',
      (rule) => ['shard', rule, '--shard', '0/1', '--trials', '1e5', '--out', rule],
      /^muster: --out: .* is the same file as input/,
    ],
    [
      'sweep --shard --out onto the rule file',
      (rule) => ['sweep', rule, '--vary', 'sides=4..6', '--trials', '1e5', '--shard', '0/1', '--out', rule],
      /^muster: --out: .* is the same file as input/,
    ],
    [
      'run --checkpoint onto the rule file',
      (rule) => ['run', rule, '--trials', '1e5', '--checkpoint', rule],
      /^muster: --checkpoint: .* is the same file as input/,
    ],
  ];
  for (const [what, argv, message] of cases) {
    it(what, async () => {
      const dir = caseFolder();
      const rule = join(dir, 'rule.mjs');
      copyFileSync(EXAMPLE_RULE, rule);
      const args = argv(rule, dir);
      const before = snapshot(dir);
      const { status, stdout, stderr } = await cli(...args);
      expect({ status, stdout }).toEqual({ status: 2, stdout: '' });
      expect(stderr).toMatch(message);
      expect(stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(snapshot(dir)).toEqual(before);
    });
  }

  it('merge --json onto the rule file the shards recorded', async () => {
    const dir = caseFolder();
    const rule = join(dir, 'rule.mjs');
    copyFileSync(EXAMPLE_RULE, rule);
    const shard = join(dir, 's.json');
    expect(
      (await cli('shard', rule, '--shard', '0/1', '--trials', '70000', '--threads', '1', '--out', shard, '--quiet'))
        .status,
    ).toBe(0);
    const before = snapshot(dir);
    const { status, stderr } = await cli('merge', shard, '--rule', rule, '--json', rule);
    expect(status).toBe(2);
    expect(stderr).toMatch(/^muster: --json: .*rule\.mjs" is the same file as input/);
    expect(snapshot(dir)).toEqual(before);
  });
});

describe('the checkpoint is checked like an output', () => {
  const cases: Array<[string, (dir: string) => string[], RegExp]> = [
    [
      'the same file as --json',
      (dir) => [
        'run',
        'reserves',
        '--trials',
        '1e5',
        '--threads',
        '1',
        '--checkpoint',
        join(dir, 'x.json'),
        '--json',
        join(dir, 'x.json'),
      ],
      /^muster: --checkpoint: .* is the same file as --json/,
    ],
    [
      'the same file as --csv, through a symlink',
      (dir) => {
        writeFileSync(join(dir, 'x.csv'), 'old');
        symlinkSync(join(dir, 'x.csv'), join(dir, 'cp'));
        return [
          'sweep',
          'reserves',
          '--vary',
          'chosenRound=0..1',
          '--trials',
          '1e5',
          '--threads',
          '1',
          '--checkpoint',
          join(dir, 'cp'),
          '--csv',
          join(dir, 'x.csv'),
        ];
      },
      /^muster: --checkpoint: .* is the same file as --csv/,
    ],
    [
      'the same file as --html',
      (dir) => [
        'run',
        'reserves',
        '--trials',
        '1e5',
        '--threads',
        '1',
        '--checkpoint',
        join(dir, 'x'),
        '--html',
        join(dir, 'x'),
      ],
      /^muster: --checkpoint: .* is the same file as --html/,
    ],
    [
      "the same file as a shard's --out",
      (dir) => [
        'shard',
        'reserves',
        '--shard',
        '0/1',
        '--trials',
        '1e5',
        '--threads',
        '1',
        '--out',
        join(dir, 's.json'),
        '--checkpoint',
        join(dir, 's.json'),
      ],
      /^muster: --checkpoint: .* is the same file as --out/,
    ],
    [
      "the same file as a sweep shard's --out, with {index}",
      (dir) => [
        'sweep',
        'reserves',
        '--vary',
        'chosenRound=0..1',
        '--trials',
        '1e5',
        '--threads',
        '1',
        '--shard',
        '0/1',
        '--out',
        join(dir, 's{index}.json'),
        '--checkpoint',
        join(dir, 's0.json'),
      ],
      /^muster: --checkpoint: .* is the same file as --out/,
    ],
    [
      'a folder',
      (dir) => ['run', 'reserves', '--trials', '1e5', '--threads', '1', '--checkpoint', dir],
      /^muster: --checkpoint: .* is not a regular file \(a folder\)/,
    ],
    [
      'a device',
      () => ['run', 'reserves', '--trials', '1e5', '--threads', '1', '--checkpoint', '/dev/null'],
      /^muster: --checkpoint: .* is not a regular file \(a device/,
    ],
  ];
  for (const [what, argv, message] of cases) {
    it(what, async () => {
      const dir = caseFolder();
      const args = argv(dir);
      const before = snapshot(dir);
      const { status, stdout, stderr } = await cli(...args, '--quiet');
      expect({ status, stdout }).toEqual({ status: 2, stdout: '' });
      expect(stderr).toMatch(message);
      expect(stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(snapshot(dir)).toEqual(before);
    });
  }

  it(
    'a checkpoint reached through a symlink is written through it: the link kept, its target the ' + 'checkpoint',
    async () => {
      const dir = caseFolder();
      // A checkpoint of this run with nothing saved yet: the same job, no ranges, so the run writes it afresh.
      const plain = join(dir, 'plain.checkpoint');
      expect(
        (await cli('run', 'reserves', '--trials', '2e5', '--threads', '1', '--checkpoint', plain, '--quiet')).status,
      ).toBe(0);
      const empty = { ...JSON.parse(readFileSync(plain, 'utf8')), ranges: [] };
      mkdirSync(join(dir, 'store'));
      const target = join(dir, 'store', 'run.checkpoint');
      writeFileSync(target, `${sealCheckpoint(empty)}\n`);
      const link = join(dir, 'run.checkpoint');
      symlinkSync(target, link);
      const { status } = await cli(
        'run',
        'reserves',
        '--trials',
        '2e5',
        '--threads',
        '1',
        '--checkpoint',
        link,
        '--quiet',
      );
      expect(status).toBe(0);
      expect(lstatSync(link).isSymbolicLink()).toBe(true);
      // The file behind the link holds the run's chunks now, as the plain checkpoint does.
      expect(JSON.parse(readFileSync(target, 'utf8'))).toEqual(JSON.parse(readFileSync(plain, 'utf8')));
      // Nothing beside the target but the checkpoint: no temporary or kept-old file.
      expect(readdirSync(join(dir, 'store'))).toEqual(['run.checkpoint']);
    },
  );
});
