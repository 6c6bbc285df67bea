/**
 * `muster check FILE` and run's 5σ warning: a rule file whose exact() is
 * wrong is caught both ways (against the enumeration of its own dice,
 * fraction for fraction, and against its simulation); a right one passes;
 * so does what `muster new-rule` writes. The wrong exact() here is wrong by
 * construction (1/5 for a d6 showing 6, hand-known to be 1/6), so z is
 * large: at 131,072 trials σ = √(p(1−p)/n) ≈ 0.001, and 1/5 − 1/6 is 33σ.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { checkCommand } from '../../src/cli/commands/check.js';
import { cli, scratchFolder } from '../support/cli.js';
import { bufferIo } from '../support/io.js';

const folder = scratchFolder('check');

function ruleFile(name: string, exact: string): string {
  const path = join(folder, name);
  writeFileSync(
    path,
    `export default {
  id: 'six',
  title: 'a six',
  params: [{ name: 'dice', type: 'integer', default: 1, min: 1, max: 3, doc: 'd6 rolled' }],
  metrics: [{ name: 'six', probability: true, doc: 'some die shows 6' }, { name: 'total.mean', probability: false, ` +
      `doc: 'total' }],
  trial(dice, p, out) {
    let total = 0;
    let six = false;
    for (let i = 0; i < p.dice; i++) { const face = dice.d(6); total += face; six ||= face === 6; }
    out.six = six;
    out['total.mean'] = total;
  },
  ${exact}
};
`,
  );
  return path;
}

// P(some of n d6 shows 6) = 1 − (5/6)^n; E[total] = 7n/2.
const right = ruleFile(
  'right.mjs',
  "exact: (p) => ({ six: `${6 ** p.dice - 5 ** p.dice}/${6 ** p.dice}`, 'total.mean': `${7 * p.dice}/2` }),",
);
const wrong = ruleFile(
  'wrong.mjs',
  "exact: (p) => ({ six: p.dice === 1 ? '1/5' : `${6 ** p.dice - 5 ** p.dice}/${6 ** p.dice}`, 'total.mean': `${7 " +
    '* p.dice}/2` }),',
);
const none = ruleFile('none.mjs', '');

describe('muster check', () => {
  it('a right exact(): agreed at every point (defaults and each parameter moved), exit 0', async () => {
    const io = bufferIo();
    const result = await checkCommand(right, {}, io);
    expect(result.disagreements).toEqual([]);
    // dice = 1 (the default and min), 2 (middle), 3 (max).
    expect(result.points).toBe(3);
    expect(io.stdout()).toContain('agreed at every point');
    expect(process.exitCode).toBeUndefined();
  });

  it(
    'a wrong exact(): against the enumeration and against the simulation, named with the point, both values and ' +
      'z; exit 1',
    async () => {
      const io = bufferIo();
      const result = await checkCommand(wrong, {}, io);
      expect(process.exitCode).toBe(1);
      expect(
        result.disagreements.map((d) => [d.point.split(' ')[0], d.metric, d.between, d.values[0], d.values[1]]),
      ).toEqual([
        ['defaults', 'six', 'exact() and enumeration', '1/5', '1/6'],
        ['defaults', 'six', 'simulation and exact', expect.any(String), '1/5'],
      ]);
      expect(result.disagreements[1].sigmas).toBeGreaterThan(20);
      expect(io.stdout()).toMatch(/defaults \(dice=1\): six: exact\(\) 1\/5, enumeration 1\/6\n/);
      expect(io.stdout()).toMatch(/defaults \(dice=1\): six: simulation 0\.16\d+, exact 1\/5 \(z = \d+\.\d\)\n/);
      // Through the CLI: exit status 1.
      expect((await cli('check', wrong)).status).toBe(1);
    },
  );

  it('no exact(): the enumeration is the exact value the simulation is checked against', async () => {
    const result = await checkCommand(none, {}, bufferIo());
    expect(result.disagreements).toEqual([]);
    expect(result.notes).toEqual([]);
  });

  it('what muster new-rule writes passes muster check', async () => {
    const stem = join(folder, 'fresh');
    expect((await cli('new-rule', stem)).status).toBe(0);
    const checked = await cli('check', `${stem}.mjs`, '--trials', '20000');
    expect(checked.stdout).toContain('agreed at every point');
    expect(checked.status).toBe(0);
  });

  it('points with nothing to compare are marked unchecked, never "ok", and the last line says how many were', async () => {
    // A d6 re-rolled until it is not 1 when `again` is on: paths of every length, no exact value there. Off, it is
    // one die, enumerated: P(6) = 1/6.
    const path = join(folder, 'again.mjs');
    writeFileSync(
      path,
      `export default { id: 'again', title: 'again',
  params: [{ name: 'again', type: 'boolean', default: true, doc: 'roll a 1 again' }],
  metrics: [{ name: 'six', probability: true }],
  trial(dice, p, out) { let face = dice.d(6); while (p.again && face === 1) face = dice.d(6); out.six = face === 6; } };
`,
    );
    const io = bufferIo();
    const result = await checkCommand(path, {}, io);
    expect([result.points, result.checked, result.disagreements]).toEqual([2, 1, []]);
    const lines = io.stdout().split('\n');
    expect(lines).toContain('  —     defaults (again=true): not checked');
    expect(lines).toContain('  ok    again=false');
    expect(lines).toContain('agreed at the 1 of 2 points checked');
    expect(process.exitCode).toBeUndefined();
    // Always re-rolled: nothing at all to check, said so on the last line, and exit status 3, which is neither
    // agreement (0) nor a disagreement (1).
    const never = await cli('check', path, '--set', 'again=true');
    expect(never.status).toBe(3);
    expect(never.stdout).not.toMatch(/^ {2}ok/m);
    expect(never.stdout.trimEnd().split('\n').at(-1)).toMatch(
      /^nothing checked: no point has exact values .*\(write exact\(\), or dice\.count.*, or the step form for a roll repeated/,
    );
  });

  it('nothing checked is exit status 3 whatever the reason, and nothing is simulated where nothing is compared', async () => {
    // dice.random() is never enumerated, and each trial then waits 2 ms: were a point simulated, its 131,072
    // trials would take over four minutes. Three points, none compared, none simulated: the check ends in seconds.
    const path = join(folder, 'uniform-slow.mjs');
    writeFileSync(
      path,
      `export default { id: 'uniform-slow', title: 'u', metrics: [{ name: 'x', probability: true }],
  params: [{ name: 'edge', type: 'number', default: 0.5, min: 0, max: 1, doc: 'edge' }],
  trial(dice, p, out) { out.x = dice.random() < p.edge; const end = performance.now() + 2; while (performance.now() < end); } };
`,
    );
    const started = performance.now();
    const { status, stdout } = await cli('check', path);
    expect((performance.now() - started) / 1000).toBeLessThan(30);
    expect(status).toBe(3);
    expect(stdout.match(/^ {2}— {5}.*: not checked$/gm)).toHaveLength(3);
    expect(stdout).toContain('note: edge=0: not enumerated: dice.random() cannot be enumerated');
    expect(stdout.trimEnd().split('\n').at(-1)).toMatch(
      /^nothing checked: .*\(write exact\(\), or dice\.d, dice\.count, dice\.below or dice\.chance\(p\) in its place/,
    );
  });

  it("points the rule's validate refuses, and points past the most a check tries, are listed with why", async () => {
    // a must be below b: moving a alone to 4 or 6 (b = 2), or b alone to 1 (a = 1), is refused.
    const path = join(folder, 'ordered.mjs');
    writeFileSync(
      path,
      `export default { id: 'ordered', title: 'o', metrics: [{ name: 'x', probability: true }],
  params: [{ name: 'a', type: 'integer', default: 1, min: 1, max: 6, doc: 'a' },
    { name: 'b', type: 'integer', default: 2, min: 1, max: 6, doc: 'b' }],
  validate(p) { if (p.a >= p.b) throw new Error('a must be below b'); },
  trial(dice, p, out) { out.x = dice.d(6) >= p.a; } };
`,
    );
    const io = bufferIo();
    const result = await checkCommand(path, { trials: '1000' }, io);
    expect(result.points).toBe(3);
    expect(result.skipped.map((s) => s.label)).toEqual(['a=4', 'a=6', 'b=1']);
    const text = io.stdout();
    expect(text).toMatch(/^check .*: 3 points \(3 more skipped, listed below\);/);
    for (const label of ['a=4', 'a=6', 'b=1'])
      expect(text).toMatch(new RegExp(`^  skip  ${label}: refused at these settings: .*a must be below b$`, 'm'));
    expect(text.trimEnd().split('\n').at(-1)).toBe('agreed at every point run (3 skipped, listed above)');
    expect(process.exitCode).toBeUndefined();

    // Six parameters of three values each: 1 + 6 × 2 = 13 points at most; eight give 17, one past the 16 tried.
    const wide = join(folder, 'wide.mjs');
    const names = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7', 'p8'];
    writeFileSync(
      wide,
      `export default { id: 'wide', title: 'w', metrics: [{ name: 'x', probability: true }],
  params: ${JSON.stringify(names.map((name) => ({ name, type: 'integer', default: 1, min: 1, max: 3, doc: name })))},
  trial(dice, p, out) { out.x = dice.d(6) >= p.p1; } };
`,
    );
    const many = await checkCommand(wide, { trials: '1000' }, bufferIo());
    expect(many.points).toBe(16);
    expect(many.skipped).toEqual([
      { label: 'p8=3', why: 'past the 16 points a check tries (--set p8=3 checks around it)' },
    ]);
    expect((await cli('check', wide, '--trials', '1000', '--set', 'p8=3')).status).toBe(0);
  });

  it('a built-in rule id, or bad trials: one line, exit 2', async () => {
    const builtIn = await cli('check', 'reserves');
    expect(builtIn.status).toBe(2);
    expect(builtIn.stderr).toMatch(/^muster: check: got "reserves"; allowed: a rule file/);
    const trials = await cli('check', right, '--trials', 'lots');
    expect(trials.status).toBe(2);
    expect(trials.stderr).toMatch(/--trials: got "lots"; allowed: a whole number/);
  });
});

describe("run's warning: an estimate more than 5 standard errors from its exact value", () => {
  it('is one line on stderr for the wrong exact(), and none for the right one', async () => {
    const bad = await cli('run', wrong, '--trials', '131072', '--seed', 'warn', '--threads', '1');
    expect(bad.status).toBe(0);
    expect(bad.stderr).toMatch(
      /^muster: warning: simulation and exact values disagree by more than 5 standard errors: six \(estimate 0\.1\d+, exact 1\/5, \d+\.\d standard errors\); muster check .*wrong\.mjs compares them point by point\n$/,
    );
    const good = await cli('run', right, '--trials', '131072', '--seed', 'warn', '--threads', '1');
    expect(good.stderr).toBe('');
  });
});

describe('where exact values come from enumeration, every command shows them, and falls back where it cannot', () => {
  const uniform = join(folder, 'uniform.mjs');
  writeFileSync(
    uniform,
    `export default { id: 'uniform', title: 'a uniform', metrics: [{ name: 'low', probability: true }],
  trial(dice, p, out) { out.low = dice.random() < 0.25; } };
`,
  );

  it(
    'describe says so; compare of two enumerable variants is exact, of a rule using dice.random() ' + 'simulated',
    async () => {
      expect((await cli('describe', none)).stdout).toContain(
        'exact solution: by enumerating its dice, within a budget',
      );
      // 1 die: P(6) = 1/6; 2 dice: 11/36.
      const exact = await cli('compare', none, '--variant', 'one: dice=1', '--variant', 'two: dice=2');
      expect(exact.status).toBe(0);
      expect(exact.stdout).toContain('exact values (no simulation');
      expect(exact.stdout).toMatch(/six\s+16\.667% = 1\/6\s+30\.556% = 11\/36/);
      const simulated = await cli(
        'compare',
        uniform,
        '--variant',
        'a: ',
        '--variant',
        'b: ',
        '--trials',
        '20000',
        '--threads',
        '1',
      );
      expect(simulated.status).toBe(0);
      expect(simulated.stdout).not.toContain('exact values');
      const run = await cli(
        'run',
        uniform,
        '--trials',
        '20000',
        '--threads',
        '1',
        '--html',
        join(folder, 'uniform.html'),
      );
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/low\s+2\d\.\d+%.*—/);
      const asked = await cli('run', uniform, '--exact');
      expect(asked.status).toBe(2);
      expect(asked.stderr).toMatch(/^muster: .*uniform\.mjs \(rule uniform\): dice\.random\(\) cannot be enumerated/);
    },
  );
});

describe('a mean that never varied in the simulation', () => {
  const write = (name: string, body: string) => {
    const path = join(folder, name);
    writeFileSync(
      path,
      `export default { id: '${name.replace('.mjs', '')}', title: 't', metrics: [{ name: 'm', probability: false ` +
        `}], ${body} };\n`,
    );
    return path;
  };
  // A rare event written as a mean: 1 in 4096², never seen in 20,000 trials (chance of seeing it 0.1%).
  const rare = write(
    'rare.mjs',
    'trial(dice, p, out) { out.m = dice.d(4096) === 1 && dice.d(4096) === 1 ? 1 : 0; }, exact: () => ({ m: ' +
      "'1/16777216' })",
  );
  // A constant with a wrong exact(): 7 every trial, exact() says 8.
  const constant = write('constant.mjs', 'trial(dice, p, out) { out.m = 7; }, exact: () => ({ m: 8 })');

  it('a rare event never seen is no disagreement: all n trials alike is likely when n·|μ − v| is small', async () => {
    const result = await checkCommand(rare, { trials: '20000' }, bufferIo());
    expect(result.disagreements).toEqual([]);
    expect((await cli('run', rare, '--trials', '20000', '--threads', '1')).stderr).toBe('');
  });

  it('a constant against a wrong exact value is one: e^(−20000 · 1/8) is far below the 5σ rate', async () => {
    const result = await checkCommand(constant, { trials: '20000' }, bufferIo());
    expect(result.disagreements.map((d) => [d.between, d.values, d.sigmas])).toEqual([
      ['exact() and enumeration', ['8', '7'], null],
      ['simulation and exact', ['7', '8'], Number.POSITIVE_INFINITY],
    ]);
    expect((await cli('run', constant, '--trials', '20000', '--threads', '1')).stderr).toMatch(
      /^muster: warning: .*m \(estimate 7, exact 8, ∞ standard errors\)/,
    );
  });
});

describe("run's note where a rule file's dice could not be enumerated beside the simulation", () => {
  const write = (name: string, trial: string) => {
    const path = join(folder, name);
    writeFileSync(
      path,
      `export default { id: '${name.replace('.mjs', '')}', title: 't', metrics: [{ name: 'x', probability: true }],
  params: [{ name: 'n', type: 'integer', default: 12, min: 1, max: 12, doc: 'dice' }],
  trial(dice, p, out) { ${trial} } };
`,
    );
    return path;
  };
  // A re-roll until it is not a 1: paths of every length. Twelve d6 whose sum is read: 6^12 paths, past 50,000
  // but, at n=6, 46,656 within it. dice.random(): no outcomes to list.
  const again = write('again-note.mjs', 'let f = dice.d(6); while (f === 1) f = dice.d(6); out.x = f === 6;');
  const many = write(
    'many-note.mjs',
    'let s = 0; for (let i = 0; i < p.n; i++) s += dice.d(6); out.x = s > 3.5 * p.n;',
  );
  const uniform = write('uniform-note.mjs', 'out.x = dice.random() < 0.5;');
  const run = (file: string, ...more: string[]) => cli('run', file, '--trials', '20000', '--threads', '1', ...more);

  it('names the reason and what gives exact values, in one line on stderr', async () => {
    const cases: Array<[string, RegExp]> = [
      [again, /dice on one path of the trial; exact values need dice\.count.*, or the step form for a roll repeated/],
      [
        many,
        /needs more than 50,000 paths; exact values need --exact in place of the simulation's options \(it enumerates up to 1,000,000 paths\), or the step form, which merges/,
      ],
      [
        uniform,
        /dice\.random\(\) cannot be enumerated .*; exact values need dice\.d, dice\.count, dice\.below or dice\.chance\(p\) in its place/,
      ],
    ];
    for (const [file, reason] of cases) {
      const { status, stdout, stderr } = await run(file);
      expect(status, file).toBe(0);
      expect(stdout).toMatch(/^x\s+\d+\.\d+%.*—$/m);
      expect(stderr.trimEnd().split('\n'), file).toHaveLength(1);
      expect(stderr).toMatch(/^muster: note: no exact values beside the simulation: /);
      expect(stderr).toMatch(reason);
      expect(stderr).toContain('(docs/custom-rules.md, "Exact without writing it")');
    }
  });

  it('in a sweep, counts the points without exact values and names the first by what varies', async () => {
    // n = 5 and 6 enumerate (6^5, 6^6 paths), 7 does not (6^7 = 279,936 > 50,000).
    const { status, stderr } = await cli('sweep', many, '--vary', 'n=5..7', '--trials', '20000', '--threads', '1');
    expect(status).toBe(0);
    expect(stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(
        /^muster: note: no exact values beside the simulation at 1 of 3 points \(the first: n=7\): enumeration needs more than 50,000 paths; /,
      ),
    ]);
    const quiet = await cli('sweep', many, '--vary', 'n=5..7', '--trials', '20000', '--threads', '1', '--quiet');
    expect(quiet.stderr).toBe('');
  });

  it("travels in the result: --json carries each point's noExact, valid against docs/result.schema.json", async () => {
    const schema = JSON.parse(readFileSync(new URL('../../docs/result.schema.json', import.meta.url), 'utf8'));
    const validate = new Ajv({ allErrors: true, strict: true, strictTypes: false }).compile(schema);
    const sweep = await cli('sweep', many, '--vary', 'n=5..7', '--trials', '2000', '--threads', '1', '--json', '-');
    expect(sweep.status).toBe(0);
    const swept = JSON.parse(sweep.stdout);
    expect(validate(swept), JSON.stringify(validate.errors)).toBe(true);
    // n = 5 and 6 within the quick budget (6^5, 6^6 paths), 7 past it only: --exact may still solve it.
    expect(swept.points.map((point: { noExact?: unknown }) => point.noExact ?? null)).toEqual([
      null,
      null,
      {
        why: expect.stringMatching(/^enumeration needs more than 50,000 paths; exact values need --exact /),
        quickBudget: true,
      },
    ]);
    // dice.random() never enumerates, whatever the budget: not the quick budget alone.
    const random = await run(uniform, '--json', '-');
    expect(random.status).toBe(0);
    const result = JSON.parse(random.stdout);
    expect(validate(result), JSON.stringify(validate.errors)).toBe(true);
    expect(result.metrics.x.exact).toBeNull();
    expect(result.noExact).toEqual({
      why: expect.stringMatching(/^dice\.random\(\) cannot be enumerated /),
      quickBudget: false,
    });
    // Where the dice were enumerated, no noExact at all.
    const small = JSON.parse((await run(many, '--set', 'n=5', '--json', '-')).stdout);
    expect(small.noExact).toBeUndefined();
    expect(small.metrics.x.fraction).toMatch(/^\d+\/\d+$/);
  });

  it('is left out with --quiet, and where the dice were enumerated', async () => {
    expect((await run(again, '--quiet')).stderr).toBe('');
    const small = await run(many, '--set', 'n=6');
    expect(small.stderr).toBe('');
    expect(small.stdout).toMatch(/^x\s+\d+\.\d+%.*= \d+\/\d+$/m);
  });
});
