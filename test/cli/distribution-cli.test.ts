/**
 * A rule file's distribution metric from the command line: the same
 * histogram, bit for bit, on one thread, on two, and as two shards merged
 * (the histogram's counts travel in the tally, checked on the way in); a
 * tampered histogram is refused; `--percentile` is checked in one line;
 * the terminal shows the P(=), P(≥) and P(≤) table.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, scratchFolder } from '../support/cli.js';

const folder = scratchFolder('distribution');
const rule = join(folder, 'sixes.mjs');
writeFileSync(
  rule,
  `export default { id: 'sixes', title: 'sixes',
  params: [{ name: 'dice', type: 'integer', default: 4, min: 1, max: 10, doc: 'dice' }],
  metrics: [{ name: 'sixes', distribution: true, max: 10, doc: 'sixes among the dice' },
    { name: 'rolls', distribution: true, min: 1, doc: 'rolls to a six' }],
  trial(dice, p, out) {
    let n = 0; for (let i = 0; i < p.dice; i++) if (dice.d(6) === 6) n++;
    out.sixes = n;
    let r = 1; while (dice.d(6) !== 6) r++;
    out.rolls = r;
  } };\n`,
);
// Enumerable (no roll repeated until something happens): exact values.
const finite = join(folder, 'finite.mjs');
writeFileSync(
  finite,
  `export default { id: 'finite', title: 'finite',
  params: [{ name: 'dice', type: 'integer', default: 4, min: 1, max: 10, doc: 'dice' }],
  metrics: [{ name: 'sixes', distribution: true, max: 10, doc: 'sixes among the dice' }],
  trial(dice, p, out) { let n = 0; for (let i = 0; i < p.dice; i++) if (dice.d(6) === 6) n++; out.sixes = n; } };\n`,
);
const common = ['--trials', '120000', '--seed', 'histogram', '--quiet'];
const read = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;

describe('distributions from the command line', () => {
  it('seed "histogram": 1 thread, 2 threads and two merged shards give the same distributions', async () => {
    const paths = ['one.json', 'two.json', 'a.json', 'b.json', 'merged.json'].map((name) => join(folder, name));
    expect((await cli('run', rule, ...common, '--threads', '1', '--json', paths[0])).status).toBe(0);
    expect((await cli('run', rule, ...common, '--threads', '2', '--json', paths[1])).status).toBe(0);
    for (const [index, shard] of ['0/2', '1/2'].entries()) {
      const made = await cli('shard', rule, ...common, '--threads', '1', '--shard', shard, '--out', paths[2 + index]);
      expect(made.status, made.stderr).toBe(0);
    }
    const merged = await cli('merge', paths[2], paths[3], '--rule', rule, '--json', paths[4]);
    expect(merged.status, merged.stderr).toBe(0);
    const [one, two, fromShards] = [paths[0], paths[1], paths[4]].map(read);
    expect(two.distributions).toEqual(one.distributions);
    expect(fromShards.distributions).toEqual(one.distributions);
    // The unbounded one lists to the last value seen, and what lies past it (nothing counted) is stated.
    const rolls = (one.distributions as Record<string, { beyond: { above: number; estimate: number } }>).rolls;
    expect(rolls.beyond.estimate).toBe(0);
    expect(rolls.beyond.above).toBeGreaterThan(40);

    // A shard whose histogram no longer adds up to its trials is refused in one line.
    const shard = read(paths[2]) as { tally: number[] };
    shard.tally[5] += 1;
    writeFileSync(join(folder, 'bad.json'), JSON.stringify(shard));
    const refused = await cli('merge', join(folder, 'bad.json'), paths[3], '--rule', rule, '--json', paths[4]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/tally: sixes: its histogram counts (\d+) trials, not the \d+ run; allowed: /);
  });

  it('prints the table with P(=), P(≥) and P(≤), and the percentiles asked for', async () => {
    const { status, stdout } = await cli('run', finite, '--exact', '--set', 'dice=2', '--percentile', '50,97.3');
    expect(status).toBe(0);
    // Two dice: P(0) = 25/36, P(1) = 10/36, P(2) = 1/36; P(≤1) = 35/36 ≈ 97.22%, so the 97.3th percentile is 2.
    expect(stdout).toContain('sixes: mean 0.3333 · sd 0.527 · median 0 · 50th 0 · 97.3th 2');
    expect(stdout).toMatch(/^0 +69\.444% +25\/36 +100\.000% +69\.444% +█+$/m);
    expect(stdout).toMatch(/^2 +2\.778% +1\/36 +2\.778% +100\.000%/m);
  });

  it('refuses a bad --percentile in one line, and one for a rule without distributions', async () => {
    for (const bad of ['0', '101', '10,x', '10,10']) {
      const { status, stderr } = await cli('run', finite, '--exact', '--percentile', bad);
      expect(status).toBe(2);
      expect(stderr).toMatch(/^muster: --percentile: got .*; allowed: numbers above 0 and at most 100/);
    }
    const { status, stderr } = await cli('run', 'infinity', '--exact', '--percentile', '10');
    expect([status, stderr]).toEqual([2, expect.stringMatching(/--percentile: infinity has no distribution metric/)]);
  });
});
