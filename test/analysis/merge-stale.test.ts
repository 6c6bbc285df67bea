/**
 * Stale state, and honest state refused.
 *
 * - A shard or checkpoint of another muster version was merged or resumed
 *   silently; another version may count differently (a rule fixed, a stream
 *   changed), so its counts are refused, naming both versions.
 * - A rule file's mean can be negative (d6 − d6): its tally keeps the whole
 *   part of Σ value, below zero. Run merges took it, but sweep and
 *   comparison merges and checkpoints refused every such tally as "not
 *   whole counts". Now all three accept it, while a negative count anywhere
 *   else (a probability's count, a fraction part, Σ value²) is still refused.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageVersion } from '../../src/version.js';
import { sealCheckpoint } from '../support/checkpoint-seal.js';
import { cli, scratchFolder } from '../support/cli.js';

const folder = scratchFolder('merge-stale');
const file = (name: string) => join(folder, name);
const RUN = ['--trials', '140k', '--seed', 'stale', '--threads', '1', '--quiet'];
const read = (name: string) => JSON.parse(readFileSync(file(name), 'utf8')) as Record<string, unknown>;

describe('another muster version', () => {
  const other = `${packageVersion()}-other`;

  it(
    'a run shard, a sweep shard and a checkpoint written by another version are refused, naming both ' + 'versions',
    async () => {
      expect((await cli('shard', 'reserves', ...RUN, '--shard', '0/1', '--out', file('run.json'))).status).toBe(0);
      writeFileSync(file('run-old.json'), JSON.stringify({ ...read('run.json'), version: other }));
      const run = await cli('merge', file('run-old.json'));
      expect([run.status, run.stderr]).toEqual([
        2,
        `muster: files: ${JSON.stringify(file('run-old.json'))}: version: got "\\"${other}\\""; allowed: ` +
          `"${packageVersion()}", the version of this muster (run the shard again with it)\n`,
      ]);

      expect(
        (
          await cli(
            'sweep',
            'reserves',
            '--vary',
            'command=2..3',
            ...RUN,
            '--shard',
            '0/1',
            '--out',
            file('sweep.tally'),
          )
        ).status,
      ).toBe(0);
      for (const [name, version] of [
        ['sweep-old', other],
        ['sweep-none', undefined],
      ] as const) {
        writeFileSync(file(`${name}.tally`), JSON.stringify({ ...read('sweep.tally'), version }));
        const sweep = await cli('merge', file(`${name}.tally`));
        expect(sweep.status, name).toBe(2);
        // A file with no version at all was written before grid shards recorded one: refused as incomplete.
        expect(sweep.stderr, name).toMatch(
          version
            ? new RegExp(`was written by muster "${other}", not by this muster "${packageVersion()}"`)
            : /is not a complete muster-grid-tally\/1 file/,
        );
        expect(sweep.stderr.split('\n')).toHaveLength(2);
      }

      const checkpoint = file('old.ckpt');
      expect((await cli('run', 'reserves', ...RUN, '--checkpoint', checkpoint)).status).toBe(0);
      writeFileSync(checkpoint, sealCheckpoint({ ...read('old.ckpt'), version: other }));
      const resumed = await cli('run', 'reserves', ...RUN, '--checkpoint', checkpoint, '--json', file('never.json'));
      expect([resumed.status, resumed.stderr]).toEqual([
        2,
        expect.stringMatching(
          new RegExp(
            `^muster: --checkpoint: .* was written by muster "${other}", not this muster "${packageVersion()}", ` +
              `which may count differently; delete it and run again; allowed: `,
          ),
        ),
      ]);
    },
  );
});

describe('a rule file whose mean is negative: d6 − d6', () => {
  // `diff` has mean 0, so its sums fall on either side of zero; `loss` (d6 − d6 − 1) has mean −1, so its sums are
  // surely negative.
  const rule = file('difference.mjs');
  writeFileSync(
    rule,
    `export default {
  id: 'difference',
  title: 'One d6 less another',
  params: [{ name: 'bonus', type: 'integer', default: 0, min: -3, max: 3, doc: 'added to the first die' }],
  metrics: [
    { name: 'diff', doc: 'the first die less the second, plus the bonus', probability: false },
    { name: 'loss', doc: 'the same less one', probability: false },
    { name: 'ahead', doc: 'the first die shows more', probability: true },
  ],
  trial(dice, p, out) {
    const a = dice.d(6) + p.bonus;
    const b = dice.d(6);
    out.diff = a - b;
    out.loss = a - b - 1;
    out.ahead = a > b;
  },
};
`,
  );
  const metricsOf = (text: string) => JSON.stringify((JSON.parse(text) as { metrics: unknown }).metrics);

  it('seed "stale": run shards, sweep shards and comparison shards merge to the unsharded result', async () => {
    for (const index of [0, 1])
      expect(
        (await cli('shard', rule, ...RUN, '--shard', `${index}/2`, '--out', file(`diff-${index}.json`))).status,
      ).toBe(0);
    // loss's sum is negative in every shard: the honest tally a merge must take.
    expect((read('diff-0.json').tally as number[]).some((entry) => entry < 0)).toBe(true);
    const merged = await cli('merge', file('diff-0.json'), file('diff-1.json'), '--rule', rule, '--json', '-');
    expect(merged.status, merged.stderr).toBe(0);
    const whole = await cli('run', rule, ...RUN, '--json', '-');
    expect(metricsOf(merged.stdout)).toBe(metricsOf(whole.stdout));
    // E[loss] = −1 exactly, σ = √(35/6 / 140,000) ≈ 0.0065: 5σ.
    expect(
      Math.abs((JSON.parse(whole.stdout) as { metrics: { loss: { estimate: number } } }).metrics.loss.estimate + 1),
    ).toBeLessThan(5 * 0.0065);

    for (const [command, options] of [
      ['sweep', ['--vary', 'bonus=-1..1']],
      ['compare', ['--variant', 'A: bonus=-1', '--variant', 'B: bonus=1']],
    ] as const) {
      for (const index of [0, 1]) {
        const shard = await cli(
          command,
          rule,
          ...options,
          ...RUN,
          '--shard',
          `${index}/2`,
          '--out',
          file(`${command}-${index}.tally`),
        );
        expect(shard.status, shard.stderr).toBe(0);
      }
      const gridMerged = await cli(
        'merge',
        file(`${command}-0.tally`),
        file(`${command}-1.tally`),
        '--rule',
        rule,
        '--json',
        file(`${command}-merged.json`),
        '--quiet',
      );
      expect(gridMerged.status, `${command}: ${gridMerged.stderr}`).toBe(0);
      expect(
        (
          await cli(
            command,
            rule,
            ...options,
            ...RUN.filter((arg, i) => arg !== '--threads' && RUN[i - 1] !== '--threads'),
            '--threads',
            '2',
            '--json',
            file(`${command}-whole.json`),
          )
        ).status,
      ).toBe(0);
      expect(readFileSync(file(`${command}-merged.json`), 'utf8'), command).toBe(
        readFileSync(file(`${command}-whole.json`), 'utf8'),
      );
    }
  });

  it('seed "stale": a run and a sweep resume from their checkpoints to the same result', async () => {
    for (const [name, argv] of [
      ['run', ['run', rule]],
      ['sweep', ['sweep', rule, '--vary', 'bonus=-1..1']],
    ] as const) {
      const checkpoint = file(`${name}-diff.ckpt`);
      const first = await cli(...argv, ...RUN, '--checkpoint', checkpoint, '--json', file(`${name}-first.json`));
      expect(first.status, first.stderr).toBe(0);
      // Every chunk is saved: the second run takes all its counts, negative sums included, from the checkpoint.
      const again = await cli(...argv, ...RUN, '--checkpoint', checkpoint, '--json', file(`${name}-again.json`));
      expect(again.status, `${name}: ${again.stderr}`).toBe(0);
      expect(metricsOf(readFileSync(file(`${name}-again.json`), 'utf8'))).toBe(
        metricsOf(readFileSync(file(`${name}-first.json`), 'utf8')),
      );
    }
  });

  it(
    'a negative count other than a mean’s sum is still refused: a probability’s count, a fraction part, Σ ' + 'value²',
    async () => {
      const shard = read('diff-0.json') as { tally: number[] };
      // The layout of docs/custom-rules.md: diff at 0–3 (Σx whole, Σx fraction, Σx² whole, Σx² fraction), loss at 4–7,
      // ahead at 8.
      for (const [index, what] of [
        [8, 'ahead'],
        [1, 'diff'],
        [6, 'loss'],
        [7, 'loss'],
      ] as const) {
        const forged = structuredClone(shard);
        forged.tally[index] = -Math.max(1, Math.abs(forged.tally[index]));
        writeFileSync(file('negative.json'), JSON.stringify(forged));
        const result = await cli('merge', file('negative.json'), file('diff-1.json'), '--rule', rule);
        expect(result.status, `entry ${index}`).toBe(2);
        expect(result.stderr).toMatch(
          new RegExp(
            `^muster: files: ".*negative\\.json": tally: ${what}: tally entry ${index} is -\\d+, and only a mean's ` +
              `sum may be below zero; allowed: `,
          ),
        );
      }
      // And in a sweep's shard.
      const grid = read('sweep-0.tally') as { pieces: Array<{ tally: number[] }> };
      const forged = structuredClone(grid);
      forged.pieces[0].tally[8] = -1;
      writeFileSync(file('negative.tally'), JSON.stringify(forged));
      const result = await cli('merge', file('negative.tally'), file('sweep-1.tally'), '--rule', rule);
      expect([result.status, result.stderr]).toEqual([
        2,
        expect.stringMatching(/tally of point 1: ahead: tally entry 8 is -1, and only a mean's sum may be below zero/),
      ]);
    },
  );
});
