import { describe, expect, it } from 'vitest';
import { matrixCommand } from '../../src/cli/commands/matrix.js';
import { runCommand } from '../../src/cli/commands/run.js';
import { main } from '../../src/cli.js';
import { infinity } from '../../src/rules/infinity/infinity.js';
import { resolveParams } from '../../src/rules/params.js';
import { bufferIo } from '../support/io.js';

async function expectUsageError(argv: string[], parameter: string): Promise<void> {
  const io = bufferIo();
  const status = await main(argv, io);
  expect(status, argv.join(' ')).toBe(2);
  const lines = io.stderr().trimEnd().split('\n');
  expect(lines, argv.join(' ')).toHaveLength(1);
  expect(lines[0]).toMatch(new RegExp(`^muster: ${parameter.replace(/[-]/g, '\\-')}: `));
  expect(io.stdout()).toBe('');
}

describe('infinity rejects impossible Lieutenants', () => {
  it.each([
    ['wipA=0', 'wipA'],
    ['wipA=31', 'wipA'],
    ['wipB=31', 'wipB'],
    ['wipB=abc', 'wipB'],
    ['wipA=12.5', 'wipA'],
    ['wipA=', 'wipA'],
    ['crits=yes', 'crits'],
  ])('--set %s is a one-line error naming %s, exit status 2', async (setting, parameter) => {
    await expectUsageError(['run', 'infinity', '--set', setting, '--exact'], parameter);
  });

  it.each(['0..5', '5..3', '1..31', '8-16', 'abc', '', '8..'])(
    'matrix --range %j is a one-line error naming --range',
    async (range) => {
      await expectUsageError(['matrix', 'infinity', '--range', range], '--range');
    },
  );
});

describe('the WIP × WIP initiative table', () => {
  it(
    'muster matrix infinity --set crits=true tabulates a.wins for WIP 8–16 exactly, even odds on the ' + 'diagonal',
    async () => {
      const io = bufferIo();
      const result = await matrixCommand('infinity', { set: ['crits=true'] }, io);
      expect(result.method).toBe('exact');
      expect(result.matrix.row).toBe('wipA');
      expect(result.matrix.col).toBe('wipB');
      expect(result.matrix.rows).toEqual([8, 9, 10, 11, 12, 13, 14, 15, 16]);
      const table = result.matrix.tables[0];
      expect(table.metric).toBe('a.wins');
      result.matrix.rows.forEach((wipA, i) =>
        result.matrix.cols.forEach((wipB, j) => {
          const exact = infinity
            .exact!.values(resolveParams(infinity, [`wipA=${wipA}`, `wipB=${wipB}`]))
            ['a.wins'].toNumber();
          expect(table.values[i][j]).toBe(exact);
          // Swapping the Lieutenants swaps the winner.
          expect(table.values[i][j]! + table.values[j][i]!).toBeCloseTo(1, 12);
        }),
      );
      expect(io.stdout()).toContain('a.wins (%), rows wipA, columns wipB');
    },
  );

  it('--range 21..23 gives the WIP-above-20 corner: 23 against 23 is even', async () => {
    const result = await matrixCommand('infinity', { range: '21..23' }, bufferIo());
    expect(result.matrix.rows).toEqual([21, 22, 23]);
    expect(result.matrix.tables[0].values[2][2]).toBe(0.5);
  });
});

describe('a simulated matrix', () => {
  it(
    'seed "cells": --simulate computes its cells at once, each exactly what muster run gives at that WIP ' + 'pair',
    async () => {
      const result = await matrixCommand(
        'infinity',
        { range: '12..14', simulate: true, trials: '70000', seed: 'cells', threads: '2', quiet: true },
        bufferIo(),
      );
      expect(result.method).toBe('simulation');
      for (const [i, wipA] of result.matrix.rows.entries()) {
        for (const [j, wipB] of result.matrix.cols.entries()) {
          const alone = await runCommand(
            'infinity',
            { set: [`wipA=${wipA}`, `wipB=${wipB}`], trials: '70000', seed: 'cells', threads: '1', quiet: true },
            bufferIo(),
          );
          expect({ wipA, wipB, estimate: result.matrix.tables[0].values[i][j] }).toEqual({
            wipA,
            wipB,
            estimate: alone.metrics['a.wins'].estimate,
          });
        }
      }
    },
  );
});
