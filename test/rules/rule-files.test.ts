/**
 * A designer's rule file under every command: loading it, the mistakes a
 * rule file can make (each one line naming the file and the rule, exit 2,
 * no output file), the same bits on any thread count and across shards, and
 * the reports. Rule files are written into a temporary folder outside the
 * repository, as a designer following docs/custom-rules.md would.
 */

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../../src/cli/commands/run.js';
import { mergeCommand, shardCommand } from '../../src/cli/commands/shard.js';
import { loadRule } from '../../src/rule-files/load.js';
import { cli, scratchFolder } from '../support/cli.js';
import { bufferIo } from '../support/io.js';

const folder = scratchFolder('rule-files');

/** Writes a rule file into the scratch folder and returns its path. */
function ruleFile(name: string, source: string): string {
  const path = join(folder, name);
  writeFileSync(path, source);
  return path;
}

// The rule of the issue: reserves rolled on 2d6 + round, written as the documentation says.
const reserves2d6 = ruleFile(
  'reserves-2d6.mjs',
  `export default {
  id: 'reserves-2d6',
  title: 'Reserves on 2d6',
  summary: 'squads arrive on 2d6 + round',
  params: [
    { name: 'squads', type: 'integer', default: 3, min: 1, max: 12, doc: 'squads in reserve' },
    { name: 'target', type: 'integer', default: 10, min: 2, max: 16, doc: 'a squad arrives on 2d6 + round at least ` +
    `this' },
  ],
  metrics(p) {
    return [
      { name: 'all.by.4', doc: 'every squad has arrived by round 4', probability: true },
      { name: 'lost.mean', doc: 'squads lost', probability: false },
    ];
  },
  trial(dice, p, out) {
    let lost = 0;
    for (let squad = 0; squad < p.squads; squad++) {
      let arrived = false;
      for (let round = 1; round <= 4 && !arrived; round++) arrived = dice.d(6) + dice.d(6) + round >= p.target;
      if (!arrived) lost++;
    }
    out['all.by.4'] = lost === 0;
    out['lost.mean'] = lost;
  },
  exact(p) {
    // One squad: P(2d6 + r < target) for each round r, over the 36 ways two dice fall.
    let missAll = [1n, 1n];
    for (let round = 1; round <= 4; round++) {
      let miss = 0n;
      for (let a = 1; a <= 6; a++) for (let b = 1; b <= 6; b++) if (a + b + round < p.target) miss++;
      missAll = [missAll[0] * miss, missAll[1] * 36n];
    }
    const [m, d] = missAll;
    const n = BigInt(p.squads);
    return { 'all.by.4': \`\${(d - m) ** n}/\${d ** n}\`, 'lost.mean': \`\${n * m}/\${d}\` };
  },
};
`,
);

describe('a rule file under every command', () => {
  it('describe shows its parameters, metrics and file', async () => {
    const { status, stdout } = await cli('describe', reserves2d6);
    expect(status).toBe(0);
    expect(stdout).toMatch(/^reserves-2d6 — Reserves on 2d6\n/);
    expect(stdout).toContain(`rule file: ${reserves2d6}`);
    expect(stdout).toMatch(/target\s+integer, default 10\n\s+allowed: an integer from 2 to 16/);
    expect(stdout).toMatch(/lost\.mean\s+mean: squads lost/);
  });

  it('describe lists the readings a rule file declares', async () => {
    const { stdout } = await cli(
      'describe',
      fileURLToPath(new URL('../../examples/rules/reserves.mjs', import.meta.url)),
    );
    expect(stdout).toContain('firstRound=1: reserves roll from game round 1');
  });

  it('run --exact gives the value worked by hand: 3 squads, 10+ on 2d6 + round', async () => {
    // By hand: a squad misses round r when 2d6 ≤ 9 − r: 26/36, 21/36, 15/36, 10/36 of the time (sums up to 8, 7,
    // 6, 5), so it misses all four with chance (26·21·15·10)/36^4 = 81900/1679616; all three squads in: (1 − that)^3.
    const missAll = 81900 / 1679616;
    const result = await runCommand(reserves2d6, { exact: true, quiet: true }, bufferIo());
    expect(result.metrics['all.by.4'].exact).toBeCloseTo((1 - missAll) ** 3, 14);
    expect(result.metrics['lost.mean'].exact).toBeCloseTo(3 * missAll, 14);
  });

  it('run: simulated on the pool; --precision stops when every probability is narrow enough', async () => {
    const result = await runCommand(
      reserves2d6,
      { precision: '0.004', seed: 'precision', threads: '2', quiet: true },
      bufferIo(),
    );
    const { lo, hi } = result.metrics['all.by.4'];
    expect(((hi as number) - (lo as number)) / 2).toBeLessThanOrEqual(0.004);
    expect(result.precision).toEqual({ target: 0.004, reached: true });
  });

  it('a path is always a file and an id always built in, even when the file reuses a built-in id', async () => {
    const copy = ruleFile(
      'reserves.mjs',
      readFileSync(reserves2d6, 'utf8').replace("id: 'reserves-2d6'", "id: 'reserves'"),
    );
    const fromFile = await cli('run', copy, '--exact');
    expect(fromFile.stdout).toMatch(/^reserves — Reserves on 2d6/);
    const builtIn = await cli('run', 'reserves', '--exact');
    expect(builtIn.stdout).toMatch(/^reserves — Genesys reserves/);
  });

  it('--json, --html, --svg and --csv: generic charts titled with the rule’s own words, escaped', async () => {
    const hostile = ruleFile(
      'hostile.mjs',
      readFileSync(reserves2d6, 'utf8').replace(
        "title: 'Reserves on 2d6'",
        'title: \'Reserves </script><script>alert(1)</script> & "2d6"\'',
      ),
    );
    const [json, html, svg, csv] = ['r.json', 'r.html', 'svg', 'r.csv'].map((name) => join(folder, name));
    const { status } = await cli(
      'run',
      hostile,
      '--trials',
      '1e5',
      '--seed',
      'reports',
      '--threads',
      '1',
      '--quiet',
      '--json',
      json,
      '--html',
      html,
      '--svg',
      svg,
      '--csv',
      csv,
    );
    expect(status).toBe(0);
    expect(JSON.parse(readFileSync(json, 'utf8')).title).toBe('Reserves </script><script>alert(1)</script> & "2d6"');
    const page = readFileSync(html, 'utf8');
    expect(page).not.toContain('<script>alert(1)');
    expect(page).toContain('Reserves &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp;');
    // The generic charts: every probability, every mean (lost.mean) on an axis of its own, and the check against exact.
    expect(readdirSync(svg).sort()).toEqual([
      'reserves-2d6-exact-check.svg',
      'reserves-2d6-means.svg',
      'reserves-2d6-probabilities.svg',
    ]);
    expect(readFileSync(csv, 'utf8')).toMatch(
      /^metric,kind,estimate,lo,hi,exact,confidence,meaning\r\nall\.by\.4,probability,/,
    );
  });

  it('sweep, simulated and exact', async () => {
    const simulated = await cli(
      'sweep',
      reserves2d6,
      '--vary',
      'target=8..11',
      '--trials',
      '1e5',
      '--threads',
      '1',
      '--quiet',
    );
    expect(simulated.status).toBe(0);
    expect(simulated.stdout).toMatch(/^reserves-2d6 — Reserves on 2d6: sweep of 4 points/);
    const exact = await cli(
      'sweep',
      reserves2d6,
      '--vary',
      'target=8..11',
      '--exact',
      '--quiet',
      '--csv',
      join(folder, 'sweep.csv'),
    );
    expect(exact.status).toBe(0);
    expect(readFileSync(join(folder, 'sweep.csv'), 'utf8').split('\n').length).toBeGreaterThan(8);
  });

  it(
    'compare: "1d6 7+" (built-in) against "2d6 10+" (the file); same-named metrics compared, the others ' + 'listed',
    async () => {
      const html = join(folder, 'compare.html');
      const { status, stdout } = await cli(
        'compare',
        'reserves',
        '--set',
        'squads=3',
        '--variant',
        '1d6 7+: target=7',
        '--variant',
        `2d6 10+: rule=${reserves2d6} target=10`,
        '--exact',
        '--all',
        '--quiet',
        '--html',
        html,
      );
      expect(status).toBe(0);
      expect(stdout).toMatch(/\nall\.by\.4 +\S+%( = \S+)? +86\.073%( = \S+)? +[+−]\d+\.\d+ pp\n/);
      expect(stdout).toMatch(/\nlost\.mean +.* [+−]\d\.\d+\n/);
      expect(stdout).toMatch(/\ndice\.mean +\S+( = \S+)? +— +—\n/);
      expect(stdout).toMatch(/Metrics not every variant has[\s\S]*1d6 7\+: squad\.round\.1, /);
      // Each variant's readings come from its own rule: the built-in's firstRound reading, nothing read off the file's
      // params.
      const page = readFileSync(html, 'utf8');
      expect(page).toContain('reserves roll from game round 1');
      expect(page).not.toMatch(/round undefined|=undefined/);
    },
  );

  it('compare: a variant naming a missing rule file is refused before any work', async () => {
    const { status, stderr } = await cli(
      'compare',
      'reserves',
      '--variant',
      'a: target=7',
      '--variant',
      `b: rule=${join(folder, 'nope.mjs')}`,
    );
    expect(status).toBe(2);
    expect(stderr).toMatch(
      /^muster: rule: got ".*nope\.mjs"; allowed: a built-in rule id \(.*\) or the path of an existing rule file\n$/,
    );
  });

  it('matrix: a file that declares none gets a clear answer; one that declares one gets its table', async () => {
    const none = await cli('matrix', reserves2d6);
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/^muster: rule: reserves-2d6 declares no matrix/);
    const withMatrix = ruleFile(
      'matrix.mjs',
      readFileSync(reserves2d6, 'utf8').replace(
        "summary: 'squads arrive on 2d6 + round',",
        "summary: 'x', matrix: { row: 'squads', col: 'target', metrics: ['all.by.4'], values: [2, 3, 4] },",
      ),
    );
    const table = await cli('matrix', withMatrix);
    expect(table.status).toBe(0);
    expect(table.stdout).toMatch(/all\.by\.4 \(%\), rows squads, columns target/);
    const ranged = await cli('matrix', withMatrix, '--range', '5..7');
    expect(ranged.stdout).toMatch(/squads \\ target\s+5\s+6\s+7/);
  });
});

describe('the same bits on any thread count and across shards', () => {
  // Means of non-dyadic values (thirds, uniforms): summed in doubles these would depend on the order chunks are added.
  const awkward = ruleFile(
    'awkward.mjs',
    `export default {
  id: 'awkward',
  title: 'Awkward means',
  params: [],
  metrics: [
    { name: 'third', doc: 'a die over three', probability: false },
    { name: 'uniform', doc: 'a uniform times ten', probability: false },
    { name: 'six', doc: 'a six', probability: true },
  ],
  trial(dice, p, out) {
    const face = dice.d(6);
    out.third = face / 3;
    out.uniform = dice.random() * 10;
    out.six = face === 6;
  },
};
`,
  );

  it('seed "bits": 1, 2 and 3 threads give identical results; 3 shards merged give the same again', async () => {
    const options = { trials: '700k', seed: 'bits', quiet: true };
    const [one, two, three] = await Promise.all(
      ['1', '2', '3'].map((threads) => runCommand(awkward, { ...options, threads }, bufferIo())),
    );
    expect(two.metrics).toEqual(one.metrics);
    expect(three.metrics).toEqual(one.metrics);
    const files = [0, 1, 2].map((index) => join(folder, `awkward-${index}.json`));
    for (const [index, out] of files.entries())
      await shardCommand(
        awkward,
        { ...options, shard: `${index}/3`, out, threads: String(1 + (index % 2)) },
        bufferIo(),
      );
    const merged = await mergeCommand([files[2], files[0], files[1]], { rule: [awkward] }, bufferIo());
    expect(merged.metrics).toEqual(one.metrics);
    // The estimates are right, too: E[face/3] = 7/6, E[10u] = 5, P(six) = 1/6 (5σ bounds, σ from the 95% interval).
    const near = (name: string, truth: number) => {
      const { estimate, lo, hi } = one.metrics[name] as { estimate: number; lo: number; hi: number };
      expect(Math.abs(estimate - truth), name).toBeLessThan((5 * (hi - lo)) / 2 / 1.96);
    };
    near('third', 7 / 6);
    near('uniform', 5);
  });

  it('merge loads the rule file --rule names, wherever it is, and refuses one whose contents changed', async () => {
    const path = ruleFile('moving.mjs', readFileSync(reserves2d6, 'utf8'));
    const options = { trials: '150k', seed: 'moving', threads: '1', quiet: true };
    const files = [0, 1].map((index) => join(folder, `moving-${index}.json`));
    for (const [index, out] of files.entries())
      await shardCommand(path, { ...options, shard: `${index}/2`, out }, bufferIo());
    const whole = await runCommand(path, options, bufferIo());
    expect((await mergeCommand(files, { rule: [path] }, bufferIo())).metrics).toEqual(whole.metrics);
    const moved = ruleFile('moved.mjs', readFileSync(path, 'utf8'));
    expect((await mergeCommand(files, { rule: [moved] }, bufferIo())).metrics).toEqual(whole.metrics);
    writeFileSync(path, readFileSync(path, 'utf8').replace('p.target', 'p.target + 1'));
    const io = bufferIo();
    const changed = await cli('merge', ...files, '--rule', path);
    expect(changed.status).toBe(2);
    expect(changed.stderr).toMatch(
      /^muster: .*moving\.mjs: the rule file, or a file it imports, differs from the run's \(sha256 [0-9a-f]{12}… instead of [0-9a-f]{12}…\); allowed: the same file and the files it imports, unchanged\n$/,
    );
    expect(io.stdout()).toBe('');
  });
});

describe('the hash a rule file is recorded by covers the files it imports', () => {
  const helperRule = `import { need } from './helpers/need.mjs';
export default {
  id: 'with-helper',
  title: 'A rule with a helper of its own',
  params: [],
  metrics: [{ name: 'p', doc: 'a die shows the helper’s face or more', probability: true }],
  trial(dice, p, out) {
    out.p = dice.d(6) >= need ? 1 : 0;
  },
};
`;

  it(
    'a file that imports nothing of its own is known by the sha256 of its contents, as shards always recorded ' + 'it',
    async () => {
      const path = ruleFile('alone.mjs', readFileSync(reserves2d6, 'utf8'));
      const rule = await loadRule(path);
      expect(rule.file?.sha256).toBe(createHash('sha256').update(readFileSync(path)).digest('hex'));
    },
  );

  it(
    'seed "helper": a file with a helper is known by its contents, then the helper’s path and contents; merge ' +
      'refuses the shards once the helper changes',
    async () => {
      mkdirSync(join(folder, 'helpers'), { recursive: true });
      const helper = join(folder, 'helpers', 'need.mjs');
      writeFileSync(helper, 'export const need = 5;\n');
      const path = ruleFile('with-helper.mjs', helperRule);
      // Written out from docs/custom-rules.md: the file, then NUL, the helper's path from the file's folder, NUL, its
      // contents.
      const expected = createHash('sha256')
        .update(readFileSync(path))
        .update('\u0000helpers/need.mjs\u0000')
        .update(readFileSync(helper))
        .digest('hex');
      const options = { trials: '150k', seed: 'helper', threads: '2', quiet: true };
      const files = [0, 1].map((index) => join(folder, `helper-${index}.json`));
      for (const [index, out] of files.entries())
        await shardCommand(path, { ...options, shard: `${index}/2`, out }, bufferIo());
      expect(JSON.parse(readFileSync(files[0], 'utf8')).ruleFile.sha256).toBe(expected);
      const whole = await runCommand(path, options, bufferIo());
      expect((await mergeCommand(files, { rule: [path] }, bufferIo())).metrics).toEqual(whole.metrics);
      writeFileSync(helper, 'export const need = 4;\n');
      const changed = await cli('merge', ...files, '--rule', path);
      expect(changed.status).toBe(2);
      expect(changed.stderr).toMatch(
        /^muster: .*with-helper\.mjs: the rule file, or a file it imports, differs from the run's/,
      );
    },
  );
});

describe('the hash covers packages a rule file imports by name', () => {
  const packageRule = `import { need } from 'house-dice';
import { readFileSync } from 'node:fs';
export default {
  id: 'with-package',
  title: 'A rule with a package',
  params: [],
  metrics: [{ name: 'p', doc: 'a die shows the package’s face or more', probability: true }],
  trial(dice, p, out) {
    out.p = dice.d(6) >= need ? 1 : 0;
  },
};
`;
  const install = (root: string, need: number) => {
    mkdirSync(join(root, 'node_modules', 'house-dice'), { recursive: true });
    writeFileSync(
      join(root, 'node_modules', 'house-dice', 'package.json'),
      JSON.stringify({ name: 'house-dice', version: '1.0.0', type: 'module', main: 'index.js' }),
    );
    writeFileSync(join(root, 'node_modules', 'house-dice', 'index.js'), `export const need = ${need};\n`);
  };

  it(
    'seed "package": its files are hashed by their path inside node_modules, wherever it is installed; merge ' +
      'refuses the shards once the package changes',
    async () => {
      // The rule in a folder of its own, the package installed beside it.
      const here = join(folder, 'package-here');
      mkdirSync(here, { recursive: true });
      install(here, 5);
      const path = join(here, 'with-package.mjs');
      writeFileSync(path, packageRule);
      // Written out from docs/custom-rules.md: the file, then NUL, "package:" and the path inside node_modules, NUL, the
      // contents, for each file bundled from the package (here its one module; Node's own fs is not a file and is left
      // out).
      const expected = createHash('sha256')
        .update(readFileSync(path))
        .update('\u0000package:house-dice/index.js\u0000')
        .update(readFileSync(join(here, 'node_modules', 'house-dice', 'index.js')))
        .digest('hex');
      const digest = (await loadRule(path)).file?.sha256;
      expect(digest).toBe(expected);
      // The same rule and package installed one folder further up: the same hash.
      const elsewhere = join(folder, 'package-up');
      mkdirSync(join(elsewhere, 'rules'), { recursive: true });
      install(elsewhere, 5);
      writeFileSync(join(elsewhere, 'rules', 'with-package.mjs'), packageRule);
      expect((await loadRule(join(elsewhere, 'rules', 'with-package.mjs'))).file?.sha256).toBe(digest);

      const files = [0, 1].map((index) => join(here, `package-${index}.json`));
      for (const [index, out] of files.entries())
        expect(
          (
            await cli(
              'shard',
              path,
              '--trials',
              '150k',
              '--seed',
              'package',
              '--threads',
              '2',
              '--shard',
              `${index}/2`,
              '--out',
              out,
              '--quiet',
            )
          ).status,
        ).toBe(0);
      expect(JSON.parse(readFileSync(files[0], 'utf8')).ruleFile.sha256).toBe(digest);
      expect((await cli('merge', ...files, '--rule', path)).status).toBe(0);
      writeFileSync(join(here, 'node_modules', 'house-dice', 'index.js'), 'export const need = 4;\n');
      const changed = await cli('merge', ...files, '--rule', path);
      expect(changed.status).toBe(2);
      expect(changed.stderr).toMatch(
        /^muster: .*with-package\.mjs: the rule file, or a file it imports, differs from the run's/,
      );
    },
  );
});

/** A rule file that differs from reserves-2d6.mjs by one replacement. */
function mutant(name: string, from: string | RegExp, to: string): string {
  const source = readFileSync(reserves2d6, 'utf8');
  const changed = source.replace(from, to);
  if (changed === source) throw new Error(`mutant ${name}: nothing replaced`);
  return ruleFile(name, changed);
}

describe(
  'mistakes in a rule file: one line naming the file, the rule and what is wrong; exit 2; no output ' + 'file',
  () => {
    const cases: Array<[string, () => string, RegExp]> = [
      // Under vitest the import goes through vite, which words a syntax error its own way; the CLI test below checks
      // Node's.
      [
        'a file that does not parse',
        () => mutant('parse.mjs', 'trial(dice, p, out) {', 'trial(dice, p, out) {{'),
        /parse\.mjs: does not load: .*/,
      ],
      [
        'no default export',
        () => mutant('nodefault.mjs', 'export default {', 'export const rule = {'),
        /nodefault\.mjs: default export: got undefined; allowed: export default \{ id, title, params, metrics, trial \}/,
      ],
      [
        'a bad id',
        () => mutant('badid.mjs', "id: 'reserves-2d6'", "id: 'reserves 2d6'"),
        /badid\.mjs: id: got "reserves 2d6"; allowed: letters, digits and '-'/,
      ],
      [
        'no trial',
        () => mutant('notrial.mjs', 'trial(dice, p, out) {', 'trail(dice, p, out) {'),
        /notrial\.mjs \(rule reserves-2d6\): unknown field "trail"; allowed: id, title/,
      ],
      [
        'a parameter whose default is out of range',
        () => mutant('param.mjs', 'default: 10, min: 2', 'default: 20, min: 2'),
        /param\.mjs \(rule reserves-2d6\): parameter target: default: got 20; allowed: an integer from 2 to 16/,
      ],
      [
        'a parameter of an unknown type',
        () => mutant('paramtype.mjs', "name: 'squads', type: 'integer'", "name: 'squads', type: 'int'"),
        /paramtype\.mjs \(rule reserves-2d6\): parameter squads: type: got "int"; allowed: integer, number, boolean, choice/,
      ],
      [
        'a misspelt field of a parameter',
        () => mutant('paramfield.mjs', 'default: 3, min: 1, max: 12', 'defualt: 3, min: 1, max: 12'),
        /paramfield\.mjs \(rule reserves-2d6\): parameter squads: unknown field "defualt" \(did you mean "default"\?\); allowed: name, type, default, min, max, doc/,
      ],
      [
        'a field a parameter of its type does not take',
        () =>
          mutant(
            'paramchoices.mjs',
            "max: 12, doc: 'squads in reserve'",
            "max: 12, choices: ['a'], doc: 'squads in reserve'",
          ),
        /paramchoices\.mjs \(rule reserves-2d6\): parameter squads: unknown field "choices"; allowed: name, type, default, min, max, doc/,
      ],
      [
        'a misspelt field of a metric',
        () =>
          mutant(
            'metricfield.mjs',
            "doc: 'squads lost', probability: false",
            "doc: 'squads lost', probability: false, distrbution: true",
          ),
        /metricfield\.mjs \(rule reserves-2d6\): metric "lost\.mean": unknown field "distrbution" \(did you mean "distribution"\?\); allowed: name, probability, distribution, min, max, doc, label/,
      ],
      [
        'a metric without probability',
        () => mutant('metric.mjs', "doc: 'squads lost', probability: false", "doc: 'squads lost'"),
        /metric\.mjs \(rule reserves-2d6\): metric "lost\.mean": probability: got undefined; allowed: true .* or false/,
      ],
      [
        'a trial that throws (in a worker)',
        () => mutant('throws.mjs', 'let lost = 0;', 'let lost = 0; if (dice.d(6) === 6) p.nothing.here();'),
        /throws\.mjs \(rule reserves-2d6\): trial threw TypeError: Cannot read properties of undefined \(reading 'here'\) \(trial \d+ of a chunk\)/,
      ],
      [
        'a probability over 100% (a tally bug)',
        () => mutant('over.mjs', "out['all.by.4'] = lost === 0;", "out['all.by.4'] = 1.94703;"),
        /over\.mjs \(rule reserves-2d6\): metric "all\.by\.4": got 1\.94703 in trial 1 of a chunk; allowed: 0, 1, false or true \(a probability\)/,
      ],
      [
        'a NaN mean',
        () => mutant('nan.mjs', "out['lost.mean'] = lost;", "out['lost.mean'] = lost / 0 - lost / 0;"),
        /nan\.mjs \(rule reserves-2d6\): metric "lost\.mean": got NaN in trial 1 of a chunk; allowed: a finite number \(a mean\)/,
      ],
      [
        'a metric name that is not declared',
        () => mutant('stray.mjs', "out['lost.mean'] = lost;", "out['lost.mean'] = lost; out['lost.man'] = lost;"),
        /stray\.mjs \(rule reserves-2d6\): trial wrote out\["lost\.man"\], which is not a metric; allowed: all\.by\.4, lost\.mean/,
      ],
      [
        'a die of no sides',
        () => mutant('sides.mjs', 'dice.d(6) + dice.d(6)', 'dice.d(0) + dice.d(6)'),
        /sides\.mjs \(rule reserves-2d6\): dice\.d: sides: got 0; allowed: a whole number from 1 to 4096/,
      ],
      [
        'a negative number of dice to count',
        () => mutant('count.mjs', 'dice.d(6) + dice.d(6)', 'dice.count(-1, 6, 4) + dice.d(6)'),
        /count\.mjs \(rule reserves-2d6\): dice\.count: n: got -1; allowed: a whole number of dice from 0/,
      ],
      [
        'dice counted on a die of too many sides',
        () => mutant('countsides.mjs', 'dice.d(6) + dice.d(6)', 'dice.count(2, 5000, 4) + dice.d(6)'),
        /countsides\.mjs \(rule reserves-2d6\): dice\.count: sides: got 5000; allowed: a whole number from 1 to 4096/,
      ],
      [
        'a threshold that is not a number',
        () => mutant('countat.mjs', 'dice.d(6) + dice.d(6)', "dice.count(2, 6, 'five') + dice.d(6)"),
        /countat\.mjs \(rule reserves-2d6\): dice\.count: atLeast: got "five"; allowed: a number/,
      ],
      [
        'a bound beyond one draw',
        () => mutant('below.mjs', 'dice.d(6) + dice.d(6)', 'dice.below(6 ** 5) + dice.d(6)'),
        /below\.mjs \(rule reserves-2d6\): dice\.below: bound: got 7776; allowed: a whole number from 1 to 4096/,
      ],
      [
        'an exact value that is not a number or fraction',
        () => mutant('exactbad.mjs', "'lost.mean': `${n * m}/${d}`", "'lost.mean': 'about a third'"),
        /exactbad\.mjs \(rule reserves-2d6\): exact\(params\): metric "lost\.mean": got "about a third"; allowed: a finite number, or a fraction string 'n\/d'/,
      ],
      [
        'an exact probability above 1',
        () => mutant('exactover.mjs', "'all.by.4': `${(d - m) ** n}/${d ** n}`", "'all.by.4': '3/2'"),
        /exactover\.mjs \(rule reserves-2d6\): exact\(params\): metric "all\.by\.4": got "3\/2"; allowed: a probability from 0 to 1/,
      ],
      [
        'exact that throws',
        () => mutant('exactthrows.mjs', 'let missAll = [1n, 1n];', 'let missAll = [1n, 1n]; null.x;'),
        /exactthrows\.mjs \(rule reserves-2d6\): exact\(params\) threw TypeError: /,
      ],
    ];
    for (const [what, make, message] of cases) {
      it(what, async () => {
        const path = make();
        const json = join(folder, `${what.replace(/\W+/g, '-')}.json`);
        const html = join(folder, `${what.replace(/\W+/g, '-')}.html`);
        const { status, stdout, stderr } = await cli(
          'run',
          path,
          '--trials',
          '1e5',
          '--threads',
          '2',
          '--quiet',
          '--json',
          json,
          '--html',
          html,
        );
        expect(stderr).toMatch(new RegExp(`^muster: \\S*${message.source}`));
        expect(stderr.trimEnd().split('\n')).toHaveLength(1);
        expect(stderr).not.toMatch(/\n\s+at /);
        expect(status).toBe(2);
        expect(stdout).toBe('');
        expect(existsSync(json)).toBe(false);
        expect(existsSync(html)).toBe(false);
      });
    }

    it('a file that does not parse, from the real command line: Node’s SyntaxError with its line', () => {
      const path = mutant('parse-cli.mjs', 'trial(dice, p, out) {', 'trial(dice, p, out) {{');
      const entry = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
      const run = spawnSync(process.execPath, [entry, 'run', path], { encoding: 'utf8' });
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(
        /^muster: .*parse-cli\.mjs: does not load: SyntaxError: Unexpected token .* \(line \d+\)\n$/,
      );
    });

    it('a missing file, a TypeScript file that does not compile, and a file of another kind', async () => {
      expect((await cli('run', join(folder, 'missing.mjs'))).stderr).toMatch(
        /^muster: rule: got ".*missing\.mjs"; allowed: a built-in rule id \(reserves, .*\) or the path of an existing rule file\n$/,
      );
      const ts = ruleFile('typed.ts', 'export default { id: "typed", trial( { };\n');
      const broken = await cli('run', ts);
      expect(broken.status).toBe(2);
      expect(broken.stderr).toMatch(
        /^muster: .*typed\.ts: does not compile: Expected "\)" but found ";" \(.*typed\.ts line 1\)\n$/,
      );
      expect((await cli('run', './notes.txt')).stderr).toMatch(
        /^muster: rule: got "\.\/notes\.txt"; allowed: a built-in rule id, or a rule file ending in \.mjs, \.js, \.cjs, \.ts, \.mts or \.cts\n$/,
      );
    });

    it(
      'seed "typed": a TypeScript rule file (types, an import of its own) counts what the same rule in JavaScript ' +
        'does, on two threads and across shards',
      async () => {
        ruleFile('typed-helpers.ts', 'export const sides = (n: number): number => n;\n');
        const body = (typed: boolean) =>
          `${typed ? "import { sides } from './typed-helpers.ts';\ninterface Dice { d(sides: number): number }\n" : 'const sides = (n) => n;\n'}export default {
  id: 'typed-roll',
  title: 'A typed roll',
  params: [{ name: 'target', type: 'integer', default: 5, min: 1, max: 6, doc: 'score this or more on a d6' }],
  metrics: [{ name: 'hit', probability: true, doc: 'the die scores' }, { name: 'pips', probability: false, doc: ` +
          `'the face' }],
  trial(dice${typed ? ': Dice' : ''}, p${typed ? ': { target: number }' : ''}, ` +
          `out${typed ? ': Record<string, number>' : ''})${typed ? ': void' : ''} {
    const face = dice.d(sides(6));
    out.hit = face >= p.target ? 1 : 0;
    out.pips = face;
  },
};
`;
        const ts = ruleFile('typed-roll.ts', body(true));
        const js = ruleFile('typed-roll.mjs', body(false));
        const json = async (path: string, ...extra: string[]) => {
          const { status, stdout, stderr } = await cli(
            'run',
            path,
            '--trials',
            '300k',
            '--seed',
            'typed',
            '--json',
            '-',
            '--quiet',
            ...extra,
          );
          expect(status, stderr).toBe(0);
          const result = JSON.parse(stdout) as { metrics: unknown; rule: string };
          return JSON.stringify([result.rule, result.metrics]);
        };
        expect(await json(ts, '--threads', '2')).toBe(await json(js, '--threads', '1'));
        for (const index of [0, 1])
          expect(
            (
              await cli(
                'shard',
                ts,
                '--trials',
                '300k',
                '--seed',
                'typed',
                '--shard',
                `${index}/2`,
                '--out',
                join(folder, `typed-${index}.tally`),
              )
            ).status,
          ).toBe(0);
        const merged = await cli(
          'merge',
          join(folder, 'typed-0.tally'),
          join(folder, 'typed-1.tally'),
          '--rule',
          ts,
          '--json',
          '-',
        );
        expect(merged.status, merged.stderr).toBe(0);
        const result = JSON.parse(merged.stdout) as { metrics: unknown; rule: string };
        expect(JSON.stringify([result.rule, result.metrics])).toBe(await json(js, '--threads', '1'));
      },
    );

    it('--set checks values against the file’s own parameters', async () => {
      const { status, stderr } = await cli('run', reserves2d6, '--set', 'target=99');
      expect(status).toBe(2);
      expect(stderr).toBe('muster: target: got "99"; allowed: an integer from 2 to 16\n');
    });
  },
);

/**
 * A rule file's spec adapted in this thread and run for three chunks of 10,000 trials on the streams of `seed`: its
 * tally.
 */
async function tallyOf(spec: object, seed: string): Promise<{ tally: Float64Array; summary: Record<string, unknown> }> {
  const { adaptRuleFile } = await import('../../src/rule-files/rule.js');
  const { chunkStream } = await import('../../src/engine/random.js');
  const rule = adaptRuleFile(spec, `${seed}.mjs`);
  const tally = new Float64Array(rule.tally.length({}));
  for (let chunk = 0; chunk < 3; chunk++) rule.tally.simulate({}, chunkStream(seed, rule.id, chunk, 2), 10_000, tally);
  return { tally, summary: rule.tally.summarize({}, tally, 30_000) };
}

describe('the per-trial loop where code generation is forbidden', () => {
  it('seed "no-eval": the interpreted loop counts exactly what the compiled one does', async () => {
    // The same rule twice; metric names differ only so that each gets its own loop (loops are cached by names).
    const spec = (suffix: string) => ({
      id: 'no-eval',
      title: 'No eval',
      metrics: [
        { name: `hit${suffix}`, probability: true },
        { name: `third${suffix}`, probability: false },
      ],
      trial(dice: { d(sides: number): number }, _p: unknown, out: Record<string, unknown>) {
        const face = dice.d(6);
        out[`hit${suffix}`] = face >= 5;
        out[1] = face / 3; // by position: the second metric
      },
    });
    const run = async (suffix: string) => (await tallyOf(spec(suffix), 'no-eval')).tally;
    const compiled = await run('.a');
    const realFunction = globalThis.Function;
    globalThis.Function = function forbidden() {
      throw new EvalError('Refused to evaluate a string as JavaScript');
    } as unknown as FunctionConstructor;
    let interpreted: Float64Array;
    try {
      interpreted = await run('.b');
    } finally {
      globalThis.Function = realFunction;
    }
    expect(Array.from(interpreted)).toEqual(Array.from(compiled));
    // 30,000 trials: P(5 or 6) = 1/3, so about 10,000 hits; E[face/3] = 7/6. The counts are exact integers.
    expect(compiled[0]).toBeGreaterThan(9000);
    expect(compiled[0]).toBeLessThan(11000);
  });
});

describe('out, the trial’s record of its metrics', () => {
  it(
    'seed "out": a metric named length (out is then a plain object) counts exactly what the same metric under ' +
      'another name does',
    async () => {
      const spec = (name: string) => ({
        id: 'out-shape',
        title: 'Out shape',
        metrics: [
          { name: 'six', probability: true },
          { name, probability: false },
        ],
        trial(dice: { d(sides: number): number }, _p: unknown, out: Record<string, unknown>) {
          const face = dice.d(6);
          out.six = face === 6 ? 1 : 0;
          out[name] = face / 4; // by name: for "length" this must not resize anything
          if (face === 1) out[1] = 0.1; // by position, overwriting the same metric
        },
      });
      const asLength = (await tallyOf(spec('length'), 'out')).summary;
      const asOther = (await tallyOf(spec('quarter'), 'out')).summary;
      expect(asLength.six).toEqual(asOther.six);
      expect(asLength.length).toEqual(asOther.quarter);
      // 30,000 trials: a six about 5,000 times (σ = √(30,000 · 1/6 · 5/6) ≈ 65), within 5σ.
      expect(asOther.six).toMatchObject({ kind: 'proportion', trials: 30_000 });
      const sixes = (asOther.six as { successes: number }).successes;
      expect(Math.abs(sixes - 5000)).toBeLessThan(5 * 65);
    },
  );
});

// A rule that counts outcomes, written as docs/custom-rules.md ("Counting outcomes") says: the sum of
// 2d6 (outcome = sum − 2, eleven outcomes), or, with count=false, every trial writing its metrics.
const sum2d6 = ruleFile(
  'sum-2d6.mjs',
  `const write = (sum, out) => {
  out['high'] = sum >= 10 ? 1 : 0;
  out['sum.mean'] = sum;
};
export default {
  id: 'sum-2d6',
  title: 'Two dice',
  params: [{ name: 'count', type: 'boolean', default: true, doc: 'count outcomes' }],
  metrics: [
    { name: 'high', probability: true, doc: '2d6 shows 10 or more' },
    { name: 'sum.mean', probability: false, doc: 'the sum of 2d6' },
  ],
  outcomes: (p) => (p.count ? 11 : 0),
  trial(dice, p, out) {
    const sum = dice.d(6) + dice.d(6);
    if (p.count) return sum - 2;
    write(sum, out);
  },
  read(outcome, p, out) {
    write(outcome + 2, out);
  },
  exact: () => ({ high: '1/6', 'sum.mean': 7 }),
};
`,
);

function outcomeMutant(name: string, from: string, to: string): string {
  const source = readFileSync(sum2d6, 'utf8');
  const changed = source.replace(from, to);
  if (changed === source) throw new Error(`mutant ${name}: nothing replaced`);
  return ruleFile(name, changed);
}

describe('a rule file that counts outcomes instead of writing every trial', () => {
  it(
    'seed "outcomes": counts exactly the trials writing would (same dice), on 2 threads and as 3 shards ' + 'merged',
    async () => {
      const options = (count: boolean) => ({
        set: [`count=${count}`],
        trials: '300k',
        seed: 'outcomes',
        threads: '2',
        quiet: true,
      });
      const counted = await runCommand(sum2d6, options(true), bufferIo());
      const written = await runCommand(sum2d6, options(false), bufferIo());
      // The same trials: the same count of high sums, to the trial, and the same mean up to the order of a
      // double's additions (Σ count · value over outcomes against Σ value over trials).
      expect(counted.metrics.high).toEqual(written.metrics.high);
      expect(counted.metrics['sum.mean'].estimate).toBeCloseTo(written.metrics['sum.mean'].estimate as number, 12);
      expect(counted.metrics['sum.mean'].hi).toBeCloseTo(written.metrics['sum.mean'].hi as number, 12);
      // And right: P(2d6 ≥ 10) = 1/6, σ = √(1/6 · 5/6 / 300,000) ≈ 0.00068; the mean 7, σ = √(35/6 / 300,000) ≈ 0.0044;
      // 5σ each.
      expect(Math.abs((counted.metrics.high.estimate as number) - 1 / 6)).toBeLessThan(5 * 0.00068);
      expect(Math.abs((counted.metrics['sum.mean'].estimate as number) - 7)).toBeLessThan(5 * 0.0044);
      const files = [0, 1, 2].map((i) => join(folder, `outcomes-${i}.json`));
      for (const [i, out] of files.entries()) {
        expect(
          (
            await cli(
              'shard',
              sum2d6,
              '--trials',
              '300k',
              '--seed',
              'outcomes',
              '--threads',
              '1',
              '--shard',
              `${i}/3`,
              '--out',
              out,
              '--quiet',
            )
          ).status,
        ).toBe(0);
      }
      const merged = join(folder, 'outcomes-merged.json');
      expect((await cli('merge', ...files, '--rule', sum2d6, '--json', merged)).status).toBe(0);
      expect(JSON.parse(readFileSync(merged, 'utf8')).metrics).toEqual(counted.metrics);
    },
  );

  const cases: Array<[string, () => string, RegExp]> = [
    [
      'outcomes without read',
      () => outcomeMutant('noread.mjs', '  read(outcome, p, out) {\n    write(outcome + 2, out);\n  },\n', ''),
      /noread\.mjs \(rule sum-2d6\): read: got undefined; allowed: with outcomes, a function read\(outcome, params, out, prepared\)/,
    ],
    [
      'read without outcomes',
      () => outcomeMutant('nooutcomes.mjs', '  outcomes: (p) => (p.count ? 11 : 0),', ''),
      /nooutcomes\.mjs \(rule sum-2d6\): outcomes: got undefined; allowed: with read, a function outcomes\(params, prepared\)/,
    ],
    [
      'outcomes that is not a whole number',
      () => outcomeMutant('half.mjs', '(p.count ? 11 : 0)', '(p.count ? 10.5 : 0)'),
      /half\.mjs \(rule sum-2d6\): outcomes\(params\): returned 10\.5; allowed: a whole number of outcomes from 1 to 1048576, or 0/,
    ],
    [
      'too many outcomes',
      () => outcomeMutant('many.mjs', '(p.count ? 11 : 0)', '(p.count ? 2 ** 21 : 0)'),
      /many\.mjs \(rule sum-2d6\): outcomes\(params\): returned 2097152; allowed: a whole number of outcomes from 1 to 1048576/,
    ],
    [
      'an outcome beyond the count',
      () => outcomeMutant('beyond.mjs', 'return sum - 2;', 'return sum;'),
      /beyond\.mjs \(rule sum-2d6\): trial returned 1[0-2] in trial \d+ of a chunk; allowed: its outcome, a whole number from 0 to 10 \(outcomes\(params\) is 11\)/,
    ],
    [
      'an outcome as text',
      () => outcomeMutant('text.mjs', 'return sum - 2;', 'return String(sum - 2);'),
      /text\.mjs \(rule sum-2d6\): trial returned "\d+" in trial 1 of a chunk; allowed: its outcome, a whole number from 0 to 10/,
    ],
    [
      'no outcome returned',
      () => outcomeMutant('none.mjs', 'return sum - 2;', 'write(sum, out);'),
      /none\.mjs \(rule sum-2d6\): trial returned undefined in trial 1 of a chunk; allowed: its outcome/,
    ],
    [
      'a trial that writes out while counting',
      () => outcomeMutant('writes.mjs', 'return sum - 2;', "out['high'] = 1; return sum - 2;"),
      /writes\.mjs \(rule sum-2d6\): trial wrote out\["high"\] while the rule counts outcomes; allowed: return the outcome, and write its metrics in read\(outcome, params, out\)/,
    ],
    [
      'read writing a probability over 1',
      () => outcomeMutant('readbad.mjs', 'write(outcome + 2, out);', "write(outcome + 2, out); out['high'] = 2;"),
      /readbad\.mjs \(rule sum-2d6\): metric "high": got 2 from read\(outcome 0\); allowed: 0, 1, false or true \(a probability\)/,
    ],
    [
      'read that throws',
      () =>
        outcomeMutant(
          'readthrows.mjs',
          'write(outcome + 2, out);',
          'if (outcome === 5) null.x; write(outcome + 2, out);',
        ),
      /readthrows\.mjs \(rule sum-2d6\): read threw TypeError: .* \(outcome 5\)/,
    ],
  ];
  for (const [what, make, message] of cases) {
    it(what, async () => {
      const path = make();
      const json = join(folder, `${what.replace(/\W+/g, '-')}.json`);
      const { status, stdout, stderr } = await cli(
        'run',
        path,
        '--trials',
        '1e5',
        '--threads',
        '2',
        '--quiet',
        '--json',
        json,
      );
      expect(stderr).toMatch(new RegExp(`^muster: \\S*${message.source}`));
      expect(stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(status).toBe(2);
      expect(stdout).toBe('');
      expect(existsSync(json)).toBe(false);
    });
  }
});

describe('a rule file’s JSON keeps the one contract (docs/result.schema.json)', () => {
  it('run --json and a shard of a rule whose mean goes negative both validate', async () => {
    const schema = JSON.parse(
      readFileSync(new URL('../../docs/result.schema.json', import.meta.url), 'utf8'),
    ) as object;
    const validate = new Ajv({ allErrors: true, strict: true, strictTypes: false }).compile(schema);
    const negative = ruleFile(
      'negative.mjs',
      `export default {
  id: 'negative',
  title: 'A negative mean',
  metrics: [{ name: 'loss', doc: 'minus a die', probability: false }, { name: 'six', doc: 'a six', probability: true }],
  trial(dice, p, out) {
    const face = dice.d(6);
    out.loss = -face / 2;
    out.six = face === 6;
  },
};
`,
    );
    const json = join(folder, 'negative.json');
    const shard = join(folder, 'negative-shard.json');
    expect((await cli('run', negative, '--trials', '1e5', '--threads', '1', '--quiet', '--json', json)).status).toBe(0);
    expect(
      (await cli('shard', negative, '--trials', '1e5', '--threads', '1', '--quiet', '--shard', '0/2', '--out', shard))
        .status,
    ).toBe(0);
    for (const file of [json, shard]) {
      const ok = validate(JSON.parse(readFileSync(file, 'utf8')));
      expect(validate.errors ?? [], file).toEqual([]);
      expect(ok).toBe(true);
    }
    const written = JSON.parse(readFileSync(shard, 'utf8'));
    expect(written.ruleFile).toEqual({ path: negative, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(Math.min(...written.tally)).toBeLessThan(0);
  });
});
