/**
 * `muster merge --verify K`: the field checks catch every shard that is
 * inconsistent in itself, but a hand edit that moves counts between
 * outcomes keeps every sum and passes them. Only a re-run catches it: merge
 * --verify re-runs K shards picked at random and refuses a shard that
 * differs from its re-run by a single count.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, scratchFolder } from './support/cli.js';

const folder = scratchFolder('verify');
const file = (name: string) => join(folder, name);
const RUN = ['--trials', '300000', '--seed', 'verify', '--threads', '1', '--quiet'];

async function shards(rule: string): Promise<string[]> {
  const files = [file(`${rule}-0.json`), file(`${rule}-1.json`)];
  for (const [index, out] of files.entries()) {
    const { status, stderr } = await cli('shard', rule, ...RUN, '--shard', `${index}/2`, '--out', out);
    expect(status, stderr).toBe(0);
  }
  return files;
}

describe('merge --verify re-runs shards', () => {
  it('seed "verify": infinity with 1,000 wins moved from B to A passes the field checks, and --verify refuses it', async () => {
    const [first, second] = await shards('infinity');
    const shard = JSON.parse(readFileSync(second, 'utf8')) as { tally: number[] };
    // Tally entries 0 and 1 count A's and B's wins: moving wins keeps a.wins + b.wins = trials, as a real tally must.
    shard.tally[0] += 1000;
    shard.tally[1] -= 1000;
    const forged = file('infinity-1-forged.json');
    writeFileSync(forged, JSON.stringify(shard));

    const unchecked = await cli('merge', first, forged, '--json', '-');
    expect(unchecked.status).toBe(0); // why --verify exists: nothing in the file itself gives it away

    const checked = await cli('merge', first, forged, '--verify', '2', '--json', file('never.json'));
    expect(checked.status).toBe(2);
    // The shards are re-run in a random order: the genuine one may be reported as verified first; the refusal ends it.
    expect(checked.stderr).toMatch(/^(verified .*infinity-0\.json: .*\n)?muster: files: ".*infinity-1-forged\.json": tally\[0\]: got \d+, a re-run of its chunks 2–4 gives \d+; allowed: .*\n$/);
    expect(() => readFileSync(file('never.json'))).toThrow();
  });

  it('genuine shards pass --verify and merge to the single run, bit for bit', async () => {
    const files = await shards('reserves');
    const merged = await cli('merge', ...files, '--verify', '2', '--json', '-');
    expect(merged.status, merged.stderr).toBe(0);
    expect(merged.stderr.match(/^verified /gm)).toHaveLength(2);
    const whole = await cli('run', 'reserves', ...RUN, '--json', '-');
    expect(JSON.parse(merged.stdout).metrics).toEqual(JSON.parse(whole.stdout).metrics);
  });

  it('refuses a --verify count above the shards given', async () => {
    const files = await shards('noctvale');
    const { status, stderr } = await cli('merge', ...files, '--verify', '3');
    expect([status, stderr]).toEqual([2, 'muster: --verify: got "3"; allowed: an integer from 0 to 2\n']);
  });
});
