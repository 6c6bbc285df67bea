/**
 * A grid's exact points handed to the pool's threads (analysis/exact-grid.ts): the same grid, point for point and
 * fraction for fraction, as solved on one thread; the first failing point's error, of the same class; the points
 * finished kept after an interruption; and a grid kept on its thread where it should be. The hand-over is forced
 * (every time limit 0) so that small grids cross; the values are checked against sums worked by hand.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { GridSettings } from '../../src/analysis/evaluate-types.js';
import { solveExactGrid } from '../../src/analysis/exact-grid.js';
import { planMatrix, solveMatrix, solveMatrixCells } from '../../src/analysis/matrix.js';
import { solveUntilInterrupted } from '../../src/analysis/solve-points.js';
import { withTails } from '../../src/analysis/tails.js';
import type { Params, Rule } from '../../src/contract/types.js';
import { SimulationPool } from '../../src/engine/pool.js';
import { Fraction } from '../../src/exact/fraction.js';
import { NotEnumerable } from '../../src/exact/replay-dice.js';
import { RuleFault } from '../../src/guard/rule-faults.js';
import { loadRuleFile } from '../../src/rule-files/load.js';
import { getRule } from '../../src/rules/index.js';
import { scratchFolder } from '../support/cli.js';

const folder = scratchFolder('exact-grid');
const probePath = join(folder, 'grid-probe.mjs');
writeFileSync(
  probePath,
  `export default {
  id: 'grid-probe',
  title: 'Grid probe',
  summary: 'n d6 rolled: is there a six?',
  source: 'a test of muster',
  params: [
    { name: 'n', type: 'integer', default: 1, min: 1, max: 12, doc: 'dice rolled' },
    { name: 'failFrom', type: 'integer', default: 99, min: 1, max: 99, doc: 'from this n the trial throws' },
    { name: 'randomFrom', type: 'integer', default: 99, min: 1, max: 99, doc: 'from this n it reads dice.random()' },
    { name: 'exitFrom', type: 'integer', default: 99, min: 1, max: 99, doc: 'from this n it calls process.exit(3)' },
    { name: 'loopFrom', type: 'integer', default: 99, min: 1, max: 99, doc: 'from this n it never returns' },
  ],
  metrics: [{ name: 'six', doc: 'at least one six', probability: true }],
  trial(dice, p, out) {
    if (p.n >= p.failFrom) throw new Error('no dice past ' + (p.failFrom - 1) + ', asked ' + p.n);
    if (p.n >= p.randomFrom) dice.random();
    if (p.n >= p.exitFrom) process.exit(3);
    if (p.n >= p.loopFrom) for (;;) {}
    let six = false;
    for (let i = 0; i < p.n; i++) if (dice.d(6) === 6) six = true;
    out.six = six;
  },
};
`,
);
const probe = await loadRuleFile(probePath);
const pig = await loadRuleFile(join(process.cwd(), 'examples/rules/push-your-luck.mjs'));
const reserves = getRule('reserves');

const settings: Extract<GridSettings, { method: 'exact' }> = {
  method: 'exact',
  seed: 'grid',
  stream: null,
  confidence: 1,
  trials: 0,
  threads: 0,
};
/** Every point handed over after the first, one point a batch. */
const AT_ONCE = { handOffMs: 0, worthMs: 0, batchMs: 0 };

const pools: SimulationPool[] = [];
const newPool = () => {
  const pool = new SimulationPool(2);
  pools.push(pool);
  return pool;
};
afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.close()));
});

const probeAt = (n: number, extra: Params = {}): Params => ({
  n,
  failFrom: 99,
  randomFrom: 99,
  exitFrom: 99,
  loopFrom: 99,
  ...extra,
});
const alone = (rule: Rule, grid: Params[]) => solveUntilInterrupted(rule, grid, settings);

describe('an exact grid on the pool', () => {
  it('is the grid solved on one thread, point for point, and the sums worked by hand', async () => {
    const pool = newPool();
    const grids: Array<[Rule, Params[]]> = [
      [probe, [1, 2, 3, 4, 5, 6].map((n) => probeAt(n))],
      [pig, [2, 3, 5, 8, 13].map((cap) => ({ ...defaults(pig), cap }))],
      [reserves, [1, 2, 3, 4, 5, 6].map((squads) => ({ ...defaults(reserves), squads }))],
    ];
    for (const [rule, grid] of grids) {
      const points: number[] = [];
      const onPool = await solveExactGrid(
        rule,
        grid,
        settings,
        { pool, onPoint: (done) => points.push(done) },
        AT_ONCE,
      );
      const here = await alone(rule, grid);
      expect(onPool.interrupted).toBe(false);
      expect(onPool.indices).toEqual(grid.map((_, index) => index));
      expect(onPool.evaluated).toStrictEqual(here.evaluated);
      // Progress counts up to every point, wherever they were solved.
      expect(points.at(-1)).toBe(grid.length);
    }
    expect(pool.started).toBe(true);

    // At least one six in n d6: 1 - 5^n / 6^n.
    const sixes = await solveExactGrid(
      probe,
      [1, 2, 3, 4, 5, 6].map((n) => probeAt(n)),
      settings,
      { pool },
      AT_ONCE,
    );
    for (const [index, point] of sixes.evaluated.entries()) {
      const n = BigInt(index + 1);
      expect(point.exact?.six.toString()).toBe(Fraction.of(6n ** n - 5n ** n, 6n ** n).toString());
    }
    // Pig with the cap at 2: one roll, then the pot is banked; a 1 busts. Banked: (2+3+4+5+6)/6; bust: 1/6.
    const [capped] = (
      await solveExactGrid(
        pig,
        [
          { ...defaults(pig), cap: 2 },
          { ...defaults(pig), cap: 3 },
        ],
        settings,
        { pool },
        AT_ONCE,
      )
    ).evaluated;
    expect(capped.exact?.banked.toString()).toBe('10/3');
    expect(capped.exact?.bust.toString()).toBe('1/6');
  });

  it('throws the error of the first point that failed, as on one thread, with no second point named', async () => {
    const grid = [1, 2, 3, 4, 5, 6].map((n) => probeAt(n, { failFrom: 3 }));
    const here = await alone(probe, grid).catch((error: unknown) => error);
    const onPool = await solveExactGrid(probe, grid, settings, { pool: newPool() }, AT_ONCE).catch(
      (error: unknown) => error,
    );
    expect(here).toBeInstanceOf(Error);
    expect(String((here as Error).message)).toContain('asked 3');
    expect(onPool).toBeInstanceOf((here as Error).constructor);
    expect((onPool as Error).message).toBe((here as Error).message);
  });

  it('starts its points in grid order: a later point that never returns cannot hold the threads', async () => {
    // On one thread point 20 fails and points 30 on are never reached. Sent to the pool all at once, the batches
    // ran out of order (piscina queues a task that can be aborted behind those it skipped), and both threads could
    // sit in points 30 on while point 20 waited: the grid never ended.
    const grid = Array.from({ length: 40 }, (_, index) =>
      probeAt(1 + (index % 6), index < 30 ? { failFrom: index === 20 ? 1 : 99 } : { loopFrom: 1 }),
    );
    const here = await alone(probe, grid).catch((error: unknown) => error);
    expect(String((here as Error).message)).toContain('no dice past 0');
    const onPool = await solveExactGrid(probe, grid, settings, { pool: newPool() }, AT_ONCE).catch(
      (error: unknown) => error,
    );
    expect((onPool as Error).message).toBe((here as Error).message);
  }, 20_000);

  it('returns a refusal to enumerate as the same NotEnumerable, so a command still offers simulation', async () => {
    const grid = [1, 2, 3, 4, 5].map((n) => probeAt(n, { randomFrom: 4 }));
    const here = await alone(probe, grid).catch((error: unknown) => error);
    const onPool = await solveExactGrid(probe, grid, settings, { pool: newPool() }, AT_ONCE).catch(
      (error: unknown) => error,
    );
    expect(here).toBeInstanceOf(NotEnumerable);
    expect(onPool).toBeInstanceOf(NotEnumerable);
    const how = 'leave out --exact';
    expect((onPool as NotEnumerable).simulatedBy(how).message).toBe((here as NotEnumerable).simulatedBy(how).message);
    expect((onPool as NotEnumerable).message).toContain('dice.random');
  });

  it("names the rule file's process.exit on a worker as the rule's fault, one line", async () => {
    // On the command's thread the CLI's supervisor names it; on a worker the pool does, from the call marker.
    const grid = [1, 2, 3, 4].map((n) => probeAt(n, { exitFrom: 3 }));
    const error = await solveExactGrid(probe, grid, settings, { pool: newPool() }, AT_ONCE).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RuleFault);
    expect((error as Error).message).toMatch(
      /grid-probe\.mjs \(rule grid-probe\): .* called process\.exit\(3\) in point [34]; /,
    );
    expect((error as Error).message).not.toContain('\n');
  });

  it('keeps the points finished when interrupted, each the point solved on one thread', async () => {
    // Twelve points of 6^6 paths each: the signal comes at the second, long before the last.
    const grid = Array.from({ length: 12 }, (_, index) => probeAt(6, { failFrom: 50 + index }));
    const stop = new AbortController();
    const cut = await solveExactGrid(
      probe,
      grid,
      settings,
      { pool: newPool(), signal: stop.signal, onPoint: (done) => done === 2 && stop.abort() },
      AT_ONCE,
    );
    const here = await alone(probe, grid);
    expect(cut.interrupted).toBe(true);
    expect(cut.evaluated.length).toBeGreaterThanOrEqual(2);
    expect(cut.evaluated.length).toBeLessThan(grid.length);
    expect(cut.indices).toEqual([...cut.indices].sort((a, b) => a - b));
    for (const [at, index] of cut.indices.entries()) expect(cut.evaluated[at]).toStrictEqual(here.evaluated[index]);
  });

  it('stays on its thread for a quick grid, a one-thread pool, and a rule file under --timeout', async () => {
    const grid = [1, 2, 3, 4].map((n) => probeAt(n));
    const quick = newPool();
    await solveExactGrid(probe, grid, settings, { pool: quick });
    expect(quick.started).toBe(false);
    const one = new SimulationPool(1);
    pools.push(one);
    await solveExactGrid(probe, grid, settings, { pool: one }, AT_ONCE);
    expect(one.started).toBe(false);
    // --timeout is the CLI supervisor's watch over this thread: a rule file's calls elsewhere would escape it.
    const watched = newPool();
    const solved = await solveExactGrid(probe, grid, { ...settings, timeout: 60 }, { pool: watched }, AT_ONCE);
    expect(watched.started).toBe(false);
    expect(solved.evaluated).toStrictEqual((await alone(probe, grid)).evaluated);
  });
});

describe("an exact matrix's cells on the pool", () => {
  it('are the cells solved on one thread, base point and best-play-free results alike', async () => {
    const flank = await loadRuleFile(join(process.cwd(), 'examples/rules/flank-march.mjs'));
    for (const rule of [flank, getRule('infinity')]) {
      const plan = planMatrix(rule, {});
      const pool = newPool();
      const cells = await solveMatrixCells(plan, { pool }, AT_ONCE);
      expect(pool.started).toBe(true);
      expect(cells).toStrictEqual(solveMatrix(plan));
    }
  });

  it('keeps the base point and the cells solved when interrupted, the rest null', async () => {
    const plan = planMatrix(getRule('infinity'), {});
    const stop = new AbortController();
    const cut = await solveMatrixCells(
      plan,
      { pool: newPool(), signal: stop.signal, onPoint: (done) => done === 2 && stop.abort() },
      AT_ONCE,
    );
    const whole = solveMatrix(plan);
    expect(cut.interrupted).toBe(true);
    // The base point comes first, as solveMatrix solves it: so an interrupted table has its cells to write.
    expect(cut.base).toStrictEqual(whole.base);
    const solved = cut.cells.flat().filter((cell) => cell !== null);
    expect(solved.length).toBeGreaterThanOrEqual(1);
    expect(solved.length).toBeLessThan(cut.cells.flat().length);
    for (const [i, row] of cut.cells.entries())
      for (const [j, cell] of row.entries()) if (cell !== null) expect(cell).toStrictEqual(whole.cells[i][j]);
  });
});

describe('a rule a thread could not rebuild', () => {
  it('is solved on the command thread: a built-in wrapped with tails, a copy of a rule file', async () => {
    const tailed = withTails(reserves, ['arrived.by.2>=2']);
    expect(tailed).not.toBe(reserves);
    const grids: Array<[Rule, Params[]]> = [
      [tailed, [1, 2, 3].map((squads) => ({ ...defaults(reserves), squads }))],
      // A rule file's rule wrapped after loading keeps its file, but a thread loading that file would not wrap it.
      [{ ...probe }, [1, 2, 3].map((n) => probeAt(n))],
    ];
    for (const [rule, grid] of grids) {
      const pool = newPool();
      const solved = await solveExactGrid(rule, grid, settings, { pool }, AT_ONCE);
      expect(pool.started).toBe(false);
      expect(solved.evaluated).toStrictEqual((await alone(rule, grid)).evaluated);
    }
    const [, second] = (
      await alone(
        tailed,
        [1, 2].map((squads) => ({ ...defaults(reserves), squads })),
      )
    ).evaluated;
    expect(Object.keys(second.result.metrics)).toContain('arrived.by.2>=2');
  });
});

function defaults(rule: Rule): Params {
  return Object.fromEntries(rule.params.map((param) => [param.name, param.default]));
}
