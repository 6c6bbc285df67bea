/**
 * A distribution's tail by its short name, everywhere a metric name is taken:
 * `rolls>=2` reads rolloff's `rolls.mean` (a built-in's distribution is named
 * for its mean). The oracle is hand-worked from the text (Noctvale, Standard
 * Battle Set-Up, step 3: 2d6 each, "Reroll ties"): a second roll is needed
 * exactly when the first ties, in Σ ways(t)² = 1 + 4 + 9 + 16 + 25 + 36 + 25 +
 * 16 + 9 + 4 + 1 = 146 of the 1,296 pairs of totals, so P(rolls ≥ 2) =
 * 146/1296 = 73/648. A tail of a metric that is not a distribution, and a
 * tail whose exact chance the rule cannot give (a rule file's own exact()
 * gives only a mean), are one line and exit status 2 with --exact, never an
 * internal error.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, scratchFolder } from '../support/cli.js';

const folder = scratchFolder('tail-names');
// Sixes among the dice, with an exact() of its own that gives only the mean (and the chance of any six).
const own = join(folder, 'own.mjs');
writeFileSync(
  own,
  `export default { id: 'own', title: 'own',
  params: [{ name: 'dice', type: 'integer', default: 2, min: 1, max: 6, doc: 'dice' }],
  metrics: [{ name: 'sixes', distribution: true, max: 6, doc: 'sixes among the dice' },
    { name: 'any', probability: true, doc: 'some six' }],
  trial(dice, p, out) { let n = 0; for (let i = 0; i < p.dice; i++) if (dice.d(6) === 6) n++; out.sixes = n; out.any = n > 0 ? 1 : 0; },
  exact(p) { return { sixes: p.dice / 6, any: 1 - (5 / 6) ** p.dice }; } };\n`,
);

// The both-tokens roll-off of examples/rules with the tokens A spends as a distribution: a rule with decisions, whose
// enumeration gives each metric's mean under best play and no distribution.
const tokens = join(folder, 'tokens.mjs');
writeFileSync(
  tokens,
  readFileSync(new URL('../../examples/rules/rolloff-both-tokens.mjs', import.meta.url), 'utf8').replace(
    "{ name: 'a.spent', doc: 'expected tokens A spends', probability: false }",
    "{ name: 'a.spent', doc: 'tokens A spends', distribution: true, max: 2 }",
  ),
);

/** One line on stderr, exit status 2, nothing on stdout. */
function refused(result: { status: number; stdout: string; stderr: string }, pattern: RegExp): void {
  expect(result.status, result.stderr).toBe(2);
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
  expect(result.stderr).toMatch(pattern);
  expect(result.stderr).not.toMatch(/internal error|\n\s+at /);
}

describe('a tail named by the short name of a distribution that is a mean', () => {
  it('run --exact: rolls>=2 and rolls.mean>=2 are both 73/648, the chance the first roll ties', async () => {
    for (const name of ['rolls>=2', 'rolls.mean>=2']) {
      const { status, stdout } = await cli('run', 'rolloff', '--exact', '--metric', name);
      expect(status).toBe(0);
      expect(stdout).toMatch(new RegExp(`^${name.replace('.', '\\.')} +11\\.265% = 73/648$`, 'm'));
    }
  });

  it('sweep --metric, --best, compare and balance --metric take it, exact', async () => {
    const sweep = await cli('sweep', 'rolloff', '--vary', 'bonusA=0..1', '--exact', '--metric', 'rolls>=2');
    expect(sweep.status, sweep.stderr).toBe(0);
    expect(sweep.stdout).toMatch(/^0 +11\.265% = 73\/648/m);
    // bonusA=1: A's total + 1 ties B's in Σ ways(t)·ways(t + 1) = 2·(1·2 + 2·3 + 3·4 + 4·5 + 5·6) = 140 of 1,296.
    expect(sweep.stdout).toMatch(/^1 +10\.802% = 35\/324/m);
    const best = await cli('sweep', 'rolloff', '--vary', 'bonusA=0..1', '--exact', '--best', 'rolls>=2:min');
    expect(best.status, best.stderr).toBe(0);
    expect(best.stdout).toMatch(/^1 +10\.802% = 35\/324 ◀/m);
    const compare = await cli(
      'compare',
      'rolloff',
      '--variant',
      'even: bonusA=0',
      '--variant',
      'plus one: bonusA=1',
      '--metric',
      'rolls>=2',
    );
    expect(compare.status, compare.stderr).toBe(0);
    expect(compare.stdout).toMatch(/^rolls>=2 +11\.265% = 73\/648 +10\.802% = 35\/324/m);
    const balance = await cli('balance', 'rolloff', '--vary', 'bonusA=0..1', '--metric', 'rolls>=2', '--target', '10%');
    expect(balance.status, balance.stderr).toBe(0);
    expect(balance.stdout).toContain('exact values');
    expect(balance.stdout).toMatch(/the nearest is bonusA=1\s+\(10\.802% = 35\/324\)/);
  });

  it('balance --keep reads a tail before its own comparison: "rolls>=2<=11%" keeps bonusA=1 only', async () => {
    const { status, stdout, stderr } = await cli(
      'balance',
      'rolloff',
      '--vary',
      'bonusA=0..1',
      '--metric',
      'a.wins',
      '--target',
      '50%',
      '--keep',
      'rolls>=2<=11%',
    );
    expect(status, stderr).toBe(0);
    // 73/648 ≈ 11.27% is over 11%, 35/324 ≈ 10.80% under it.
    expect(stdout).toContain('keep: rolls>=2<=11% (1 setting(s) left out)');
    expect(stdout).toMatch(
      /among the 1 settings that keep rolls>=2<=11%:\s+every one is above it; the nearest is bonusA=1 /,
    );
  });

  it('matrix --equilibrium takes a tail in --objective', async () => {
    const { status, stdout, stderr } = await cli(
      'matrix',
      'deployment',
      '--range',
      'forward:1 standard:1,2,3',
      '--equilibrium',
      '--objective',
      'a.initiative + a.total<=6',
    );
    expect(status, stderr).toBe(0);
    expect(stdout).toContain('a.initiative + a.total<=6');
  });
});

describe('a tail of a metric that is not a distribution: one line, exit 2', () => {
  const wins = /"a\.wins>=1", a tail of a\.wins, which is a probability, not a distribution; allowed: .*rolls\.mean/;
  it('run, sweep, compare, balance --metric and --keep, matrix --objective', async () => {
    refused(
      await cli('run', 'rolloff', '--exact', '--metric', 'a.wins>=1'),
      new RegExp(`^muster: --metric: got ${wins.source}`),
    );
    refused(
      await cli('sweep', 'rolloff', '--vary', 'bonusA=0..1', '--exact', '--metric', 'a.wins>=1'),
      new RegExp(`--metric: got ${wins.source}`),
    );
    refused(
      await cli('compare', 'rolloff', '--variant', 'a: bonusA=0', '--variant', 'b: bonusA=1', '--metric', 'a.wins>=1'),
      new RegExp(`--metric: got ${wins.source}`),
    );
    refused(
      await cli('balance', 'rolloff', '--vary', 'bonusA=0..1', '--metric', 'a.wins>=1', '--target', '10%'),
      new RegExp(`--metric: got ${wins.source}`),
    );
    refused(
      await cli(
        'balance',
        'rolloff',
        '--vary',
        'bonusA=0..1',
        '--metric',
        'rolls>=2',
        '--target',
        '10%',
        '--keep',
        'a.wins>=1>=50%',
      ),
      new RegExp(`--keep: got ${wins.source}`),
    );
    refused(
      await cli(
        'matrix',
        'deployment',
        '--range',
        'forward:1 standard:1,2,3',
        '--equilibrium',
        '--objective',
        'a.aoc>=1',
      ),
      /--objective: got "a\.aoc>=1", a tail of a\.aoc, which is a probability, not a distribution; allowed: .*a\.total\.mean/,
    );
  });
});

describe('a tail of a rule file whose own exact() gives only the mean: one line with --exact, simulated without', () => {
  const why = /sixes>=1 has no exact value: the rule file's exact\(\) gives only the mean of sixes/;
  it('run, sweep, sweep --best and compare with --exact refuse it in one line', async () => {
    refused(await cli('run', own, '--exact', '--metric', 'sixes>=1'), why);
    refused(await cli('sweep', own, '--vary', 'dice=1..2', '--exact', '--metric', 'sixes>=1'), why);
    refused(await cli('sweep', own, '--vary', 'dice=1..2', '--exact', '--best', 'sixes>=1'), why);
    refused(
      await cli('compare', own, '--variant', 'a: dice=1', '--variant', 'b: dice=2', '--exact', '--metric', 'sixes>=1'),
      why,
    );
  });

  it('a rule with decisions: --exact refuses a tail in one line, as best play gives only the mean', async () => {
    expect(readFileSync(tokens, 'utf8')).toContain('distribution: true');
    refused(
      await cli('run', tokens, '--exact', '--metric', 'a.spent>=1'),
      /a\.spent>=1 has no exact value: rolloff-both-tokens gives the mean of a\.spent under best play/,
    );
  });

  it('simulated, the tail is counted and the note says why it has no exact value', async () => {
    const { status, stdout, stderr } = await cli(
      'run',
      own,
      '--trials',
      '10000',
      '--seed',
      'own',
      '--threads',
      '1',
      '--metric',
      'sixes>=1',
    );
    expect(status, stderr).toBe(0);
    expect(stdout).toMatch(/^sixes>=1 +\d+\.\d+%/m);
    expect(stderr).toMatch(why);
  });
});
