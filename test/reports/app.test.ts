/**
 * The calculator page's logic that needs no browser: the URL hash, the form
 * read as `--set` would read it (the same values, the same messages as the
 * CLI), and `muster app` itself — one file under 2.5 MB, bad options exit 2
 * with nothing written. test/browser/app-browser.test.ts opens the page.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SEED, DEFAULT_TRIALS } from '../../src/cli/commands/run.js';
import { DEFAULT_STREAM } from '../../src/engine/random.js';
import {
  APP_DEFAULT_SEED,
  APP_DEFAULT_STREAM,
  APP_DEFAULT_TRIALS,
  evaluateForm,
  hashEntries,
  parseStreamText,
  parseTrials,
  readHash,
} from '../../src/page/form-values.js';
import { formatHash, parseHash } from '../../src/page/hash.js';
import { getRule, rules } from '../../src/rules/index.js';
import { resolveParams } from '../../src/rules/params.js';
import { cli, scratchFolder } from '../support/cli.js';
import { CLUB_RESERVES, CLUB_ROLLOFF, writeClubRules } from '../support/club-rules.js';

/** The built-in rules, before the test's own `rules` folder shadows the name. */
const BUILT_IN_COUNT = rules.length;
const BUILT_IN_LAST = rules[rules.length - 1].id;

const folder = scratchFolder('app');

describe('the URL hash', () => {
  it('reads the issue’s example: #infinity?wipA=13&wipB=15', () => {
    expect(parseHash('#infinity?wipA=13&wipB=15')).toEqual({
      ruleId: 'infinity',
      entries: [
        ['wipA', '13'],
        ['wipB', '15'],
      ],
    });
    expect(parseHash('#deployment')).toEqual({ ruleId: 'deployment', entries: [] });
    expect(parseHash('')).toEqual({ ruleId: null, entries: [] });
  });

  it('keeps :, ",", + and / readable, and round-trips any text (& = # % spaces, quotes, non-ASCII)', () => {
    expect(
      formatHash('deployment', [
        ['a', 'forward:1'],
        ['b', 'standard:1,2,3'],
      ]),
    ).toBe('deployment?a=forward:1&b=standard:1,2,3');
    expect(formatHash('warbands', [['allies', '2+3']])).toBe('warbands?allies=2+3');
    const awkward = 'a&b=c#d %41 "é" +';
    const hash = formatHash('echo', [['label', awkward]]);
    expect(hash).toBe('echo?label=a%26b%3Dc%23d%20%2541%20%22%C3%A9%22%20+');
    expect(parseHash(`#${hash}`)).toEqual({ ruleId: 'echo', entries: [['label', awkward]] });
  });

  it('a malformed escape is kept as written rather than thrown', () => {
    expect(parseHash('#infinity?wipA=%E0%A4%A')).toEqual({ ruleId: 'infinity', entries: [['wipA', '%E0%A4%A']] });
  });
});

describe('the form, read as --set reads it', () => {
  it('valid values give exactly the parameters resolveParams gives the CLI, dependent defaults resolved', () => {
    const fow = getRule('fow');
    const outcome = evaluateForm(fow, { attackerPlatoons: '7', defenderPlatoons: '9', ambush: 'false' });
    expect(outcome.fieldErrors.size).toBe(0);
    expect(outcome.params).toEqual(resolveParams(fow, ['attackerPlatoons=7', 'defenderPlatoons=9', 'ambush=false']));
    // Half of 7 rounded up is 4; half of 9 is 5 (the mission minimum the rule resolves 0 to).
    expect(outcome.params?.attackerReserves).toBe(4);
    expect(outcome.params?.defenderReserves).toBe(5);
  });

  it('every wrong field gets the CLI’s own message beside it, and no parameters', async () => {
    const infinity = getRule('infinity');
    const outcome = evaluateForm(infinity, { wipA: 'abc', wipB: '31', crits: 'maybe' });
    expect(outcome.params).toBeNull();
    for (const [name, value] of [
      ['wipA', 'abc'],
      ['wipB', '31'],
      ['crits', 'maybe'],
    ]) {
      const run = await cli('run', 'infinity', '--exact', '--set', `${name}=${value}`);
      expect(run.status).toBe(2);
      expect(`muster: ${outcome.fieldErrors.get(name)}\n`).toBe(run.stderr);
    }
  });

  it('a cross-parameter check lands on the field it names (reserves chosenRound above rounds)', async () => {
    const outcome = evaluateForm(getRule('reserves'), { chosenRound: '5' });
    expect([...outcome.fieldErrors.keys()]).toEqual(['chosenRound']);
    const run = await cli('run', 'reserves', '--exact', '--set', 'chosenRound=5');
    expect(`muster: ${outcome.fieldErrors.get('chosenRound')}\n`).toBe(run.stderr);
  });

  it('a text parameter goes through the rule’s own parser (deployment strategies, warband lists)', () => {
    const deployment = evaluateForm(getRule('deployment'), { a: 'standard:1,1,2' });
    expect(deployment.fieldErrors.get('a')).toMatch(/^a: got "standard:1,1,2" \(zone 1 given .*\); allowed: standard:/);
    const warbands = evaluateForm(getRule('warbands'), { warbands: '100:5, 90:6', allies: '' });
    expect(warbands.params?.warbands).toBe(resolveParams(getRule('warbands'), ['warbands=100:5, 90:6']).warbands);
  });

  it('the page simulates with muster run’s default trials, seed and stream', () => {
    expect(APP_DEFAULT_TRIALS).toBe(DEFAULT_TRIALS);
    expect(APP_DEFAULT_SEED).toBe(DEFAULT_SEED);
    expect(APP_DEFAULT_STREAM).toBe(String(DEFAULT_STREAM));
  });

  it('a stream read as --stream reads it; anything else is refused in the house wording', () => {
    expect(parseStreamText('1')).toBe(1);
    expect(parseStreamText(' 2 ')).toBe(2);
    for (const bad of ['0', '6', '', 'two', '1.5'])
      expect(() => parseStreamText(bad), bad).toThrow(
        /^stream: got ".*"; allowed: 5 \(the default\), 4 \(.*\) or 1 \(/,
      );
  });

  it('trials read as --trials reads them; anything else is refused in the house wording', () => {
    expect(parseTrials('1e6')).toBe(1_000_000);
    expect(parseTrials('250k')).toBe(250_000);
    expect(parseTrials('2M')).toBe(2_000_000);
    expect(parseTrials('150001')).toBe(150_001);
    for (const bad of ['0', '1.5', '-3', 'lots', '1e9'])
      expect(() => parseTrials(bad), bad).toThrow(
        /^trials: got ".*"; allowed: a whole number of trials from 1 to 100M/,
      );
  });
});

describe('a hash read into the form', () => {
  it('keeps wrong values as written, so the field shows them with their message', () => {
    const reading = readHash(rules, parseHash('#infinity?wipA=abc&wipB=15'));
    expect(reading.rule.id).toBe('infinity');
    expect(reading.raw).toEqual({ wipA: 'abc', wipB: '15' });
    expect(reading.problems).toEqual([]);
  });

  it('an unknown rule, an unknown parameter and a repeated one are named, in the CLI’s wording', async () => {
    const unknownRule = readHash(rules, parseHash('#nosuch?x=1'));
    expect(unknownRule.rule.id).toBe(rules[0].id);
    expect(`muster: ${unknownRule.problems[0]}\n`).toBe((await cli('run', 'nosuch', '--exact')).stderr);
    const unknownParam = readHash(rules, parseHash('#infinity?wip=13&wipA=1&wipA=2'));
    expect(unknownParam.problems).toHaveLength(2);
    expect(`muster: ${unknownParam.problems[0]}\n`).toBe(
      (await cli('run', 'infinity', '--exact', '--set', 'wip=13')).stderr,
    );
    expect(unknownParam.problems[0]).toMatch(/^wip: not a parameter of infinity\b.*; allowed: wipA, wipB, crits$/);
    expect(unknownParam.problems[1]).toBe('wipA: set twice; allowed: one value per parameter');
    expect(unknownParam.raw).toEqual({ wipA: '1' });
  });

  it('simulate, trials, seed and stream are the page’s options, written back only where they matter', () => {
    const reading = readHash(rules, parseHash('#infinity?wipA=13&simulate=1&trials=200k&seed=club night&stream=1'));
    expect(reading.simulation).toEqual({ simulate: true, trials: '200k', seed: 'club night', stream: '1' });
    const infinity = getRule('infinity');
    expect(hashEntries(infinity, reading.raw, reading.simulation, true)).toEqual([
      ['wipA', '13'],
      ['wipB', '13'],
      ['crits', 'true'],
      ['simulate', '1'],
      ['trials', '200k'],
      ['seed', 'club night'],
      ['stream', '1'],
    ]);
    // The default stream is not written: a link without it means the default stream.
    expect(
      hashEntries(infinity, reading.raw, { ...reading.simulation, stream: APP_DEFAULT_STREAM }, true).map(
        ([name]) => name,
      ),
    ).not.toContain('stream');
    expect(
      hashEntries(infinity, { wipB: '15' }, { simulate: false, trials: '200k', seed: 'x', stream: '1' }, false),
    ).toEqual([
      ['wipA', '13'],
      ['wipB', '15'],
      ['crits', 'true'],
    ]);
  });
});

describe('muster app', () => {
  it('writes one self-contained page under 2.5 MB: scripts inline, no network allowed by its policy', async () => {
    const out = join(folder, 'app.html');
    const run = await cli('app', '--out', out);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(
      new RegExp(`^wrote the calculator: ${out.replaceAll('/', '\\/')} \\(${rules.length} rules, [\\d,]+ KB\\)`),
    );
    const html = readFileSync(out, 'utf8');
    expect(statSync(out).size).toBeLessThan(2.5 * 1024 * 1024);
    // (Checked as booleans: a failure should not print a megabyte of page.)
    expect(/<script[^>]+src=/i.test(html), 'a script fetched from elsewhere').toBe(false);
    expect(/<link[^>]+href=/i.test(html), 'a linked resource').toBe(false);
    const policy =
      /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1].replaceAll('&#39;', "'") ?? '';
    expect(policy).toMatch(
      /^default-src 'none'; script-src ('sha256-[A-Za-z0-9+/=]+' ){4}'unsafe-eval'; worker-src blob:; /,
    );
    for (const bundle of [
      'vega/build/vega.min.js',
      'vega-lite/build/vega-lite.min.js',
      'vega-embed/build/vega-embed.min.js',
    ]) {
      expect(html.includes(`<!-- ${bundle} --><script>`), bundle).toBe(true);
    }
  });

  it('--out in a folder that does not exist: exit 2, one line, nothing written', async () => {
    const run = await cli('app', '--out', join(folder, 'missing', 'app.html'));
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(
      /^muster: --out: folder .*missing does not exist; allowed: a file in an existing folder\n$/,
    );
    expect(existsSync(join(folder, 'missing'))).toBe(false);
  });

  it(
    '--rule: each file is loaded first; a file muster run would refuse, a clashing id or a node: import is one ' +
      'line, exit 2, nothing written',
    async () => {
      const rules = mkdtempSync(join(tmpdir(), 'muster-app-rules-'));
      try {
        const { reserves, rolloff } = writeClubRules(rules);
        const out = join(folder, 'not-made.html');
        const refused = async (argv: string[], message: RegExp) => {
          const run = await cli('app', '--out', out, ...argv);
          expect(run.status, argv.join(' ')).toBe(2);
          expect(run.stderr, argv.join(' ')).toMatch(message);
          expect(run.stderr.trim().split('\n'), argv.join(' ')).toHaveLength(1);
          expect(existsSync(out), argv.join(' ')).toBe(false);
        };
        // Not a rule: the same message muster run gives for it.
        const empty = join(rules, 'empty.mjs');
        writeFileSync(empty, 'export default {};\n');
        const runMessage = (await cli('run', empty)).stderr;
        expect(runMessage).toMatch(/^muster: .*empty\.mjs/);
        await refused(['--rule', empty], new RegExp(`^${runMessage.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
        // A built-in's id: the page's picker and links name rules by id.
        const infinity = join(rules, 'infinity.mjs');
        writeFileSync(infinity, CLUB_ROLLOFF.replace("id: 'club-rolloff'", "id: 'infinity'"));
        await refused(
          ['--rule', infinity],
          new RegExp(
            `^muster: --rule: got ".*infinity\\.mjs" \\(its id "infinity" is taken by a built-in rule\\); allowed: ` +
              `rule files whose ids differ from each other and from "reserves", .*"${BUILT_IN_LAST}"\n$`,
          ),
        );
        // Two files with one id.
        const again = join(rules, 'again.mjs');
        writeFileSync(again, CLUB_ROLLOFF);
        await refused(
          ['--rule', rolloff, '--rule', again],
          /^muster: --rule: got ".*again\.mjs" \(its id "club-rolloff" is taken by the rule in ".*club-rolloff\.mjs"\); allowed: /,
        );
        // A file that loads in Node but not in a browser.
        const nodeOnly = join(rules, 'node-only.mjs');
        writeFileSync(
          nodeOnly,
          `import { readFileSync } from 'node:fs';\nvoid ` +
            `readFileSync;\n${CLUB_ROLLOFF.replace("id: 'club-rolloff'", "id: 'node-only'")}`,
        );
        await refused(
          ['--rule', nodeOnly],
          /^muster: --rule: got ".*node-only\.mjs" \(it does not bundle for the browser: .*node:fs.*\); allowed: a rule file whose imports a browser can load \(no node: modules\)\n$/,
        );
        // And --out may never be a rule file.
        const same = await cli('app', '--out', reserves, '--rule', reserves);
        expect(same.status).toBe(2);
        expect(same.stderr).toMatch(
          /^muster: --out: ".*club-reserves\.mjs" is the same file as input ".*club-reserves\.mjs"; allowed: /,
        );
        expect(readFileSync(reserves, 'utf8')).toBe(CLUB_RESERVES);
        // Both club files together: written, with the built-in rules and theirs.
        const made = await cli('app', '--out', out, '--rule', reserves, '--rule', rolloff);
        expect(made.stderr).toBe('');
        expect(made.status).toBe(0);
        expect(made.stdout).toMatch(new RegExp(`\\(${BUILT_IN_COUNT + 2} rules, `));
        expect(readFileSync(out, 'utf8')).toContain('Club roll-off on 2d6');
      } finally {
        rmSync(rules, { recursive: true, force: true });
      }
    },
  );

  it('--rule naming no file: exit 2 before anything is written', async () => {
    const out = join(folder, 'kept.html');
    writeFileSync(out, 'keep me');
    const run = await cli('app', '--out', out, '--rule', join(folder, 'no-such-rule.js'));
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(
      /^muster: --rule: got ".*no-such-rule\.js"; allowed: a rule file \(an ES module\) that exists\n$/,
    );
    expect(readFileSync(out, 'utf8')).toBe('keep me');
  });
});
