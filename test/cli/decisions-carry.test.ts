/**
 * A rule file with decisions carried through the other commands (issue 35): `muster check` agrees, a sweep gives
 * each point's objective under best play, a run split in shards and merged carries the objective and policy, and
 * the library's run() returns them. Each against `muster run --exact` at the same parameters, whose values are held
 * to brute force in test/rules/decisions-weighted.test.ts and test/exact/decisions.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../../src/cli/commands/run.js';
import { main } from '../../src/cli.js';
import type { RunResult } from '../../src/result.js';
import { scratchFolder } from '../support/cli.js';
import { bufferIo } from '../support/io.js';

const token = fileURLToPath(new URL('../../examples/rules/rolloff-token.mjs', import.meta.url));
const folder = scratchFolder('decisions-carry');

async function exactAt(set: string[]): Promise<RunResult> {
  return runCommand(token, { exact: true, quiet: true, set }, bufferIo());
}

async function cli(args: string[]): Promise<{ status: number; out: string; err: string }> {
  const io = bufferIo();
  const status = (await main(args, io)) ?? 0;
  return { status, out: io.stdout(), err: io.stderr() };
}

describe('decisions carry through check, sweep, shards and the library', () => {
  it('muster check on a rule with decisions: its exact values agree', async () => {
    const { status, out, err } = await cli(['check', token]);
    expect(status, err).toBe(0);
    expect(out).toMatch(/agreed/);
  });

  it('sweep --exact and simulated: each point carries its objective under best play, as run --exact gives it', async () => {
    for (const extra of [['--exact'], ['--trials', '20000', '--seed', 'carry']]) {
      const { status, out, err } = await cli(['sweep', token, '--vary', 'tokens=0..2', ...extra, '--json', '-']);
      expect(status, err).toBe(0);
      const sweep = JSON.parse(out) as { points: { params: { tokens: number }; objective?: RunResult['objective'] }[] };
      expect(sweep.points).toHaveLength(3);
      for (const point of sweep.points) {
        const run = await exactAt([`tokens=${point.params.tokens}`]);
        expect(point.objective, `tokens=${point.params.tokens}`).toEqual(run.objective);
      }
    }
  });

  it('a run in two shards, merged: the objective and policy of run --exact, the decisions table printed', async () => {
    for (const index of [0, 1]) {
      const shard = join(folder, `s${index}.json`);
      const { status, err } = await cli([
        'shard',
        token,
        '--shard',
        `${index}/2`,
        '--trials',
        '300000',
        '--out',
        shard,
      ]);
      expect(status, err).toBe(0);
    }
    const merged = join(folder, 'merged.json');
    const files = [join(folder, 's0.json'), join(folder, 's1.json')];
    const { status, out, err } = await cli(['merge', ...files, '--rule', token, '--json', merged, '--quiet']);
    expect(status, err).toBe(0);
    expect(out).toMatch(/\(\* the option taken\)/);
    const result = JSON.parse(readFileSync(merged, 'utf8')) as RunResult;
    const run = await exactAt([]);
    expect(result.method).toBe('simulation');
    expect(result.objective).toEqual(run.objective);
    expect(result.policy).toEqual(run.policy);
  });

  it("the library's run() (simulated) returns objective and policy as run --exact gives them", async () => {
    const { run } = await import('../../src/library/node.js');
    const simulated = await run(token, { trials: 20_000, threads: 1, set: { tokens: 2 } });
    const exact = await exactAt(['tokens=2']);
    expect(simulated.method).toBe('simulation');
    expect(simulated.objective).toEqual(exact.objective);
    expect(simulated.policy).toEqual(exact.policy);
  });
});
