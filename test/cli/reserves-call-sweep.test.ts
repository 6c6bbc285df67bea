/**
 * `muster sweep reserves --set chosenRound=call --vary …`: best play solved at each point. Each row against code
 * that shares nothing with the built-in's recursion: the value in play from the rule-file port
 * (examples/rules/reserves-call-steps.mjs, solved by enumeration and policy iteration), the best round declared
 * before the game as the highest of reserves.exact over every fixed round, and the worth as their difference.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { callSweepPage } from '../../reports/call-sweep.js';
import { compileSpec } from '../../reports/svg.js';
import type { CallSweepResult } from '../../src/analysis/reserves-call-sweep.js';
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
      const decisions = (port.exact!.decisions as (p: object) => RuleDecisions)(
        resolveParams(port, [...set, 'objective=all.by.4']),
      );
      expect(inPlay, set.join(' ')).toBe(decisions.value.toNumber().toFixed(6));
      const exactOf = reserves.exact!.values as (p: object) => Record<string, Fraction>;
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
    ['--svg', ['--vary', 'squads=2,3', '--svg', 'charts']],
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

  describe('--json, --csv and --html', () => {
    const folder = mkdtempSync(join(tmpdir(), 'call-sweep-'));
    afterAll(() => rmSync(folder, { recursive: true, force: true }));
    const set = ['chosenRound=call', 'command=4', 'fallbackCommand=1'];
    const vary = ['--vary', 'leaderLoss=0,0.2', '--vary', 'squads=2,3'];

    /** The port's value in play and the best fixed round's, at one point, as fractions. */
    function oracle(leaderLoss: string, squads: string) {
      const at = [`leaderLoss=${leaderLoss}`, `squads=${squads}`, 'command=4', 'fallbackCommand=1'];
      const inPlay = (port.exact!.decisions as (p: object) => RuleDecisions)(
        resolveParams(port, [...at, 'objective=all.by.4']),
      ).value;
      const exactOf = reserves.exact!.values as (p: object) => Record<string, Fraction>;
      const base = resolveParams(reserves as never, at);
      const fixed = [0, 1, 2, 3, 4].map((chosenRound) => exactOf({ ...base, chosenRound })['all.by.4']);
      const best = fixed.reduce((x, value, round) => (value.compare(fixed[x]) > 0 ? round : x), 0);
      return { inPlay, best, declared: fixed[best] };
    }

    it('--json: a sweep result, every point as the port and reserves.exact give it, in fractions', async () => {
      const io = bufferIo();
      expect(await main(['sweep', 'reserves', '--set', ...set, ...vary, '--json', '-'], io)).toBe(0);
      const sweep = JSON.parse(io.stdout()) as CallSweepResult;
      expect(sweep.kind).toBe('sweep');
      expect(sweep.method).toBe('exact');
      expect(sweep.params.chosenRound).toBe('call');
      expect(sweep.objective).toBe('all.by.4');
      expect(sweep.vary).toEqual([
        { name: 'leaderLoss', values: [0, 0.2] },
        { name: 'squads', values: [2, 3] },
      ]);
      expect(sweep.points).toHaveLength(4);
      for (const point of sweep.points) {
        const { inPlay, best, declared } = oracle(String(point.params.leaderLoss), String(point.params.squads));
        expect(point.call.best.fraction).toBe(inPlay.toString());
        expect(point.call.bestFixed.chosenRound).toBe(best);
        expect(point.call.bestFixed.value.fraction).toBe(declared.toString());
        expect(point.call.worth.fraction).toBe(inPlay.sub(declared).toString());
        expect(point.metrics['all.by.4'].fraction).toBe(inPlay.toString());
      }
      // The table went to stderr, as --json - took stdout.
      expect(io.stderr()).toMatch(/in play/);
    });

    it('--csv: one row a point, the fractions as the oracle gives them', async () => {
      const io = bufferIo();
      expect(await main(['sweep', 'reserves', '--set', ...set, ...vary, '--csv', '-'], io)).toBe(0);
      const lines = io.stdout().split('\r\n').filter(Boolean);
      expect(lines[0]).toBe(
        'leaderLoss,squads,objective,in_play,in_play_fraction,best_round,declared,declared_fraction,worth,worth_fraction',
      );
      expect(lines).toHaveLength(5);
      for (const line of lines.slice(1)) {
        const [leaderLoss, squads, objective, , inPlayFraction, bestRound, , declaredFraction] = line.split(',');
        const { inPlay, best, declared } = oracle(leaderLoss, squads);
        expect(objective).toBe('all.by.4');
        expect(inPlayFraction).toBe(inPlay.toString());
        expect(bestRound).toBe(String(best));
        expect(declaredFraction).toBe(declared.toString());
      }
    });

    it('--html: a page that opens offline, its chart compiles, every point in the table; --json beside it', async () => {
      const html = join(folder, 'call.html');
      const json = join(folder, 'call.json');
      const io = bufferIo();
      expect(await main(['sweep', 'reserves', '--set', ...set, ...vary, '--html', html, '--json', json], io)).toBe(0);
      const page = readFileSync(html, 'utf8');
      expect(page).toContain('Content-Security-Policy');
      expect(page).not.toMatch(/<script[^>]+src=/);
      expect(page).toContain('Every point');
      expect(page.match(/<tr>/g)?.length).toBeGreaterThanOrEqual(5);
      const sweep = JSON.parse(readFileSync(json, 'utf8')) as CallSweepResult;
      const { charts } = callSweepPage(reserves as never, sweep);
      expect(charts).toHaveLength(1);
      expect(compileSpec(charts[0].spec).warnings).toEqual([]);
    });
  });
});
