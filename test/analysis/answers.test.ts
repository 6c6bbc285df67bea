/**
 * Answers first (issue 12): --metric with globs, headline metrics and
 * folding, fractions, short labels as input, did-you-mean, --best,
 * exact comparisons by default, matrix --against, tables that fit.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findBest } from '../../src/analysis/best.js';
import { globMatches } from '../../src/analysis/metrics.js';
import type { SweepResult } from '../../src/analysis/sweep.js';
import { renderTable } from '../../src/cli/format.js';
import { Fraction } from '../../src/exact/fraction.js';
import { rules } from '../../src/rules/index.js';
import { closest, editDistance } from '../../src/text/suggest.js';
import { cli, scratchFolder } from '../support/cli.js';

const folder = scratchFolder('answers');
let count = 0;
async function json(...argv: string[]): Promise<any> {
  const file = join(folder, `out-${++count}.json`);
  const { status, stderr } = await cli(...argv, '--json', file, '--quiet');
  expect(status, stderr).toBe(0);
  return JSON.parse(readFileSync(file, 'utf8'));
}
/** The metric names in the first column of a printed table (rows under a ── rule). */
function tableNames(stdout: string): string[] {
  const lines = stdout.split('\n');
  const start = lines.findIndex((line) => line.startsWith('──'));
  const names: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === '' || line.startsWith('(') || line.includes(':')) break;
    names.push(line.split(/\s+/)[0]);
  }
  return names;
}

describe('--metric', () => {
  it('globs: * is any run of characters, ? one character, dots literal', () => {
    expect(globMatches('a.*', 'a.wins')).toBe(true);
    expect(globMatches('a.*', 'ab.wins')).toBe(false);
    expect(globMatches('a.*', 'b.wins')).toBe(false);
    expect(globMatches('squad.round.?', 'squad.round.3')).toBe(true);
    expect(globMatches('squad.round.?', 'squad.round.10')).toBe(false);
  });

  it('run infinity --metric "a.*" shows the two metrics of player A, in the rule order', async () => {
    const { status, stdout } = await cli('run', 'infinity', '--exact', '--metric', 'a.*');
    expect(status).toBe(0);
    expect(tableNames(stdout)).toEqual(['a.wins', 'a.crit']);
  });

  it('an unknown metric is refused with the nearest name', async () => {
    const { status, stderr } = await cli('run', 'infinity', '--exact', '--metric', 'a.win');
    expect(status).toBe(2);
    expect(stderr).toBe(
      'muster: --metric: got "a.win" (did you mean "a.wins"?); allowed: one of a.wins, b.wins, a.crit, b.crit, ' +
        'rolls.mean, rolls.1, or a glob such as a.*\n',
    );
  });

  it('sweep checks --metric against the metrics some point of the grid has', async () => {
    const sweep = await json('sweep', 'reserves', '--vary', 'rounds=4..6', '--metric', 'squad.round.6', '--exact');
    expect(sweep.points.map((p: any) => p.metrics['squad.round.6'] !== undefined)).toEqual([false, false, true]);
    const { status, stderr } = await cli(
      'sweep',
      'reserves',
      '--vary',
      'rounds=4..6',
      '--metric',
      'squad.round.7',
      '--exact',
    );
    expect(status).toBe(2);
    expect(stderr).toMatch(/^muster: --metric: got "squad\.round\.7" \(did you mean "squad\.round\.1"/);
  });

  it('--all and --metric together are refused', async () => {
    const { status, stderr } = await cli('run', 'infinity', '--exact', '--all', '--metric', 'a.wins');
    expect(status).toBe(2);
    expect(stderr).toBe('muster: --all: cannot be combined with --metric; allowed: one of the two\n');
  });
});

describe('headline metrics and folding', () => {
  it('run shows the headline metrics by default, --all every metric', async () => {
    const headline = await cli('run', 'infinity', '--exact');
    expect(tableNames(headline.stdout)).toEqual(['a.wins', 'b.wins', 'a.crit', 'b.crit']);
    expect(headline.stdout).toContain('2 more with --all');
    const all = await cli('run', 'infinity', '--exact', '--all');
    expect(tableNames(all.stdout)).toEqual(['a.wins', 'b.wins', 'a.crit', 'b.crit', 'rolls.mean', 'rolls.1']);
  });

  it('probabilities that are exactly 0 or 1 fold into one line; the table keeps the rest', async () => {
    const result = await json('run', 'reserves', '--exact', '--set', 'chosenRound=3', 'command=3');
    const { stdout } = await cli('run', 'reserves', '--exact', '--set', 'chosenRound=3', 'command=3');
    const headline = ['squad.round.1', 'squad.round.2', 'squad.round.3', 'squad.round.4', 'squad.never', 'all.by.4'];
    const certain = headline.filter((name) => result.metrics[name].exact === 0 || result.metrics[name].exact === 1);
    expect(certain.length).toBeGreaterThan(1);
    expect(tableNames(stdout)).toEqual(headline.filter((name) => !certain.includes(name)));
    const line = stdout.split('\n').find((l) => l.startsWith('certain at these parameters:'));
    for (const name of certain) expect(line).toContain(`${name} ${result.metrics[name].exact * 100}%`);
  });

  it('every built-in rule names headline metrics it has', async () => {
    const { rules } = await import('../../src/rules/index.js');
    const { resolveParams } = await import('../../src/rules/params.js');
    for (const rule of rules) {
      const params = resolveParams(rule);
      const names = rule.metrics(params).map((m) => m.name);
      const headline = rule.presentation!.headline!(params);
      expect(headline.length, rule.id).toBeGreaterThan(0);
      for (const name of headline) expect(names, `${rule.id} ${name}`).toContain(name);
    }
  });
});

describe('fractions', () => {
  it('WIP 13 against 15: a.wins = 145/352, counted over the 400 d20 pairs here', async () => {
    // Infinity N4 Initiative Roll: success on die ≤ WIP, a critical on die = WIP; a critical beats a plain success,
    // two criticals, two failures or equal successes roll again, otherwise the higher success wins.
    let a = 0;
    let b = 0;
    for (let x = 1; x <= 20; x++) {
      for (let y = 1; y <= 20; y++) {
        const [sa, sb, ca, cb] = [x <= 13, y <= 15, x === 13, y === 15];
        if (sa && !sb) a++;
        else if (sb && !sa) b++;
        else if (sa && sb && ca !== cb) ca ? a++ : b++;
        else if (sa && sb && !ca && !cb && x !== y) x > y ? a++ : b++;
      }
    }
    expect(Fraction.of(a, a + b).toString()).toBe('145/352');
    const { stdout } = await cli('run', 'infinity', '--exact', '--set', 'wipA=13', 'wipB=15');
    expect(stdout).toMatch(/^a\.wins\s+41\.193% = 145\/352$/m);
  });
});

describe('inputs accept what outputs print', () => {
  it('deployment: S123 and F1 mean standard:1,2,3 and forward:1', async () => {
    const short = await json('run', 'deployment', '--exact', '--set', 'a=S123', 'b=F1');
    const long = await json('run', 'deployment', '--exact', '--set', 'a=standard:1,2,3', 'b=forward:1');
    expect(short.params).toEqual(long.params);
    expect(short.params).toMatchObject({ a: 'standard:1,2,3', b: 'forward:1' });
  });

  it('a label no strategy has is refused, naming the nearest', async () => {
    const { status, stderr } = await cli('run', 'deployment', '--exact', '--set', 'a=S129');
    expect(status).toBe(2);
    expect(stderr).toMatch(
      /^muster: a: got "S129".*or a short label as the matrix prints it \(S123, S124, …\) \(did you mean "S123"/,
    );
  });
});

describe('did you mean', () => {
  it('edit distance, transpositions counting one (worked by hand)', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('deploymnet', 'deployment')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(closest('infinty', ['reserves', 'infinity', 'fow'])).toEqual(['infinity']);
    expect(closest('zzzz', ['reserves', 'infinity', 'fow'])).toEqual([]);
  });

  it.each([
    [
      ['run', 'infinty'],
      `muster: rule: got "infinty" (did you mean "infinity"?); allowed: ${rules.map((rule) => rule.id).join(', ')}\n`,
    ],
    [
      ['rn', 'infinity'],
      'muster: command: got "rn" (did you mean "run"?); allowed: list, describe, run, matrix, sweep, balance, ' +
        'compare, check, new-rule, card, book, app, shard, merge\n',
    ],
    [
      ['run', 'reserves', '--set', 'comand=3'],
      'muster: comand: not a parameter of reserves (did you mean "command"?); allowed: squads, rounds, target, ' +
        'chosenRound, command, leaderLoss, fallbackCommand, firstRound\n',
    ],
    [['run'], 'muster: rule: missing; allowed: a rule id (muster list)\n'],
    [['run', 'infinity', '--trials'], 'muster: --trials: missing its value; allowed: see muster run --help\n'],
  ])('%j: one muster: line, exit 2', async (argv, message) => {
    const { status, stderr } = await cli(...argv);
    expect(status).toBe(2);
    expect(stderr).toBe(message);
  });
});

describe('sweep --best', () => {
  it('exact: the highest WIP wins most, beating the next exactly', async () => {
    const sweep = await json(
      'sweep',
      'infinity',
      '--vary',
      'wipA=10..16',
      '--set',
      'wipB=13',
      '--exact',
      '--best',
      'a.wins',
    );
    expect(sweep.best).toMatchObject({
      metric: 'a.wins',
      goal: 'max',
      params: { wipA: 16 },
      runnerUp: { params: { wipA: 15 } },
      decided: 'exactly',
    });
    const min = await json(
      'sweep',
      'infinity',
      '--vary',
      'wipA=10..16',
      '--set',
      'wipB=13',
      '--exact',
      '--best',
      'a.wins:min',
    );
    expect(min.best).toMatchObject({ goal: 'min', params: { wipA: 10 }, runnerUp: { params: { wipA: 11 } } });
  });

  it('the best value is marked in its own column, and the answer, first, says how sure', async () => {
    const { stdout } = await cli('sweep', 'infinity', '--vary', 'wipA=12..14', '--exact', '--best', 'a.wins');
    expect(stdout).toMatch(/^14\s+54\.493% = 188\/345 ◀/m);
    expect(stdout.indexOf('Choose wipA=14: a.wins')).toBeLessThan(stdout.indexOf('wipA  '));
    expect(stdout.replaceAll('\n', ' ')).toContain('for the next best, wipA=13 (exact values).');
  });

  it('simulated points: beyond noise when the intervals part, within noise when they overlap', () => {
    const metric = (estimate: number, lo: number, hi: number) => ({ estimate, lo, hi, exact: null, fraction: null });
    const sweep = (b: ReturnType<typeof metric>) =>
      ({
        points: [
          { params: { x: 1 }, metrics: { m: metric(0.5, 0.49, 0.51) } },
          { params: { x: 2 }, metrics: { m: b } },
        ],
      }) as unknown as SweepResult;
    expect(findBest(sweep(metric(0.45, 0.44, 0.46)), 'm', 'max')).toMatchObject({
      params: { x: 1 },
      decided: 'beyond noise',
    });
    expect(findBest(sweep(metric(0.495, 0.485, 0.505)), 'm', 'max')).toMatchObject({
      params: { x: 1 },
      decided: 'within noise',
    });
    expect(findBest(sweep(metric(0.45, 0.44, 0.46)), 'm', 'min')).toMatchObject({
      params: { x: 2 },
      decided: 'beyond noise',
    });
  });

  it(
    'without --metric, the --best metric leads the table: "which reserve round with command 3?" answered on the ' +
      'first screen',
    async () => {
      const { status, stdout } = await cli(
        'sweep',
        'reserves',
        '--vary',
        'chosenRound=0..4',
        '--set',
        'command=3',
        '--exact',
        '--best',
        'all.by.4',
      );
      expect(status).toBe(0);
      const firstScreen = stdout.split('\n').slice(0, 24);
      // Among reserves' headline metrics all.by.4 comes after squad.round.1 … squad.never; --best brings it to the first
      // table.
      expect(firstScreen.find((line) => line.startsWith('chosenRound'))).toMatch(/^chosenRound\s+all\.by\.4\b/);
      expect(firstScreen.filter((line) => line.includes('◀'))).toEqual([
        expect.stringMatching(/^3\s+100\.000% ◀/),
        expect.stringMatching(/^4\s+100\.000% ◀/),
      ]);
    },
  );

  it('an unknown --best metric is refused', async () => {
    const { status, stderr } = await cli('sweep', 'infinity', '--vary', 'wipA=12..14', '--exact', '--best', 'a.winz');
    expect(status).toBe(2);
    expect(stderr).toMatch(/^muster: --best: got "a\.winz" \(did you mean "a\.wins"/);
  });
});

describe('compare', () => {
  it('gives exact differences by default where the rule is exact, and simulates with --simulate', async () => {
    const exact = await json('compare', 'infinity', '--variant', 'a: wipA=13', '--variant', 'b: wipA=15');
    expect(exact.method).toBe('exact');
    expect(exact.differences.every((d: any) => d.p === null && d.exactDifference !== null)).toBe(true);
    const simulated = await json(
      'compare',
      'infinity',
      '--variant',
      'a: wipA=13',
      '--variant',
      'b: wipA=15',
      '--simulate',
      '--trials',
      '20000',
      '--threads',
      '1',
    );
    expect(simulated.method).toBe('simulation');
  });
});

describe('matrix deployment --against', () => {
  it(
    'ranks every strategy against S123 with the same values as the full matrix, and marks the Pareto set by its ' +
      'definition',
    async () => {
      const full = await json('matrix', 'deployment');
      const against = await json('matrix', 'deployment', '--against', 'S123');
      const column = full.matrix.cols.indexOf('standard:1,2,3');
      const tables = Object.fromEntries(full.matrix.tables.map((t: any) => [t.metric, t]));
      const ranking = against.against.ranking as Array<{
        strategy: string;
        metrics: Record<string, number>;
        pareto: boolean;
      }>;
      expect(ranking).toHaveLength(16);
      for (const row of ranking) {
        const i = full.matrix.rows.indexOf(row.strategy);
        expect(row.metrics['a.initiative']).toBe(tables['a.initiative'].values[i][column]);
        expect(row.metrics['a.aoc']).toBe(tables['a.aoc'].values[i][column]);
      }
      for (let i = 1; i < ranking.length; i++)
        expect(ranking[i - 1].metrics['a.initiative']).toBeGreaterThanOrEqual(ranking[i].metrics['a.initiative']);
      const beaten = (r: (typeof ranking)[number]) =>
        ranking.some(
          (o) =>
            o.metrics['a.initiative'] >= r.metrics['a.initiative'] &&
            o.metrics['a.aoc'] >= r.metrics['a.aoc'] &&
            (o.metrics['a.initiative'] > r.metrics['a.initiative'] || o.metrics['a.aoc'] > r.metrics['a.aoc']),
        );
      for (const row of ranking) expect(row.pareto, row.strategy).toBe(!beaten(row));
      expect(ranking.filter((r) => r.pareto).length).toBeGreaterThan(0);
    },
  );
});

describe('tables fit the width', () => {
  it('a wide table splits into parts that each fit, repeating the first column, losing no cell', () => {
    const header = ['name', ...Array.from({ length: 8 }, (_, i) => `column${i}`)];
    const rows = [['first', ...Array.from({ length: 8 }, (_, i) => `${i}.000%`)]];
    const text = renderTable(header, rows, 40);
    for (const line of text.trimEnd().split('\n')) expect([...line].length).toBeLessThanOrEqual(40);
    for (const cell of [...header.slice(1), ...rows[0].slice(1)]) expect(text).toContain(cell);
    expect(text.match(/^first/gm)?.length).toBeGreaterThan(1);
  });

  it('every README question command fits 80 columns', async () => {
    for (const argv of [
      ['run', 'infinity', '--set', 'wipA=13', 'wipB=15', '--trials', '10000', '--threads', '1'],
      ['run', 'deployment', '--set', 'a=F1', 'b=S123', '--trials', '10000', '--threads', '1'],
      ['matrix', 'deployment', '--against', 'S123'],
      [
        'sweep',
        'reserves',
        '--vary',
        'chosenRound=0..4',
        '--set',
        'command=3',
        '--metric',
        'all.by.4',
        '--metric',
        'lost.mean',
        '--best',
        'all.by.4',
        '--trials',
        '10000',
        '--threads',
        '1',
      ],
    ]) {
      const { stdout } = await cli(...argv);
      for (const line of stdout.split('\n')) expect([...line].length, line).toBeLessThanOrEqual(80);
    }
  });
});
