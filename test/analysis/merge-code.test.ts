/**
 * A shard file is data, never code. Before, `muster merge` imported the
 * JavaScript file a shard's `ruleFile` named and only then compared hashes:
 * a forger who delivered a script beside the shard and recorded the script's
 * own sha256 had it run on the merging machine. Every forgery below names
 * such a script, one that writes a marker file the moment it is imported;
 * merge must refuse each in one line, exit 2, and the marker must not exist.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sealCheckpoint } from '../support/checkpoint-seal.js';
import { cli, scratchFolder } from '../support/cli.js';

const folder = scratchFolder('merge-code');
const file = (name: string) => join(folder, name);
const marker = file('IMPORTED');
const honest = file('honest.mjs');
writeFileSync(honest, readFileSync(new URL('../../examples/rules/reserves-2d6.mjs', import.meta.url), 'utf8'));

/**
 * The forger's script: a valid rule of the same id, which also writes the
 * marker when imported. It imports only node:fs, so its recorded hash is the
 * sha256 of its bytes (docs/custom-rules.md), computed here as a forger would.
 */
const evil = file('evil.mjs');
writeFileSync(
  evil,
  `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, ` +
    `'imported');\n${readFileSync(honest, 'utf8')}`,
);
const evilSha = createHash('sha256').update(readFileSync(evil)).digest('hex');

const read = (name: string) => JSON.parse(readFileSync(file(name), 'utf8')) as Record<string, unknown>;
const RUN = ['--trials', '70k', '--seed', 'forger', '--threads', '1', '--quiet'];

async function refusedWithoutImport(argv: string[], message: RegExp): Promise<void> {
  const result = await cli(...argv);
  expect([result.status, result.stderr], argv.join(' ')).toEqual([2, expect.stringMatching(message)]);
  expect(result.stderr.split('\n'), argv.join(' ')).toHaveLength(2);
  expect(existsSync(marker), `${argv.join(' ')}: the forger's script ran`).toBe(false);
}

describe('merge never imports the rule file a shard names', () => {
  it(
    "a run shard pointing at the forger's script with its own hash: refused without --rule, and with --rule " +
      'naming the honest file',
    async () => {
      expect((await cli('shard', honest, ...RUN, '--shard', '0/1', '--out', file('run.json'))).status).toBe(0);
      const forged = { ...read('run.json'), ruleFile: { path: evil, sha256: evilSha } };
      writeFileSync(file('run-forged.json'), JSON.stringify(forged));
      await refusedWithoutImport(
        ['merge', file('run-forged.json'), '--json', file('never.json')],
        /^muster: files: ".*run-forged\.json" was run with the rule file ".*evil\.mjs", which merge does not import because a shard names it; allowed: --rule PATH/,
      );
      await refusedWithoutImport(
        ['merge', file('run-forged.json'), '--rule', honest, '--json', file('never.json')],
        /^muster: .*honest\.mjs: the rule file, or a file it imports, differs from the run's/,
      );
      // With --verify too: the workers load only the file the person named, after the same check.
      await refusedWithoutImport(
        ['merge', file('run-forged.json'), '--rule', honest, '--verify', '1', '--json', file('never.json')],
        /differs from the run's/,
      );
      // A built-in rule's shard given a ruleFile record: still never imported.
      expect((await cli('shard', 'reserves', ...RUN, '--shard', '0/1', '--out', file('builtin.json'))).status).toBe(0);
      writeFileSync(
        file('builtin-forged.json'),
        JSON.stringify({ ...read('builtin.json'), ruleFile: { path: evil, sha256: evilSha } }),
      );
      await refusedWithoutImport(
        ['merge', file('builtin-forged.json'), '--json', file('never.json')],
        /^muster: files: ".*builtin-forged\.json" was run with the rule file ".*evil\.mjs"/,
      );
      await refusedWithoutImport(
        ['merge', file('run.json'), file('builtin-forged.json'), '--rule', honest, '--json', file('never.json')],
        /^muster: files: ".*builtin-forged\.json": ruleFile\.sha256: got /,
      );
      // The genuine shard merges once the person names the file.
      expect((await cli('merge', file('run.json'), '--rule', honest, '--json', file('run-merged.json'))).status).toBe(
        0,
      );
      expect(existsSync(file('never.json'))).toBe(false);
    },
  );

  it('a sweep shard and a comparison shard whose ruleFiles name the script: refused without --rule', async () => {
    expect(
      (await cli('sweep', honest, '--vary', 'squads=2..3', ...RUN, '--shard', '0/1', '--out', file('sweep.tally')))
        .status,
    ).toBe(0);
    const sweep = read('sweep.tally');
    writeFileSync(
      file('sweep-forged.tally'),
      JSON.stringify({ ...sweep, ruleFiles: [{ ref: '', path: evil, sha256: evilSha }] }),
    );
    await refusedWithoutImport(
      ['merge', file('sweep-forged.tally'), '--json', file('never.json')],
      /^muster: files: ".*sweep-forged\.tally" was run with the rule file ".*evil\.mjs", which merge does not import/,
    );
    await refusedWithoutImport(
      ['merge', file('sweep-forged.tally'), '--rule', honest, '--json', file('never.json')],
      /differs from the run's/,
    );

    // A comparison whose variant names the script by rule=…, recorded with the script's hash.
    expect(
      (
        await cli(
          'compare',
          'reserves',
          '--variant',
          'A: target=7',
          '--variant',
          `B: rule=${honest}`,
          ...RUN,
          '--shard',
          '0/1',
          '--out',
          file('compare.tally'),
        )
      ).status,
    ).toBe(0);
    const compare = read('compare.tally') as { args: { variant: string[] } } & Record<string, unknown>;
    const variant = ['A: target=7', `B: rule=${evil}`];
    writeFileSync(
      file('compare-forged.tally'),
      JSON.stringify({
        ...compare,
        args: { ...compare.args, variant },
        ruleFiles: [{ ref: evil, path: evil, sha256: evilSha }],
      }),
    );
    await refusedWithoutImport(
      ['merge', file('compare-forged.tally'), '--json', file('never.json')],
      /^muster: files: ".*compare-forged\.tally" was run with the rule file ".*evil\.mjs"/,
    );
    await refusedWithoutImport(
      ['merge', file('compare-forged.tally'), '--rule', honest, '--json', file('never.json')],
      /differs from the run's/,
    );
    // Two files named, neither the one recorded: refused by hash, before any import.
    const other = file('other.mjs');
    writeFileSync(other, `${readFileSync(honest, 'utf8')}\n// another file\n`);
    await refusedWithoutImport(
      ['merge', file('compare-forged.tally'), '--rule', honest, '--rule', other, '--json', file('never.json')],
      /^muster: --rule: ".*honest\.mjs" is none of the rule files/,
    );
    expect(
      (await cli('merge', file('compare.tally'), '--rule', honest, '--json', file('compare-merged.json'))).status,
    ).toBe(0);
  });

  it('a path with terminal escapes in the shard is shown escaped, on one line', async () => {
    const shard = {
      ...read('run.json'),
      ruleFile: { path: `/tmp/\u001b]0;pwned\u0007\u001b[2J\nrm -rf.mjs`, sha256: evilSha },
    };
    writeFileSync(file('escape.json'), JSON.stringify(shard));
    const result = await cli('merge', file('escape.json'));
    expect(result.status).toBe(2);
    expect(result.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
    expect(result.stderr.split('\n')).toHaveLength(2);
    expect(result.stderr).toContain('\\u001b]0;pwned');
  });

  it(
    'resuming never imports a file a checkpoint names: the job records the hash of the file on the command ' + 'line',
    async () => {
      const checkpoint = file('resume.ckpt');
      expect((await cli('run', honest, ...RUN, '--checkpoint', checkpoint)).status).toBe(0);
      const saved = JSON.parse(readFileSync(checkpoint, 'utf8')) as { job: Record<string, unknown> };
      expect(saved.job.ruleSha256).toMatch(/^[0-9a-f]{64}$/);
      writeFileSync(
        checkpoint,
        sealCheckpoint({ ...saved, job: { ...saved.job, rule: 'reserves-2d6', ruleFile: evil, ruleSha256: evilSha } }),
      );
      const result = await cli('run', honest, ...RUN, '--checkpoint', checkpoint, '--json', file('never.json'));
      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(/^muster: --checkpoint: .* is from another run \(/);
      expect(existsSync(marker)).toBe(false);
      // And a checkpoint of an edited rule file is not resumed: its hash is part of the job.
      const edited = file('edited.mjs');
      writeFileSync(edited, readFileSync(honest, 'utf8'));
      const editedCheckpoint = file('edited.ckpt');
      expect((await cli('run', edited, ...RUN, '--checkpoint', editedCheckpoint)).status).toBe(0);
      writeFileSync(edited, readFileSync(honest, 'utf8').replace('p.target', 'p.target + 1'));
      const changed = await cli('run', edited, ...RUN, '--checkpoint', editedCheckpoint, '--json', file('never.json'));
      expect([changed.status, changed.stderr]).toEqual([
        2,
        expect.stringMatching(/is from another run \(ruleSha256 "[0-9a-f]+… there, "[0-9a-f]+… now\)/),
      ]);
      expect(existsSync(file('never.json'))).toBe(false);
    },
  );
});
