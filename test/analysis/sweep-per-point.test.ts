/**
 * A sweep says what each point used (issue 33): a parameter whose default
 * depends on a varied one is shown per point, never as fixed; and `--vary`
 * takes values that hold commas (warband lists, scatter maps, strategies).
 *
 * The oracle for the per-point values is the rule text itself: Flames of War's
 * mission minimum is "half the platoons, rounded up" (Math.ceil(n / 2) here),
 * and for every built-in rule, what a sweep shows of a point (fixed ∪ the
 * point's own) must be what `muster run` resolves at that point.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planSweep } from '../../src/analysis/sweep.js';
import { parseVary } from '../../src/analysis/vary.js';
import { sweepCommand } from '../../src/cli/commands/sweep.js';
import { sweep as librarySweep } from '../../src/library/node.js';
import { getRule, rules } from '../../src/rules/index.js';
import { resolveParams } from '../../src/rules/params.js';
import { cli, scratchFolder } from '../support/cli.js';
import { bufferIo } from '../support/io.js';

const folder = scratchFolder('sweep-per-point');

describe('a resolved default is shown per point, never as fixed', () => {
  it('fow, attackerPlatoons 1..5: attackerReserves is ceil(n/2) at each point, in the terminal, JSON, CSV and page', async () => {
    const json = join(folder, 'fow.json');
    const csv = join(folder, 'fow.csv');
    const html = join(folder, 'fow.html');
    const io = bufferIo();
    const sweep = await sweepCommand(
      'fow',
      { vary: ['attackerPlatoons=1..5'], exact: true, json, csv, html, quiet: true },
      io,
    );
    const written = JSON.parse(readFileSync(json, 'utf8'));
    for (const result of [sweep, written]) {
      expect(result.perPoint).toEqual(['attackerReserves']);
      expect(Object.keys(result.params)).not.toContain('attackerReserves');
      expect(Object.keys(result.params)).not.toContain('attackerPlatoons');
      // Not varied, and the defender's platoons are: its reserves stay fixed at ceil(6 / 2).
      expect(result.params.defenderReserves).toBe(3);
      expect(result.points.map((point: { params: object }) => point.params)).toEqual(
        [1, 2, 3, 4, 5].map((n) => ({ attackerPlatoons: n, attackerReserves: Math.ceil(n / 2) })),
      );
    }
    // The exact metric attacker.reserves repeats the count each point used.
    for (const point of sweep.points)
      expect(point.metrics['attacker.reserves'].exact).toBe(point.params.attackerReserves);

    const out = io.stdout();
    expect(out).not.toMatch(/fixed:[^\n]*attackerReserves/);
    expect(out).toMatch(/^per point: attackerReserves \(/m);
    const rows = out.split('\n').filter((line) => /^[1-5]\s/.test(line));
    expect(rows.slice(0, 5).map((line) => line.trim().split(/\s+/).slice(0, 2))).toEqual(
      [1, 2, 3, 4, 5].map((n) => [String(n), String(Math.ceil(n / 2))]),
    );

    const lines = readFileSync(csv, 'utf8').trimEnd().split('\r\n');
    expect(lines[0].startsWith('attackerPlatoons,attackerReserves,metric,')).toBe(true);
    expect(lines.filter((line) => line.startsWith('4,2,attacker.reserves,'))).toHaveLength(1);

    const page = readFileSync(html, 'utf8');
    expect(page).toContain('per point: 1 | 2 | 3');
    expect(page).toContain('<th>attackerReserves</th>');
  });

  it('--best names the chosen point with the value it used', async () => {
    const { status, stdout, stderr } = await cli(
      'sweep',
      'fow',
      '--vary',
      'defenderPlatoons=2,5',
      '--exact',
      '--best',
      'defender.allIn.by.6',
    );
    expect(status, stderr).toBe(0);
    // One reserve of 2 platoons (ceil(2 / 2) = 1) is in sooner than 3 of 5.
    const words = stdout.replace(/\s+/g, ' ');
    expect(words).toContain('Choose defenderPlatoons=2 defenderReserves=1:');
    expect(words).toContain('for the next best, defenderPlatoons=5 defenderReserves=3 (exact values)');
  });

  it('a set reserve count, or a varied one, is fixed or varied as typed, not per point', async () => {
    const set = planSweep(getRule('fow'), { vary: ['attackerPlatoons=2..6'], set: ['attackerReserves=2'] });
    expect(set.perPoint).toEqual([]);
    const both = planSweep(getRule('fow'), { vary: ['attackerPlatoons=2..6', 'attackerReserves=0..1'] });
    expect(both.perPoint).toEqual([]);
    // attackerPlatoons 3 and 4 both give 2: the same at every point is fixed, and it is the value used.
    const same = planSweep(getRule('fow'), { vary: ['attackerPlatoons=3,4'] });
    expect(same.perPoint).toEqual([]);
  });

  it('every built-in rule: fixed ∪ a point’s params is what `run` resolves there, with no name in both', () => {
    let checked = 0;
    for (const rule of rules) {
      for (const spec of rule.params) {
        if (spec.type !== 'integer' || spec.max === spec.min) continue;
        const values = [spec.min, spec.max];
        let plan: ReturnType<typeof planSweep>;
        try {
          plan = planSweep(rule, { vary: [`${spec.name}=${values.join(',')}`] });
        } catch {
          continue; // the rule rejects both ends at its defaults (e.g. chosenRound above rounds)
        }
        const fixed = new Map(
          rule.params.filter((p) => p.name !== spec.name && !plan.perPoint.includes(p.name)).map((p) => [p.name, 0]),
        );
        for (const params of plan.grid) {
          const run = resolveParams(rule, [`${spec.name}=${params[spec.name]}`]);
          expect(params, `${rule.id} ${spec.name}=${params[spec.name]}`).toEqual(run);
          // A name the plan calls fixed has the same value at every point.
          for (const name of fixed.keys())
            expect(params[name], `${rule.id}: ${name} fixed while ${spec.name} varies`).toEqual(plan.grid[0][name]);
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });
});

describe('--vary takes values that hold commas', () => {
  const warbands = getRule('warbands');
  const fow = getRule('fow');
  const deployment = getRule('deployment');

  it('; between values, or a JSON array (one value alone included)', () => {
    expect(parseVary(warbands, 'warbands=152:9,148:11;120:8,100:5').values).toEqual(['152:9,148:11', '120:8,100:5']);
    expect(parseVary(warbands, 'warbands=["152:9,148:11", "120:8,100:5"]').values).toEqual([
      '152:9,148:11',
      '120:8,100:5',
    ]);
    expect(parseVary(warbands, 'warbands=["152:9,148:11"]').values).toEqual(['152:9,148:11']);
    expect(parseVary(fow, 'scatter=["1-3:left,4-6:right","1-6:centre"]').values).toEqual([
      '1-3:left,4-6:right',
      '1-6:centre',
    ]);
    // A JSON array of numbers and labels reads as --set reads each.
    expect(parseVary(fow, 'turns=[6, "7"]').values).toEqual([6, 7]);
    expect(parseVary(deployment, 'a=["S123","standard:1,2,4"]').values).toEqual(['standard:1,2,3', 'standard:1,2,4']);
  });

  const refusals: Array<[string, string, RegExp]> = [
    // One value with its own commas, split by the comma list.
    ['warbands', 'warbands=152:9,148:11', /is one value that holds commas.*warbands=\["152:9,148:11"\]/],
    ['fow', 'scatter=1-3:left,4-6:right', /is one value that holds commas.*scatter=\["1-3:left,4-6:right"\]/],
    ['deployment', 'a=standard:1,2,3', /is one value that holds commas.*a=\["standard:1,2,3"\]/],
    // Both readings valid: two alliances in one value, or two values of one alliance each.
    ['warbands', 'allies=1+2,3+4', /reads two ways.*allies=1\+2;3\+4 for the list, allies=\["1\+2,3\+4"\]/],
    ['warbands', 'warbands=[152', /not a JSON array/],
    ['warbands', 'warbands=[]', /a JSON array of one or more/],
    ['warbands', 'warbands=[["152:9,148:11"]]', /a JSON array of one or more texts, numbers or booleans/],
    ['warbands', 'warbands=[null]', /a JSON array of one or more texts, numbers or booleans/],
  ];
  for (const [rule, vary, message] of refusals) {
    it(`${rule} --vary '${vary}': exit 2, one line`, async () => {
      const { status, stdout, stderr } = await cli('sweep', rule, '--vary', vary, '--exact');
      expect(status).toBe(2);
      expect(stdout).toBe('');
      expect(stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(stderr).toMatch(/^muster: --vary: /);
      expect(stderr).toMatch(message);
    });
  }

  it('a comma list that reads only one way is still a list (allies 2+3 and 1+2 cannot be one value)', () => {
    expect(parseVary(warbands, 'allies=2+3,1+2').values).toEqual(['2+3', '1+2']);
    expect(parseVary(deployment, 'a=S123,F1').values).toEqual(['standard:1,2,3', 'forward:1']);
  });

  it('the header prints the values back in a form --vary takes', async () => {
    const { status, stdout, stderr } = await cli(
      'sweep',
      'warbands',
      '--vary',
      'warbands=["152:9,148:11","120:8,100:5"]',
      '--vary',
      'defender=true,false',
      '--exact',
    );
    expect(status, stderr).toBe(0);
    const line = stdout.split('\n').find((text) => text.startsWith('varied:'));
    expect(line).toBe('varied: warbands = 152:9,148:11; 120:8,100:5 · defender = true, false');
    expect(parseVary(warbands, 'warbands=152:9,148:11; 120:8,100:5').values).toEqual(['152:9,148:11', '120:8,100:5']);
  });

  it('the library takes listed values that hold commas', async () => {
    const result = await librarySweep('warbands', { vary: { warbands: ['152:9,148:11', '120:8,100:5'] }, exact: true });
    expect(result.points.map((point) => point.params.warbands)).toEqual(['152:9,148:11', '120:8,100:5']);
  });
});
