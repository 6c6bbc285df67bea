/**
 * An exact sweep long enough to hand its tail to the pool's threads (analysis/exact-grid.ts), through the CLI as a
 * user runs it: its table is the one the same sweep prints kept on one thread, which --timeout does (the CLI's
 * supervisor watches a rule file's calls on the command's thread, so they stay there). The hand-over itself, with
 * its thresholds forced, is tested in test/analysis/exact-grid.test.ts; here the wiring of the command is.
 */
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';

describe('muster sweep --exact, long enough to use the threads', () => {
  it('prints the table the same sweep on one thread prints, exit 0', async () => {
    // 36 points of about 60–100 ms each: past the 2 s of work that the hand-over waits for, on an idle machine.
    const args = ['sweep', 'examples/rules/reserves-2d6-rounds.mjs', '--exact', '--vary', 'squads=150..185'];
    const handed = await cli(...args);
    const oneThread = await cli(...args, '--timeout', '86400');
    expect(handed.status, handed.stderr).toBe(0);
    expect(oneThread.status, oneThread.stderr).toBe(0);
    expect(handed.stdout).toContain('sweep of 36 points');
    expect(handed.stdout).toBe(oneThread.stdout);
  }, 60_000);
});
