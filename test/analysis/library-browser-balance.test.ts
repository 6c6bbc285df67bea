/**
 * The browser library's balance (src/library/browser-balance.ts): the grid
 * computed on the calling thread gives the object `muster balance --json`
 * writes for the same question, byte for byte where solved exactly (one
 * varied parameter and two, with --keep and --within), and number for number
 * where simulated; an abort keeps the points that finished. The independent
 * source is the CLI, run as a user runs it; the CLI's balance is held against
 * brute force in test/analysis/balance.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { type BalanceOptions, balance } from '../../src/library/browser.js';
import { toJson } from '../../src/output/json.js';
import { scratchFolder } from '../support/cli.js';
import { cliJsonText, refusal } from '../support/library.js';

const folder = scratchFolder('browser-balance');

const cliJson = (argv: string[]) => cliJsonText(folder, 'balance', argv);

describe('balance in the browser library', () => {
  it.each<{ what: string; rule: string; options: BalanceOptions; argv: string[] }>([
    {
      what: "the roll-off's fair bonus (one parameter)",
      rule: 'rolloff',
      options: { vary: { bonusA: '-2..4' }, metric: 'a.wins', target: '50%' },
      argv: ['--vary', 'bonusA=-2..4', '--metric', 'a.wins', '--target', '50%'],
    },
    {
      what: 'reserves by squads and target, with --keep and --within (two parameters)',
      rule: 'reserves',
      options: {
        vary: { squads: '4..6', target: [6, 7, 8] },
        metric: 'all.by.4',
        target: '80%',
        keep: ['all.by.3<99%'],
        within: '10pp',
      },
      argv: [
        ...['--vary', 'squads=4..6', '--vary', 'target=6,7,8', '--metric', 'all.by.4', '--target', '80%'],
        ...['--keep', 'all.by.3<99%', '--within', '10pp'],
      ],
    },
    {
      what: 'Infinity WIP pairs within 2 pp of fair, a fixed parameter set',
      rule: 'infinity',
      options: { vary: { wipA: '10..13', wipB: '11..14' }, metric: 'a.wins', target: '1/2', within: '2pp' },
      argv: [
        ...['--vary', 'wipA=10..13', '--vary', 'wipB=11..14'],
        ...['--metric', 'a.wins', '--target', '1/2', '--within', '2pp'],
      ],
    },
  ])('$what: byte for byte muster balance --json', async ({ rule, options, argv }) => {
    const result = await balance(rule, options);
    expect(result.method).toBe('exact');
    expect(toJson(result)).toBe(await cliJson(['balance', rule, ...argv]));
  });

  it('simulated (seed "page", 20,000 trials a point): the CLI’s figures on one thread', async () => {
    const result = await balance('rolloff', {
      vary: { bonusA: '0..2' },
      metric: 'a.wins',
      target: '60%',
      simulate: true,
      trials: 20_000,
      seed: 'page',
    });
    const expected = JSON.parse(
      await cliJson([
        ...['balance', 'rolloff', '--vary', 'bonusA=0..2', '--metric', 'a.wins', '--target', '60%'],
        ...['--simulate', '--trials', '20000', '--seed', 'page', '--threads', '1'],
      ]),
    );
    const mine = JSON.parse(toJson(result));
    expect(result.method).toBe('simulation');
    expect(mine.balance).toEqual(expected.balance);
    expect(mine.points).toEqual(expected.points);
  });

  it('an abort keeps the points solved, marked partial', async () => {
    const stop = new AbortController();
    const seen: number[] = [];
    const result = await balance('reserves', {
      vary: { squads: '4..8', target: '4..9' },
      metric: 'all.by.4',
      target: '80%',
      signal: stop.signal,
      onProgress: (done, total) => {
        seen.push(done);
        expect(total).toBe(30);
        if (done === 3) stop.abort();
      },
    });
    expect(result.partial).toBe(true);
    // The exact solver hears the abort at its next pause (every 50 ms): at least the three points before it.
    expect(result.points.length).toBeGreaterThanOrEqual(3);
    expect(result.points.length).toBeLessThan(30);
    expect(seen.slice(0, 3)).toEqual([1, 2, 3]);
  });

  it('mistakes are UsageErrors naming the option, in the CLI’s words', async () => {
    const vary = { bonusA: '-1..1' };
    expect(await refusal(() => balance('rolloff', { vary, metric: 'a.wins', target: '2' }))).toMatch(
      /^--target: got "2", outside 0%–100%/,
    );
    // @ts-expect-error: a pool is the Node library's
    expect(await refusal(() => balance('rolloff', { vary, metric: 'a.wins', target: '50%', pool: 1 }))).toMatch(
      /^pool: not an option of balance\(\)/,
    );
    // @ts-expect-error: trials is a number
    expect(await refusal(() => balance('rolloff', { vary, metric: 'a.wins', target: '50%', trials: '9' }))).toMatch(
      /^trials: got string; allowed: a number/,
    );
  });
});
