/**
 * The library's sweep and compare (src/library/grid.ts): the objects they
 * return are the ones `muster sweep --json` and `muster compare --json`
 * write, byte for byte once serialised the CLI's way, for the same options;
 * mistakes are UsageErrors, never an exit; an AbortSignal keeps what
 * finished; progress counts up to the work in all. The independent source
 * here is the CLI itself, run through `main` as a user runs it.
 */
import { describe, expect, it } from 'vitest';
import { compare, Pool, sweep, UsageError } from '../../src/library/node.js';
import { toJson } from '../../src/output/json.js';
import { scratchFolder } from '../support/cli.js';
import { cliJsonText, refusal } from '../support/library.js';

const folder = scratchFolder('library');
/** What the CLI writes with --json for these arguments. */
const cliJson = (name: string, argv: string[]) => cliJsonText(folder, name, argv);

describe('sweep', () => {
  it('exact: the same result as muster sweep --exact --json', async () => {
    const result = await sweep('reserves', { vary: { chosenRound: '0..4', command: [2, 3] }, exact: true });
    const expected = await cliJson('sweep-exact', [
      'sweep',
      'reserves',
      '--vary',
      'chosenRound=0..4',
      '--vary',
      'command=2,3',
      '--exact',
    ]);
    expect(toJson(result)).toBe(expected);
    expect(result.points).toHaveLength(10);
    expect(process.exitCode).toBeUndefined();
  });

  it('seed "library", simulated on one thread: the same numbers as the CLI, and --best alike', async () => {
    const seen: Array<[number, number]> = [];
    const result = await sweep('reserves', {
      vary: { chosenRound: [1, 2, 3] },
      set: { squads: 3 },
      trials: 20_000,
      seed: 'library',
      threads: 1,
      best: 'all.by.4',
      onProgress: (done, target) => seen.push([done, target]),
    });
    const expected = await cliJson('sweep-simulated', [
      ...['sweep', 'reserves', '--vary', 'chosenRound=1,2,3', '--set', 'squads=3', '--trials', '20000'],
      ...['--seed', 'library', '--threads', '1', '--best', 'all.by.4'],
    ]);
    expect(toJson(result)).toBe(expected);
    expect(result.best?.metric).toBe('all.by.4');
    // Progress counts the trials of every point, never going back, and ends at all of them.
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every(([, target]) => target === 60_000)).toBe(true);
    expect(seen.map(([done]) => done)).toEqual([...seen.map(([done]) => done)].sort((a, b) => a - b));
    expect(seen.at(-1)).toEqual([60_000, 60_000]);
  });

  it('on the caller’s pool, which stays open for the next call', async () => {
    const pool = new Pool(2);
    try {
      const first = await sweep('reserves', { vary: { chosenRound: [0, 1] }, trials: 10_000, pool });
      const second = await sweep('reserves', { vary: { chosenRound: [0, 1] }, trials: 10_000, pool });
      expect(first.threads).toBe(2);
      // The same seed gives the same numbers whatever the call (and the thread count).
      expect(toJson(second)).toBe(toJson(first));
      const oneThread = await sweep('reserves', { vary: { chosenRound: [0, 1] }, trials: 10_000, threads: 1 });
      expect(oneThread.points).toEqual(first.points);
    } finally {
      await pool.close();
    }
  });

  it('an aborted signal: the points finished (none), partial, and no exit status', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await sweep('reserves', {
      vary: { chosenRound: [0, 1] },
      trials: 10_000,
      threads: 1,
      signal: controller.signal,
    });
    expect(result.partial).toBe(true);
    expect(result.points).toEqual([]);
    expect(process.exitCode).toBeUndefined();
  });

  it('mistakes are UsageErrors naming what is wrong, and nothing runs', async () => {
    // @ts-expect-error: vary is required
    expect(await refusal(() => sweep('reserves', {}))).toMatch(/^vary: missing/);
    expect(await refusal(() => sweep('reserves', { vary: {} }))).toMatch(/^--vary: missing/);
    expect(await refusal(() => sweep('reserves', { vary: { chosenRoud: [1] } }))).toMatch(/chosenRound/);
    expect(await refusal(() => sweep('reserves', { vary: { chosenRound: [] } }))).toMatch(/^vary: chosenRound/);
    expect(await refusal(() => sweep('reserves', { vary: { chosenRound: [1] }, trials: 0 }))).toMatch(/^--trials/);
    const pool = new Pool(1);
    try {
      expect(await refusal(() => sweep('reserves', { vary: { chosenRound: [1] }, threads: 1, pool }))).toMatch(
        /^threads: given with pool/,
      );
    } finally {
      await pool.close();
    }
    expect(await refusal(() => sweep('nosuchrule', { vary: { x: [1] } }))).toMatch(/nosuchrule/);
    expect(process.exitCode).toBeUndefined();
  });
});

describe('compare', () => {
  const variants = [
    { label: 'A', set: { target: 7 } },
    { label: 'B', set: { target: 6 } },
  ];

  it('exact where every variant is: the same result as muster compare --json', async () => {
    const result = await compare('reserves', { variants });
    const expected = await cliJson('compare-exact', [
      ...['compare', 'reserves', '--variant', 'A: target=7', '--variant', 'B: target=6'],
    ]);
    expect(toJson(result)).toBe(expected);
    expect(result.method).toBe('exact');
  });

  it('seed "library", simulated per variant: the same tests and differences as the CLI', async () => {
    const result = await compare('reserves', {
      variants: [...variants, 'C: target=5; squads=3'],
      simulate: true,
      seedPerVariant: true,
      trials: 20_000,
      seed: 'library',
      threads: 1,
    });
    const expected = await cliJson('compare-simulated', [
      ...['compare', 'reserves', '--variant', 'A: target=7', '--variant', 'B: target=6'],
      ...['--variant', 'C: target=5; squads=3', '--simulate', '--seed-per-variant'],
      ...['--trials', '20000', '--seed', 'library', '--threads', '1'],
    ]);
    expect(toJson(result)).toBe(expected);
    expect(result.seeds).toBe('per variant');
    expect(result.differences.length).toBeGreaterThan(0);
  });

  it('an aborted signal: partial, too few variants to compare, and no exit status', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await compare('reserves', {
      variants,
      simulate: true,
      trials: 10_000,
      threads: 1,
      signal: controller.signal,
    });
    expect(result.partial).toBe(true);
    expect(result.variants).toEqual([]);
    expect(process.exitCode).toBeUndefined();
  });

  it('mistakes are UsageErrors', async () => {
    const refused = (call: () => Promise<unknown>) => expect(call()).rejects.toBeInstanceOf(UsageError);
    await refused(() => compare('reserves', { variants: [variants[0]] }));
    await refused(() => compare('reserves', { variants: [{ label: 'A: B', set: { target: 7 } }, variants[1]] }));
    await refused(() => compare('reserves', { variants: [{ label: 'A', set: { nope: 1 } }, variants[1]] }));
    await refused(() => compare('reserves', { variants: [{ label: 'A', rule: 'no rule' }, variants[1]] }));
    await refused(() => compare('reserves', { variants, exact: true, simulate: true }));
    // @ts-expect-error: variants is required
    await refused(() => compare('reserves', {}));
    expect(process.exitCode).toBeUndefined();
  });
});
