/**
 * The decision members of a rule file (docs/custom-rules.md, "Decisions") misused: each mistake is one line
 * naming the file, the rule and the member, with what is allowed — at load where the file alone shows it, when
 * best play is solved where only a state shows it.
 */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { adaptRuleFile } from '../../src/rule-files/rule.js';
import { resolveParams } from '../../src/rules/params.js';

/** A two-state decision rule: at the start A picks "win" or "lose"; overrides replace members. */
function rule(overrides: Record<string, unknown> = {}) {
  return {
    id: 'pick',
    title: 'pick',
    metrics: [
      { name: 'a.wins', probability: true, doc: 'A wins' },
      { name: 'rolls', probability: false, doc: 'rolls' },
    ],
    start: () => ({ phase: 'pick' }),
    choices: (s: { phase: string }) => (s.phase === 'pick' ? ['lose', 'win'] : null),
    choose: (_s: unknown, option: string) => ({ phase: 'roll', picked: option }),
    step: (s: { picked: string }, dice: { d(n: number): number }) => ({
      ended: true,
      won: s.picked === 'win' && dice.d(2) > 0,
    }),
    done: (s: { ended?: boolean }) => s.ended === true,
    report: (s: { won: boolean }, _p: unknown, out: Record<string, unknown>) => {
      out['a.wins'] = s.won;
    },
    ...overrides,
  };
}

/** Loads and solves; returns the error's message. */
function failure(spec: object, set: string[] = []): string {
  try {
    const adapted = adaptRuleFile(spec, 'pick.mjs');
    (adapted.exact!.decisions as Function)(resolveParams(adapted, set));
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    const message = (error as Error).message;
    expect(message).not.toContain('\n');
    return message;
  }
  throw new Error('no error');
}

describe('decision members misused', () => {
  it('a well-formed rule solves: A picks "win"', () => {
    const adapted = adaptRuleFile(rule(), 'pick.mjs');
    const decisions = (adapted.exact!.decisions as Function)(resolveParams(adapted, []));
    expect(decisions.policy.map((e: { choice: string }) => e.choice)).toEqual(['win']);
    expect(decisions.value.toString()).toBe('1');
  });

  it.each([
    [
      { choices: () => [] },
      /^pick\.mjs \(rule pick\): choices\(state, params\): returned no options \(an empty array\) at the state /,
    ],
    [{ choices: () => ['win', 'win'] }, /choices\(state, params\): returned the option "win" twice at the state/],
    [{ choices: () => ['win', 3] }, /choices\(state, params\): returned the option 3, not a string/],
    [
      { choices: () => 'win' },
      /choices\(state, params\): returned "win" at the state .*allowed: null where step rolls/,
    ],
    [{ choices: () => ({ side: 'c', options: ['win'] }) }, /choices\(state, params\): returned the side "c"/],
    [{ choices: () => ({ side: 'a', options: ['win'], who: 1 }) }, /returned an object with the field "who"/],
    [
      { choose: () => ({ at: new Date(0) }) },
      /choose\(state, "lose", params\) returned a state that is not plain JSON: \.at is an object of a class \(Date\) \(a choice from \{"phase":"pick"\}\)/,
    ],
    [
      {
        choose: (() => {
          let calls = 0; // state kept between calls: choose is not a function of its state
          return () => ({ phase: 'roll', picked: 'win', n: calls++ });
        })(),
      },
      /not a function of its state: choose\(state, "lose", params\) went to/,
    ],
    [
      { choose: (_s: unknown, _o: string, dice: { d(n: number): number }) => ({ n: dice.d(6) }) },
      /choose\(state, "lose", params\) threw TypeError: .*dice\.d is not a function/,
    ],
  ])('%#: one line naming the member', (overrides, pattern) => {
    expect(failure(rule(overrides))).toMatch(pattern);
  });

  it('at load: decisions with the trial form, one member without the other, objective not a metric', () => {
    const trialForm = { id: 'pick', title: 'pick', metrics: rule().metrics, trial: () => {}, choices: () => null };
    expect(() => adaptRuleFile(trialForm, 'pick.mjs')).toThrow(
      /^pick\.mjs \(rule pick\): choices: decisions belong to the step form; allowed: choices and choose beside/,
    );
    expect(() => adaptRuleFile(rule({ choose: undefined }), 'pick.mjs')).toThrow(
      /choose: got undefined; allowed: with choices, a function choose\(state, option, params\)/,
    );
    expect(() => adaptRuleFile(rule({ objective: 'nosuch' }), 'pick.mjs')).toThrow(
      'pick.mjs (rule pick): objective: "nosuch" is not a metric of this rule at these parameters; allowed: a metric, ' +
        'or a weighted sum',
    );
    expect(() => adaptRuleFile(rule({ objective: 3 }), 'pick.mjs')).toThrow(/objective: got 3; allowed: absent/);
    expect(() => adaptRuleFile(rule({ label: 'x' }), 'pick.mjs')).toThrow(
      /label: got "x"; allowed: absent, or a function/,
    );
    const noChoices = { ...rule(), choices: undefined, choose: undefined, objective: 'a.wins' };
    expect(() => adaptRuleFile(noChoices, 'pick.mjs')).toThrow(/objective: only a rule with decisions has one/);
    const param = { name: 'objective', type: 'boolean', default: true, doc: 'x' };
    expect(() => adaptRuleFile(rule({ params: [param] }), 'pick.mjs')).toThrow(
      /parameter objective: a rule with decisions has the parameter objective/,
    );
  });

  it('--set objective= a name that is not a metric; a label that is not text', () => {
    const adapted = adaptRuleFile(rule(), 'pick.mjs');
    expect(() => resolveParams(adapted, ['objective=b.wins'])).toThrow(
      'objective: "b.wins" is not a metric of this rule at these parameters (did you mean "a.wins"?); allowed: a ' +
        'metric, or a weighted sum',
    );
    expect(failure(rule({ label: () => 7 }))).toMatch(/label\(state, params\): returned 7; allowed: text of 1 to 200/);
  });

  it('a two-sided game that can go on forever, and a procedure no choice can end, are refused', () => {
    const stalling = rule({
      choices: (s: { phase: string }) =>
        s.phase === 'pick'
          ? { side: 'a', options: ['pass', 'win'] }
          : s.phase === 'b'
            ? { side: 'b', options: ['pass', 'lose'] }
            : null,
      choose: (s: { phase: string }, option: string) =>
        option === 'pass' ? { phase: s.phase === 'pick' ? 'b' : 'pick' } : { phase: 'roll', picked: option },
    });
    expect(failure(stalling)).toMatch(
      /with both sides deciding, every way of choosing must end the procedure, but from the state .* choosing "pass" there every time it never ends/,
    );
    // Each trip round the loop earns a roll counted in a mean, and A plays for that mean: no best play exists.
    const greedy = rule({
      objective: 'rolls',
      choose: (_s: unknown, option: string) =>
        option === 'win' ? { phase: 'roll', picked: 'win' } : { phase: 'again' },
      step: (
        s: { phase: string; picked: string },
        dice: { d(n: number): number },
        _p: unknown,
        out: Record<string, unknown>,
      ) => {
        out.rolls = 1;
        if (s.phase === 'again') return { phase: 'pick', n: dice.d(2) > 0 ? 0 : 1 };
        return { ended: true, won: s.picked === 'win' };
      },
    });
    expect(failure(greedy)).toMatch(/the objective grows without bound by choosing to go round a loop forever/);
    const endless = rule({ choose: () => ({ phase: 'pick' }) });
    expect(failure(endless)).toMatch(/no way of choosing makes the procedure end for sure from its start/);
  });
});
