/**
 * A distribution's tail as a probability metric (`sixes>=2`, `rolls.mean<=1`,
 * …) wherever a metric name is taken: its exact value is the sum of the
 * binomial chances worked by hand (C(n,k)·5^(n−k)/6^n for sixes among n
 * dice), its simulated count the histogram's, and `--best` picks a sweep's
 * point by it.
 */

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { simulateRunInThread } from '../../src/analysis/run-in-thread.js';
import { tailOf, withTails } from '../../src/analysis/tails.js';
import { Fraction } from '../../src/exact/fraction.js';
import { adaptRuleFile } from '../../src/rule-files/rule.js';
import { rolloff } from '../../src/rules/rolloff.js';
import { cli, scratchFolder } from '../support/cli.js';

const folder = scratchFolder('tails');
const SOURCE = `export default { id: 'sixes', title: 'sixes',
  params: [{ name: 'dice', type: 'integer', default: 4, min: 1, max: 6, doc: 'dice' }],
  metrics: [{ name: 'sixes', distribution: true, max: 6, doc: 'sixes among the dice' }],
  trial(dice, p, out) { let n = 0; for (let i = 0; i < p.dice; i++) if (dice.d(6) === 6) n++; out.sixes = n; } };\n`;
const file = join(folder, 'sixes.mjs');
writeFileSync(file, SOURCE);

/** C(n, k)·5^(n−k)/6^n. */
function binomial(n: number, k: number): Fraction {
  let ways = 1n;
  for (let i = 0; i < k; i++) ways = (ways * BigInt(n - i)) / BigInt(i + 1);
  return Fraction.of(ways * 5n ** BigInt(n - k), 6n ** BigInt(n));
}
const sum = (n: number, from: number, to: number) => {
  let total = Fraction.ZERO;
  for (let k = from; k <= to; k++) total = total.add(binomial(n, k));
  return total;
};

describe('tails of a distribution as probability metrics', () => {
  it('reads >=, >, <=, < and = of a name, and nothing else', () => {
    expect(tailOf('a.b>=3')).toMatchObject({ base: 'a.b', low: 3, high: Number.POSITIVE_INFINITY });
    expect(tailOf('a.b>3')).toMatchObject({ low: 4 });
    expect(tailOf('a.b<=3')).toMatchObject({ high: 3, low: Number.NEGATIVE_INFINITY });
    expect(tailOf('a.b<3')).toMatchObject({ high: 2 });
    expect(tailOf('a.b=3')).toMatchObject({ low: 3, high: 3 });
    expect(tailOf('a.b')).toBeNull();
    expect(tailOf('a.b>=x')).toBeNull();
  });

  it('exact tails are the binomial sums; simulated ones the histogram counts (seed "tails")', async () => {
    const names = ['sixes>=2', 'sixes>1', 'sixes<=1', 'sixes<1', 'sixes=3'];
    const rule = withTails(adaptRuleFile((await import(file)).default, file), names);
    const exact = rule.exact?.values({ dice: 4 }) ?? {};
    expect(names.map((name) => exact[name].toString())).toEqual(
      [sum(4, 2, 4), sum(4, 2, 4), sum(4, 0, 1), sum(4, 0, 0), sum(4, 3, 3)].map(String),
    );
    const run = await simulateRunInThread(
      rule,
      { dice: 4 },
      {
        seed: 'tails',
        stream: 5,
        threads: 1,
        confidence: 0.95,
        trials: 30_000,
      },
    );
    const counts = new Map(run.distributions?.sixes.values.map((v) => [v.value, v.count as number]));
    const counted = (from: number, to: number) => {
      let total = 0;
      for (let k = from; k <= to; k++) total += counts.get(k) ?? 0;
      return total / 30_000;
    };
    expect(names.map((name) => run.metrics[name].estimate)).toEqual([
      counted(2, 6),
      counted(2, 6),
      counted(0, 1),
      counted(0, 0),
      counted(3, 3),
    ]);
  });

  it('a built-in without end: the tail reaches past the depth only when nothing lies beyond', () => {
    const rule = withTails(rolloff, ['rolls.mean>=2']);
    // P(2 or more rolls) = the chance the first roll ties, 146/1296.
    expect(rule.exact?.values({ bonusA: 0 })['rolls.mean>=2'].toString()).toBe('73/648');
    expect(withTails(rolloff, ['a.wins'])).toBe(rolloff);
  });

  it('from the command line: run --metric and sweep --best take a tail', async () => {
    const run = await cli('run', file, '--exact', '--metric', 'sixes>=2', '--set', 'dice=3');
    expect(run.stdout).toMatch(/^sixes>=2 +7\.407% = 2\/27$/m);
    const sweep = await cli('sweep', file, '--vary', 'dice=1..3', '--exact', '--best', 'sixes>=2:min', '--json', '-');
    const result = JSON.parse(sweep.stdout) as { best: { params: { dice: number }; decided: string } };
    // With one die two sixes cannot happen: the least chance, for certain.
    expect(result.best).toMatchObject({ params: { dice: 1 }, decided: 'exactly' });
    // compare: P(2 or more rolls) with a bonus of 2 is the chance of a tie, A's total + 2 equal to B's, counted over
    // the 1296 ways the four dice fall (each die a digit from 0 to 5: a total of two is its digits + 2).
    let ties = 0;
    for (let a = 0; a < 36; a++)
      for (let b = 0; b < 36; b++) if ((a % 6) + Math.floor(a / 6) + 2 + 2 === (b % 6) + Math.floor(b / 6) + 2) ties++;
    const compare = await cli(
      'compare',
      'rolloff',
      '--variant',
      'a: bonusA=0',
      '--variant',
      'b: bonusA=2',
      '--metric',
      'rolls.mean>=2',
      '--json',
      '-',
    );
    const compared = JSON.parse(compare.stdout) as {
      variants: Array<{ metrics: Record<string, { fraction: string }> }>;
    };
    expect(compared.variants[1].metrics['rolls.mean>=2'].fraction).toBe(Fraction.of(ties, 1296).toString());
    const unknown = await cli('run', file, '--exact', '--metric', 'dice>=2');
    expect([unknown.status, unknown.stderr]).toEqual([2, expect.stringMatching(/^muster: --metric: got "dice>=2"/)]);
  });
});
