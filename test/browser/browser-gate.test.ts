/**
 * The browser tests fail in CI when Chromium is missing, and skip, saying why, on a developer's machine. Before,
 * each suite was `describe.skipIf(!haveChromium)` with CI recognised only as `CI=true`: under `CI=1` (how several
 * services set it) a machine without Chromium skipped every browser test and the build stayed green.
 *
 * The fixture suite (test/fixtures/browser-gate/) is written as the real ones are; each case runs it in a vitest
 * of its own with MUSTER_TEST_CHROMIUM naming a binary that is there or one that is not.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { browserGate, isCi } from '../support/offline-page.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const vitest = fileURLToPath(new URL('../../node_modules/vitest/vitest.mjs', import.meta.url));
const config = fileURLToPath(new URL('../fixtures/browser-gate/vitest.config.ts', import.meta.url));
const missing = '/nonexistent/chromium';

function runFixture(chromium: string, ci: string | undefined): { status: number | null; output: string } {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', MUSTER_TEST_CHROMIUM: chromium };
  delete env.CI;
  delete env.FORCE_COLOR;
  if (ci !== undefined) env.CI = ci;
  const child = spawnSync(process.execPath, [vitest, 'run', '--config', config, '--reporter=verbose'], {
    cwd: root,
    env,
    encoding: 'utf8',
  });
  return { status: child.status, output: `${child.stdout}${child.stderr}` };
}

describe('browserGate: run, fail or skip', () => {
  it('runs wherever Chromium is, CI or not', () => {
    for (const ci of [undefined, '', 'true', '1', 'false']) expect(browserGate(true, ci), String(ci)).toBe('run');
  });

  it('fails without Chromium under every spelling of CI a service uses', () => {
    for (const ci of ['true', '1', 'yes', 'github-actions']) expect(browserGate(false, ci), ci).toBe('fail');
  });

  it('skips without Chromium in a developer shell (CI unset, empty, false or 0)', () => {
    for (const ci of [undefined, '', 'false', '0']) expect(browserGate(false, ci), String(ci)).toBe('skip');
    expect(isCi(undefined)).toBe(false);
  });
});

describe('a browser suite in a vitest of its own', () => {
  it('CI=1 without Chromium: the run fails, naming the missing binary', () => {
    const { status, output } = runFixture(missing, '1');
    expect(status, output).toBe(1);
    expect(output).toContain(`CI is set and ${missing} is missing`);
    expect(output).toMatch(/Tests\s+1 failed \(1\)/);
  });

  it('CI=true without Chromium: the same', () => {
    const { status, output } = runFixture(missing, 'true');
    expect(status, output).toBe(1);
    expect(output).toContain(`CI is set and ${missing} is missing`);
  });

  it('no CI and no Chromium: skipped, and the skip says why', () => {
    const { status, output } = runFixture(missing, undefined);
    expect(status, output).toBe(0);
    expect(output).toContain(`(skipped: ${missing} is missing`);
    expect(output).toMatch(/Tests\s+1 skipped \(1\)/);
  });

  it('CI=1 with a binary at the path: the suite runs its own tests', () => {
    // Any file that exists passes the gate; the fixture's test launches nothing.
    const { status, output } = runFixture(process.execPath, '1');
    expect(status, output).toBe(0);
    expect(output).toMatch(/Tests\s+1 passed \(1\)/);
  });
});
