/**
 * The newcomer's edges (issue 33): each a promise of docs/errors.md that a
 * first week of use found broken, each checked with cases beyond the one
 * reported.
 *
 * - user text reaches a CSV with its control characters escaped as the
 *   terminal shows them;
 * - a simulation setting where nothing is simulated is applied (compare) or
 *   refused (an exact sweep, matrix or card), never ignored;
 * - merge --quiet prints nothing on stderr, --verify included;
 * - a parameter's decimal reaches the solvers as typed, or is refused;
 * - a mean beyond a double is one line and exit 2, not "—" and exit 0;
 * - numbers have nothing between their digits (--trials 1_000);
 * - an output name that ends as a folder's is refused, not written beside it;
 * - a read-only output file is refused and left as it was, even for root.
 *
 * Expected values are worked by hand (the oracle for decimals is the
 * decimal's own digits, compared as BigInt fractions).
 */
import {
  chmodSync,
  existsSync,
  lstatSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvLine } from '../../reports/csv.js';
import { holdsAsTyped } from '../../src/decimal.js';
import { Fraction } from '../../src/exact/fraction.js';
import { cli, scratchFolder } from '../support/cli.js';

const folder = scratchFolder('edges');
const file = (name: string) => join(folder, name);

/** Exit 2 with one line on stderr starting `muster: <start>`, nothing on stdout. */
function expectRefused(outcome: { status: number; stdout: string; stderr: string }, start: string): void {
  expect(outcome.status, outcome.stderr).toBe(2);
  expect(outcome.stdout).toBe('');
  expect(outcome.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(outcome.stderr.startsWith(`muster: ${start}`), outcome.stderr).toBe(true);
}

describe('a CSV shows user text’s control characters as the terminal does', () => {
  it('a compare label with ESC, BEL, a tab, a lone CR and U+202E: escaped in the CSV, the JSON keeps it', async () => {
    const label = 'a\u001b[31mX\u0007\tY\rZ\u202e';
    const csv = file('label.csv');
    const json = file('label.json');
    const { status, stderr } = await cli(
      'compare',
      'infinity',
      '--variant',
      `${label}: wipA=12`,
      '--variant',
      'b: wipA=13',
      '--csv',
      csv,
      '--json',
      json,
      '--quiet',
    );
    expect(status, stderr).toBe(0);
    const text = readFileSync(csv, 'utf8');
    // Only the CRLF that ends each record is left of the control characters.
    expect(text.replaceAll('\r\n', '')).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/);
    expect(text).toContain('a\\x1b[31mX\\x07\\x09Y\\x0dZ\\u202e');
    // The JSON is data for programs: it keeps the label as typed (JSON escapes are not raw bytes).
    expect(JSON.parse(readFileSync(json, 'utf8')).variants[0].label).toBe(label);
  });

  it('every C0, DEL and C1 character in a cell comes out escaped; quotes, commas and line feeds as RFC 4180 says', () => {
    for (let code = 0; code <= 0x9f; code++) {
      if (code >= 0x20 && code < 0x7f) continue;
      const character = String.fromCharCode(code);
      const line = csvLine([`x${character}y`]);
      if (code === 0x0a) expect(line).toBe('"x\ny"\r\n');
      else expect(line, `U+${code.toString(16)}`).toBe(`x\\x${code.toString(16).padStart(2, '0')}y\r\n`);
    }
    expect(csvLine(['a,b', 'say "hi"', '=1+1'])).toBe('"a,b","say ""hi""",\'=1+1\r\n');
  });
});

describe('a simulation setting where nothing is simulated is applied or refused', () => {
  it('compare --stream 4 without --simulate simulates on stream 4, as --trials alone does', async () => {
    const { status, stdout, stderr } = await cli(
      'compare',
      'infinity',
      '--variant',
      'a: wipA=12',
      '--variant',
      'b: wipA=13',
      '--stream',
      '4',
      '--trials',
      '2000',
      '--json',
      '-',
      '--quiet',
    );
    expect(status, stderr).toBe(0);
    const result = JSON.parse(stdout);
    expect([result.method, result.stream]).toEqual(['simulation', 4]);
    const alone = await cli(
      'compare',
      'infinity',
      '--variant',
      'a: wipA=12',
      '--variant',
      'b: wipA=13',
      '--stream',
      '4',
    );
    expect(alone.status, alone.stderr).toBe(0);
    expect(alone.stdout).toContain('stream 4');
  });

  const refusals: Array<[string, string[], string]> = [
    [
      'compare --exact',
      ['compare', 'infinity', '--variant', 'a: wipA=12', '--variant', 'b: wipA=13', '--exact', '--stream', '4'],
      '--exact: cannot be combined with --stream',
    ],
    ['sweep --exact', ['sweep', 'infinity', '--vary', 'wipA=12,13', '--exact', '--stream', '4'], '--exact: cannot'],
    ['an exact matrix', ['matrix', 'infinity', '--stream', '2'], "--stream: infinity's matrix is exact"],
    [
      'an exact card',
      ['card', 'infinity', '--stream', '4', '--out', file('never-card.html')],
      "--stream: infinity's card",
    ],
  ];
  for (const [what, argv, message] of refusals) {
    it(`${what}: --stream is refused in one line, exit 2`, async () => {
      expectRefused(await cli(...argv), message);
      expect(existsSync(file('never-card.html'))).toBe(false);
    });
  }
});

describe('merge --quiet prints nothing on stderr', () => {
  const RUN = ['--trials', '300000', '--seed', 'quiet', '--threads', '1', '--quiet'];

  it('shards of a run, merged with --verify 2 and --json FILE: stderr empty; without --quiet it says what it did', async () => {
    const shards = [file('run-0.json'), file('run-1.json')];
    for (const [index, out] of shards.entries()) {
      const { status, stderr } = await cli('shard', 'infinity', ...RUN, '--shard', `${index}/2`, '--out', out);
      expect(status, stderr).toBe(0);
    }
    const quiet = await cli('merge', ...shards, '--verify', '2', '--json', file('merged.json'), '--quiet');
    expect(quiet.status, quiet.stderr).toBe(0);
    expect(quiet.stderr).toBe('');
    expect(JSON.parse(readFileSync(file('merged.json'), 'utf8')).trials).toBe(300000);
    const loud = await cli('merge', ...shards, '--verify', '2', '--json', file('merged-loud.json'));
    expect(loud.stderr.match(/^verified /gm)).toHaveLength(2);
    expect(loud.stderr).toMatch(/^wrote .*merged-loud\.json$/m);
  });

  it('shards of a sweep, merged with --verify 2 --quiet: stderr empty', async () => {
    const shards = [file('sweep-0.json'), file('sweep-1.json')];
    for (const [index, out] of shards.entries()) {
      const { status, stderr } = await cli(
        'sweep',
        'infinity',
        '--vary',
        'wipA=12,13',
        ...RUN,
        '--shard',
        `${index}/2`,
        '--out',
        out,
      );
      expect(status, stderr).toBe(0);
    }
    const quiet = await cli('merge', ...shards, '--verify', '2', '--json', file('sweep.json'), '--quiet');
    expect(quiet.status, quiet.stderr).toBe(0);
    expect(quiet.stderr).toBe('');
    const loud = await cli('merge', ...shards, '--verify', '2', '--json', file('sweep-loud.json'));
    expect(loud.stderr.match(/^verified /gm)).toHaveLength(2);
  });
});

describe('a parameter’s decimal reaches the solvers as typed, or is refused', () => {
  it('decimals a double holds as typed are read; others are refused naming the value they would become', async () => {
    for (const [set, shown] of [
      ['leaderLoss=0.15', 'leaderLoss=0.15'],
      ['leaderLoss=0.123456789012345', 'leaderLoss=0.123456789012345'], // 15 significant digits
      ['leaderLoss=0.30000000000000004', 'leaderLoss=0.30000000000000004'], // 17, and a double holds them
      ['leaderLoss=5e-1', 'leaderLoss=0.5'],
      ['squads=40e-1', 'squads=4'],
      ['squads=4.000', 'squads=4'],
    ]) {
      const { status, stdout, stderr } = await cli('run', 'reserves', '--exact', '--set', set, 'chosenRound=2');
      expect(status, `${set}: ${stderr}`).toBe(0);
      expect(stdout.replace(/\s+/g, ' '), set).toContain(shown);
    }
    for (const [set, readAs] of [
      ['leaderLoss=1.0000000000000001', '1'],
      ['leaderLoss=0.1234567890123456789', '0.12345678901234568'],
      ['leaderLoss=1e-400', '0'],
      ['leaderLoss=1e-99999999999', '0'],
      ['squads=4.0000000000000001', '4'],
    ]) {
      const refused = await cli('run', 'reserves', '--exact', '--set', set);
      expectRefused(refused, `${set.split('=')[0]}: got ${JSON.stringify(set.split('=')[1])}`);
      expect(refused.stderr).toContain(`would be read as ${readAs})`);
    }
  });

  it('seed 33: holdsAsTyped agrees with exact BigInt fractions of the typed text and of the double’s text', () => {
    const decimal = fc
      .tuple(
        fc.boolean(),
        fc.stringMatching(/^[0-9]{1,20}$/),
        fc.stringMatching(/^[0-9]{0,20}$/),
        fc.integer({ min: -30, max: 30 }),
      )
      .map(
        ([negative, whole, fractional, exponent]) =>
          `${negative ? '-' : ''}${whole}${fractional ? `.${fractional}` : ''}${exponent ? `e${exponent}` : ''}`,
      );
    fc.assert(
      fc.property(decimal, (text) => {
        const value = Number(text);
        const same =
          Fraction.fromDecimal(text)
            .sub(Fraction.fromDecimal(String(value)))
            .toString() === '0';
        expect(holdsAsTyped(text, value)).toBe(same);
        // Up to 15 significant digits, a double always holds the decimal as typed.
        const significant = text.replace(/e.*$/, '').replace(/[-.]/g, '').replace(/^0+/, '').replace(/0+$/, '');
        if (significant.length <= 15) expect(holdsAsTyped(text, value)).toBe(true);
      }),
      { seed: 33, numRuns: 2000 },
    );
    // Every double's own text is held as typed.
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
        expect(holdsAsTyped(String(value), value)).toBe(true);
      }),
      { seed: 34, numRuns: 2000 },
    );
  });
});

describe('a mean beyond a double is refused in one line', () => {
  const rule = (name: string, value: string, exact = '') => {
    const path = file(`${name}.mjs`);
    writeFileSync(
      path,
      `export default {
  id: '${name}', title: 'Huge', summary: 'a mean beyond a double', source: 'a test', params: [],
  metrics: [ { name: 'big.mean', doc: 'a big number', probability: false }, { name: 'p', doc: 'a coin', probability: true } ],
  trial(dice, p, out) { out['big.mean'] = dice.d(2) === 1 ? ${value} : 0; out.p = dice.d(2) === 1; },
  ${exact}
};
`,
    );
    return path;
  };

  it('a sum past 1.8e308 (1.5e308 in half of 1,000 trials), or a sum of squares (1e300): exit 2, nothing written', async () => {
    for (const [name, value, what] of [
      ['sum', '1.5e308', 'the sum of its values'],
      ['squares', '1e300', 'the sum of its squared values'],
    ]) {
      const json = file(`${name}.json`);
      const outcome = await cli('run', rule(name, value), '--trials', '1000', '--json', json, '--quiet');
      expectRefused(outcome, `${join(folder, `${name}.mjs`)} (rule ${name}): metric "big.mean": ${what}`);
      expect(existsSync(json)).toBe(false);
    }
  });

  it('values whose sums fit (1e100) print their estimate; an exact value past a double is refused too', async () => {
    const fits = await cli('run', rule('fits', '1e100'), '--trials', '1000', '--quiet');
    expect(fits.status, fits.stderr).toBe(0);
    // Half the trials write 1e100: the mean is near 5e99, its interval too.
    expect(fits.stdout).toMatch(/^big\.mean +[\d.]+e\+99 +[\d.]+e\+99 – [\d.]+e\+99$/m);
    const exact = rule('exact', '1', "exact() { return { 'big.mean': `${10n ** 400n}/3`, p: '1/2' }; },");
    expectRefused(await cli('run', exact, '--exact'), `${exact} (rule exact): metric "big.mean": its exact value`);
  });
});

describe('numbers have nothing between their digits', () => {
  for (const trials of ['1_000', '1,000', '1 000', '10_M']) {
    it(`--trials ${JSON.stringify(trials)} is refused`, async () => {
      expectRefused(await cli('run', 'infinity', '--trials', trials), `--trials: got ${JSON.stringify(trials)}`);
    });
  }
  it('sweep and compare read --trials alike', async () => {
    expectRefused(await cli('sweep', 'infinity', '--vary', 'wipA=12,13', '--trials', '2_000'), '--trials:');
    expectRefused(
      await cli('compare', 'infinity', '--variant', 'a: wipA=12', '--variant', 'b: wipA=13', '--trials', '2_000'),
      '--trials:',
    );
  });
});

describe('an output name that ends as a folder’s is refused', () => {
  for (const [option, name] of [
    ['--html', 'foo.html/'],
    ['--json', 'out/'],
    ['--csv', 'sub/.'],
    ['--html', '.'],
    ['--json', '..'],
  ]) {
    it(`${option} ${name}: one line, and nothing written`, async () => {
      const before = readdirSync(folder).sort();
      // Joined by hand: path.join would drop the trailing `/.` being tested.
      const { status, stdout, stderr } = await cli('run', 'infinity', '--trials', '1000', option, `${folder}/${name}`);
      expect(status).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toMatch(new RegExp(`^muster: ${option}: ".*" ends as a folder's name does`));
      expect(readdirSync(folder).sort()).toEqual(before);
    });
  }
});

describe('a read-only output file is refused and left as it was', () => {
  it('0444 (and 0400, 0440), directly or through a link: exit 2, contents and mode unchanged, even for root', async () => {
    for (const mode of [0o444, 0o400, 0o440]) {
      const target = file(`read-only-${mode.toString(8)}.json`);
      writeFileSync(target, 'keep me\n');
      chmodSync(target, mode);
      const link = file(`link-${mode.toString(8)}.json`);
      symlinkSync(target, link);
      for (const path of [target, link]) {
        const outcome = await cli('run', 'infinity', '--trials', '1000', '--json', path, '--quiet');
        expectRefused(outcome, `--json: ${path} is read-only (mode 0${mode.toString(8)})`);
        expect(readFileSync(target, 'utf8')).toBe('keep me\n');
        expect(statSync(target).mode & 0o777).toBe(mode);
        expect(lstatSync(link).isSymbolicLink()).toBe(true);
      }
    }
  });

  it('a read-only SVG among --svg’s files (named only when written): refused before any file changes', async () => {
    const svg = file('charts');
    const first = await cli('run', 'infinity', '--trials', '1000', '--svg', svg, '--quiet');
    expect(first.status, first.stderr).toBe(0);
    const names = readdirSync(svg).sort();
    expect(names.length).toBeGreaterThan(1);
    const before = new Map(names.map((name) => [name, readFileSync(join(svg, name), 'utf8')]));
    chmodSync(join(svg, names[1]), 0o444);
    // The names are the charts': known, and checked, once the result exists, before anything is staged.
    const second = await cli('run', 'infinity', '--trials', '2000', '--svg', svg, '--quiet');
    expect(second.status).toBe(2);
    expect(second.stderr).toBe(
      `muster: --svg: ${join(svg, names[1])} is read-only (mode 0444); allowed: a file you may write (chmod u+w it ` +
        'to let muster replace it), or another name\n',
    );
    for (const name of names) expect(readFileSync(join(svg, name), 'utf8')).toBe(before.get(name));
    expect(readdirSync(svg).sort()).toEqual(names);
  });
});

describe('a rule file with no parameters', () => {
  it('run says so in its heading, as a sweep says "fixed: (none)", with no dangling "params: "', async () => {
    const path = file('no-params.mjs');
    writeFileSync(
      path,
      `export default {
  id: 'one-die',
  title: 'One die',
  metrics: [{ name: 'six', probability: true, doc: 'a six' }],
  trial(dice, p, out) { out.six = dice.d(6) === 6; },
};
`,
    );
    for (const mode of [['--exact'], ['--trials', '600']]) {
      const { status, stdout, stderr } = await cli('run', path, ...mode);
      expect(status, stderr).toBe(0);
      expect(stdout.split('\n')).toContain('params: (none)');
      // A six in one of the six ways a die falls.
      if (mode[0] === '--exact') expect(stdout).toMatch(/1\/6/);
    }
  });
});
