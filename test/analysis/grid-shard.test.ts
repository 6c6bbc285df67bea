import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, scratchFolder } from '../support/cli.js';

const folder = scratchFolder('grid-shard');
const file = (name: string) => join(folder, name);
const read = (name: string) => readFileSync(file(name), 'utf8');

/**
 * Runs `shards` shards of a sweep, each on one thread, and merges them (with `mergeArgs`) with the outputs
 * `prefix`.{json,csv,html}.
 */
async function shardAndMerge(sweep: string[], shards: number, prefix: string, mergeArgs: string[] = []): Promise<void> {
  for (let index = 0; index < shards; index++) {
    const result = await cli(
      ...sweep,
      '--threads',
      '1',
      '--shard',
      `${index}/${shards}`,
      '--out',
      file(`${prefix}-{index}.tally`),
    );
    expect(result.status, result.stderr).toBe(0);
  }
  // In reverse order: merging adds integer counts, so the order cannot matter.
  const files = Array.from({ length: shards }, (_, index) => file(`${prefix}-${shards - 1 - index}.tally`));
  const merged = await cli(
    'merge',
    ...files,
    ...mergeArgs,
    '--json',
    file(`${prefix}.json`),
    '--csv',
    file(`${prefix}.csv`),
    '--html',
    file(`${prefix}.html`),
    '--quiet',
  );
  expect(merged.status, merged.stderr).toBe(0);
}

describe('a sweep or a comparison split into shards merges to the whole, bit for bit', () => {
  const sweep = [
    'sweep',
    'reserves',
    '--vary',
    'chosenRound=0..2',
    '--vary',
    'command=2,4',
    '--trials',
    '150k',
    '--seed',
    'grid',
    '--quiet',
  ];

  it('seed "grid": 6 points over 4 shards (whole points, two cut in two) — JSON, CSV and HTML identical', async () => {
    await shardAndMerge(sweep, 4, 'four');
    // A merged sweep's threads are the shards' threads added up: four shards of one thread against one machine of four.
    expect(
      (
        await cli(
          ...sweep,
          '--threads',
          '4',
          '--json',
          file('whole4.json'),
          '--csv',
          file('whole4.csv'),
          '--html',
          file('whole4.html'),
        )
      ).status,
    ).toBe(0);
    for (const ext of ['json', 'csv', 'html']) expect(read(`four.${ext}`), ext).toBe(read(`whole4.${ext}`));
  });

  it('seed "grid": 2 points over 3 shards (each point’s 3 chunks split between shards) — identical too', async () => {
    const two = ['sweep', 'reserves', '--vary', 'chosenRound=0..1', '--trials', '150k', '--seed', 'grid', '--quiet'];
    await shardAndMerge(two, 3, 'three');
    expect(
      (
        await cli(
          ...two,
          '--threads',
          '3',
          '--json',
          file('whole3.json'),
          '--csv',
          file('whole3.csv'),
          '--html',
          file('whole3.html'),
        )
      ).status,
    ).toBe(0);
    for (const ext of ['json', 'csv', 'html']) expect(read(`three.${ext}`), ext).toBe(read(`whole3.${ext}`));
    // The middle shard holds the end of point 1 and the start of point 2 (floor(i·6/3) = 0, 2, 4, 6).
    expect((JSON.parse(read('three-1.tally')) as { pieces: unknown[] }).pieces).toMatchObject([
      { point: 0, first: 2, end: 3 },
      { point: 1, first: 0, end: 1 },
    ]);
  });

  it('refuses a missing shard, a shard twice, a shard of another sweep, moved pieces and unknown fields', async () => {
    const small = ['sweep', 'reserves', '--vary', 'chosenRound=0..1', '--trials', '70k', '--threads', '1', '--quiet'];
    for (const index of [0, 1])
      expect((await cli(...small, '--shard', `${index}/2`, '--out', file(`s${index}.tally`))).status).toBe(0);
    expect((await cli(...small, '--seed', 'other', '--shard', '1/2', '--out', file('t1.tally'))).status).toBe(0);
    const shard = JSON.parse(read('s1.tally')) as { pieces: Array<{ point: number }> };
    writeFileSync(
      file('moved.tally'),
      JSON.stringify({ ...shard, pieces: shard.pieces.map((piece) => ({ ...piece, point: 0 })) }),
    );
    writeFileSync(file('extra.tally'), JSON.stringify({ ...shard, note: 'hi' }));
    // Every count doubled: more outcomes than the piece ran trials, refused by the same checks as a run's shard.
    writeFileSync(
      file('doubled.tally'),
      JSON.stringify({
        ...shard,
        pieces: (shard.pieces as unknown as Array<{ tally: number[] }>).map((piece) => ({
          ...piece,
          tally: piece.tally.map((count) => 2 * count),
        })),
      }),
    );
    expect((await cli(...small, '--shard', '0/1', '--out', file('one.tally'))).status).toBe(0);
    const one = JSON.parse(read('one.tally')) as { args: object };
    writeFileSync(file('badvary.tally'), JSON.stringify({ ...one, args: { ...one.args, vary: ['nonsense=1..2'] } }));
    writeFileSync(file('badargs.tally'), JSON.stringify({ ...one, args: { ...one.args, variant: [] } }));
    const cases: Array<[string[], RegExp]> = [
      [[file('s0.tally')], /^muster: files: shard 1 of 2 is missing; allowed: every shard of the sweep\n$/],
      [
        [file('s0.tally'), file('s0.tally'), file('s1.tally')],
        /^muster: files: .*s0\.tally" is the same file as input/,
      ],
      [[file('s0.tally'), file('t1.tally')], /^muster: files: .*t1\.tally is from another sweep/],
      [
        [file('s0.tally'), file('moved.tally')],
        /^muster: files: .*moved\.tally does not hold the chunks of shard 1\/2/,
      ],
      [
        [file('s0.tally'), file('doubled.tally')],
        /^muster: files: .*doubled\.tally: tally of point 2: .*; allowed: counts reserves could have made/,
      ],
      [
        [file('s0.tally'), file('extra.tally')],
        /^muster: files: .*extra\.tally is not a complete muster-grid-tally\/1 file, or has unknown fields/,
      ],
      [
        [file('badargs.tally')],
        /^muster: files: .*badargs\.tally has a command that is not sweep, compare or balance, or options that are not its own/,
      ],
      [
        [file('badvary.tally')],
        /^muster: files: .*badvary\.tally describes a sweep the CLI refuses \(--vary: "nonsense" is not a parameter/,
      ],
    ];
    for (const [files, message] of cases) {
      const result = await cli('merge', ...files, '--json', file('never.json'));
      expect(result.status, files.join(' ')).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr.split('\n')).toHaveLength(2);
    }
    expect(() => readFileSync(file('never.json'))).toThrow();
  });

  it(
    'seed "variants": a comparison of 3 variants (own streams) over 2 shards merges to the whole ' + 'comparison',
    async () => {
      const compare = [
        'compare',
        'reserves',
        '--variant',
        '7+: target=7',
        '--variant',
        '6+: target=6',
        '--variant',
        'round 2: chosenRound=2',
        '--seed-per-variant',
        '--trials',
        '150k',
        '--seed',
        'variants',
        '--quiet',
      ];
      await shardAndMerge(compare, 2, 'compare');
      expect(
        (
          await cli(
            ...compare,
            '--threads',
            '2',
            '--json',
            file('compare-whole.json'),
            '--csv',
            file('compare-whole.csv'),
            '--html',
            file('compare-whole.html'),
          )
        ).status,
      ).toBe(0);
      for (const ext of ['json', 'csv', 'html']) expect(read(`compare.${ext}`), ext).toBe(read(`compare-whole.${ext}`));
      expect((await cli('merge', file('compare-0.tally'), file('compare-1.tally'), '--metric', 'x')).stderr).toMatch(
        // The whole line: the analysis named in words, as the CLI always said it.
        /^muster: --metric: only when merging a sweep; allowed: leave it out for a comparison\n$/,
      );
    },
  );

  it('refuses sweep outputs on a shard, --shard on an exact sweep, and --html on a run merge', async () => {
    const base = ['sweep', 'reserves', '--vary', 'chosenRound=0..1', '--trials', '70k', '--shard', '0/2'];
    expect((await cli(...base, '--out', file('x.tally'), '--json', file('x.json'))).stderr).toMatch(
      /^muster: --json: a shard writes its tallies to --out; allowed: --json on muster merge/,
    );
    expect((await cli(...base)).stderr).toMatch(/^muster: --out: missing/);
    expect(
      (
        await cli(
          'sweep',
          'reserves',
          '--vary',
          'chosenRound=0..1',
          '--exact',
          '--shard',
          '0/2',
          '--out',
          file('x.tally'),
        )
      ).stderr,
    ).toMatch(/^muster: --shard: an exact sweep/);
    expect(
      (await cli('sweep', 'reserves', '--vary', 'chosenRound=0..1', '--trials', '70k', '--out', file('x.tally')))
        .stderr,
    ).toMatch(/^muster: --out: only with --shard/);
    expect(
      (
        await cli(
          'shard',
          'reserves',
          '--trials',
          '70k',
          '--threads',
          '1',
          '--shard',
          '0/1',
          '--out',
          file('run.tally'),
          '--quiet',
        )
      ).status,
    ).toBe(0);
    expect((await cli('merge', file('run.tally'), '--html', file('x.html'))).stderr).toMatch(
      /^muster: --html: only when merging the shards of a sweep or a comparison/,
    );
  });
});

describe('a sweep of a rule file split into shards', () => {
  // The reserves example file ships with muster; a copy in the scratch folder is the file the shards record.
  const original = readFileSync(new URL('../../examples/rules/reserves-2d6.mjs', import.meta.url), 'utf8');
  const ruleCopy = file('club-rule.mjs');
  writeFileSync(ruleCopy, original);
  const sweep = ['sweep', ruleCopy, '--vary', 'squads=2..4', '--trials', '150k', '--seed', 'file-grid', '--quiet'];

  it(
    'seed "file-grid": 3 points over 2 shards merge to the unsharded sweep, JSON, CSV and HTML identical; the ' +
      'shards record the file',
    async () => {
      await shardAndMerge(sweep, 2, 'filegrid', ['--rule', ruleCopy]);
      expect(
        (
          await cli(
            ...sweep,
            '--threads',
            '2',
            '--json',
            file('filegrid-whole.json'),
            '--csv',
            file('filegrid-whole.csv'),
            '--html',
            file('filegrid-whole.html'),
          )
        ).status,
      ).toBe(0);
      for (const ext of ['json', 'csv', 'html'])
        expect(read(`filegrid.${ext}`), ext).toBe(read(`filegrid-whole.${ext}`));
      const shard = JSON.parse(read('filegrid-0.tally')) as {
        ruleFiles: Array<{ ref: string; path: string; sha256: string }>;
      };
      expect(shard.ruleFiles).toHaveLength(1);
      expect(shard.ruleFiles[0]).toMatchObject({ ref: '', path: ruleCopy });
      expect(shard.ruleFiles[0].sha256).toMatch(/^[0-9a-f]{64}$/);
    },
  );

  it(
    'a rule file changed since the shards ran is refused; a moved one is found with --rule; --rule on built-in ' +
      'shards is refused',
    async () => {
      // Without --rule, merge refuses rather than import the file the shard names.
      const unnamed = await cli(
        'merge',
        file('filegrid-0.tally'),
        file('filegrid-1.tally'),
        '--json',
        file('never-file.json'),
      );
      expect([unnamed.status, unnamed.stderr]).toEqual([
        2,
        expect.stringMatching(
          /^muster: files: ".*filegrid-0\.tally" was run with the rule file ".*club-rule\.mjs", which merge does not import because a shard names it; allowed: --rule PATH/,
        ),
      ]);
      const shards = [file('filegrid-0.tally'), file('filegrid-1.tally')];
      const moved = file('moved-rule.mjs');
      writeFileSync(moved, original);
      writeFileSync(ruleCopy, `${original}\n// edited after the shards ran\n`);
      try {
        const changed = await cli('merge', ...shards, '--rule', ruleCopy, '--json', file('never-file.json'));
        expect(changed.status).toBe(2);
        expect(changed.stderr).toMatch(
          /^muster: .*club-rule\.mjs: the rule file, or a file it imports, differs from the run's \(sha256 [0-9a-f]{12}… instead of [0-9a-f]{12}…\); allowed: the same file and the files it imports, unchanged\n$/,
        );
        expect(changed.stderr.split('\n')).toHaveLength(2);
        const found = await cli('merge', ...shards, '--rule', moved, '--json', file('filegrid-moved.json'), '--quiet');
        expect(found.status, found.stderr).toBe(0);
        expect(read('filegrid-moved.json')).toBe(read('filegrid.json'));
      } finally {
        writeFileSync(ruleCopy, original);
      }
      expect(
        (
          await cli(
            'sweep',
            'reserves',
            '--vary',
            'chosenRound=0..1',
            '--trials',
            '70k',
            '--threads',
            '1',
            '--quiet',
            '--shard',
            '0/1',
            '--out',
            file('builtin-0.tally'),
          )
        ).status,
      ).toBe(0);
      const builtIn = await cli('merge', file('builtin-0.tally'), '--rule', moved);
      expect(builtIn.status).toBe(2);
      expect(builtIn.stderr).toMatch(
        /^muster: --rule: .* is a shard of a built-in rule; allowed: --rule only for shards of a rule file\n$/,
      );
      expect(() => readFileSync(file('never-file.json'))).toThrow();
    },
  );
});

describe('a comparison across rules split into shards', () => {
  const original = readFileSync(new URL('../../examples/rules/reserves-2d6.mjs', import.meta.url), 'utf8');
  const ruleCopy = file('club-variant.mjs');
  writeFileSync(ruleCopy, original);
  // The command's rule, a variant of another built-in rule, and a variant of a rule file: each variant runs with its
  // own rule.
  const compare = [
    'compare',
    'reserves',
    '--variant',
    'A: target=7',
    '--variant',
    'B: rule=infinity',
    '--variant',
    `C: rule=${ruleCopy}`,
    '--trials',
    '150k',
    '--seed',
    'mixed',
    '--quiet',
  ];

  it(
    'seed "mixed": 3 variants of 3 rules over 2 shards merge to the whole comparison, JSON, CSV and HTML ' +
      'identical',
    async () => {
      await shardAndMerge(compare, 2, 'mixed', ['--rule', ruleCopy]);
      expect(
        (
          await cli(
            ...compare,
            '--threads',
            '2',
            '--json',
            file('mixed-whole.json'),
            '--csv',
            file('mixed-whole.csv'),
            '--html',
            file('mixed-whole.html'),
          )
        ).status,
      ).toBe(0);
      for (const ext of ['json', 'csv', 'html']) expect(read(`mixed.${ext}`), ext).toBe(read(`mixed-whole.${ext}`));
      const recorded = (JSON.parse(read('mixed-1.tally')) as { ruleFiles: Array<{ ref: string; path: string }> })
        .ruleFiles;
      expect(recorded.map(({ ref, path }) => [ref, path])).toEqual([[ruleCopy, ruleCopy]]);
    },
  );

  it(
    'its rule file moved: --rule finds it; shards that record no such file, or a forged record, are ' + 'refused',
    async () => {
      const shards = [file('mixed-0.tally'), file('mixed-1.tally')];
      const moved = file('club-variant-moved.mjs');
      writeFileSync(moved, original);
      const found = await cli('merge', ...shards, '--rule', moved, '--json', file('mixed-moved.json'), '--quiet');
      expect(found.status, found.stderr).toBe(0);
      expect(read('mixed-moved.json')).toBe(read('mixed.json'));
      const shard = JSON.parse(read('mixed-0.tally')) as Record<string, unknown>;
      const { ruleFiles: _dropped, ...unrecorded } = shard;
      writeFileSync(file('mixed-unrecorded.tally'), JSON.stringify(unrecorded));
      writeFileSync(
        file('mixed-forged.tally'),
        JSON.stringify({ ...shard, ruleFiles: [{ ref: ruleCopy, path: ruleCopy, sha256: 'not a hash' }] }),
      );
      // A record the command does not name: merge must not import a file just because a shard mentions it.
      const [entry] = shard.ruleFiles as Array<{ ref: string; path: string; sha256: string }>;
      writeFileSync(
        file('mixed-extra.tally'),
        JSON.stringify({ ...shard, ruleFiles: [entry, { ...entry, ref: './elsewhere.mjs' }] }),
      );
      const cases: Array<[string, RegExp]> = [
        [
          'mixed-unrecorded.tally',
          /^muster: files: .*mixed-unrecorded\.tally names the rule file ".*club-variant\.mjs" without recording it; allowed: files written by muster compare --shard\n$/,
        ],
        [
          'mixed-forged.tally',
          /^muster: files: .*mixed-forged\.tally has ruleFiles that are not a list of distinct \{ ref, path, sha256 \}; allowed: /,
        ],
        [
          'mixed-extra.tally',
          /^muster: files: .*mixed-extra\.tally records the rule file ".*club-variant\.mjs" under "\.\/elsewhere\.mjs", which the compare does not name as a rule file; allowed: files written by muster compare --shard\n$/,
        ],
      ];
      for (const [name, message] of cases) {
        const result = await cli(
          'merge',
          file(name),
          file('mixed-1.tally'),
          '--rule',
          ruleCopy,
          '--json',
          file('never-mixed.json'),
        );
        expect(result.status, name).toBe(2);
        expect(result.stderr).toMatch(message);
      }
      expect(() => readFileSync(file('never-mixed.json'))).toThrow();
    },
  );
});

describe('a comparison of two rule files: one --rule for each', () => {
  const original = readFileSync(new URL('../../examples/rules/reserves-2d6.mjs', import.meta.url), 'utf8');
  const first = file('two-a.mjs');
  const second = file('two-b.mjs');
  writeFileSync(first, original);
  writeFileSync(
    second,
    original.replace("id: 'reserves-2d6'", "id: 'reserves-2d6-b'").replace('p.target', '(p.target + 1)'),
  );
  const compare = [
    'compare',
    'reserves',
    '--variant',
    `A: rule=${first}`,
    '--variant',
    `B: rule=${second}`,
    '--trials',
    '70k',
    '--seed',
    'two',
    '--quiet',
  ];

  it(
    'seed "two": merged with both files named, in either order, as on one machine; one file missing is refused by ' +
      'name',
    async () => {
      expect((await cli(...compare, '--threads', '1', '--shard', '0/1', '--out', file('two-0.tally'))).status).toBe(0);
      expect((await cli(...compare, '--threads', '1', '--json', file('two-whole.json'))).status).toBe(0);
      for (const order of [
        [first, second],
        [second, first],
      ]) {
        const merged = await cli(
          'merge',
          file('two-0.tally'),
          '--rule',
          order[0],
          '--rule',
          order[1],
          '--json',
          file('two-merged.json'),
          '--quiet',
        );
        expect(merged.status, merged.stderr).toBe(0);
        expect(read('two-merged.json')).toBe(read('two-whole.json'));
      }
      const missing = await cli('merge', file('two-0.tally'), '--rule', first, '--json', file('never-two.json'));
      expect([missing.status, missing.stderr]).toEqual([
        2,
        expect.stringMatching(
          /^muster: --rule: no file given is the rule file ".*two-b\.mjs" ".*two-0\.tally" was run with \(sha256 [0-9a-f]{12}…\); allowed: /,
        ),
      ]);
      const none = await cli('merge', file('two-0.tally'), '--json', file('never-two.json'));
      expect([none.status, none.stderr]).toEqual([
        2,
        expect.stringMatching(
          /^muster: files: ".*two-0\.tally" was run with the rule files ".*two-a\.mjs", ".*two-b\.mjs", which merge does not import because a shard names them; allowed: --rule PATH naming each file yourself/,
        ),
      ]);
      expect(() => readFileSync(file('never-two.json'))).toThrow();
    },
  );
});
