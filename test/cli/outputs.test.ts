/**
 * Outputs: all or nothing, and only where asked (src/output/files.ts).
 * Every case here failed on the code before the output module: outputs
 * that were the same file were written over each other, a failure on a
 * later file left the earlier ones replaced, a temporary file had a
 * predictable name, and `--json -` wrote a file called "-".
 */
import {
  chmodSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { checkDistinct, checkOutputFile, fsFault, writeOutputs } from '../../src/output/files.js';
import { cli, scratchFolder } from '../support/cli.js';

const folder = scratchFolder('outputs');
let counter = 0;
/** A fresh folder for one case, so leftovers (temporary files) can be counted. */
function caseFolder(): string {
  const path = join(folder, `case-${++counter}`);
  mkdirSync(path);
  return path;
}

describe('two outputs that are one file: exit 2 before any work', () => {
  const cases: Array<[string, (dir: string) => string[], RegExp]> = [
    [
      '--json and --html the same name',
      (dir) => ['run', 'reserves', '--exact', '--json', join(dir, 'x'), '--html', join(dir, 'x')],
      /^muster: --html: .*x" is the same file as --json/,
    ],
    [
      '--json and --csv spelled differently',
      (dir) => [
        'run',
        'reserves',
        '--exact',
        '--json',
        join(dir, 'x.json'),
        '--csv',
        join(dir, '.', 'sub', '..', 'x.json'),
      ],
      /^muster: --csv: .* is the same file as --json/,
    ],
    [
      'a symlink to the other output',
      (dir) => {
        writeFileSync(join(dir, 'real.json'), 'old');
        symlinkSync(join(dir, 'real.json'), join(dir, 'link.json'));
        return [
          'sweep',
          'reserves',
          '--exact',
          '--vary',
          'chosenRound=0..1',
          '--json',
          join(dir, 'real.json'),
          '--csv',
          join(dir, 'link.json'),
        ];
      },
      /^muster: --csv: .* is the same file as --json/,
    ],
    [
      'a hard link to the other output',
      (dir) => {
        writeFileSync(join(dir, 'a.html'), 'old');
        linkSync(join(dir, 'a.html'), join(dir, 'b.html'));
        return [
          'compare',
          'reserves',
          '--exact',
          '--variant',
          'A: target=7',
          '--variant',
          'B: target=6',
          '--html',
          join(dir, 'a.html'),
          '--json',
          join(dir, 'b.html'),
        ];
      },
      /^muster: --html: .* is the same file as --json/,
    ],
    [
      'matrix --json and --html',
      (dir) => ['matrix', 'infinity', '--json', join(dir, 'm'), '--html', join(dir, 'm')],
      /^muster: --html: .* is the same file as --json/,
    ],
    [
      '--json - and --csv - both on standard output',
      () => ['run', 'reserves', '--exact', '--json', '-', '--csv', '-'],
      /^muster: --csv: standard output \(-\) is the same file as --json/,
    ],
  ];
  for (const [what, argv, message] of cases) {
    it(what, async () => {
      const dir = caseFolder();
      const args = argv(dir);
      const before = new Map(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name), 'utf8')]));
      const { status, stdout, stderr } = await cli(...args);
      expect(status).toBe(2);
      expect(stderr).toMatch(message);
      expect(stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(stdout).toBe('');
      // Nothing changed on disk: the same files with the same contents.
      expect(new Map(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name), 'utf8')]))).toEqual(before);
    });
  }

  it('merge --json naming one of its inputs is refused before the shard is read', async () => {
    const dir = caseFolder();
    const shard = join(dir, 's.json');
    expect(
      (
        await cli(
          'shard',
          'reserves',
          '--trials',
          '70000',
          '--shard',
          '0/1',
          '--threads',
          '1',
          '--out',
          shard,
          '--quiet',
        )
      ).status,
    ).toBe(0);
    const original = readFileSync(shard, 'utf8');
    const { status, stderr } = await cli('merge', shard, '--json', shard);
    expect(status).toBe(2);
    expect(stderr).toMatch(/^muster: --json: .*s\.json" is the same file as input/);
    expect(readFileSync(shard, 'utf8')).toBe(original);
  });
});

describe('every output of one command, or none', () => {
  it('a failure on the third file leaves the first two untouched and no temporary file', () => {
    const dir = caseFolder();
    writeFileSync(join(dir, 'one.json'), 'old one');
    writeFileSync(join(dir, 'two.html'), 'old two');
    // A file where the third file's folder should be: making the folder fails (ENOTDIR/EEXIST), even for root.
    writeFileSync(join(dir, 'blocker'), 'x');
    const files = [
      { path: join(dir, 'one.json'), contents: 'new one', option: '--json' },
      { path: join(dir, 'two.html'), contents: 'new two', option: '--html' },
      { path: join(dir, 'blocker', 'three.csv'), contents: 'new three', option: '--csv' },
    ];
    expect(() => writeOutputs(files)).toThrow(UsageError);
    expect(() => writeOutputs(files)).toThrow(/^--csv: cannot write .*three\.csv \(/);
    expect(readFileSync(join(dir, 'one.json'), 'utf8')).toBe('old one');
    expect(readFileSync(join(dir, 'two.html'), 'utf8')).toBe('old two');
    expect(readdirSync(dir).sort()).toEqual(['blocker', 'one.json', 'two.html']);
  });

  it('a folder made for the files is removed again when a later file fails', () => {
    const dir = caseFolder();
    writeFileSync(join(dir, 'blocker'), 'x');
    expect(() =>
      writeOutputs([
        { path: join(dir, 'book', 'index.html'), contents: 'a', option: '--out' },
        { path: join(dir, 'blocker', 'x.html'), contents: 'b', option: '--out' },
      ]),
    ).toThrow(UsageError);
    expect(readdirSync(dir)).toEqual(['blocker']);
  });

  it('all succeed: every file holds its new contents and no temporary file is left', () => {
    const dir = caseFolder();
    writeFileSync(join(dir, 'a'), 'old');
    writeOutputs([
      { path: join(dir, 'a'), contents: 'new a' },
      { path: join(dir, 'b'), contents: 'new b' },
    ]);
    expect(readdirSync(dir).sort()).toEqual(['a', 'b']);
    expect(readFileSync(join(dir, 'a'), 'utf8')).toBe('new a');
  });
});

describe('replacing a file: its mode kept, a link followed and kept, a planted link never followed', () => {
  it('keeps the mode of the file it replaces', () => {
    const dir = caseFolder();
    const path = join(dir, 'private.json');
    writeFileSync(path, 'old');
    chmodSync(path, 0o640);
    writeOutputs([{ path, contents: 'new' }]);
    expect(statSync(path).mode & 0o777).toBe(0o640);
    expect(readFileSync(path, 'utf8')).toBe('new');
  });

  it('writing to a symlink replaces the file it points to and keeps the link', () => {
    const dir = caseFolder();
    mkdirSync(join(dir, 'results'));
    const target = join(dir, 'results', 'latest.json');
    writeFileSync(target, 'old');
    const link = join(dir, 'latest.json');
    symlinkSync(target, link);
    writeOutputs([{ path: checkOutputFile('--json', link), contents: 'new' }]);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('new');
    expect(readdirSync(join(dir, 'results'))).toEqual(['latest.json']);
  });

  it('a link planted at the old predictable temporary name is never followed', () => {
    const dir = caseFolder();
    const victim = join(dir, 'victim');
    writeFileSync(victim, 'precious');
    const path = join(dir, 'out.json');
    // The name the old writer used (path.pid.tmp): it wrote through whatever was planted there.
    symlinkSync(victim, `${path}.${process.pid}.tmp`);
    writeOutputs([{ path, contents: 'result' }]);
    expect(readFileSync(victim, 'utf8')).toBe('precious');
    expect(readFileSync(path, 'utf8')).toBe('result');
  });
});

describe('where an output may not go: one line naming the option, exit 2, before any work', () => {
  const cases: Array<[string, (dir: string) => string, RegExp]> = [
    ['a device', () => '/dev/null', /is not a regular file \(a device, pipe or socket\)/],
    ['/dev/stdout (use - instead)', () => '/dev/stdout', /is not a regular file|is a link to nothing/],
    ['a folder', (dir) => dir, /is not a regular file \(a folder\)/],
    ['a missing folder', (dir) => join(dir, 'missing', 'x.json'), /folder .*missing does not exist/],
    [
      'a dangling symlink',
      (dir) => {
        symlinkSync(join(dir, 'nowhere', 'x'), join(dir, 'dangling.json'));
        return join(dir, 'dangling.json');
      },
      /is a link to nothing \(dangling symlink\)/,
    ],
    [
      'a path through a file',
      (dir) => {
        writeFileSync(join(dir, 'file'), 'x');
        return join(dir, 'file', 'x.json');
      },
      /does not exist/,
    ],
    ['an empty name', () => '', /got ""; allowed: a file name, or - for standard output/],
  ];
  for (const [what, target, message] of cases) {
    it(what, async () => {
      const dir = caseFolder();
      const { status, stdout, stderr } = await cli(
        'run',
        'reserves',
        '--trials',
        '1e9',
        '--threads',
        '1',
        '--json',
        target(dir),
      );
      expect(status).toBe(2);
      expect(stderr).toMatch(new RegExp(`^muster: --json: .*${message.source}`));
      expect(stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(stdout).toBe('');
    });
  }

  it.skipIf(process.getuid?.() === 0)('a read-only folder (permissions bind only a user other than root)', async () => {
    const dir = caseFolder();
    chmodSync(dir, 0o555);
    try {
      const { status, stderr } = await cli('run', 'reserves', '--exact', '--json', join(dir, 'x.json'));
      expect(status).toBe(2);
      expect(stderr).toMatch(/^muster: --json: cannot write in folder .* \(permission denied\)/);
    } finally {
      chmodSync(dir, 0o755);
    }
  });

  it('--html naming one of the files --svg writes: refused, and nothing written', async () => {
    const dir = caseFolder();
    const svg = join(dir, 'svg');
    mkdirSync(svg);
    const { status, stderr } = await cli(
      'run',
      'reserves',
      '--exact',
      '--svg',
      svg,
      '--html',
      join(svg, 'reserves-arrival-by-round.svg'),
      '--quiet',
    );
    expect(status).toBe(2);
    // An --html name ending .svg is refused before anything runs (src/cli/output-names.ts), which covers every file
    // --svg writes.
    expect(stderr).toMatch(
      /^muster: --html: got ".*reserves-arrival-by-round\.svg", an SVG name for an HTML file; allowed: /,
    );
    expect(readdirSync(svg)).toEqual([]);
  });

  it('a file-system error that escapes a command is one line naming the path', () => {
    const error = Object.assign(new Error('EACCES: permission denied, open'), {
      code: 'EACCES',
      path: '/x/y',
      syscall: 'open',
    });
    expect(fsFault(error)?.message).toBe('/x/y: permission denied (open); allowed: a path you can read and write');
    expect(fsFault(new Error('not a file-system error'))).toBeNull();
  });

  it('checkDistinct allows one standard output and distinct files', () => {
    expect(() =>
      checkDistinct([
        { option: '--json', path: '-' },
        { option: '--html', path: join(folder, 'h') },
        { option: '--csv', path: undefined },
      ]),
    ).not.toThrow();
  });
});

describe('--json - and --csv - write to standard output', () => {
  it('run --json -: standard output is the JSON alone, the report goes to stderr', async () => {
    const { status, stdout, stderr } = await cli('run', 'reserves', '--exact', '--json', '-');
    expect(status).toBe(0);
    const parsed = JSON.parse(stdout);
    expect(parsed).toMatchObject({ rule: 'reserves', method: 'exact' });
    expect(stderr).toContain('exact values (no simulation)');
    expect(existsSync('-')).toBe(false);
  });

  it('sweep --csv -: the CSV on standard output, nothing on disk', async () => {
    const { status, stdout } = await cli('sweep', 'reserves', '--exact', '--vary', 'chosenRound=0..1', '--csv', '-');
    expect(status).toBe(0);
    expect(stdout.split('\r\n')[0]).toBe('chosenRound,metric,kind,estimate,lo,hi,exact');
    expect(existsSync('-')).toBe(false);
  });

  it('merge --json -', async () => {
    const dir = caseFolder();
    const shard = join(dir, 's.json');
    await cli('shard', 'reserves', '--trials', '70000', '--shard', '0/1', '--threads', '1', '--out', shard, '--quiet');
    const { status, stdout } = await cli('merge', shard, '--json', '-');
    expect(status).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ rule: 'reserves', trials: 70000 });
  });

  it('--html - is refused: a page is a file', async () => {
    const { status, stderr } = await cli('run', 'reserves', '--exact', '--html', '-');
    expect(status).toBe(2);
    expect(stderr).toMatch(/^muster: --html: got "-"; allowed: a file name/);
  });
});
