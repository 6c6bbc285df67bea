/**
 * The JSON contract (docs/json.md): every command's JSON result validates
 * against docs/result.schema.json, for every built-in rule, simulated and
 * exact. The schema itself is checked to refuse results that break the
 * contract, so a schema that accepted anything would fail here.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { rules } from '../../src/rules/index.js';
import { cli, scratchFolder } from '../support/cli.js';

const schema = JSON.parse(readFileSync(new URL('../../docs/result.schema.json', import.meta.url), 'utf8')) as object;
const validate = new Ajv({ allErrors: true, strict: true, strictTypes: false }).compile(schema);
const folder = scratchFolder('json');
let count = 0;

/**
 * Runs the CLI with `--json -` and returns what it printed on standard
 * output, which must be the JSON alone (the human report moves to stderr);
 * a shard, whose tally is a file by nature, is read back from `--out`.
 */
async function jsonOf(option: '--json' | '--out', ...argv: string[]): Promise<Record<string, unknown>> {
  const quiet = argv[0] === 'merge' ? [] : ['--quiet'];
  if (option === '--json') {
    const { status, stdout, stderr } = await cli(...argv, '--json', '-', ...quiet);
    expect(status, stderr).toBe(0);
    return JSON.parse(stdout) as Record<string, unknown>;
  }
  const file = join(folder, `result-${++count}.json`);
  const { status, stderr } = await cli(...argv, option, file, ...quiet);
  expect(status, stderr).toBe(0);
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
}

function expectValid(result: unknown): void {
  const ok = validate(result);
  expect(
    ok ? [] : validate.errors?.map((e) => `${e.instancePath} ${e.message}`),
    JSON.stringify(result).slice(0, 200),
  ).toEqual([]);
}

type Metric = {
  estimate: number | null;
  lo: number | null;
  hi: number | null;
  exact: number | null;
  fraction: string | null;
};

/** The fraction string read back as a number, to check it is the same value as `exact`. */
function fractionValue(text: string): number {
  const [n, d = '1'] = text.split('/');
  return Number(BigInt(n)) / Number(BigInt(d));
}

describe('every command writes one documented JSON shape', () => {
  for (const rule of rules) {
    it(`${rule.id}: run (simulated and --exact)`, async () => {
      const simulated = await jsonOf('--json', 'run', rule.id, '--trials', '2000', '--threads', '1');
      expectValid(simulated);
      expect(simulated).toMatchObject({
        format: 'muster.result/1',
        kind: 'run',
        rule: rule.id,
        title: rule.title,
        method: 'simulation',
      });
      for (const metric of Object.values(simulated.metrics as Record<string, Metric>)) {
        expect(metric.lo as number).toBeLessThanOrEqual(metric.hi as number);
      }
      const exact = await jsonOf('--json', 'run', rule.id, '--exact');
      expectValid(exact);
      for (const [name, metric] of Object.entries(exact.metrics as Record<string, Metric>)) {
        // Nothing simulated: no estimate or interval, only the exact value and its fraction, which agree.
        expect([metric.estimate, metric.lo, metric.hi], name).toEqual([null, null, null]);
        expect(fractionValue(metric.fraction as string), name).toBeCloseTo(metric.exact as number, 12);
      }
    });
  }

  it('sweep, simulated and exact', async () => {
    expectValid(
      await jsonOf('--json', 'sweep', 'reserves', '--vary', 'chosenRound=0..2', '--trials', '2000', '--threads', '1'),
    );
    expectValid(
      await jsonOf('--json', 'sweep', 'infinity', '--vary', 'wipA=10..12', '--vary', 'wipB=11,12', '--exact'),
    );
    const best = await jsonOf(
      '--json',
      'sweep',
      'infinity',
      '--vary',
      'wipA=10..12',
      '--best',
      'a.wins',
      '--trials',
      '2000',
      '--threads',
      '1',
    );
    expectValid(best);
    expect(best.best).toBeDefined();
  });

  it('balance: a sweep with its balance block, exact and simulated', async () => {
    const exact = await jsonOf(
      '--json',
      'balance',
      'reserves',
      '--metric',
      'all.by.4',
      '--target',
      '80%',
      '--vary',
      'squads=4..5',
      '--vary',
      'target=6..7',
      '--keep',
      'all.by.3<99%',
      '--within',
      '20pp',
    );
    expectValid(exact);
    const block = exact.balance as { exact: boolean; rows: unknown[]; within: { points: unknown[] } };
    expect([block.exact, block.rows.length, block.within.points.length > 0]).toEqual([true, 2, true]);
    const simulated = await jsonOf(
      '--json',
      'balance',
      'rolloff',
      '--metric',
      'a.wins',
      '--target',
      '1/2',
      '--vary',
      'bonusA=-1..1',
      '--trials',
      '2000',
      '--threads',
      '1',
    );
    expectValid(simulated);
    expect((simulated.balance as { exact: boolean }).exact).toBe(true); // simulated, with exact values beside
    // A balance block that breaks the contract is refused.
    expect(validate({ ...exact, balance: { ...block, reach: 'near' } })).toBe(false);
    expect(validate({ ...exact, balance: { ...block, nearest: [{ params: {}, value: 0.5 }] } })).toBe(false);
  });

  it('compare, simulated and exact', async () => {
    expectValid(
      await jsonOf(
        '--json',
        'compare',
        'reserves',
        '--variant',
        'a: rounds=4',
        '--variant',
        'b: rounds=5',
        '--trials',
        '2000',
        '--threads',
        '1',
        '--simulate',
      ),
    );
    expectValid(
      await jsonOf('--json', 'compare', 'infinity', '--variant', 'a: wipA=10', '--variant', 'b: wipA=12', '--exact'),
    );
  });

  it('run with reserves chosenRound=call: the decision block', async () => {
    const called = await jsonOf(
      '--json',
      'run',
      'reserves',
      '--set',
      'chosenRound=call',
      'leaderLoss=0.2',
      'command=4',
      '--exact',
    );
    expectValid(called);
    expect(called.decision).toBeDefined();
    // Simulated, trials playing the policy: estimates beside the exact values, the same decision block.
    const simulated = await jsonOf(
      '--json',
      'run',
      'reserves',
      '--set',
      'chosenRound=call',
      'leaderLoss=0.2',
      'command=4',
      '--trials',
      '20000',
    );
    expectValid(simulated);
    expect(simulated.method).toBe('simulation');
    expect(simulated.decision).toBeDefined();
    // A comparison with a call variant: exact, with its calls block.
    const compared = await jsonOf(
      '--json',
      'compare',
      'reserves',
      '--set',
      'leaderLoss=0.2',
      '--variant',
      'call: chosenRound=call',
      '--variant',
      'fixed: chosenRound=3',
    );
    expectValid(compared);
    expect(compared.calls).toBeDefined();
    // A sweep of the call: kind sweep, exact, each point's call.
    const swept = await jsonOf(
      '--json',
      'sweep',
      'reserves',
      '--set',
      'chosenRound=call',
      'command=4',
      '--vary',
      'leaderLoss=0,0.2',
    );
    expectValid(swept);
    expect((swept.points as { call: { worth: unknown } }[])[1].call.worth).toBeDefined();
  });

  it('matrix, exact and simulated', async () => {
    expectValid(await jsonOf('--json', 'matrix', 'infinity', '--range', '9..11'));
    expectValid(
      await jsonOf(
        '--json',
        'matrix',
        'infinity',
        '--range',
        '9..10',
        '--simulate',
        '--trials',
        '1000',
        '--threads',
        '1',
      ),
    );
    const against = await jsonOf('--json', 'matrix', 'deployment', '--against', 'F1');
    expectValid(against);
    expect(against.against).toBeDefined();
    const game = await jsonOf('--json', 'matrix', 'deployment', '--equilibrium', '--objective', 'rolloff');
    expectValid(game);
    expect((game.equilibrium as { saddlePoint: unknown }).saddlePoint).toBeNull();
  });

  it('a rule file with distribution metrics: run, simulated and --exact, with --percentile', async () => {
    const file = join(folder, 'distribution.mjs');
    writeFileSync(
      file,
      `export default { id: 'dist', title: 'dist', metrics: [
        { name: 'sixes', distribution: true, max: 3, doc: 'sixes among 3 dice' },
        { name: 'rolls', distribution: true, min: 1, doc: 'rolls to a six, at most 4' }],
      trial(dice, p, out) {
        let n = 0; for (let i = 0; i < 3; i++) if (dice.d(6) === 6) n++;
        out.sixes = n;
        let r = 1; while (r < 4 && dice.d(6) !== 6) r++;
        out.rolls = r;
      } };\n`,
    );
    for (const how of [['--trials', '3000', '--threads', '1'], ['--exact']]) {
      const result = await jsonOf('--json', 'run', file, ...how, '--percentile', '10,90');
      expectValid(result);
      const distributions = result.distributions as Record<string, { values: unknown[]; percentiles: unknown[] }>;
      expect(Object.keys(distributions)).toEqual(['sixes', 'rolls']);
      expect(distributions.rolls.percentiles).toHaveLength(2);
    }
  });

  it('shard and merge', async () => {
    const shard = await jsonOf('--out', 'shard', 'infinity', '--trials', '70000', '--shard', '0/1', '--threads', '1');
    expectValid(shard);
    expect(shard).toMatchObject({ format: 'muster.result/1', kind: 'shard' });
    expectValid(await jsonOf('--json', 'merge', join(folder, `result-${count}.json`)));
  });
});

describe('the schema refuses what breaks the contract', () => {
  const good = {
    format: 'muster.result/1',
    kind: 'run',
    version: '1.0.0',
    rule: 'r',
    title: 't',
    source: 's',
    params: { a: 1 },
    seed: 'x',
    stream: null,
    trials: 0,
    threads: 0,
    confidence: 1,
    method: 'exact',
    partial: false,
    metrics: { p: { estimate: null, lo: null, hi: null, exact: 0.25, fraction: '1/4' } },
  };
  const withMetric = (metric: object) => ({ ...good, metrics: { p: metric } });

  it('accepts a well-formed exact result', () => expectValid(good));

  it.each([
    [
      'an interval copied from the exact value with nothing simulated',
      withMetric({ estimate: null, lo: 0.25, hi: 0.25, exact: 0.25, fraction: '1/4' }),
    ],
    ['a fraction not in n/d form', withMetric({ estimate: null, lo: null, hi: null, exact: 0.25, fraction: '0.25' })],
    ['a fraction with no exact value', withMetric({ estimate: 0.3, lo: 0.2, hi: 0.4, exact: null, fraction: '1/4' })],
    ['a missing fraction', withMetric({ estimate: 0.3, lo: 0.2, hi: 0.4, exact: null })],
    [
      'an estimate without its interval',
      withMetric({ estimate: 0.3, lo: null, hi: null, exact: null, fraction: null }),
    ],
    ['another format', { ...good, format: 'muster.result/2' }],
    ['an unknown kind', { ...good, kind: 'book' }],
    ['a run without metrics', { ...good, metrics: undefined }],
    ['a stream muster does not have', { ...good, stream: 6 }],
    ['a stream as text', { ...good, stream: '3' }],
    ['a run that does not say its stream', { ...good, stream: undefined }],
    ['a distribution without its values', { ...good, distributions: { d: { min: 0, max: null, beyond: null } } }],
  ])('refuses %s', (_what, result) => {
    expect(validate(JSON.parse(JSON.stringify(result)))).toBe(false);
  });
});
