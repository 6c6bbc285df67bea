/**
 * The built-ins' new whole distributions (fow's platoons on the table and
 * last arrival, deployment's zone totals, warbands' roll-off dice) travel
 * in the tally each rule already kept: one thread, two threads and two
 * shards merged give the same distributions bit for bit, and `--csv` writes
 * one row a value.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, scratchFolder } from '../support/cli.js';

const folder = scratchFolder('builtin-distributions');
const read = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;

describe('built-in distributions: threads and merged shards agree bit for bit', () => {
  for (const [rule, settings, names] of [
    ['fow', ['--set', 'turns=6'], ['attacker.onTable.3.mean', 'defender.last.arrival', 'defender.onTable.atEnd.mean']],
    ['deployment', ['--set', 'a=forward:4'], ['a.total.mean', 'b.total.mean']],
    [
      'warbands',
      ['--set', 'warbands=100:5,100:5,100:5,100:5'],
      ['dice.setup.mean', 'dice.first.mean', 'dice.defender.mean'],
    ],
  ] as const) {
    it(`${rule}, seed "merge-${rule}": 1 thread, 2 threads and two merged shards`, async () => {
      const common = [...settings, '--trials', '140000', '--seed', `merge-${rule}`, '--quiet'];
      const paths = ['one', 'two', 'a', 'b', 'merged'].map((name) => join(folder, `${rule}-${name}.json`));
      expect((await cli('run', rule, ...common, '--threads', '1', '--json', paths[0])).status).toBe(0);
      expect((await cli('run', rule, ...common, '--threads', '2', '--json', paths[1])).status).toBe(0);
      for (const [index, shard] of ['0/2', '1/2'].entries()) {
        const made = await cli('shard', rule, ...common, '--threads', '1', '--shard', shard, '--out', paths[2 + index]);
        expect(made.status, made.stderr).toBe(0);
      }
      const merged = await cli('merge', paths[2], paths[3], '--json', paths[4]);
      expect(merged.status, merged.stderr).toBe(0);
      const [one, two, fromShards] = [paths[0], paths[1], paths[4]].map(read);
      const distributions = one.distributions as Record<string, { values: Array<{ count: number }> }>;
      for (const name of names) {
        expect(distributions[name], name).toBeDefined();
        expect(distributions[name].values.reduce((sum, v) => sum + v.count, 0)).toBeGreaterThan(0);
      }
      expect(two.distributions).toEqual(one.distributions);
      expect(fromShards.distributions).toEqual(one.distributions);
    });
  }

  it('--csv writes one row a value of deployment.a.total.mean, exact', async () => {
    const csv = join(folder, 'deployment.csv');
    const { status, stderr } = await cli('run', 'deployment', '--exact', '--set', 'a=forward:1', '--csv', csv);
    expect(status, stderr).toBe(0);
    // metric,kind,estimate,lo,hi,exact,confidence,meaning,value,…: one `value` row a value of the distribution.
    const rows = readFileSync(csv, 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('a.total.mean,value,'))
      .map((line) => line.split(','));
    // Forward from zone 1 (§6.2): totals 1 to 16, listed every value between; both dice showing 1 are lost, total 1,
    // in 1 of the 36 ways.
    expect(rows.map((row) => Number(row[8]))).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
    expect(Number(rows[0][5])).toBe(1 / 36);
  });

  it('a sweep’s CSV and describe name a distribution metric as one, as the run’s CSV does', async () => {
    const csv = join(folder, 'sweep.csv');
    const { status, stderr } = await cli('sweep', 'reserves', '--exact', '--vary', 'squads=1..2', '--csv', csv);
    expect(status, stderr).toBe(0);
    const kinds = new Map(
      readFileSync(csv, 'utf8')
        .split('\r\n')
        .slice(1)
        .map((line) => line.split(','))
        .map((row) => [row[1], row[2]]),
    );
    expect(kinds.get('arrived.by.1.mean')).toBe('distribution');
    expect(kinds.get('all.by.1')).toBe('probability');
    expect(kinds.get('lost.mean')).toBe('mean');
    const described = await cli('describe', 'reserves');
    // At the defaults: squads on the table after a round, 0 to the 4 squads held.
    expect(described.stdout).toMatch(/arrived\.by\.1\.mean +distribution from 0 to 4: /);
    expect(described.stdout).toMatch(/lost\.mean +mean: /);
  });
});
