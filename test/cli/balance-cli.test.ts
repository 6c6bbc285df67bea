/**
 * `muster balance` at the command line: the --target, --cliff, --within and
 * --keep parsers (each value checked against a hand-worked fraction), the
 * one-line refusals with exit status 2 and nothing written, and the answer
 * in words and as a map, with the 2d6 roll-off's a.wins worked by hand:
 * at bonus 0 the game is symmetric (1/2); at bonus 1, A wins 721 of the 1156
 * decided pairs of totals (the 1296 outcomes less the 140 ties).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDistance, parseKeep, parseTarget } from '../../src/analysis/balance-terms.js';
import type { MetricSpec } from '../../src/contract/types.js';
import { UsageError } from '../../src/errors.js';
import { cli, scratchFolder } from '../support/cli.js';

const folder = scratchFolder('balance');
const wins: MetricSpec = { name: 'a.wins', doc: 'A wins', probability: true };
const rolls: MetricSpec = { name: 'rolls.mean', doc: 'rolls', probability: false };

describe('the --target, --cliff and --within forms', () => {
  it.each([
    ['50%', '1/2'],
    ['12.5pp', '1/8'],
    ['1/3', '1/3'],
    ['0.75', '3/4'],
    ['2.5e-1', '1/4'],
    [' 100% ', '1'],
    ['0', '0'],
  ])('a probability target %j is exactly %s', (text, fraction) => {
    expect(parseTarget(text, wins).value.toString()).toBe(fraction);
  });

  it.each([
    ['2.5', '5/2'],
    ['5/2', '5/2'],
    ['-1.25', '-5/4'],
  ])('a mean target %j is exactly %s', (text, fraction) => {
    expect(parseTarget(text, rolls).value.toString()).toBe(fraction);
  });

  it.each([
    ['150%', wins, /--target: got "150%", outside 0%–100%/],
    ['2', wins, /outside 0%–100% \(a.wins is a probability\)/],
    ['-1%', wins, /outside 0%–100%/],
    ['half', wins, /--target: got "half"; allowed: a percentage such as 50%/],
    ['1/0', wins, /--target: got "1\/0"/],
    ['50%', rolls, /--target: got "50%", but rolls.mean is a mean/],
    ['', wins, /--target: got ""/],
    ['1'.repeat(300), rolls, /--target: got 300 characters/],
  ])('%j is refused in one line', (text, metric, message) => {
    expect(() => parseTarget(text, metric)).toThrow(UsageError);
    expect(() => parseTarget(text, metric)).toThrow(message);
  });

  it('a distance is not negative and reads pp and % alike', () => {
    expect(parseDistance('--cliff', '10pp', wins).value.toString()).toBe('1/10');
    expect(parseDistance('--within', '2%', wins).value.toString()).toBe('1/50');
    expect(() => parseDistance('--within', '-1', rolls)).toThrow(/--within: got "-1", a negative distance/);
  });
});

describe('the --keep parser', () => {
  const metrics = [wins, rolls, { name: 'all.by.4', doc: 'all in', probability: true }];
  it.each([
    ['all.by.4>=80%', 'all.by.4', '>=', '4/5'],
    ['  a.wins < 1/2 ', 'a.wins', '<', '1/2'],
    ['rolls.mean<=1.5', 'rolls.mean', '<=', '3/2'],
    ['a.wins!=0', 'a.wins', '!=', '0'],
    ['a.wins==0.5', 'a.wins', '=', '1/2'],
    ['a.wins>0.25', 'a.wins', '>', '1/4'],
  ])('%j', (text, metric, comparator, value) => {
    const keep = parseKeep(text, metrics);
    expect([keep.metric.name, keep.comparator, keep.value.value.toString()]).toEqual([metric, comparator, value]);
  });

  it.each([
    ['all.by.4', /--keep: got "all.by.4"; allowed: METRIC OP VALUE/],
    ['>=80%', /--keep: got ">=80%"/],
    ['all.by.4>=', /--keep: got "all.by.4>="/],
    ['all.by.5>=80%', /--keep: "all.by.5" is not a metric of the grid \(did you mean "all.by.4"\?\)/],
    ['all.by.4>=180%', /--keep all.by.4: got "180%", outside 0%–100%/],
    ['rolls.mean>=5%', /rolls.mean is a mean/],
    [`a.wins>=${'9'.repeat(250)}`, /--keep: got "a.wins>=9{32}…"; allowed: .*at most 200 characters/],
  ])('%j is refused in one line', (text, message) => {
    expect(() => parseKeep(text, metrics)).toThrow(UsageError);
    expect(() => parseKeep(text, metrics)).toThrow(message);
  });
});

describe('muster balance refuses bad input in one line, exit 2, nothing written', () => {
  it.each([
    [['--target', '50%', '--vary', 'bonusA=-2..2'], /^muster: --metric: missing; allowed: the one metric/],
    [['--metric', 'a.wins', '--vary', 'bonusA=-2..2'], /^muster: --target: missing/],
    [['--metric', 'a.wins', '--target', '50%'], /^muster: --vary: missing/],
    [
      ['--metric', 'a.win', '--target', '50%', '--vary', 'bonusA=-2..2'],
      /--metric: got "a.win" \(did you mean "a.wins"\?\)/,
    ],
    [['--metric', 'a.*', '--target', '50%', '--vary', 'bonusA=-2..2'], /--metric: got "a.\*".*\(no glob\)/],
    [['--metric', 'a.wins', '--target', 'fair', '--vary', 'bonusA=-2..2'], /--target: got "fair"/],
    [['--metric', 'a.wins', '--target', '50%', '--vary', 'bonusA=-9..2'], /bonusA/],
    [
      ['--metric', 'a.wins', '--target', '50%', '--vary', 'bonusA=-2..2', '--keep', 'b.wins=>50%'],
      /--keep b.wins: got ">50%"/,
    ],
    [
      ['--metric', 'a.wins', '--target', '50%', '--vary', 'bonusA=-2..2', '--exact', '--simulate'],
      /--exact: cannot be combined with --simulate/,
    ],
    [
      ['--metric', 'a.wins', '--target', '50%', '--vary', 'bonusA=-2..2', '--exact', '--trials', '1000'],
      /--exact: cannot be combined with --trials/,
    ],
  ])('%j', async (argv, message) => {
    const file = join(folder, 'never.json');
    const { status, stderr, stdout } = await cli('balance', 'rolloff', ...argv, '--json', file);
    expect(status).toBe(2);
    expect(stderr.trim()).toMatch(message);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stdout).toBe('');
    expect(existsSync(file)).toBe(false);
  });
});

describe('muster balance answers', () => {
  it('the fair bonus of the 2d6 roll-off, exactly, with one step either side', async () => {
    const file = join(folder, 'rolloff.json');
    const { status, stdout, stderr } = await cli(
      'balance',
      'rolloff',
      '--metric',
      'a.wins',
      '--target',
      '50%',
      '--vary',
      'bonusA=-2..2',
      '--json',
      file,
      '--quiet',
    );
    expect(status, stderr).toBe(0);
    expect(stdout).toContain('bonusA=0 gives a.wins 50.000% = 1/2: exactly the target 50% (exact values).');
    // 721/1156 − 1/2 = 143/1156 = 12.370 pp.
    expect(stdout).toContain('bonusA −1 moves a.wins by −12.370 pp; bonusA +1 moves it by +12.370 pp');
    expect(stdout).toMatch(/^0 +50\.000% ◆ +1\/2$/m);
    const json = JSON.parse(readFileSync(file, 'utf8'));
    expect(json.kind).toBe('sweep');
    expect(json.balance.nearest).toEqual([
      { params: { bonusA: 0 }, value: { value: 0.5, fraction: '1/2' }, miss: { value: 0, fraction: '0' } },
    ]);
    expect(json.balance.sensitivity[1]).toEqual({
      param: 'bonusA',
      from: 0,
      to: 1,
      change: { value: 143 / 1156, fraction: '143/1156' },
    });
  });

  it('--html writes the printable map; a folder that does not exist is refused before any work', async () => {
    const page = join(folder, 'map.html');
    const argv = ['balance', 'infinity', '--metric', 'a.wins', '--target', '50%', '--vary', 'wipA=12..13'];
    const { status, stderr } = await cli(...argv, '--vary', 'wipB=12..13', '--html', page);
    expect(status, stderr).toBe(0);
    const html = readFileSync(page, 'utf8');
    expect(html).toContain('balance-map');
    expect(html).not.toMatch(/src="https?:/);
    const missing = await cli(...argv, '--html', join(folder, 'no', 'such', 'map.html'));
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/^muster: --html: folder .* does not exist/);
    expect(missing.stdout).toBe('');
  });

  it('simulated, the answer says its exact values were known beside the simulation', async () => {
    const argv = ['balance', 'rolloff', '--metric', 'a.wins', '--target', '50%', '--vary', 'bonusA=-1..1'];
    const { status, stdout } = await cli(...argv, '--trials', '10000', '--threads', '1', '--quiet');
    expect(status).toBe(0);
    expect(stdout).toContain('10,000 trials a point');
    expect(stdout.replace(/\n {2}/g, ' ')).toContain(
      'bonusA=0 gives a.wins 50.000% = 1/2: exactly the target 50% (exact values, known beside the simulation).',
    );
  });

  it('a --keep no setting meets is said in words, with no mark in the map', async () => {
    const argv = ['balance', 'rolloff', '--metric', 'a.wins', '--target', '50%', '--vary', 'bonusA=-1..1'];
    const { status, stdout } = await cli(...argv, '--keep', 'b.wins>99%');
    expect(status).toBe(0);
    expect(stdout).toContain('No setting keeps b.wins>99% (3 tried); loosen a --keep or widen a --vary.');
    expect(stdout).not.toContain('◆');
  });

  it('a target out of range says so and names the nearest setting', async () => {
    const { status, stdout } = await cli(
      'balance',
      'rolloff',
      '--metric',
      'a.wins',
      '--target',
      '99%',
      '--vary',
      'bonusA=0..1',
    );
    expect(status).toBe(0);
    // 721/1156 − 99/100 = (72100 − 114444)/115600 = −42344/115600 = −36.630 pp.
    expect(stdout.replace(/\n {2}/g, ' ')).toContain(
      'No setting in range reaches 99%: every one is below it; the nearest is bonusA=1 (62.370% = 721/1156), ' +
        'which misses by −36.630 pp (exact values).',
    );
  });

  it('a target between two settings names both and how much each misses', async () => {
    const { status, stdout } = await cli(
      'balance',
      'rolloff',
      '--metric',
      'a.wins',
      '--target',
      '55%',
      '--vary',
      'bonusA=0..1',
    );
    expect(status).toBe(0);
    // 1/2 misses 55% by −5 pp; 721/1156 by +7.370 pp.
    expect(stdout.replace(/\n {2}/g, ' ')).toContain(
      'The target 55% lies between bonusA=0 (50.000% = 1/2), which misses by −5.000 pp, and bonusA=1 ' +
        '(62.370% = 721/1156), which misses by +7.370 pp: the nearest is bonusA=0 (exact values).',
    );
  });
});
