/**
 * `muster new-rule NAME`: the rule file it writes runs as written under
 * muster, its test file passes under vitest, and existing files are never
 * overwritten (exit 2, nothing written).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, scratchFolder } from '../support/cli.js';

const folder = scratchFolder('new-rule');
const repository = fileURLToPath(new URL('../..', import.meta.url));

describe('muster new-rule', () => {
  it('writes NAME.mjs and NAME.test.mjs; the rule runs as written, exactly and simulated, and they agree', async () => {
    const stem = join(folder, 'ambush');
    const { status, stdout } = await cli('new-rule', stem);
    expect(status).toBe(0);
    expect(stdout).toContain(`wrote ${stem}.mjs\nwrote ${stem}.test.mjs`);
    const exact = await cli('run', `${stem}.mjs`, '--exact', '--set', 'dice=2', '--set', 'target=7');
    expect(exact.status).toBe(0);
    // 2d6 ≥ 7: 21 of the 36 ways, 58.333%; the mean total of 2d6 is 7.
    expect(exact.stdout).toMatch(/\narrives\s+58\.333%( = 7\/12)?\n/);
    expect(exact.stdout).toMatch(/\ntotal\.mean\s+7\.0000( = 7)?\n/);
    const simulated = await cli(
      'run',
      `${stem}.mjs`,
      '--trials',
      '2e5',
      '--seed',
      'new-rule',
      '--threads',
      '2',
      '--set',
      'rerollOnes=true',
      '--json',
      join(folder, 'ambush.json'),
    );
    expect(simulated.status).toBe(0);
    const metric = JSON.parse(readFileSync(join(folder, 'ambush.json'), 'utf8')).metrics.arrives;
    // With 1s re-rolled a die shows 1 with chance 1/36 and each other face 7/36: counting pairs with those weights,
    // totals of 7 or more make 945 of the 36² = 1296.
    expect(metric.exact).toBeCloseTo(945 / 1296, 14);
    // 5σ, σ = √(p(1−p)/n) at n = 200,000: a false alarm once in 1.7 million runs; the seed is fixed.
    expect(Math.abs(metric.estimate - metric.exact)).toBeLessThan(
      5 * Math.sqrt((metric.exact * (1 - metric.exact)) / 2e5),
    );
  });

  it('its test file passes under vitest', () => {
    // Inside the repository (so `vitest` resolves), in a git-ignored folder, with an empty config.
    mkdirSync(join(repository, '.scratch'), { recursive: true });
    const project = mkdtempSync(join(repository, '.scratch', 'new-rule-'));
    afterAll(() => rmSync(project, { recursive: true, force: true }));
    writeFileSync(join(project, 'vitest.config.mjs'), 'export default {};\n');
    const made = spawnSync(process.execPath, [join(repository, 'dist', 'cli.js'), 'new-rule', 'charge'], {
      cwd: project,
      encoding: 'utf8',
    });
    expect(made.status).toBe(0);
    const vitest = spawnSync(
      process.execPath,
      [join(repository, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--root', project],
      { cwd: project, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', CI: '1' } },
    );
    expect(vitest.stdout + vitest.stderr).toMatch(/Tests\s+6 passed \(6\)/);
    expect(vitest.status).toBe(0);
  });

  it('refuses to overwrite: exit 2, one line, and nothing written', async () => {
    const stem = join(folder, 'taken');
    writeFileSync(`${stem}.test.mjs`, 'mine');
    const { status, stderr } = await cli('new-rule', stem);
    expect(status).toBe(2);
    expect(stderr).toBe(
      `muster: NAME: ${stem}.test.mjs already exists; allowed: a name whose .mjs and .test.mjs files do not exist ` +
        `yet (nothing was written)\n`,
    );
    expect(existsSync(`${stem}.mjs`)).toBe(false);
    expect(readFileSync(`${stem}.test.mjs`, 'utf8')).toBe('mine');
  });

  it('refuses a name that cannot be a rule id, and a missing folder', async () => {
    expect((await cli('new-rule', join(folder, 'my rule'))).stderr).toMatch(
      /^muster: NAME: got ".*my rule"; allowed: a rule name of letters, digits and '-'/,
    );
    expect((await cli('new-rule', join(folder, 'missing', 'rule'))).stderr).toMatch(
      /^muster: NAME: folder .*missing does not exist/,
    );
  });
});
