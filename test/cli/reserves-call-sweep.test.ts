/**
 * `muster sweep reserves --set chosenRound=call --vary …`: best play solved at each point. Each row against code
 * that shares nothing with the built-in's recursion: the value in play from the rule-file port
 * (examples/rules/reserves-call-steps.mjs, solved by enumeration and policy iteration), the best round declared
 * before the game as the highest of reserves.exact over every fixed round, and the worth as their difference.
 */
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import type { RuleDecisions } from '../../src/contract/types.js';
import type { Fraction } from '../../src/exact/fraction.js';
import { adaptRuleFile } from '../../src/rule-files/rule.js';
import { resolveParams } from '../../src/rules/params.js';
import { reserves } from '../../src/rules/reserves/reserves.js';
import { bufferIo } from '../support/io.js';

const portPath = new URL('../../examples/rules/reserves-call-steps.mjs', import.meta.url).pathname;
const port = adaptRuleFile(((await import(portPath)) as { default: object }).default, 'reserves-call-steps.mjs');

describe('muster sweep reserves --set chosenRound=call', () => {
  it('each point: the value in play as the port solves it, the best fixed round as reserves.exact, the worth', async () => {
    const io = bufferIo();
    const code = await main(
      [
        'sweep',
        'reserves',
        '--set',
        'chosenRound=call',
        'command=4',
        'fallbackCommand=1',
        '--vary',
        'leaderLoss=0,0.2',
        '--vary',
        'squads=2,4',
      ],
      io,
    );
    expect(code ?? 0).toBe(0);
    const rows = io
      .stdout()
      .split('\n')
      .filter((line) => /^\d/.test(line))
      .map((line) => line.trim().split(/\s+/));
    expect(rows).toHaveLength(4);
    for (const [leaderLoss, squads, inPlay, bestRound, declared, worth] of rows) {
      const set = [`leaderLoss=${leaderLoss}`, `squads=${squads}`, 'command=4', 'fallbackCommand=1'];
      const decisions = (port.decisions as (p: object) => RuleDecisions)(
        resolveParams(port, [...set, 'objective=all.by.4']),
      );
      expect(inPlay, set.join(' ')).toBe(decisions.value.toNumber().toFixed(6));
      const exactOf = reserves.exact as (p: object) => Record<string, Fraction>;
      const base = resolveParams(reserves as never, set);
      const fixed = [0, 1, 2, 3, 4].map((chosenRound) => exactOf({ ...base, chosenRound })['all.by.4']);
      // The best fixed round: the highest value, the earliest among equals.
      const best = fixed.reduce((at, value, round) => (value.compare(fixed[at]) > 0 ? round : at), 0);
      expect(bestRound, set.join(' ')).toBe(best === 0 ? 'none' : String(best));
      expect(declared, set.join(' ')).toBe(fixed[best].toNumber().toFixed(6));
      const difference = decisions.value.sub(fixed[best]).toNumber();
      expect(worth, set.join(' ')).toBe(`+${difference.toFixed(6)}`);
      // Without leader loss the squads are independent: calling in play is worth exactly nothing.
      if (leaderLoss === '0') expect(decisions.value.equals(fixed[best])).toBe(true);
      else expect(difference).toBeGreaterThan(0);
    }
  });

  for (const [what, args] of [
    ['--vary chosenRound', ['--vary', 'chosenRound=1,2']],
    ['--json', ['--vary', 'squads=2,3', '--json', '-']],
    ['--trials', ['--vary', 'squads=2,3', '--trials', '1000']],
    ['no --vary', []],
  ] as const) {
    it(`${what}: refused in one line naming it, exit 2`, async () => {
      const io = bufferIo();
      const code = await main(['sweep', 'reserves', '--set', 'chosenRound=call', ...args], io);
      expect(code).toBe(2);
      expect(io.stderr().trim().split('\n')).toHaveLength(1);
      expect(io.stderr()).toMatch(what === 'no --vary' ? /--vary/ : new RegExp(what.split(' ')[0]));
      expect(io.stdout()).toBe('');
    });
  }
});
