/**
 * Options that are parsed are checked, in every command that takes them.
 * Each case here was accepted before: hexadecimal and binary numbers, a
 * repeated option silently taking its last value, --confidence ignored
 * (and unchecked) beside --exact, a confidence so near 1 that every
 * interval was NaN, `book --out ""`, `shard --json` silently ignored, and a
 * shard with no chunks written as an empty tally.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDecimal } from '../../src/decimal.js';
import { cli, scratchFolder } from '../support/cli.js';

const folder = scratchFolder('options');

describe('bad input: one line naming the option, exit 2, nothing written', () => {
  const cases: Array<[string[], RegExp]> = [
    // Numbers are decimal only.
    [['run', 'reserves', '--threads', '0x2'], /^muster: --threads: got "0x2"; allowed: an integer from 1 to 256\n$/],
    [['run', 'reserves', '--set', 'squads=0x4'], /^muster: squads: got "0x4"; allowed: an integer from 1 to 100\n$/],
    [
      ['run', 'reserves', '--set', 'leaderLoss=0b0'],
      /^muster: leaderLoss: got "0b0"; allowed: a number from 0 to 1\n$/,
    ],
    [['run', 'reserves', '--set', 'squads=0o7'], /^muster: squads: got "0o7"/],
    [['run', 'reserves', '--set', 'leaderLoss=Infinity'], /^muster: leaderLoss: got "Infinity"/],
    [['run', 'reserves', '--confidence', '0x1'], /^muster: --confidence: got "0x1"/],
    [['run', 'reserves', '--timeout', '0x10'], /^muster: --timeout: got "0x10"/],
    [['run', 'reserves', '--threads', ''], /^muster: --threads: got ""/],
    // One rule for a repeated single-valued option: an error.
    [
      ['run', 'reserves', '--trials', '1e5', '--trials', '2e5'],
      /^muster: --trials: given twice \("1e5" and "2e5"\); allowed: once\n$/,
    ],
    [['run', 'reserves', '--seed', 'a', '--seed', 'b'], /^muster: --seed: given twice/],
    [['sweep', 'reserves', '--vary', 'rounds=4..5', '--csv', 'a.csv', '--csv', 'b.csv'], /^muster: --csv: given twice/],
    [['book', '--out', 'a', '--out', 'b'], /^muster: --out: given twice/],
    [['merge', 'x.json', '--confidence', '0.9', '--confidence', '0.8'], /^muster: --confidence: given twice/],
    // Checked in every command that accepts the option, even where --exact makes it meaningless.
    [['run', 'reserves', '--exact', '--confidence', 'abc'], /^muster: --exact: cannot be combined with --confidence/],
    // --timeout stops a rule file's exact() too (test/cli/timeout-everywhere.test.ts): taken, and checked.
    [['run', 'reserves', '--exact', '--timeout', 'abc'], /^muster: --timeout: got "abc"/],
    [['describe', 'reserves', '--timeout', '0'], /^muster: --timeout: got "0"/],
    [
      ['sweep', 'reserves', '--vary', 'rounds=4..5', '--exact', '--confidence', 'abc'],
      /^muster: --exact: cannot be combined with --confidence/,
    ],
    [
      ['compare', 'reserves', '--variant', 'A: target=7', '--variant', 'B: target=6', '--exact', '--confidence', 'abc'],
      /^muster: --exact: cannot be combined with --confidence/,
    ],
    [
      ['matrix', 'infinity', '--confidence', 'abc'],
      /^muster: --confidence: infinity's matrix is exact; allowed: add --simulate/,
    ],
    [['matrix', 'infinity', '--trials', 'lots'], /^muster: --trials: infinity's matrix is exact/],
    [['matrix', 'infinity', '--seed', ''], /^muster: --seed: got ""/],
    [['matrix', 'infinity', '--simulate', '--confidence', 'abc'], /^muster: --confidence: got "abc"/],
    // Confidence near 1 gave NaN intervals.
    [
      ['run', 'reserves', '--confidence', '0.9999999999999999'],
      /^muster: --confidence: got "0.9999999999999999"; allowed: a number greater than 0 and at most 0.999999/,
    ],
    [['merge', 'x.json', '--confidence', '0.99999999'], /^muster: --confidence: got "0.99999999"/],
    [['book', '--out', ''], /^muster: --out: got ""; allowed: a folder/],
    [['book', '--timeout', '-1'], /^muster: --timeout: got "-1"; allowed: a number of seconds greater than 0/],
    // shard: --json is refused, not ignored; a shard with no chunks is refused.
    [
      ['shard', 'reserves', '--shard', '0/2', '--out', join(folder, 's.json'), '--json', join(folder, 'j.json')],
      /^muster: --json: got ".*j\.json"; allowed: no --json for a shard/,
    ],
    [
      ['shard', 'reserves', '--trials', '1000', '--shard', '0/2', '--out', join(folder, 's.json')],
      /^muster: --shard: got "0\/2": shard 0 of 2 has no chunks, as 1000 trials make 1 chunk; allowed: at most 1 shards/,
    ],
  ];
  for (const [argv, message] of cases) {
    it(JSON.stringify(argv), async () => {
      const { status, stdout, stderr } = await cli(...argv);
      expect(status).toBe(2);
      expect(stderr).toMatch(message);
      expect(stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(stdout).toBe('');
      expect(existsSync(join(folder, 's.json'))).toBe(false);
    });
  }

  it('--confidence 0.999999, the most allowed, gives finite intervals', async () => {
    const json = join(folder, 'six-nines.json');
    const { status } = await cli(
      'run',
      'infinity',
      '--trials',
      '1e4',
      '--threads',
      '1',
      '--confidence',
      '0.999999',
      '--json',
      json,
      '--quiet',
    );
    expect(status).toBe(0);
    for (const metric of Object.values(JSON.parse(readFileSync(json, 'utf8')).metrics) as Array<{
      lo: number;
      hi: number;
    }>) {
      expect(Number.isFinite(metric.lo) && Number.isFinite(metric.hi)).toBe(true);
    }
  });
});

describe('parseDecimal: decimal text only', () => {
  it('seed 20: any finite double printed in decimal reads back as itself', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        // === so that -0, printed "0", reads back equal.
        expect(parseDecimal(String(x)) === x).toBe(true);
      }),
      { seed: 20, numRuns: 500 },
    );
  });

  it('seed 21: hexadecimal, binary and octal forms are NaN, whatever the digits', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('0x', '0X', '0b', '0B', '0o', '0O'),
        fc.stringMatching(/^[0-9a-fA-F]{1,8}$/),
        (prefix, digits) => {
          expect(parseDecimal(prefix + digits)).toBeNaN();
        },
      ),
      { seed: 21, numRuns: 300 },
    );
  });

  it('blank, Infinity, and half-numbers are NaN; signs, points and exponents are read', () => {
    for (const text of ['', '  ', 'Infinity', '-Infinity', 'NaN', '1e', 'e5', '.', '1.2.3', '1_000', '١٢'])
      expect(parseDecimal(text)).toBeNaN();
    expect([' 12 ', '-0.5', '+3', '.25', '5.', '1e6', '2.5E-3'].map(parseDecimal)).toEqual([
      12, -0.5, 3, 0.25, 5, 1e6, 2.5e-3,
    ]);
  });
});
