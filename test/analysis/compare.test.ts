import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { holm, normalUpperTail, twoSampleZ } from '../../src/analysis/significance.js';
import { parseVariant } from '../../src/analysis/variant.js';
import { compareCommand } from '../../src/cli/commands/compare.js';
import type { Fraction } from '../../src/exact/fraction.js';
import { getRule } from '../../src/rules/index.js';
import { resolveParams } from '../../src/rules/params.js';
import { mean, proportion } from '../../src/stats/estimate.js';
import { cli, scratchFolder } from '../support/cli.js';
import { countedExact } from '../support/counted-exact.js';
import { bufferIo } from '../support/io.js';

const folder = scratchFolder('compare');

describe('the statistics behind "significant"', () => {
  it('the normal upper tail matches scipy.stats.norm.sf to 1e-15 relative, deep into the tail', () => {
    const scipy: Array<[number, number]> = [
      [0, 0.5],
      [1, 0.15865525393145707],
      [1.959963984540054, 0.025],
      [2, 0.022750131948179195],
      [3, 0.0013498980316300946],
      [5, 2.866515718791939e-7],
      [10, 7.61985302416047e-24],
    ];
    for (const [x, expected] of scipy)
      expect(Math.abs(normalUpperTail(x) - expected) / expected, `Q(${x})`).toBeLessThan(1e-14);
    expect(normalUpperTail(-1)).toBeCloseTo(1 - 0.15865525393145707, 15);
  });

  it("Holm's adjustment: sorted p-values times m, m−1, …, carried up (Holm 1979's rule worked by hand)", () => {
    // Sorted 0.01, 0.03, 0.04 → 3·0.01 = 0.03, 2·0.03 = 0.06, max(0.06, 1·0.04) = 0.06.
    expect(holm([0.01, 0.04, 0.03])).toEqual([0.03, 0.06, 0.06]);
    expect(holm([0.5, 0.9])).toEqual([1, 1]);
    expect(holm([])).toEqual([]);
  });

  it('the two-sample z-test on proportions and on means, worked by hand', () => {
    // 600/1000 against 500/1000: variances 0.24/1000 + 0.25/1000, SE = √0.00049 = 0.022136, z = −0.1/0.022136 =
    // −4.5175.
    const test = twoSampleZ(proportion(600, 1000), proportion(500, 1000));
    expect(test.difference).toBeCloseTo(-0.1, 15);
    expect(test.z).toBeCloseTo(-0.1 / Math.sqrt(0.00049), 12);
    expect(test.p).toBeCloseTo(2 * normalUpperTail(0.1 / Math.sqrt(0.00049)), 15);
    // Means: observations {1,2,3} (variance 1) against {2,3,4} (variance 1): SE = √(1/3 + 1/3), z = 1/0.8165 = 1.2247.
    const means = twoSampleZ(mean(6, 14, 3), mean(9, 29, 3));
    expect(means.z).toBeCloseTo(1 / Math.sqrt(2 / 3), 12);
    // No variance on either side: a certain difference, or certainly none.
    expect(twoSampleZ(proportion(10, 10), proportion(0, 10)).p).toBe(0);
    expect(twoSampleZ(proportion(0, 10), proportion(0, 10)).p).toBe(1);
  });
});

describe('--variant: labels and values that contain commas', () => {
  const deployment = getRule('deployment');

  it('splits at a comma only before a known parameter name', () => {
    expect(parseVariant(deployment, 'standard: a=standard:1,2,3,b=forward:2')).toEqual({
      label: 'standard',
      assignments: ['a=standard:1,2,3', 'b=forward:2'],
    });
    expect(parseVariant(deployment, 'both; a=forward:1;b=standard:1,2,4'.replace('both;', 'both:'))).toEqual({
      label: 'both',
      assignments: ['a=forward:1', 'b=standard:1,2,4'],
    });
  });

  it('without a label the settings are the label (the first colon then belongs to a value)', () => {
    expect(parseVariant(deployment, 'a=forward:1')).toEqual({ label: 'a=forward:1', assignments: ['a=forward:1'] });
  });

  it('a label may hold any text, and a variant may change nothing', () => {
    expect(parseVariant(deployment, '</script> & "x=1": a=forward:3')).toEqual({
      label: '</script> & "x=1"',
      assignments: ['a=forward:3'],
    });
    expect(parseVariant(deployment, 'rules as written:')).toEqual({ label: 'rules as written', assignments: [] });
  });
});

describe('muster compare', () => {
  it(
    'Infinity, exact: raising A’s WIP from 13 to 15 moves a.wins by exactly the difference of the exact ' + 'solutions',
    async () => {
      const result = await compareCommand(
        'infinity',
        { variant: ['even: wipA=13', 'better: wipA=15'], exact: true },
        bufferIo(),
      );
      const rule = getRule('infinity');
      const before: Fraction = rule.exact!.values(resolveParams(rule, ['wipA=13']))['a.wins'];
      const after: Fraction = rule.exact!.values(resolveParams(rule, ['wipA=15']))['a.wins'];
      const wins = result.differences.find((d) => d.metric === 'a.wins')!;
      expect(wins.exactDifference).toBe(after.sub(before).toNumber());
      expect(wins.exactFraction).toBe(after.sub(before).toString());
      expect(wins.p).toBeNull();
      expect(result.tests).toBe(0);
    },
  );

  it(
    'seed "same": two identical variants on the same seed differ by exactly nothing, and nothing is ' + 'significant',
    async () => {
      const result = await compareCommand(
        'reserves',
        { variant: ['one: squads=4', 'two: squads=4'], trials: '100000', seed: 'same', threads: '1' },
        bufferIo(),
      );
      expect(result.seeds).toBe('shared');
      for (const d of result.differences) {
        expect(d.difference, d.metric).toBe(0);
        expect(d.significant, d.metric).toBe(false);
      }
    },
  );

  it(
    'seed "crn": command 3 in round 2 against no chosen round — a squad arriving in round 2 is significantly ' +
      'likelier; the Holm family counts every metric',
    async () => {
      const io = bufferIo();
      const html = join(folder, 'compare.html');
      const csv = join(folder, 'compare.csv');
      const result = await compareCommand(
        'reserves',
        {
          variant: ['none: chosenRound=0', 'round 2: chosenRound=2,command=3'],
          trials: '200000',
          seed: 'crn',
          threads: '1',
          html,
          csv,
        },
        io,
      );
      const round2 = result.differences.find((d) => d.metric === 'squad.round.2')!;
      // Exactly: missing round 1 (5/6) then 1d6 + 2 + 3 ≥ 7 on a 2+ (5/6) = 25/36, against 5/6 × (5+ on 1d6 + 2: 1/3) =
      // 10/36; difference 15/36 = 5/12.
      expect(round2.exactFraction).toBe('5/12');
      expect(round2.significant).toBe(true);
      expect(result.tests).toBe(getRule('reserves').metrics(resolveParams(getRule('reserves'))).length);
      expect(io.stdout()).toMatch(/Holm-adjusted/);
      // reserves has distribution metrics: their value-by-value rows add three columns.
      expect(readFileSync(csv, 'utf8').split('\r\n')[0]).toBe(
        'metric,kind,variant,estimate,lo,hi,exact,difference,difference_lo,difference_hi,exact_difference,z,p,p_holm,' +
          'significant,value,chi_square,df',
      );
      expect(readFileSync(html, 'utf8')).toContain('Differences from “none”');
    },
  );

  it('seed "own": --seed-per-variant gives each variant its own stream', async () => {
    const result = await compareCommand(
      'reserves',
      { variant: ['one: squads=4', 'two: squads=4'], trials: '70000', seed: 'own', threads: '1', seedPerVariant: true },
      bufferIo(),
    );
    expect(result.variants.map((v) => v.seed)).toEqual(['own/variant 1', 'own/variant 2']);
    expect(result.differences.some((d) => d.difference !== 0)).toBe(true);
  });

  const bad: Array<[string, string[], RegExp]> = [
    ['one variant', ['--variant', 'A: wipA=12'], /^muster: --variant: got 1; allowed: at least two/],
    [
      'an unknown parameter',
      ['--variant', 'A: wipA=12', '--variant', 'B: wip=3'],
      /^muster: --variant "B": got "wip=3" \(did you mean "wipA" or "wipB"\?\); allowed: name=value with name one of wipA, wipB, crits/,
    ],
    [
      'a value out of range',
      ['--variant', 'A: wipA=12', '--variant', 'B: wipA=31'],
      /^muster: --variant "B": wipA: got "31"; allowed: an integer from 1 to 30/,
    ],
    [
      'the same label twice',
      ['--variant', 'A: wipA=12', '--variant', 'A: wipA=13'],
      /^muster: --variant: label "A" used twice/,
    ],
    [
      'an empty label',
      ['--variant', ': wipA=12', '--variant', 'B: wipA=13'],
      /^muster: --variant: got ": wipA=12"; allowed: "label: name=value,…" with a non-empty label/,
    ],
  ];
  for (const [what, argv, message] of bad) {
    it(`${what}: exit 2, one line naming the problem, no file written`, async () => {
      const file = join(folder, `bad-${what.replaceAll(' ', '-')}.html`);
      const { status, stderr } = await cli('compare', 'infinity', ...argv, '--exact', '--html', file);
      expect(status).toBe(2);
      expect(stderr).toMatch(message);
      expect(stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(existsSync(file)).toBe(false);
    });
  }
});

describe('compare: the exact column of the differences', () => {
  it('is left out when no difference is known exactly, and shown when one is', async () => {
    // A roll-off re-rolled on a tie, in the trial form: its paths have every length, so it has no exact value.
    const file = join(folder, 'tie-again.mjs');
    writeFileSync(
      file,
      `export default { id: 'tie-again', title: 'Tie again',
        metrics: [{ name: 'a.wins', probability: true }],
        trial(dice, p, out) { for (;;) { const a = dice.d(6), b = dice.d(6); if (a !== b) { out['a.wins'] = a > b; return; } } } };`,
    );
    const none = await cli('compare', file, '--variant', 'one:', '--variant', 'two:', '--trials', '65536', '--quiet');
    expect(none.status).toBe(0);
    const header = none.stdout.split('\n').find((line) => line.startsWith('metric') && line.includes('difference'));
    expect(header).toMatch(/sig\.$/);
    expect(none.stdout).not.toMatch(/^metric +exact/m);
    const some = await cli('compare', 'reserves', '--variant', 'a:', '--variant', 'b: command=2', '--trials', '65536');
    expect(some.status).toBe(0);
    expect(some.stdout.split('\n').find((line) => line.startsWith('metric') && line.includes('difference'))).toMatch(
      /sig\. +exact$/,
    );
  });
});

describe('a comparison exact by default solves each variant once', () => {
  it('a built-in: nothing solved while choosing the method; as --exact compares', async () => {
    const { planCompare, evaluateCompare } = await import('../../src/analysis/compare.js');
    const reserves = getRule('reserves');
    const { rule: counted, calls } = countedExact(reserves);
    const options = { set: ['command=3'], variant: ['a: chosenRound=2', 'b: chosenRound=3', 'c: chosenRound=4'] };
    const plan = planCompare({ rule: counted, rules: [counted, counted, counted] }, options);
    expect(plan.base.method).toBe('exact');
    expect(calls()).toBe(0);
    const byDefault = await evaluateCompare(plan);
    expect(calls()).toBe(3);
    const asked = await evaluateCompare(
      planCompare({ rule: reserves, rules: [reserves, reserves, reserves] }, { ...options, exact: true }),
    );
    expect(byDefault).toEqual(asked);
  });

  it('a rule file: each variant solved once while choosing the method, and kept; as --exact compares', async () => {
    const { planCompare, evaluateCompare } = await import('../../src/analysis/compare.js');
    const { loadRuleFile } = await import('../../src/rule-files/load.js');
    const file = await loadRuleFile(join(process.cwd(), 'examples/rules/infinity-steps.mjs'));
    const { rule: counted, calls } = countedExact(file);
    const options = { variant: ['a: wipA=11', 'b: wipA=12', 'c: wipA=13'] };
    const plan = planCompare({ rule: counted, rules: [counted, counted, counted] }, options);
    expect(plan.base.method).toBe('exact');
    expect(calls()).toBe(3);
    const byDefault = await evaluateCompare(plan);
    expect(calls()).toBe(3);
    const asked = await evaluateCompare(
      planCompare({ rule: file, rules: [file, file, file] }, { ...options, exact: true }),
    );
    expect(byDefault).toEqual(asked);
  });
});
