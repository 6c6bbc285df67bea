/**
 * `muster balance` through shards and checkpoints, as a sweep goes: the
 * shards of a simulated balance merged give the JSON one machine gives
 * (every point and the `balance` block, the thread count aside), a balance
 * resumed from its checkpoint gives the same again, and what cannot be
 * split or written is refused in one line with nothing written. The
 * independent source is the same balance run whole on one machine.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { scratchFolder } from '../support/cli.js';
import { bufferIo } from '../support/io.js';

const folder = scratchFolder('balance-shard');

/** A simulated balance of reserves over four settings: small enough to run three ways in a few seconds. */
const QUESTION = [
  ...['balance', 'reserves', '--vary', 'squads=4..5', '--vary', 'target=6,7', '--metric', 'all.by.4'],
  ...['--target', '80%', '--keep', 'all.by.3<95%', '--within', '15pp', '--trials', '30000', '--seed', 'club'],
];

async function muster(...argv: string[]) {
  const io = bufferIo();
  const status = await main(argv, io);
  return { status, stdout: io.stdout(), stderr: io.stderr() };
}

const json = (file: string) => JSON.parse(readFileSync(join(folder, file), 'utf8'));

/** The result without the thread count, which each machine records for itself. */
const figures = (result: Record<string, unknown>) => ({ ...result, threads: 0 });

describe('balance in shards and from a checkpoint', () => {
  it('three shards merged: the JSON of one machine, point for point, the balance block included', async () => {
    for (const index of [0, 1, 2]) {
      const shard = await muster(...QUESTION, '--shard', `${index}/3`, '--out', join(folder, 'part-{index}.json'));
      expect(shard.status, shard.stderr).toBe(0);
      expect(shard.stdout).toMatch(new RegExp(`^balance shard ${index}/3: settings `));
    }
    const parts = [0, 1, 2].map((index) => join(folder, `part-${index}.json`));
    const merged = await muster('merge', ...parts, '--json', join(folder, 'merged.json'), '--quiet');
    expect(merged.status, merged.stderr).toBe(0);
    const whole = await muster(...QUESTION, '--threads', '2', '--json', join(folder, 'whole.json'), '--quiet');
    expect(whole.status, whole.stderr).toBe(0);
    const [a, b] = [json('merged.json'), json('whole.json')];
    expect(a.method).toBe('simulation');
    expect(figures(a)).toEqual(figures(b));
    expect(a.balance.keep).toEqual(['all.by.3<95%']);
    // The merge prints the balance's own words and map, as the whole run does.
    expect(merged.stdout).toContain('balance of all.by.4 at 80% over 4 settings');
  });

  it('resumed from its checkpoint: says so, and gives the same result', async () => {
    const checkpoint = join(folder, 'balance.ckpt');
    const first = await muster(...QUESTION, '--checkpoint', checkpoint, '--json', join(folder, 'first.json'));
    expect(first.status, first.stderr).toBe(0);
    expect(existsSync(checkpoint)).toBe(true);
    const again = await muster(...QUESTION, '--checkpoint', checkpoint, '--json', join(folder, 'again.json'));
    expect(again.status, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/resuming from .*balance\.ckpt: 120,000 of 120,000 trials already done/);
    expect(figures(json('again.json'))).toEqual(figures(json('first.json')));
  });

  it('refusals: an exact balance is not split nor checkpointed; merge takes no --csv or --metric for it', async () => {
    const exact = ['balance', 'rolloff', '--vary', 'bonusA=0..2', '--metric', 'a.wins', '--target', '50%'];
    const shard = await muster(...exact, '--shard', '0/2', '--out', join(folder, 'never.json'));
    expect(shard.status).toBe(2);
    expect(shard.stderr).toMatch(
      /^muster: --shard: an exact balance takes no time worth splitting; allowed: .*--simulate/,
    );
    expect(existsSync(join(folder, 'never.json'))).toBe(false);
    const checkpoint = await muster(...exact, '--checkpoint', join(folder, 'never.ckpt'));
    expect(checkpoint.status).toBe(2);
    expect(checkpoint.stderr).toMatch(/^muster: --checkpoint: an exact balance simulates nothing/);
    // Its hint followed (add --simulate), the checkpoint is taken.
    const followed = await muster(...exact, '--simulate', '--trials', '1000', '--checkpoint', join(folder, 'sim.ckpt'));
    expect(followed.status, followed.stderr).toBe(0);
    expect(existsSync(join(folder, 'sim.ckpt'))).toBe(true);
    const out = await muster(...exact, '--out', join(folder, 'never.json'));
    expect(out.stderr).toMatch(/^muster: --out: only with --shard/);
    const parts = [0, 1, 2].map((index) => join(folder, `part-${index}.json`));
    const csv = await muster('merge', ...parts, '--csv', join(folder, 'never.csv'));
    expect(csv.status).toBe(2);
    expect(csv.stderr).toMatch(/^muster: --csv: not for a balance/);
    expect(existsSync(join(folder, 'never.csv'))).toBe(false);
    const metric = await muster('merge', ...parts, '--metric', 'all.by.3');
    expect(metric.status).toBe(2);
    expect(metric.stderr).toMatch(/^muster: --metric: only when merging a sweep; allowed: leave it out for a balance/);
  });
});
