import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../../src/cli/commands/run.js';
import { mergeCommand, shardCommand } from '../../src/cli/commands/shard.js';
import { main } from '../../src/cli.js';
import { scratchFolder } from '../support/cli.js';
import { bufferIo } from '../support/io.js';

const folder = scratchFolder('shard');

const run = {
  set: ['chosenRound=2', 'command=3', 'leaderLoss=0.2', 'fallbackCommand=1'],
  trials: '300000',
  seed: 'cluster',
  quiet: true,
};

describe('a run split across machines', () => {
  it('seed "cluster": three shards merged give exactly the metrics of one run', async () => {
    const files = [0, 1, 2].map((index) => join(folder, `shard-${index}.json`));
    // Shards on "machines" with different thread counts.
    for (const [index, file] of files.entries())
      await shardCommand(
        'reserves',
        { ...run, shard: `${index}/3`, out: file, threads: String(1 + (index % 2)) },
        bufferIo(),
      );
    const merged = await mergeCommand([files[2], files[0], files[1]], {}, bufferIo());
    const whole = await runCommand('reserves', { ...run, threads: '2' }, bufferIo());
    expect(merged.trials).toBe(300_000);
    expect(merged.metrics).toEqual(whole.metrics);
  });

  it('refuses a missing shard, a shard given twice, and a shard of another run', async () => {
    const file = (name: string) => join(folder, name);
    await shardCommand('reserves', { ...run, shard: '0/2', out: file('a0.json'), threads: '1' }, bufferIo());
    await shardCommand('reserves', { ...run, shard: '1/2', out: file('a1.json'), threads: '1' }, bufferIo());
    await shardCommand(
      'reserves',
      { ...run, seed: 'other', shard: '1/2', out: file('b1.json'), threads: '1' },
      bufferIo(),
    );
    await expect(mergeCommand([file('a0.json')], {}, bufferIo())).rejects.toThrow(
      /^files: chunk 2 of 5 is in no shard/,
    );
    await expect(mergeCommand([file('a0.json'), file('a0.json'), file('a1.json')], {}, bufferIo())).rejects.toThrow(
      /^files: .*a0\.json"? is the same file as input/,
    );
    // The same shard under two names (a copy) is caught by its chunks.
    copyFileSync(file('a0.json'), file('a0-copy.json'));
    await expect(
      mergeCommand([file('a0.json'), file('a0-copy.json'), file('a1.json')], {}, bufferIo()),
    ).rejects.toThrow(/^files: chunk 0 is in two shards/);
    await expect(mergeCommand([file('a0.json'), file('b1.json')], {}, bufferIo())).rejects.toThrow(
      /b1\.json is from another run/,
    );
  });

  it('refuses a malformed --shard', async () => {
    for (const shard of ['3/3', '1', 'a/b', '-1/2', '']) {
      await expect(
        shardCommand('reserves', { ...run, shard, out: join(folder, 'x.json') }, bufferIo()),
      ).rejects.toThrow(/^--shard: got .*; allowed: i\/n/);
    }
  });

  it('works from the command line: muster shard … then muster merge FILES --json', async () => {
    const [a, b, merged] = ['cli-0.json', 'cli-1.json', 'merged.json'].map((name) => join(folder, name));
    const argv = ['reserves', '--trials', '200k', '--seed', 'cli', '--threads', '1', '--quiet'];
    expect(await main(['shard', ...argv, '--shard', '0/2', '--out', a], bufferIo())).toBe(0);
    expect(await main(['shard', ...argv, '--shard', '1/2', '--out', b], bufferIo())).toBe(0);
    const io = bufferIo();
    expect(await main(['merge', a, b, '--json', merged], io)).toBe(0);
    expect(io.stdout()).toContain('200,000 trials');
    const bad = bufferIo();
    expect(await main(['merge', a], bad)).toBe(2);
    expect(bad.stderr()).toMatch(/^muster: files: chunk 2 of 4 is in no shard/);
  });
});
