import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../../src/cli/commands/run.js';
import { cli, scratchFolder } from '../support/cli.js';
import { bufferIo } from '../support/io.js';

const folder = scratchFolder('cli');

describe('muster --version and --help', () => {
  it('prints the package version and exits 0', async () => {
    const { status, stdout } = await cli('--version');
    expect(status).toBe(0);
    expect(stdout.trim()).toBe(
      JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version,
    );
  });

  it('lists every command with examples and exits 0', async () => {
    const { status, stdout } = await cli('--help');
    expect(status).toBe(0);
    for (const command of [
      'list',
      'describe',
      'run',
      'matrix',
      'sweep',
      'balance',
      'compare',
      'book',
      'shard',
      'merge',
    ])
      expect(stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
    expect(stdout).toContain('muster run infinity --set wipA=13 wipB=15');
  });
});

describe('muster list and describe', () => {
  it('lists reserves with its summary', async () => {
    const { status, stdout } = await cli('list');
    expect(status).toBe(0);
    expect(stdout).toMatch(/^reserves\s+Genesys Project reserves/m);
  });

  it('describes every parameter with type, default and allowed range, and every metric', async () => {
    const { status, stdout } = await cli('describe', 'reserves');
    expect(status).toBe(0);
    expect(stdout).toMatch(
      /^ {2}squads\s+integer, default 4\n\s+allowed: an integer from 1 to 100\n\s+squads held in reserve$/m,
    );
    expect(stdout).toMatch(/^ {2}leaderLoss\s+number, default 0\n\s+allowed: a number from 0 to 1$/m);
    expect(stdout).toMatch(/^ {2}all\.by\.4\s+probability: every squad has arrived by the end of round 4$/m);
    expect(stdout).toMatch(/^ {2}lost\.mean\s+mean: expected squads lost$/m);
    // Every line fits 100 columns, however long a rule's explanations are.
    for (const line of stdout.split('\n')) expect([...line].length).toBeLessThanOrEqual(100);
  });
});

describe('muster run reserves', () => {
  it('seed "json": writes the result JSON of the design contract', async () => {
    const file = join(folder, 'result.json');
    const { status, stdout } = await cli(
      'run',
      'reserves',
      '--set',
      'chosenRound=2',
      'command=3',
      '--trials',
      '200k',
      '--seed',
      'json',
      '--threads',
      '2',
      '--json',
      file,
      '--quiet',
    );
    expect(status).toBe(0);
    expect(stdout).toMatch(/squad\.round\.2\s+\d+\.\d+%\s+\d+\.\d+% – \d+\.\d+%\s+69\.444%/);
    const result = JSON.parse(readFileSync(file, 'utf8'));
    expect(result).toMatchObject({
      rule: 'reserves',
      seed: 'json',
      trials: 200_000,
      threads: 2,
      confidence: 0.95,
      partial: false,
    });
    expect(result.params).toEqual({
      squads: 4,
      rounds: 4,
      target: 7,
      chosenRound: 2,
      command: 3,
      leaderLoss: 0,
      fallbackCommand: 0,
      firstRound: 1,
    });
    const metric = result.metrics['squad.round.2'];
    expect(Object.keys(metric).sort()).toEqual(['estimate', 'exact', 'fraction', 'hi', 'lo']);
    expect(metric.fraction).toBe('25/36');
    expect(metric.exact).toBeCloseTo(25 / 36, 15);
    expect(metric.lo).toBeLessThanOrEqual(metric.estimate);
    expect(metric.hi).toBeGreaterThanOrEqual(metric.estimate);
  });

  it('--exact prints the exact values without simulating', async () => {
    const { status, stdout } = await cli('run', 'reserves', '--exact');
    expect(status).toBe(0);
    expect(stdout).toContain('exact values (no simulation)');
    // 5/54: the value test/rules/reserves-exact.test.ts checks against brute-force enumeration of the dice.
    expect(stdout).toMatch(/^squad\.never\s+9\.259% = 5\/54$/m);
  });

  it('Ctrl-C stops the run and reports what was gathered, marked partial', async () => {
    const file = join(folder, 'partial.json');
    const io = bufferIo();
    const running = runCommand('reserves', { trials: '4e9', threads: '1', json: file, quiet: true }, io);
    process.emit('SIGINT');
    const result = await running;
    expect(result.partial).toBe(true);
    expect(result.trials).toBeLessThan(4e9);
    expect(io.stdout()).toContain('PARTIAL');
    expect(JSON.parse(readFileSync(file, 'utf8')).partial).toBe(true);
    expect(process.exitCode).toBe(130);
  });
});

describe('bad input: one line naming the parameter, exit status 2, nothing written', () => {
  it.each([
    [['run', 'nosuchrule'], /^muster: rule: got "nosuchrule"; allowed: reserves/],
    [['run', 'reserves', '--set', 'bogus=1'], /^muster: bogus: not a parameter of reserves; allowed: squads, rounds/],
    [['run', 'reserves', '--set', 'squads=0'], /^muster: squads: got "0"; allowed: an integer from 1 to 100$/],
    [['run', 'reserves', '--set', 'squads=four'], /^muster: squads: got "four"; allowed: an integer from 1 to 100$/],
    [['run', 'reserves', '--set', 'squads=2.5'], /^muster: squads: got "2.5"; allowed: an integer from 1 to 100$/],
    [['run', 'reserves', '--set', 'leaderLoss=1.5'], /^muster: leaderLoss: got "1.5"; allowed: a number from 0 to 1$/],
    [
      ['run', 'reserves', '--set', 'chosenRound=5'],
      /^muster: chosenRound: got 5; allowed: 0 \(none\) to rounds \(4\)$/,
    ],
    [['run', 'reserves', '--set', 'squads'], /^muster: --set: got "squads"; allowed: name=value/],
    [['run', 'reserves', '--set', 'squads=2', '--set', 'squads=3'], /^muster: squads: set twice/],
    [['run', 'reserves', '--trials', '0'], /^muster: --trials: got "0"; allowed: a whole number of trials/],
    [['run', 'reserves', '--trials', '-5'], /^muster: --trials: got "-5"; allowed/],
    [['run', 'reserves', '--trials', 'lots'], /^muster: --trials: got "lots"; allowed/],
    [['run', 'reserves', '--threads', '0'], /^muster: --threads: got "0"; allowed: an integer from 1 to 256$/],
    [
      ['run', 'reserves', '--confidence', '1'],
      /^muster: --confidence: got "1"; allowed: a number greater than 0 and at most 0.999999, such as 0.95$/,
    ],
    [
      ['run', 'reserves', '--precision', '0.01', '--trials', '1e6'],
      /^muster: --precision: cannot be combined with --trials/,
    ],
    [['run', 'reserves', '--max-trials', '1e6'], /^muster: --max-trials: only meaningful with --precision/],
    [['run', 'reserves', '--exact', '--trials', '1e6'], /^muster: --exact: cannot be combined with --trials/],
    [['describe', 'nosuchrule'], /^muster: rule: got "nosuchrule"/],
  ])('%j', async (argv, message) => {
    const file = join(folder, `never-${argv.join('_').replace(/[^a-z0-9]/gi, '')}.json`);
    const { status, stderr, stdout } = await cli(...argv, ...(argv[0] === 'run' ? ['--json', file] : []));
    expect(status).toBe(2);
    expect(stderr.trim()).toMatch(message);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(stdout).toBe('');
    expect(existsSync(file)).toBe(false);
  });

  it('an output file in a missing folder is refused before any work', async () => {
    const { status, stderr } = await cli('run', 'reserves', '--json', join(folder, 'no', 'such', 'dir', 'r.json'));
    expect(status).toBe(2);
    expect(stderr).toMatch(/^muster: --json: folder .* does not exist/);
  });

  it('muster matrix checks its --html and --json paths before any work', async () => {
    for (const option of ['--html', '--json']) {
      const { status, stderr, stdout } = await cli('matrix', 'infinity', option, join(folder, 'missing', 'm.out'));
      expect(status).toBe(2);
      expect(stderr).toMatch(new RegExp(`^muster: ${option}: folder .* does not exist`));
      expect(stdout).toBe('');
    }
  });

  it('a device or folder is never replaced by an output file', async () => {
    for (const target of ['/dev/null', folder]) {
      const { status, stderr } = await cli('run', 'reserves', '--exact', '--json', target);
      expect(status).toBe(2);
      expect(stderr).toMatch(/^muster: --json: .* is not a regular file/);
    }
  });

  it('an unknown option gets commander’s one-line error and status 2', async () => {
    const { status, stderr } = await cli('run', 'reserves', '--sed', '3');
    expect(status).toBe(2);
    expect(stderr).toBe(
      'muster: option: got "--sed" (did you mean "--seed" or "--set"?); allowed: an option muster run --help lists\n',
    );
  });
});
