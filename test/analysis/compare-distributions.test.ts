/**
 * Comparing two variants' distributions value by value: exact differences
 * against a brute force, and the chi-square test on simulated histograms.
 *
 * The oracle: the 2d6 roll-off (Noctvale, Standard Battle Set-Up, step 3) is
 * rolled again while the totals tie, player A adding `bonusA`. A tie's chance
 * t comes from counting all 6^4 throws of four dice, and the rolls taken are
 * geometric: P(= k) = t^(k−1)(1 − t), and past n, t^n. So the difference of
 * two variants at k is known as a fraction without muster's tables.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { compareCsv } from '../../reports/compare.js';
import { homogeneityTest } from '../../src/analysis/distribution-differences.js';
import { compareCommand } from '../../src/cli/commands/compare.js';
import { Fraction } from '../../src/exact/fraction.js';
import { toJson } from '../../src/output/json.js';
import { getRule } from '../../src/rules/index.js';
import { cli, scratchFolder } from '../support/cli.js';
import { bufferIo } from '../support/io.js';

const schema = JSON.parse(readFileSync(new URL('../../docs/result.schema.json', import.meta.url), 'utf8')) as object;
const validate = new Ajv({ allErrors: true, strict: true, strictTypes: false }).compile(schema);

/** A tie of 2d6 + bonus against 2d6, by counting every throw of the four dice. */
function tieChance(bonus: number): Fraction {
  let ties = 0;
  for (let a = 1; a <= 6; a++)
    for (let b = 1; b <= 6; b++)
      for (let c = 1; c <= 6; c++) for (let d = 1; d <= 6; d++) if (a + b + bonus === c + d) ties++;
  return Fraction.of(ties, 1296);
}

const power = (x: Fraction, k: number): Fraction => {
  let product = Fraction.ONE;
  for (let i = 0; i < k; i++) product = product.mul(x);
  return product;
};
/** P(rolls = k) for a tie chance t. */
const rollsAt = (t: Fraction, k: number) => power(t, k - 1).mul(Fraction.ONE.sub(t));

describe('compare: distributions value by value', () => {
  it('rolloff bonusA 0 against 1, exact: every value’s difference and the chance past 13 are the brute force’s', async () => {
    const result = await compareCommand(
      'rolloff',
      { variant: ['A: bonusA=0', 'B: bonusA=1'], metric: ['rolls.mean'], quiet: true },
      bufferIo(),
    );
    const [d] = result.distributions ?? [];
    expect(result.distributions).toHaveLength(1);
    const tA = tieChance(0);
    const tB = tieChance(1);
    // Hand-worked too: the sums of p(s)·p(s + bonus) over the 2d6 totals are 146 and 140 of 1296.
    expect([tA.toString(), tB.toString()]).toEqual(['73/648', '35/324']);
    expect(d.values.map((v) => v.value)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    for (const v of d.values) {
      const want = rollsAt(tB, v.value).sub(rollsAt(tA, v.value));
      expect(v.exactFraction, `value ${v.value}`).toBe(want.toString());
      expect(v.baseline.exact).toBe(rollsAt(tA, v.value).toNumber());
      expect(v.variant.exact).toBe(rollsAt(tB, v.value).toNumber());
      expect(v.difference).toBeNull();
    }
    expect(d.values[0].exactFraction).toBe('1/216'); // (1 − 140/1296) − (1 − 146/1296) = 6/1296
    expect(d.beyond?.above).toBe(13);
    expect(d.beyond?.exactFraction).toBe(power(tB, 13).sub(power(tA, 13)).toString());
    expect(d.differAt).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    expect(d.exactSame).toBe(false);
    expect(d.test).toBeNull();
    expect(validate(JSON.parse(toJson(result))), JSON.stringify(validate.errors)).toBe(true);
  });

  it('two variants of one setting, exact: the same chance at every value', async () => {
    const result = await compareCommand(
      'rolloff',
      { variant: ['A: bonusA=0', 'B: bonusA=0'], metric: ['rolls.mean'], quiet: true },
      bufferIo(),
    );
    const [d] = result.distributions ?? [];
    expect(d.exactSame).toBe(true);
    expect(d.differAt).toEqual([]);
    expect(d.values.every((v) => v.exactFraction === '0')).toBe(true);
  });

  it('reserves squads 3 against 4: values neither lists are 0, and the differences sum to exactly 0', async () => {
    const result = await compareCommand(
      'reserves',
      { variant: ['three: squads=3', 'four: squads=4'], metric: ['arrived.by.2.mean'], quiet: true },
      bufferIo(),
    );
    const [d] = result.distributions ?? [];
    expect(d.values.map((v) => v.value)).toEqual([0, 1, 2, 3, 4]);
    // Three squads can never have four in.
    expect(d.values[4].baseline.exact).toBe(0);
    expect(d.beyond).toBeNull();
    // Each side's chances sum to 1, so the differences sum to 0 exactly.
    const sum = d.values.reduce((total, v) => {
      const [n, den = '1'] = (v.exactFraction as string).split('/');
      return total.add(Fraction.of(BigInt(n), BigInt(den)));
    }, Fraction.ZERO);
    expect(sum.toString()).toBe('0');
  });

  it('seed "dist" (per variant), 20,000 trials: one setting passes the test, bonusA 0 against 3 fails it', async () => {
    const run = (variants: string[]) =>
      compareCommand(
        'rolloff',
        { variant: variants, metric: ['rolls.mean'], trials: '20000', seed: 'dist', seedPerVariant: true, quiet: true },
        bufferIo(),
      );
    const same = (await run(['A: bonusA=0', 'B: bonusA=0'])).distributions?.[0];
    expect(same?.test?.test).toBe('chi-square');
    // Under the null hypothesis p is uniform: below 5.7e-7 (5σ two-sided) once in 1.7 million seeds.
    expect(same?.test?.p).toBeGreaterThan(5.7e-7);
    expect(same?.test?.significant).toBe(false);
    const apart = await run(['A: bonusA=0', 'B: bonusA=3']);
    const test = apart.distributions?.[0].test;
    // P(one roll) is 1150/1296 against 1192/1296: a gap of 3.2 pp with a standard error of 0.30 pp over 20,000
    // trials a side, about 11σ; p < 1e-9 asks for 6.1σ, which fails only if the estimate falls 5σ short.
    expect(test?.p).toBeLessThan(1e-9);
    expect(test?.significant).toBe(true);
    expect(test?.df).toBe((test?.cells ?? 0) - 1);
    // The simulated value-by-value rows carry each side's share of the trials and their difference.
    const first = apart.distributions?.[0].values[0];
    expect(first?.difference).toBeCloseTo((first?.variant.estimate ?? 0) - (first?.baseline.estimate ?? 0), 12);
    expect(validate(JSON.parse(toJson(apart))), JSON.stringify(validate.errors)).toBe(true);
    // CSV: every value of each side, the chance past them, and the test's row.
    const rule = getRule('rolloff');
    const csv = compareCsv(
      apart,
      rule.metrics(apart.variants[0].params).filter((m) => m.name === 'rolls.mean'),
    );
    const rows = csv.trim().split(/\r?\n/);
    expect(rows[0].endsWith('significant,value,chi_square,df')).toBe(true);
    expect(rows.filter((row) => row.startsWith('rolls.mean,distribution test,B,'))).toHaveLength(1);
    expect(rows.filter((row) => row.startsWith('rolls.mean,value,A,'))).toHaveLength(
      apart.distributions?.[0].values.length ?? -1,
    );
  });
});

describe('compare: distributions through the CLI', () => {
  const folder = scratchFolder('compare-distributions');
  const args = ['rolloff', '--variant', 'A: bonusA=0', '--variant', 'B: bonusA=1', '--metric', 'rolls.mean'];

  it('two shards merged give the distributions a whole comparison gives, bit for bit', async () => {
    const shards = [join(folder, 's0.json'), join(folder, 's1.json')];
    for (const [index, file] of shards.entries()) {
      const run = await cli('compare', ...args, '--trials', '20000', '--shard', `${index}/2`, '--out', file, '--quiet');
      expect(run.status, run.stderr).toBe(0);
    }
    const merged = await cli('merge', ...shards, '--json', '-');
    const whole = await cli('compare', ...args, '--trials', '20000', '--json', '-', '--quiet');
    expect(merged.status, merged.stderr).toBe(0);
    const [a, b] = [merged, whole].map((r) => JSON.parse(r.stdout).distributions);
    expect(a).toEqual(b);
    expect(a[0].test.test).toBe('chi-square');
  });

  it('a variant label with terminal control characters prints as text in the value-by-value table', async () => {
    const run = await cli(
      'compare',
      'rolloff',
      '--variant',
      'A: bonusA=0',
      '--variant',
      '\u001b[31mred: bonusA=1',
      '--metric',
      'rolls.mean',
    );
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('value by value');
    expect(run.stdout).not.toContain('\u001b');
  });
});

describe('the chi-square test of homogeneity, by hand', () => {
  it('equal histograms: X² 0, p 1', () => {
    expect(homogeneityTest([50, 50], [50, 50])).toMatchObject({ statistic: 0, df: 1, cells: 2, p: 1 });
  });

  it('30/70 against 70/30: every expected count 50, X² = 4 · 20²/50 = 32, p = erfc(4) (df 1)', () => {
    const test = homogeneityTest([30, 70], [70, 30]);
    expect(test?.statistic).toBeCloseTo(32, 12);
    expect(test?.df).toBe(1);
    // erfc(4) = 1.5417257900280018e-8 (P(χ²₁ ≥ 32) = P(|Z| ≥ √32) = erfc(√16)).
    expect(Math.abs((test?.p as number) / 1.5417257900280018e-8 - 1)).toBeLessThan(1e-6);
  });

  it('pools neighbouring values until each expected count is 5: [3,3,4,90] against [3,7,0,90]', () => {
    // Expected counts are half a column: 6 is short, 6 + 10 = 16 gives 8; then 4 is short, 4 + 180 gives 92.
    // Cells [6,10] and [94,90]: X² = 2·2²/8 + 2·2²/92 = 1 + 2/23.
    const test = homogeneityTest([3, 3, 4, 90], [3, 7, 0, 90]);
    expect(test?.cells).toBe(2);
    expect(test?.statistic).toBeCloseTo(1 + 2 / 23, 12);
  });

  it('one value in every trial of both: nothing to test', () => {
    expect(homogeneityTest([0, 100, 0], [0, 100, 0])).toBeNull();
    expect(homogeneityTest([], [])).toBeNull();
  });
});
