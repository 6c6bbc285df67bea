import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluateUntilInterrupted } from '../../src/analysis/evaluate.js';
import { combinations, parseVary } from '../../src/analysis/vary.js';
import { sweepCommand } from '../../src/cli/commands/sweep.js';
import { SimulationPool } from '../../src/engine/pool.js';
import { getRule } from '../../src/rules/index.js';
import { resolveParams } from '../../src/rules/params.js';
import { proportionTolerance } from '../support/bounds.js';
import { cli, scratchFolder } from '../support/cli.js';
import { bufferIo } from '../support/io.js';

const folder = scratchFolder('sweep');

describe('--vary: ranges, steps and lists', () => {
  const reserves = getRule('reserves');
  const deployment = getRule('deployment');

  it('a..b counts in ones; a..b:step in steps; decimals without binary noise', () => {
    expect(parseVary(reserves, 'chosenRound=0..4')).toEqual({ name: 'chosenRound', values: [0, 1, 2, 3, 4] });
    expect(parseVary(reserves, 'squads=2..10:4')).toEqual({ name: 'squads', values: [2, 6, 10] });
    expect(parseVary(reserves, 'leaderLoss=0..0.3:0.1').values).toEqual([0, 0.1, 0.2, 0.3]);
  });

  it('lists split on commas, or on semicolons when the values hold commas', () => {
    expect(parseVary(reserves, 'command=2,4').values).toEqual([2, 4]);
    expect(parseVary(deployment, 'a=standard:1,2,3;forward:1').values).toEqual(['standard:1,2,3', 'forward:1']);
  });

  it('combinations: the first parameter changes slowest', () => {
    expect(
      combinations([
        { name: 'x', values: [1, 2] },
        { name: 'y', values: ['a', 'b'] },
      ]),
    ).toEqual([
      { x: 1, y: 'a' },
      { x: 1, y: 'b' },
      { x: 2, y: 'a' },
      { x: 2, y: 'b' },
    ]);
  });
});

describe('muster sweep', () => {
  it('reserves, exact: chosen round 0..4 × command 2..4 gives each point the rule’s exact solution', async () => {
    const json = join(folder, 'exact.json');
    const csv = join(folder, 'exact.csv');
    const html = join(folder, 'exact.html');
    const sweep = await sweepCommand(
      'reserves',
      { vary: ['chosenRound=0..4', 'command=2..4'], exact: true, json, csv, html, quiet: true },
      bufferIo(),
    );
    expect(sweep.points).toHaveLength(15);
    const rule = getRule('reserves');
    for (const point of sweep.points) {
      const exact = rule.exact!.values(resolveParams(rule, [], point.params));
      for (const [name, value] of Object.entries(exact)) expect(point.metrics[name].exact, name).toBe(value.toNumber());
    }
    expect(JSON.parse(readFileSync(json, 'utf8')).vary).toEqual([
      { name: 'chosenRound', values: [0, 1, 2, 3, 4] },
      { name: 'command', values: [2, 3, 4] },
    ]);
    // Long format: a header and one row per metric per point.
    expect(readFileSync(csv, 'utf8').trimEnd().split('\r\n')).toHaveLength(
      1 + 15 * rule.metrics(resolveParams(rule)).length,
    );
    expect(readFileSync(html, 'utf8')).toContain('"id":"sweep-squad.round.1"');
  });

  it(
    'seed "sweep": every simulated point lies within 5σ of its exact value (3 points × 4 metrics: 12 checks, 5σ ' +
      'each)',
    async () => {
      const trials = 100_000;
      const sweep = await sweepCommand(
        'infinity',
        { vary: ['wipA=10,13,16'], trials: String(trials), seed: 'sweep', threads: '1', quiet: true },
        bufferIo(),
      );
      for (const point of sweep.points) {
        for (const name of ['a.wins', 'b.wins', 'a.crit', 'rolls.1']) {
          const { estimate, exact } = point.metrics[name];
          expect(Math.abs(estimate! - exact!), `${name} at wipA=${point.params.wipA}`).toBeLessThanOrEqual(
            proportionTolerance(exact!, trials),
          );
        }
      }
    },
  );

  it('combinations the rule rejects are skipped and said so (chosenRound above rounds)', async () => {
    const io = bufferIo();
    const sweep = await sweepCommand(
      'reserves',
      { vary: ['rounds=1..2', 'chosenRound=0..2'], exact: true, metric: ['all.by.1'] },
      io,
    );
    expect(sweep.points.map((p) => [p.params.rounds, p.params.chosenRound])).toEqual([
      [1, 0],
      [1, 1],
      [2, 0],
      [2, 1],
      [2, 2],
    ]);
    expect(sweep.skipped).toEqual([
      { params: { rounds: 1, chosenRound: 2 }, reason: 'chosenRound: got 2; allowed: 0 (none) to rounds (1)' },
    ]);
    expect(io.stdout()).toMatch(/^skipped 1 combination\(s\) the rule rejects/m);
  });

  const bad: Array<[string, string[], RegExp]> = [
    ['no --vary', [], /^muster: --vary: missing; allowed:/],
    [
      'an unknown parameter',
      ['--vary', 'legs=1..3'],
      /^muster: --vary: "legs" is not a parameter of reserves; allowed: squads, rounds/,
    ],
    [
      'a backwards range',
      ['--vary', 'squads=5..1'],
      /^muster: --vary: got "squads=5\.\.1"; allowed: a\.\.b\[:step\] with a ≤ b/,
    ],
    ['a zero step', ['--vary', 'squads=1..5:0'], /^muster: --vary: got "squads=1\.\.5:0"; allowed: a\.\.b\[:step\]/],
    [
      'values out of the parameter’s range',
      ['--vary', 'squads=0..3'],
      /^muster: squads: got "0"; allowed: an integer from 1 to 100/,
    ],
    [
      'a bad value in a list',
      ['--vary', 'squads=1,2', '--vary', 'target=x'],
      /^muster: --vary: target: got "x"; allowed: an integer from 2 to 20, as target=a\.\.b \(two dots\)/,
    ],
    [
      'too many combinations',
      ['--vary', 'squads=1..100', '--vary', 'target=2..20'],
      /^muster: --vary: 100 × 19 = 1,900 combinations; allowed: at most 1000/,
    ],
    [
      'a parameter both set and varied',
      ['--vary', 'squads=1..3', '--set', 'squads=2'],
      /^muster: --set: squads is also varied/,
    ],
    [
      'a parameter varied twice',
      ['--vary', 'squads=1..3', '--vary', 'squads=4'],
      /^muster: --vary: squads varied twice/,
    ],
    [
      'an unknown metric',
      ['--vary', 'squads=1..3', '--metric', 'nope'],
      /^muster: --metric: got "nope"; allowed: one of the \d+ metrics `muster describe reserves` lists \(squad\.round\.1/,
    ],
    [
      'every combination rejected',
      ['--vary', 'chosenRound=5..6'],
      /^muster: --vary: the rule rejects every combination, e\.g\. chosenRound: got 5/,
    ],
  ];
  for (const [what, argv, message] of bad) {
    it(`${what}: exit 2, one line, nothing written`, async () => {
      const file = join(folder, `bad-${what.replace(/\W+/g, '-')}.json`);
      const { status, stderr } = await cli(
        'sweep',
        'reserves',
        ...argv,
        '--exact',
        '--json',
        file,
        '--html',
        `${file}.html`,
      );
      expect(status).toBe(2);
      expect(stderr).toMatch(message);
      expect(stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(existsSync(file)).toBe(false);
      expect(existsSync(`${file}.html`)).toBe(false);
    });
  }

  it('a range on a choice or boolean parameter is refused, naming it', async () => {
    const { status, stderr } = await cli('sweep', 'infinity', '--vary', 'crits=0..1', '--exact');
    expect(status).toBe(2);
    expect(stderr).toMatch(
      /^muster: --vary: crits is a boolean parameter and takes no a\.\.b range; allowed: a list v1,v2,… of true or false/,
    );
  });
});

describe('an interrupted sweep keeps what it finished', () => {
  it('seed "interrupt": Ctrl-C after the first point returns that point, marked interrupted', async () => {
    const rule = getRule('reserves');
    const grid = [0, 1, 2].map((chosenRound) => resolveParams(rule, [], { chosenRound }));
    const pool = new SimulationPool(1);
    const controller = new AbortController();
    try {
      const { evaluated, interrupted } = await evaluateUntilInterrupted(
        rule,
        grid,
        { method: 'simulation', seed: 'interrupt', stream: 2, confidence: 0.95, trials: 100_000, threads: 1 },
        { pool, signal: controller.signal, onPoint: () => controller.abort() },
      );
      expect(interrupted).toBe(true);
      expect(evaluated.map((point) => point.result.params.chosenRound)).toEqual([0]);
    } finally {
      await pool.close();
    }
  });

  it('Ctrl-C before any point finishes still writes the JSON asked for, empty and marked PARTIAL', async () => {
    const json = join(folder, 'interrupted.json');
    const io = bufferIo();
    const running = sweepCommand(
      'reserves',
      { vary: ['chosenRound=0..4'], trials: '4e9', threads: '1', json, quiet: true },
      io,
    );
    process.emit('SIGINT');
    const sweep = await running;
    expect(sweep.partial).toBe(true);
    expect(sweep.points).toEqual([]);
    expect(io.stdout()).toContain('PARTIAL: interrupted after 0 of the combinations');
    expect(io.stderr()).toBe('');
    expect(process.exitCode).toBe(130);
    expect(JSON.parse(readFileSync(json, 'utf8'))).toMatchObject({ kind: 'sweep', partial: true, points: [] });
  });
});
