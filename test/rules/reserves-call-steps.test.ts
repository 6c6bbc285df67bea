/**
 * examples/rules/reserves-call-steps.mjs, the reserves call written as a rule file with choices, against the
 * built-in `reserves --set chosenRound=call` (src/analysis/reserves-call.ts), fraction for fraction: the objective
 * under best play, every metric the two share under that play, and every decision state best play reaches with
 * both options' values and the option taken. The two share no code: the file is solved by enumerating its states
 * and policy iteration (src/exact/decisions.ts), the built-in by a backward recursion over (round, squads out,
 * commander) written for it; the built-in is itself checked against brute force over every calling policy in
 * test/rules/reserves-call.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { solveCall } from '../../src/analysis/reserves-call.js';
import { runCommand } from '../../src/cli/commands/run.js';
import type { Rule, RuleDecisions } from '../../src/contract/types.js';
import type { Fraction } from '../../src/exact/fraction.js';
import { adaptRuleFile } from '../../src/rule-files/rule.js';
import { resolveParams } from '../../src/rules/params.js';
import { reserves } from '../../src/rules/reserves/reserves.js';
import { proportionTolerance } from '../support/bounds.js';
import { bufferIo } from '../support/io.js';

const path = new URL('../../examples/rules/reserves-call-steps.mjs', import.meta.url).pathname;
const spec = ((await import(path)) as { default: object }).default;

interface Case {
  name: string;
  set: string[];
  objective: string;
}

const CASES: Case[] = [
  { name: 'the defaults: 4 squads, 4 rounds, no leader loss', set: [], objective: 'all.by.4' },
  {
    name: 'leader loss 0.3, command 3 against 1',
    set: ['leaderLoss=0.3', 'command=3', 'fallbackCommand=1'],
    objective: 'all.by.4',
  },
  {
    name: '6 squads, 5 rounds, leader loss 1/4, playing for early arrivals',
    set: ['squads=6', 'rounds=5', 'leaderLoss=0.25', 'command=4'],
    objective: 'arrived.by.2.mean',
  },
  {
    name: 'rolls from round 2, target 8, leader loss 1/2, playing for squads in round 3',
    set: ['squads=3', 'rounds=5', 'target=8', 'firstRound=2', 'leaderLoss=0.5', 'command=3'],
    objective: 'squad.round.3',
  },
  {
    name: 'a sure loss after round 1, target 9, playing for every squad in by round 3',
    set: ['squads=5', 'rounds=6', 'target=9', 'leaderLoss=1', 'command=3', 'fallbackCommand=1'],
    objective: 'all.by.3',
  },
  {
    name: "the docs' example: command 4 or 1, leader loss 0.2 (calling in play is worth +33714659/2176782336)",
    set: ['command=4', 'fallbackCommand=1', 'leaderLoss=0.2'],
    objective: 'all.by.4',
  },
  {
    name: '20 squads, 12 rounds, leader loss 0.1',
    set: ['squads=20', 'rounds=12', 'leaderLoss=0.1', 'command=3'],
    objective: 'all.by.12',
  },
];

function port(set: readonly string[], objective: string) {
  const rule = adaptRuleFile(spec, 'reserves-call-steps.mjs');
  const params = resolveParams(rule, [...set, `objective=${objective}`]);
  const decisions = (rule.exact!.decisions as (p: typeof params) => RuleDecisions)(params);
  const values = (rule.exact!.values as (p: typeof params) => Record<string, Fraction>)(params);
  return { rule, decisions, values };
}

describe('reserves-call-steps.mjs equals the built-in chosenRound=call, fraction for fraction', () => {
  for (const c of CASES) {
    it(c.name, () => {
      const builtIn = solveCall(reserves as unknown as Rule, [...c.set, 'chosenRound=call'], c.objective);
      const { rule, decisions, values } = port(c.set, c.objective);
      expect(decisions.objective).toBe(c.objective);
      expect(decisions.value.toString()).toBe(builtIn.decision.best.fraction);

      // Every metric of the port is one of the built-in's, under the same play.
      const names = rule.metrics(resolveParams(rule, c.set)).map((m) => m.name);
      expect(names.length).toBeGreaterThan(10);
      for (const name of names) {
        const theirs = builtIn.metrics[name];
        expect(theirs, name).toBeDefined();
        expect(values[name].toString(), name).toBe(theirs.fraction);
      }

      // The policy: the same decision states reached, the same option values, the same choice.
      const reached = builtIn.decision.policy.map((d) => ({
        key: `${d.round}/${d.out}/${d.commander === 'alive'}`,
        choice: d.choice,
        wait: (d.options.find((o) => o.option === 'wait') as { value: { fraction: string } }).value.fraction,
        call: (d.options.find((o) => o.option === 'call') as { value: { fraction: string } }).value.fraction,
      }));
      const ours = decisions.policy.map((entry) => {
        const state = entry.state as { round: number; out: number; alive: boolean };
        const value = (option: string) => entry.options.find((o) => o.option === option)?.value?.toString();
        return {
          key: `${state.round}/${state.out}/${state.alive}`,
          choice: entry.choice,
          wait: value('wait'),
          call: value('call'),
        };
      });
      const byKey = (x: { key: string }, y: { key: string }) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0);
      expect(ours.sort(byKey)).toEqual(reached.sort(byKey));
      expect(ours.length).toBeGreaterThan(0);
    });
  }

  it('calling is worth something with leader loss, and the port says the same as the built-in', () => {
    const c = CASES[5];
    const builtIn = solveCall(reserves as unknown as Rule, [...c.set, 'chosenRound=call'], c.objective);
    expect(builtIn.decision.worth.fraction).toBe('33714659/2176782336');
    const { decisions } = port(c.set, c.objective);
    // Some state calls and some state waits: the policy depends on what the player sees (the commander's fate).
    const choices = new Set(decisions.policy.map((entry) => entry.choice));
    expect(choices).toEqual(new Set(['call', 'wait']));
  });

  it("the built-in's generic objective and policy (JSON) are the port's: states, labels, options, fixed plays", () => {
    for (const c of [CASES[1], CASES[3], CASES[5]]) {
      const builtIn = solveCall(reserves as unknown as Rule, [...c.set, 'chosenRound=call'], c.objective);
      const { decisions } = port(c.set, c.objective);
      const objective = builtIn.objective;
      expect(objective?.metric, c.name).toBe(c.objective);
      expect(objective?.fraction, c.name).toBe(decisions.value.toString());
      // Always the first option (call at once) and always the last (never call), as the port's own fixed plays.
      expect(objective?.alwaysFirst?.fraction, c.name).toBe(decisions.alwaysFirst?.toString());
      expect(objective?.alwaysLast?.fraction, c.name).toBe(decisions.alwaysLast?.toString());
      const key = (entry: { state: unknown }) => {
        const { round, out, alive } = entry.state as { round: number; out: number; alive: boolean };
        return `${round}/${out}/${alive}`;
      };
      const theirs = new Map((builtIn.policy ?? []).map((entry) => [key(entry), entry]));
      expect(theirs.size, c.name).toBe(decisions.policy.length);
      for (const entry of decisions.policy) {
        const found = theirs.get(key(entry));
        expect(found?.label, entry.label).toBe(entry.label);
        expect(found?.choice, entry.label).toBe(entry.choice);
        expect(
          found?.options.map((option) => [option.option, option.fraction]),
          entry.label,
        ).toEqual(entry.options.map((option) => [option.option, option.value?.toString() ?? null]));
      }
    }
  });

  it('with a commander who cannot be lost and the same bonus either way, the fate is not tracked', () => {
    const set = ['leaderLoss=0.2', 'command=2', 'fallbackCommand=2', 'squads=3'];
    const builtIn = solveCall(reserves as unknown as Rule, [...set, 'chosenRound=call'], 'all.by.4');
    const { decisions, values } = port(set, 'all.by.4');
    expect(decisions.value.toString()).toBe(builtIn.decision.best.fraction);
    expect(values['dice.mean'].toString()).toBe(builtIn.metrics['dice.mean'].fraction);
    expect(decisions.policy.every((entry) => !entry.label.includes('commander'))).toBe(true);
  });

  it('simulated, the trials play the policy: every squad in by round 4 within 5σ of the built-in exact value', async () => {
    const set = ['command=4', 'fallbackCommand=1', 'leaderLoss=0.2'];
    const trials = 131_072;
    const result = await runCommand(
      path,
      { set: [...set, 'objective=all.by.4'], trials: String(trials), seed: 'call-steps', quiet: true },
      bufferIo(),
    );
    const exact = solveCall(reserves as unknown as Rule, [...set, 'chosenRound=call'], 'all.by.4').decision.best;
    const estimate = result.metrics['all.by.4'].estimate as number;
    expect(result.method).toBe('simulation');
    // A proportion over independent trials: within 5 standard errors, sqrt(p(1 − p)/n), of the exact value.
    expect(Math.abs(estimate - exact.exact)).toBeLessThan(proportionTolerance(exact.exact, trials));
    // Always calling at once would land near 7890481/8503056 = 0.928: the trials played the policy, not that.
    expect(Math.abs(estimate - 7890481 / 8503056)).toBeGreaterThan(proportionTolerance(exact.exact, trials));
  });
});
