/**
 * The library's balance (src/library/grid.ts): the object it returns is the
 * one `muster balance --json` writes for the same question, byte for byte,
 * and its mistakes are UsageErrors naming the option.
 */
import { describe, expect, it } from 'vitest';
import { balance, Pool } from '../../src/library/node.js';
import { toJson } from '../../src/output/json.js';
import { scratchFolder } from '../support/cli.js';
import { cliJsonText, refusal } from '../support/library.js';

const folder = scratchFolder('library-balance');

const cliJson = (argv: string[]) => cliJsonText(folder, 'balance', argv);

describe('balance', () => {
  it('the same result as muster balance --json, exact by default even with a pool to hand', async () => {
    const pool = new Pool(1);
    try {
      const result = await balance('reserves', {
        vary: { squads: '4..5', target: [6, 7] },
        metric: 'all.by.4',
        target: '80%',
        keep: ['all.by.3<99%'],
        within: '20pp',
        pool,
      });
      const expected = await cliJson([
        ...['balance', 'reserves', '--vary', 'squads=4..5', '--vary', 'target=6,7'],
        ...['--metric', 'all.by.4', '--target', '80%', '--keep', 'all.by.3<99%', '--within', '20pp'],
      ]);
      expect(toJson(result)).toBe(expected);
      expect(result.method).toBe('exact');
      expect(result.balance.nearest.map((point) => point.params)).toEqual([{ squads: 5, target: 6 }]);
    } finally {
      await pool.close();
    }
  });

  it('mistakes are UsageErrors naming the option', async () => {
    const vary = { bonusA: '-1..1' };
    // @ts-expect-error: metric and target are required
    expect(await refusal(() => balance('rolloff', { vary }))).toMatch(/^--metric: missing/);
    // @ts-expect-error: target is text
    expect(await refusal(() => balance('rolloff', { vary, metric: 'a.wins', target: 0.5 }))).toMatch(
      /^target: got number; allowed: text/,
    );
    expect(await refusal(() => balance('rolloff', { vary, metric: 'a.wins', target: '2' }))).toMatch(
      /^--target: got "2", outside 0%–100%/,
    );
    // @ts-expect-error: keep is a list
    expect(await refusal(() => balance('rolloff', { vary, metric: 'a.wins', target: '1/2', keep: 'a' }))).toMatch(
      /^keep: not a list/,
    );
  });
});
