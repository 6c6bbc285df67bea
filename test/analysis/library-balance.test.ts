/**
 * The library's balance (src/library/grid.ts): the object it returns is the
 * one `muster balance --json` writes for the same question, byte for byte,
 * and its mistakes are UsageErrors naming the option.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { balance, Pool, UsageError } from '../../src/library/node.js';
import { toJson } from '../../src/output/json.js';
import { bufferIo } from '../support/io.js';

const folder = mkdtempSync(join(tmpdir(), 'muster-library-balance-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function cliJson(argv: string[]): Promise<string> {
  const file = join(folder, 'balance.json');
  const io = bufferIo();
  const status = await main([...argv, '--json', file, '--quiet'], io);
  expect(status, io.stderr()).toBe(0);
  return readFileSync(file, 'utf8');
}

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
    const refusal = async (call: () => Promise<unknown>) => {
      try {
        await call();
      } catch (error) {
        expect(error).toBeInstanceOf(UsageError);
        return (error as Error).message;
      }
      throw new Error('not refused');
    };
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
