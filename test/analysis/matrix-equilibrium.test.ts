/**
 * `muster matrix --equilibrium`: the zero-sum game on a matrix, checked by
 * oracles that share nothing with the solver: the exact best-response
 * condition on the printed strategies (no pure strategy of either side does
 * better against the other's mix, in fractions, and the value is what the two
 * mixes give), with each cell's payoff recomputed here from the rule's own
 * exact values; a 2×2 rule file worked by hand (test/fixtures/hidden-hand.mjs:
 * the closed form p = (d−c)/(a−b−c+d), q = (d−b)/(…), v = (ad−bc)/(…));
 * and the deployment case the issue names (S123 against S123 on initiative).
 * The objective parser is checked on weights worked by hand and on its
 * one-line errors.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseObjective } from '../../src/analysis/objective.js';
import { main } from '../../src/cli.js';
import { Fraction } from '../../src/exact/fraction.js';
import { deployment } from '../../src/rules/deployment/deployment.js';
import { DEPLOYMENT_STRATEGIES } from '../../src/rules/deployment/params.js';
import { resolveParams } from '../../src/rules/params.js';
import { bufferIo } from '../support/io.js';

const HIDDEN_HAND = 'test/fixtures/hidden-hand.mjs';

interface Option {
  strategy: string;
  fraction: string;
  chance: number;
}

const fraction = (text: string) => {
  const [n, d = '1'] = text.split('/');
  return Fraction.of(BigInt(n), BigInt(d));
};

async function equilibriumOf(argv: string[]) {
  const io = bufferIo();
  const status = await main(['matrix', ...argv, '--equilibrium', '--json', '-'], io);
  expect(status, io.stderr()).toBe(0);
  return JSON.parse(io.stdout()).equilibrium;
}

async function expectUsageError(argv: string[], parameter: string, message?: RegExp): Promise<void> {
  const io = bufferIo();
  expect(await main(argv, io), argv.join(' ')).toBe(2);
  const lines = io.stderr().trimEnd().split('\n');
  expect(lines, argv.join(' ')).toHaveLength(1);
  expect(lines[0].startsWith(`muster: ${parameter}: `), lines[0]).toBe(true);
  if (message) expect(lines[0]).toMatch(message);
  expect(io.stdout()).toBe('');
}

/**
 * The best-response condition, exactly: x and y are distributions, every column
 * pays A at least v against x, every row at most v against y, and xᵀAy = v.
 */
function expectEquilibrium(payoff: Fraction[][], rows: Option[], cols: Option[], value: Fraction): void {
  const x = rows.map((option) => fraction(option.fraction));
  const y = cols.map((option) => fraction(option.fraction));
  for (const chances of [x, y]) {
    expect(chances.every((chance) => chance.compare(Fraction.ZERO) >= 0)).toBe(true);
    expect(chances.reduce((sum, chance) => sum.add(chance), Fraction.ZERO).equals(Fraction.ONE)).toBe(true);
  }
  payoff[0].forEach((_, j) => {
    const against = x.reduce((sum, chance, i) => sum.add(chance.mul(payoff[i][j])), Fraction.ZERO);
    expect(against.compare(value), `column ${cols[j].strategy} pays ${against} against A's mix`).toBeGreaterThanOrEqual(
      0,
    );
  });
  payoff.forEach((row, i) => {
    const against = y.reduce((sum, chance, j) => sum.add(chance.mul(row[j])), Fraction.ZERO);
    expect(against.compare(value), `row ${rows[i].strategy} pays ${against} against B's mix`).toBeLessThanOrEqual(0);
  });
  let played = Fraction.ZERO;
  x.forEach((rowChance, i) => {
    y.forEach((colChance, j) => {
      played = played.add(rowChance.mul(colChance).mul(payoff[i][j]));
    });
  });
  expect(played.equals(value), `xᵀAy = ${played}, value ${value}`).toBe(true);
}

describe('--objective: a weighted sum of metrics, read without eval', () => {
  const metrics = ['a.initiative', 'a.aoc', 'b.aoc', 'rolloff', 'odd name-with+ops'];
  const weights = (text: string) =>
    Object.fromEntries([...parseObjective(text, metrics).weights].map(([name, weight]) => [name, weight.toString()]));

  it('reads weights and constants exactly, as typed (0.1 is 1/10)', () => {
    expect(weights('a.initiative + 0.5*a.aoc')).toEqual({ 'a.initiative': '1', 'a.aoc': '1/2' });
    expect(weights('a.initiative + 0.1*(a.aoc - b.aoc)')).toEqual({
      'a.initiative': '1',
      'a.aoc': '1/10',
      'b.aoc': '-1/10',
    });
    expect(weights('-rolloff + 2 * -a.aoc + a.aoc*3')).toEqual({ rolloff: '-1', 'a.aoc': '1' });
    const withConstant = parseObjective('1 - a.initiative', metrics);
    expect(withConstant.constant.toString()).toBe('1');
    expect(weights('1 - a.initiative')).toEqual({ 'a.initiative': '-1' });
  });

  it('takes a name holding operators whole, or in double quotes inside a sum', () => {
    expect(weights('odd name-with+ops')).toEqual({ 'odd name-with+ops': '1' });
    expect(weights('0.5*"odd name-with+ops" + rolloff')).toEqual({ 'odd name-with+ops': '1/2', rolloff: '1' });
  });

  it.each([
    ['a.inititive + 1', /"a\.inititive" is not a metric.*did you mean "a\.initiative"/],
    ['a.initiative * a.aoc', /a product of two metrics/],
    ['(a.initiative + a.aoc', /not closed/],
    ['a.initiative a.aoc', /"a\.aoc" where \+ - \* or the end/],
    ['a.initiative +', /ends where a number or a metric/],
    ['', /empty/],
    ['a.aoc - a.aoc', /no metric with a weight other than 0/],
    ['"a.aoc', /quoted name is not closed/],
  ])('%j is a one-line error naming --objective', (text, message) => {
    expect(() => parseObjective(text, metrics)).toThrowError(message);
    expect(() => parseObjective(text, metrics)).toThrowError(/^--objective: /);
  });
});

describe('muster matrix --equilibrium', () => {
  it('a 2×2 rule file worked by hand: A left 1/4 right 3/4, B 1/2 each, A wins 7/12', async () => {
    const equilibrium = await equilibriumOf([HIDDEN_HAND]);
    expect(equilibrium.objective).toBe('a.wins');
    expect(equilibrium.value.fraction).toBe('7/12');
    expect(equilibrium.rows.map((o: Option) => [o.strategy, o.fraction])).toEqual([
      ['left', '1/4'],
      ['right', '3/4'],
    ]);
    expect(equilibrium.cols.map((o: Option) => [o.strategy, o.fraction])).toEqual([
      ['left', '1/2'],
      ['right', '1/2'],
    ]);
    expect(equilibrium.saddlePoint).toBeNull();
    // The rule text's thresholds, as chances of a d6: left/left 2+, left/right 5+, right/left 4+, right/right 3+.
    const payoff = [
      [Fraction.of(5, 6), Fraction.of(2, 6)],
      [Fraction.of(3, 6), Fraction.of(4, 6)],
    ];
    expectEquilibrium(payoff, equilibrium.rows, equilibrium.cols, fraction(equilibrium.value.fraction));
  });

  it('examples/rules/flank-march.mjs worked by hand: the march 1/3 each way, the guard 2/9, 5/9, 2/9, arriving 5/9', async () => {
    // By the mirror symmetry, A marches left and right with p each and B guards them with q each. B is
    // indifferent between guarding left, (p·1 + (1−2p)·5 + p·4)/6, and the centre, (p·4 + (1−2p)·2 + p·4)/6,
    // when p = 1/3; A between left, (q·1 + (1−2q)·4 + q·4)/6, and the centre, (q·5 + (1−2q)·2 + q·5)/6, when
    // q = 2/9; the value is then (5 − 5/3)/6 = 5/9.
    const equilibrium = await equilibriumOf(['examples/rules/flank-march.mjs']);
    expect(equilibrium.value.fraction).toBe('5/9');
    expect(equilibrium.rows.map((o: Option) => o.fraction)).toEqual(['1/3', '1/3', '1/3']);
    expect(equilibrium.cols.map((o: Option) => o.fraction)).toEqual(['2/9', '5/9', '2/9']);
    const sixths = [
      [1, 4, 4],
      [5, 2, 5],
      [4, 4, 1],
    ].map((row) => row.map((faces) => Fraction.of(faces, 6)));
    expectEquilibrium(sixths, equilibrium.rows, equilibrium.cols, fraction(equilibrium.value.fraction));
  });

  it('says so in words on the terminal, each side a table of the options it plays', async () => {
    const io = bufferIo();
    expect(await main(['matrix', HIDDEN_HAND, '--equilibrium'], io)).toBe(0);
    const out = io.stdout();
    expect(out).toContain('value of the game: 0.583333 = 7/12');
    expect(out).toMatch(/left +25\.000% +1\/4/);
    expect(out).toMatch(/right +75\.000% +3\/4/);
    expect(out).toMatch(/No pure saddle point/);
  });

  it('a penalty for meeting on the same flank makes right a saddle point for both (dominant for B)', async () => {
    // a.wins − ¼·same: left/left 5/6 − 1/4 = 7/12, left/right 1/3, right/left 1/2, right/right 2/3 − 1/4 = 5/12.
    // Column right is at most column left in both rows (1/3 ≤ 7/12, 5/12 ≤ 1/2), so B picks right, and A's best
    // answer to right is right (5/12 > 1/3): a pure saddle point worth 5/12.
    const equilibrium = await equilibriumOf([HIDDEN_HAND, '--objective', 'a.wins - 0.25*same']);
    expect(equilibrium.value.fraction).toBe('5/12');
    expect(equilibrium.saddlePoint).toEqual({ row: 'right', col: 'right' });
    expect(equilibrium.dominantCol).toBe('right');
    expect(equilibrium.dominantRow).toBeNull();
    expect(equilibrium.weights).toEqual([
      { metric: 'a.wins', weight: '1' },
      { metric: 'same', weight: '-1/4' },
    ]);
    expect(equilibrium.summary.join(' ')).toMatch(/right dominates for b/);
  });

  it('deployment on a.initiative: S123 against S123, dominant for both, worth 1/2', async () => {
    const equilibrium = await equilibriumOf(['deployment']);
    expect(equilibrium.value.fraction).toBe('1/2');
    expect(equilibrium.saddlePoint).toEqual({ row: 'standard:1,2,3', col: 'standard:1,2,3' });
    expect(equilibrium.dominantRow).toBe('standard:1,2,3');
    expect(equilibrium.summary[0]).toMatch(/^S123 dominates for a: /);
  });

  it(
    'deployment on rolloff (A plays to force a roll-off, B to avoid one): a real mixed strategy that passes the ' +
      'best-response condition cell by cell',
    async () => {
      const equilibrium = await equilibriumOf(['deployment', '--objective', 'rolloff']);
      expect(equilibrium.saddlePoint).toBeNull();
      expect(equilibrium.rows.filter((o: Option) => o.fraction !== '0').length).toBeGreaterThan(1);
      expect(equilibrium.cols.filter((o: Option) => o.fraction !== '0').length).toBeGreaterThan(1);
      const payoff = DEPLOYMENT_STRATEGIES.map((a) =>
        DEPLOYMENT_STRATEGIES.map(
          (b) => deployment.exact!.values(resolveParams(deployment, [`a=${a}`, `b=${b}`])).rolloff,
        ),
      );
      expectEquilibrium(payoff, equilibrium.rows, equilibrium.cols, fraction(equilibrium.value.fraction));
    },
  );

  it(
    'deployment on initiative traded against the Area of Conflict: pure at every weight, S123 up to 5/8 and F1 ' +
      'beyond',
    async () => {
      // a.aoc and b.aoc each depend on one side's choice only, and F1–F4 reach zone 7 or 8 with 5/9 (one die of two
      // not the chosen zone and showing 5 or 6: 1 − (2/3)²). F1 against S123 has initiative 11/72, S123 against F1
      // 61/72, so with weight w on a.aoc − b.aoc, F1 beats S123 against S123 exactly when 11/72 + 5w/9 > 1/2, w > 5/8.
      for (const [weight, pick] of [
        ['0.6', 'standard:1,2,3'],
        ['0.65', 'forward:1'],
      ]) {
        const equilibrium = await equilibriumOf([
          'deployment',
          '--objective',
          `a.initiative + ${weight}*(a.aoc - b.aoc)`,
        ]);
        expect(equilibrium.saddlePoint, weight).toEqual({ row: pick, col: pick });
        expect(equilibrium.value.fraction).toBe('1/2');
      }
    },
  );

  it('muster card --equilibrium prints each side’s mix on the card, as fractions, with the value', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'muster-equilibrium-card-'));
    try {
      const out = join(folder, 'card.html');
      const io = bufferIo();
      expect(await main(['card', 'examples/rules/flank-march.mjs', '--equilibrium', '--out', out, '--quiet'], io)).toBe(
        0,
      );
      const html = readFileSync(out, 'utf8');
      const block = html.slice(html.indexOf('id="equilibrium"'));
      expect(block).toMatch(
        /<td>b \(lowers it\)<\/td><td>centre<\/td><td class="num">55\.6%<\/td><td class="num">5\/9<\/td>/,
      );
      expect(block).toContain('Value of the game 0.5556 = 5/9.');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it.each([
    [['card', 'deployment', '--objective', 'rolloff', '--out', 'x.html'], '--objective', /only with --equilibrium/],
    [['matrix', 'deployment', '--objective', 'a.initiative'], '--objective', /only with --equilibrium/],
    [['matrix', 'deployment', '--equilibrium', '--objective', 'a.aco'], '--objective', /did you mean "a\.aoc"/],
    [['matrix', 'deployment', '--equilibrium', '--against', 'S123'], '--equilibrium', /--against/],
    [['matrix', HIDDEN_HAND, '--equilibrium', '--simulate'], '--equilibrium', /leave out --simulate/],
  ])('%j is a one-line error', async (argv, parameter, message) => {
    await expectUsageError(argv, parameter, message);
  });
});
