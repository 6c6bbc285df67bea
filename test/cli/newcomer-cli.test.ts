/**
 * What a newcomer trips on at the command line (issue 22): an argument
 * meant for --set, a range in another syntax, headers that leave out what
 * was set, hints naming a rule file by an id that fails, output names whose
 * extension lies, `--best` marking the wrong cell and burying the answer, a
 * resumed run that says nothing, and a long seed echoed whole.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProgressBar } from '../../src/cli/progress.js';
import { main } from '../../src/cli.js';
import { shellWord } from '../../src/text/suggest.js';
import { cli, scratchFolder } from '../support/cli.js';
import { bufferIo } from '../support/io.js';

const folder = scratchFolder('newcomer');

/**
 * A designer's rule, worked by hand: one d6 plus `bonus` hits on 6 or more,
 * so hit = (bonus + 1)/6, and 1 from bonus 5 on: bonus 5 and 6 tie at 100%,
 * bonus 4 is the next best at 5/6 (83.333%), bonus 0 the worst at 1/6.
 * `miss` is 1 − hit (lowest where hit is highest), `face.mean` the
 * expected d6 + bonus, 3.5 + bonus, and `reach5` / `reach7` the same
 * question for 5 and 7 (min(6, bonus + 2)/6, min(6, bonus)/6): enough
 * columns that the table splits on an 80-column terminal.
 */
const BONUS_RULE =
  `export default {
  id: 'bonus-hit',
  title: 'A d6 plus a bonus',
  source: 'a test, worked by hand',
  params: [{ name: 'bonus', type: 'integer', default: 0, min: 0, max: 6, doc: 'added to the die' }],
  metrics: [
    { name: 'hit', doc: 'the die plus the bonus reaches 6', probability: true },
    { name: 'miss', doc: 'it falls short', probability: true },
    { name: 'face.mean', doc: 'the die plus the bonus, on average', probability: false },
    { name: 'reach5', doc: 'the die plus the bonus reaches 5', probability: true },
    { name: 'reach7', doc: 'the die plus the bonus reaches 7', probability: true },
  ],
  trial(dice, p, out) {
    const die = dice.d(6);
    out.hit = die + p.bonus >= 6;
    out.miss = die + p.bonus < 6;
    out['face.mean'] = die + p.bonus;
    out.reach5 = die + p.bonus >= 5;
    out.reach7 = die + p.bonus >= 7;
  },
  exact(p) {
    const ways = Math.min(6, p.bonus + 1);
    return { hit: ways + '/6', miss: (6 - ways) + '/6', 'face.mean': (7 + 2 * p.bonus) + '/2', reach5: Math.min(6, ` +
  `p.bonus + 2) + '/6', reach7: Math.min(6, p.bonus) + '/6' };
  },
};
`;

/** A rule file in a folder whose name needs quoting in a shell: a space and a quote. */
const awkward = join(folder, "it's my rules");
mkdirSync(awkward, { recursive: true });
const bonusRule = join(awkward, 'bonus-hit.mjs');
writeFileSync(bonusRule, BONUS_RULE);
/**
 * The same rule without exact(), its die read from dice.random() (the same uniform dice.d(6) reads, so the same
 * dice): it cannot be enumerated, so it is simulated only, and --best ranks estimates and judges by intervals.
 */
const simulatedRule = join(awkward, 'bonus-simulated.mjs');
const simulatedSource = BONUS_RULE.replace(/ {2}exact\(p\) \{[\s\S]*?\n {2}\},\n/, '')
  .replace("id: 'bonus-hit'", "id: 'bonus-simulated'")
  .replace('const die = dice.d(6);', 'const die = 1 + Math.floor(dice.random() * 6);');
if (!simulatedSource.includes('dice.random()') || simulatedSource.includes('exact(p)'))
  throw new Error('the simulated-only rule was not derived');
writeFileSync(simulatedRule, simulatedSource);

describe('an argument meant for an option', () => {
  it.each([
    [
      ['run', 'infinity', 'wipA=13'],
      'muster: unexpected argument "wipA=13" (did you mean --set wipA=13?); allowed: <rule> alone (quote a value ' +
        'that holds spaces)\n',
    ],
    [
      ['sweep', 'infinity', 'wipA=8..12'],
      'muster: unexpected argument "wipA=8..12" (did you mean --vary wipA=8..12?); allowed: <rule> alone (quote a ' +
        'value that holds spaces)\n',
    ],
    [
      ['sweep', 'infinity', 'wipA=8,9'],
      'muster: unexpected argument "wipA=8,9" (did you mean --vary wipA=8,9?); allowed: <rule> alone (quote a ' +
        'value that holds spaces)\n',
    ],
    [
      ['card', 'infinity', '--out', 'x.html', 'wipA=13'],
      'muster: unexpected argument "wipA=13" (did you mean --set wipA=13?); allowed: <rule> alone (quote a value ' +
        'that holds spaces)\n',
    ],
    [
      ['run', 'infinity', 'extra'],
      'muster: unexpected argument "extra"; allowed: <rule> alone (quote a value that holds spaces)\n',
    ],
    [['list', 'extra'], 'muster: unexpected argument "extra"; allowed: no arguments\n'],
  ])('%j: one line naming it, exit 2', async (argv, message) => {
    const { status, stdout, stderr } = await cli(...argv);
    expect(status).toBe(2);
    expect(stderr).toBe(message);
    expect(stdout).toBe('');
  });
});

describe('a range in another syntax gets muster’s own, and every form allowed', () => {
  it.each(['0-4', '0–4', '0:4', '0~4', '0 to 4'])('--vary chosenRound=%s', async (typed) => {
    const { status, stderr } = await cli('sweep', 'reserves', '--vary', `chosenRound=${typed}`);
    expect(status).toBe(2);
    expect(stderr).toBe(
      `muster: --vary: got ${JSON.stringify(`chosenRound=${typed}`)} (did you mean chosenRound=0..4?); allowed: ` +
        `chosenRound=a..b (two dots), chosenRound=a..b:step, or a list chosenRound=v1,v2,…, each an integer from 0 ` +
        `to 12\n`,
    );
  });

  it('a bad value in a numeric list or a broken range names every form', async () => {
    for (const typed of ['0,x', '0..4:2:1', '0..']) {
      const { status, stderr } = await cli('sweep', 'reserves', '--vary', `chosenRound=${typed}`);
      expect(status, typed).toBe(2);
      expect(stderr, typed).toMatch(
        /; allowed: an integer from 0 to 12, as chosenRound=a\.\.b \(two dots\), chosenRound=a\.\.b:step or a list chosenRound=v1,v2,…\n$/,
      );
    }
  });

  it('--range 8-16 for a matrix or a card: did you mean 8..16, with the rule’s own forms', async () => {
    const matrix = await cli('matrix', 'infinity', '--range', '8-16');
    expect(matrix.status).toBe(2);
    expect(matrix.stderr).toBe(
      'muster: --range: got "8-16" (did you mean 8..16?); allowed: a..b with integers 1 ≤ a ≤ b ≤ 30, such as 8..16\n',
    );
    const card = await cli('card', 'reserves', '--range', '2-4', '--out', join(folder, 'never.html'));
    expect(card.stderr).toMatch(/^muster: --range: got "2-4" \(did you mean 2\.\.4\?\); allowed: /);
    expect(existsSync(join(folder, 'never.html'))).toBe(false);
  });
});

describe('headers list what was set away from the defaults', () => {
  it(
    'compare deployment --set b=F3: the header says b=forward:3, and the JSON carries it for each ' + 'variant',
    async () => {
      const json = join(folder, 'compare.json');
      const { status, stdout } = await cli(
        'compare',
        'deployment',
        '--set',
        'b=F3',
        '--variant',
        'S123: a=standard:1,2,3',
        '--variant',
        'F1: a=forward:1',
        '--json',
        json,
      );
      expect(status).toBe(0);
      const header = stdout.slice(0, stdout.indexOf('\n\n'));
      expect(header).toContain('every variant: b=forward:3');
      const result = JSON.parse(readFileSync(json, 'utf8')) as { variants: Array<{ params: Record<string, unknown> }> };
      for (const variant of result.variants) expect(variant.params.b).toBe('forward:3');
    },
  );

  it('a value every variant sets alike is listed once; one they differ in is not', async () => {
    const { stdout } = await cli(
      'compare',
      'reserves',
      '--variant',
      'A: command=3,rounds=5',
      '--variant',
      'B: command=3,rounds=6',
    );
    const header = stdout.slice(0, stdout.indexOf('\n\n'));
    expect(header).toContain('every variant: command=3\n');
    expect(header).not.toMatch(/every variant:.*rounds/);
  });

  it('run, sweep and matrix name a parameter set away from its default in the header and in --json', async () => {
    const cases: Array<[string[], (json: Record<string, unknown>) => unknown]> = [
      [['run', 'deployment', '--set', 'b=F3', '--exact'], (json) => (json.params as Record<string, unknown>).b],
      [
        ['sweep', 'deployment', '--set', 'b=F3', '--vary', 'a=F1;F2', '--exact'],
        (json) => (json.params as Record<string, unknown>).b,
      ],
      [
        ['matrix', 'infinity', '--set', 'crits=false', '--range', '8..9'],
        (json) => (json.params as Record<string, unknown>).crits,
      ],
    ];
    for (const [argv, read] of cases) {
      const json = join(folder, `${argv[0]}.json`);
      const { status, stdout } = await cli(...argv, '--json', json);
      expect(status, argv.join(' ')).toBe(0);
      const header = stdout.slice(0, stdout.indexOf('\n\n'));
      expect(header, argv.join(' ')).toMatch(argv[0] === 'matrix' ? /crits=false/ : /b=forward:3/);
      expect(read(JSON.parse(readFileSync(json, 'utf8'))), argv.join(' ')).toBe(
        argv[0] === 'matrix' ? false : 'forward:3',
      );
    }
  });
});

describe('hints name a rule file by the path the user typed, quoted for a shell', () => {
  const typed = bonusRule;
  const word = shellWord(typed);

  it('the quoting reads back, through a real shell, as the path', () => {
    expect(word).toBe(`'${typed.replace("'", "'\\''")}'`);
    expect(execFileSync('/bin/sh', ['-c', `printf %s ${word}`], { encoding: 'utf8' })).toBe(typed);
  });

  it('describe, --metric, --best, matrix and the card footer all suggest the file, never its id', async () => {
    const describeOut = await cli('describe', typed);
    expect(describeOut.stdout).toContain(`(muster run ${word} --exact prints it)`);
    const best = await cli('sweep', typed, '--vary', 'bonus=0..2', '--exact', '--best', 'nope');
    expect(best.stderr).toContain(`(muster describe ${word})`);
    const matrix = await cli('matrix', typed);
    expect(matrix.stderr).toContain(`muster describe ${word} lists what it has`);
    const card = join(folder, 'bonus-card.html');
    expect((await cli('card', typed, '--set', 'bonus=2', '--out', card, '--quiet')).status).toBe(0);
    const footer = /<footer class="card-footer">(.*?)<\/footer>/s.exec(readFileSync(card, 'utf8'))?.[1] ?? '';
    expect(footer).toContain(`muster card ${word.replaceAll("'", '&#39;')} --set bonus=2`);
    for (const text of [describeOut.stdout, best.stderr, matrix.stderr, footer])
      expect(text).not.toMatch(/muster (run|describe|card|matrix) bonus-hit\b/);
  });
});

describe('an output whose extension names another format is refused, in one line, before any work', () => {
  it.each([
    [
      ['card', 'infinity', '--out', 'w.pdf'],
      '--out: got "w.pdf", a PDF name for an HTML file; --pdf w.pdf writes the PDF; allowed: a name ending .html ' +
        'or .htm, or no extension',
    ],
    [
      ['card', 'infinity', '--out', 'w.html', '--pdf', 'p.html'],
      '--pdf: got "p.html", an HTML name for a PDF file; --out p.html writes the HTML; allowed: a name ending ' +
        '.pdf, or no extension',
    ],
    [
      ['run', 'infinity', '--exact', '--html', 'x.json'],
      '--html: got "x.json", a JSON name for an HTML file; --json x.json writes the JSON; allowed: a name ending ' +
        '.html or .htm, or no extension',
    ],
    [
      ['run', 'infinity', '--exact', '--json', 'x.html'],
      '--json: got "x.html", an HTML name for a JSON file; --html x.html writes the HTML; allowed: a name ending ' +
        '.json, or no extension',
    ],
    [
      ['sweep', 'infinity', '--vary', 'wipA=8..9', '--exact', '--csv', 'x.html'],
      '--csv: got "x.html", an HTML name for a CSV file; --html x.html writes the HTML; allowed: a name ending ' +
        '.csv, or no extension',
    ],
    [
      ['compare', 'infinity', '--variant', 'a: wipA=8', '--variant', 'b: wipA=9', '--html', 'c.csv'],
      '--html: got "c.csv", a CSV name for an HTML file; --csv c.csv writes the CSV; allowed: a name ending .html ' +
        'or .htm, or no extension',
    ],
    [
      ['matrix', 'infinity', '--json', 'M.CSV'],
      '--json: got "M.CSV", a CSV name for a JSON file; allowed: a name ending .json, or no extension',
    ],
    [
      ['merge', 'shard-0.json', '--json', 'run.html'],
      '--json: got "run.html", an HTML name for a JSON file; allowed: a name ending .json, or no extension',
    ],
    [
      ['shard', 'reserves', '--shard', '0/2', '--out', 'shard.html'],
      '--out: got "shard.html", an HTML name for a JSON file; allowed: a name ending .json, or no extension',
    ],
    [
      ['run', 'reserves', '--checkpoint', 'run.csv'],
      '--checkpoint: got "run.csv", a CSV name for a JSON file; allowed: a name ending .json, or no extension',
    ],
    [
      ['app', '--out', 'odds.pdf'],
      '--out: got "odds.pdf", a PDF name for an HTML file; allowed: a name ending .html or .htm, or no extension',
    ],
    [
      ['run', 'infinity', '--exact', '--html', 'chart.png'],
      '--html: got "chart.png", a PNG image name for an HTML file; allowed: a name ending .html or .htm, or no ' +
        'extension',
    ],
  ])('%j', async (argv, message) => {
    const dir = join(folder, `names-${argv.join('-').replace(/\W+/g, '-')}`);
    mkdirSync(dir, { recursive: true });
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      const { status, stdout, stderr } = await cli(...argv);
      expect(status).toBe(2);
      expect(stderr).toBe(`muster: ${message}\n`);
      expect(stdout).toBe('');
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      process.chdir(cwd);
    }
  });

  it('a name with no extension, or one muster does not know, is taken as given', async () => {
    const json = join(folder, 'result.txt');
    const html = join(folder, 'report');
    expect((await cli('run', 'infinity', '--exact', '--json', json, '--html', html, '--quiet')).status).toBe(0);
    expect(JSON.parse(readFileSync(json, 'utf8')).rule).toBe('infinity');
    expect(readFileSync(html, 'utf8')).toMatch(/^<!doctype html>/i);
  });
});

describe(
  'sweep --best, on a rule worked by hand: the answer first, and the mark beside the best value in its ' + 'column',
  () => {
    it(
      'bonus 0..6: bonus 5 and 6 tie at 100%, against 83.333% for bonus 4; only those two hit cells are ' + 'marked',
      async () => {
        const io = bufferIo();
        const status = await main(
          ['sweep', bonusRule, '--vary', 'bonus=0..6', '--exact', '--best', 'hit', '--all'],
          io,
        );
        expect(status).toBe(0);
        const stdout = io.stdout();
        const [header, answer, ...tables] = stdout.split('\n\n');
        expect(header).toContain('sweep of 7 points');
        expect(answer.replaceAll('\n', ' ')).toBe(
          'Choose bonus=5 (or bonus=6: tied exactly): hit 100.000%, the highest (the die plus the bonus reaches 6), ' +
            'against 83.333% for the next best, bonus=4 (exact values).',
        );
        // The table splits at 80 columns; the mark is in the hit column only, on the two best rows.
        expect(tables.length).toBeGreaterThan(1);
        const marked = stdout.split('\n').filter((line) => line.includes('◀'));
        expect(marked).toEqual([expect.stringMatching(/^5\s+100\.000% ◀/), expect.stringMatching(/^6\s+100\.000% ◀/)]);
        // miss is 0% on those rows, its lowest value: never marked.
        for (const line of stdout.split('\n'))
          if (/^[56]\s/.test(line) && line.includes('0.000%')) expect(line).not.toMatch(/\s0\.000% ◀/);
      },
    );

    it(':min, the lowest: bonus=0 at 16.667% (1/6), against 33.333% (2/6) for bonus=1', async () => {
      const { stdout } = await cli(
        'sweep',
        bonusRule,
        '--vary',
        'bonus=0..6',
        '--exact',
        '--best',
        'hit:min',
        '--metric',
        'hit',
      );
      expect(stdout.split('\n\n')[1].replaceAll('\n', ' ')).toBe(
        'Choose bonus=0: hit 16.667%, the lowest (the die plus the bonus reaches 6), against 33.333% for the next ' +
          'best, bonus=1 (exact values).',
      );
      expect(stdout.split('\n').filter((line) => line.includes('◀'))).toEqual([
        expect.stringMatching(/^0\s+16\.667% = 1\/6 ◀$/),
      ]);
    });

    it(
      'simulated, seed "best": the mark is on the exact cell the points were ranked by, the answer says exact ' +
        'values',
      async () => {
        const { stdout } = await cli(
          'sweep',
          bonusRule,
          '--vary',
          'bonus=3..5',
          '--best',
          'hit',
          '--metric',
          'hit',
          '--trials',
          '20000',
          '--threads',
          '1',
          '--seed',
          'best',
          '--quiet',
        );
        expect(stdout).toMatch(/^5\s+100\.000%\s+0\.0\d\d%\s+100\.000% ◀$/m);
        expect(stdout.split('\n').filter((line) => line.includes('◀'))).toHaveLength(1);
        expect(stdout).toContain('against 83.333% for the next best, bonus=4 (exact values).');
      },
    );
  },
);

describe('sweep --best with no exact values: the next best judged by the two intervals', () => {
  it('seed "muster", 5,000 trials: bonus 5 and 6 the same estimate (100%), bonus 4 beaten beyond noise', async () => {
    const { stdout } = await cli(
      'sweep',
      simulatedRule,
      '--vary',
      'bonus=3..6',
      '--best',
      'hit',
      '--metric',
      'hit',
      '--trials',
      '5000',
      '--threads',
      '1',
      '--quiet',
    );
    const answer = stdout.split('\n\n')[1].replaceAll('\n', ' ');
    expect(answer).toMatch(
      /^Choose bonus=5 \(or bonus=6: the same estimate\): hit 100\.000%, the highest .* for the next best, bonus=4 \(beyond noise: the intervals do not overlap\)\.$/,
    );
  });

  it('seed "muster", 100 trials: 5/6 against 4/6 is not told apart, and the answer says so', async () => {
    const { stdout } = await cli(
      'sweep',
      simulatedRule,
      '--vary',
      'bonus=3..4',
      '--best',
      'hit',
      '--metric',
      'hit',
      '--trials',
      '100',
      '--threads',
      '1',
      '--quiet',
    );
    expect(stdout.split('\n\n')[1].replaceAll('\n', ' ')).toMatch(
      /^Choose bonus=4: .* for the next best, bonus=3 \(within noise: the intervals overlap, so simulate more trials \(--trials N\)\)\.$/,
    );
  });
});

describe('a resumed run says so, and its rate counts only its own trials', () => {
  it(
    'run with a finished checkpoint: "resumed from FILE: 200,000 trials already done", on stderr at the start ' + 'too',
    async () => {
      const checkpoint = join(folder, 'resume.ckpt');
      const run = [
        'run',
        'reserves',
        '--trials',
        '200k',
        '--threads',
        '1',
        '--seed',
        'resume',
        '--checkpoint',
        checkpoint,
      ];
      const first = await cli(...run);
      expect(first.status).toBe(0);
      expect(first.stdout).not.toContain('resumed');
      expect(first.stderr).not.toContain('resuming');
      const again = await cli(...run);
      expect(again.status).toBe(0);
      // The header, its wrapped lines joined.
      expect(again.stdout.slice(0, again.stdout.indexOf('\n\n')).replaceAll('\n  ', ' ')).toContain(
        `resumed from ${checkpoint}: 200,000 trials already done`,
      );
      expect(again.stderr).toContain(`resuming from ${checkpoint}: 200,000 of 200,000 trials already done\n`);
      // The same figures as the first run: resuming changes nothing but the header.
      const table = (stdout: string) => stdout.slice(stdout.indexOf('\n\n'));
      expect(table(again.stdout)).toBe(table(first.stdout));
    },
  );

  it('a sweep resumed from its checkpoint says so too', async () => {
    const checkpoint = join(folder, 'sweep.ckpt');
    const sweep = [
      'sweep',
      'reserves',
      '--vary',
      'chosenRound=0..1',
      '--trials',
      '100k',
      '--threads',
      '1',
      '--checkpoint',
      checkpoint,
      '--quiet',
    ];
    expect((await cli(...sweep)).status).toBe(0);
    expect((await cli(...sweep)).stdout.replaceAll('\n  ', ' ')).toContain(
      `resumed from ${checkpoint}: 200,000 trials already done`,
    );
  });

  it('a shard run again from its checkpoint says it is resuming', async () => {
    const checkpoint = join(folder, 'shard.ckpt');
    const shard = [
      'shard',
      'reserves',
      '--trials',
      '200k',
      '--shard',
      '0/2',
      '--threads',
      '1',
      '--checkpoint',
      checkpoint,
      '--out',
      join(folder, 'shard-0.json'),
    ];
    expect((await cli(...shard)).stderr).not.toContain('resuming');
    const again = await cli(...shard);
    expect(again.status).toBe(0);
    expect(again.stderr).toMatch(
      new RegExp(`^resuming from ${checkpoint.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: [\\d,]+ trials already done\n`),
    );
  });

  it(
    'the bar, worked by hand: 400k trials resumed, 600k done after 2 s is 100k trials/s and 4 s to go, not ' + '300k/s',
    () => {
      let clock = 0;
      let drawn = '';
      const bar = new ProgressBar(
        (text) => (drawn = text),
        true,
        () => clock,
        { plain: true, already: 400_000 },
      );
      clock = 2000;
      bar.update(600_000, 1_000_000);
      expect(drawn).toContain('600.0k/1.0M trials  100.0k trials/s  ETA 4s');
      let fresh = '';
      const plain = new ProgressBar(
        (text) => (fresh = text),
        true,
        () => clock - 2000,
        { plain: true },
      );
      plain.update(600_000, 1_000_000);
      expect(fresh).toBe('');
    },
  );
});

describe('a long seed is refused by its length, the CLI’s bound and the page’s alike', () => {
  it('--seed of 100,000 characters: one short line, exit 2', async () => {
    const { status, stderr } = await cli('run', 'infinity', '--seed', 's'.repeat(100_000), '--trials', '1000');
    expect(status).toBe(2);
    expect(stderr).toBe('muster: --seed: got 100,000 characters; allowed: any text of 1 to 200 characters\n');
  });
});
