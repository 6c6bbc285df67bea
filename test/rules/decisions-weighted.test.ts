/**
 * A weighted-sum objective for a step-form decision rule (`--objective "a.sum - 3*a.wins"`, or the file's own
 * `objective`): best play solved exactly (src/exact/decisions.ts through src/rule-files/exact.ts) against brute
 * force written here from the procedure: a d6 that A may roll again while re-roll tokens last, keeping the last roll;
 * every deterministic policy (keep or re-roll at each of the 12 (tokens, value) states: 4,096 policies) valued in
 * fractions, the best taken. Weights chosen so that best play is neither metric's own: it re-rolls a 4 (bad for
 * a.wins) and keeps a 3 (bad for a.sum).
 */
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import type { Params, RuleDecisions } from '../../src/contract/types.js';
import { Fraction } from '../../src/exact/fraction.js';
import { adaptRuleFile } from '../../src/rule-files/rule.js';
import { resolveParams } from '../../src/rules/params.js';
import { bufferIo } from '../support/io.js';

interface State {
  phase: string;
  tokens: number;
  value?: number;
}

const spec = {
  id: 'keep-or-reroll',
  title: 'a d6 kept or rolled again',
  params: [{ name: 'tokens', type: 'integer', default: 2, min: 0, max: 2, doc: 're-rolls A holds' }],
  metrics: [
    { name: 'a.wins', doc: 'the kept die shows 4+', probability: true },
    { name: 'a.sum', doc: 'the kept die', probability: false },
  ],
  objective: 'a.sum - 3*a.wins',
  start: (p: Params) => ({ phase: 'roll', tokens: p.tokens }),
  choices: (s: State) => (s.phase === 'decide' && s.tokens > 0 ? ['keep', 'reroll'] : null),
  choose: (s: State, option: string) =>
    option === 'keep' ? { phase: 'kept', tokens: s.tokens, value: s.value } : { phase: 'roll', tokens: s.tokens - 1 },
  step: (s: State, dice: { d(n: number): number }) => {
    const value = dice.d(6);
    return s.tokens > 0 ? { phase: 'decide', value, tokens: s.tokens } : { phase: 'kept', tokens: 0, value };
  },
  done: (s: State) => s.phase === 'kept',
  report: (s: State, _p: unknown, out: Record<string, unknown>) => {
    out['a.wins'] = (s.value as number) >= 4;
    out['a.sum'] = s.value;
  },
};

/** The objective of a kept die: constant + wins·[value ≥ 4] + sum·value. */
type Weights = { constant: Fraction; wins: Fraction; sum: Fraction };
const scoreOf = (w: Weights, value: number) =>
  w.constant.add(w.wins.mul(Fraction.of(value >= 4 ? 1 : 0))).add(w.sum.mul(Fraction.of(value)));

/** Every policy's value, brute force: bit (t − 1)·6 + (v − 1) of `policy` set means re-roll with t tokens at v. */
function bruteForce(w: Weights, tokens: number): { best: Fraction; policy: number } {
  const sixth = Fraction.of(1, 6);
  const valueAt = (policy: number, t: number, v: number): Fraction => {
    if (t === 0 || (policy & (1 << ((t - 1) * 6 + (v - 1)))) === 0) return scoreOf(w, v);
    let total = Fraction.ZERO;
    for (let next = 1; next <= 6; next++) total = total.add(sixth.mul(valueAt(policy, t - 1, next)));
    return total;
  };
  let best: Fraction | null = null;
  let bestPolicy = 0;
  for (let policy = 0; policy < 1 << (6 * tokens); policy++) {
    let value = Fraction.ZERO;
    for (let v = 1; v <= 6; v++) value = value.add(sixth.mul(valueAt(policy, tokens, v)));
    if (best === null || value.compare(best) > 0) {
      best = value;
      bestPolicy = policy;
    }
  }
  return { best: best as Fraction, policy: bestPolicy };
}

function solved(set: string[]): RuleDecisions {
  const rule = adaptRuleFile(spec, 'keep-or-reroll.mjs');
  return (rule.exact!.decisions as (p: Params) => RuleDecisions)(resolveParams(rule, set));
}

describe('a weighted-sum objective in a step-form decision rule, against every deterministic policy', () => {
  const cases: Array<[string, Weights]> = [
    ['a.sum - 3*a.wins', { constant: Fraction.ZERO, wins: Fraction.of(-3), sum: Fraction.ONE }],
    ['1 + a.wins + 0.5*a.sum', { constant: Fraction.ONE, wins: Fraction.ONE, sum: Fraction.of(1, 2) }],
    ['0.25*(a.sum - 2) - a.wins', { constant: Fraction.of(-1, 2), wins: Fraction.of(-1), sum: Fraction.of(1, 4) }],
  ];
  for (const [text, weights] of cases) {
    it(`${text}: the value of best play is the best of the 4,096 policies, and each choice its best`, () => {
      const decisions = solved([`objective=${text}`]);
      const { best } = bruteForce(weights, 2);
      expect(decisions.objective).toBe(text);
      expect(decisions.value.toString()).toBe(best.toString());
      // Each decision reached: the option taken is one of highest value (ties to the first listed, keep).
      for (const entry of decisions.policy) {
        const [keep, reroll] = entry.options.map((option) => option.value as Fraction);
        const state = entry.state as State;
        expect(keep.toString(), entry.label).toBe(scoreOf(weights, state.value as number).toString());
        expect(entry.choice, entry.label).toBe(reroll.compare(keep) > 0 ? 'reroll' : 'keep');
      }
    });
  }

  it("the file's own objective is a weighted sum; best play is neither metric's own", () => {
    const decisions = solved([]);
    expect(decisions.objective).toBe('a.sum - 3*a.wins');
    const at = (tokens: number, value: number) =>
      decisions.policy.find((entry) => {
        const state = entry.state as State;
        return state.tokens === tokens && state.value === value;
      })?.choice;
    // Re-rolls a 4 (keeping it would win), keeps a 3 (re-rolling would raise the sum on average).
    expect(at(2, 4)).toBe('reroll');
    expect(at(2, 3)).toBe('keep');
    expect(decisions.value.toString()).toBe(bruteForce(cases[0][1], 2).best.toString());
  });

  it('a weighted objective naming no metric of the rule is a one-line error naming objective', async () => {
    expect(() => solved(['objective=a.wins + 0.5*a.nope'])).toThrow(/^objective: .*a\.nope/);
    expect(() => adaptRuleFile({ ...spec, objective: 'a.wins + b' }, 'bad.mjs')).toThrow(/objective/);
  });

  it('muster run FILE --exact --objective "…": the JSON objective as typed, its value as brute force gives it', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const folder = mkdtempSync(join(tmpdir(), 'weighted-'));
    const file = join(folder, 'keep.mjs');
    // The same rule as a file: the functions written out as the contract asks.
    writeFileSync(
      file,
      `export default {
  id: 'keep-or-reroll', title: 'a d6 kept or rolled again',
  params: [{ name: 'tokens', type: 'integer', default: 2, min: 0, max: 2, doc: 're-rolls A holds' }],
  metrics: [{ name: 'a.wins', doc: 'kept 4+', probability: true }, { name: 'a.sum', doc: 'kept die', probability: false }],
  objective: 'a.wins',
  start: (p) => ({ phase: 'roll', tokens: p.tokens }),
  choices: (s) => (s.phase === 'decide' && s.tokens > 0 ? ['keep', 'reroll'] : null),
  choose: (s, o) => (o === 'keep' ? { phase: 'kept', tokens: s.tokens, value: s.value } : { phase: 'roll', tokens: s.tokens - 1 }),
  step: (s, dice) => { const value = dice.d(6); return s.tokens > 0 ? { phase: 'decide', value, tokens: s.tokens } : { phase: 'kept', tokens: 0, value }; },
  done: (s) => s.phase === 'kept',
  report: (s, p, out) => { out['a.wins'] = s.value >= 4; out['a.sum'] = s.value; },
};
`,
    );
    const io = bufferIo();
    const text = '1 + a.wins + 0.5*a.sum';
    expect(await main(['run', file, '--exact', '--objective', text, '--json', '-'], io)).toBe(0);
    const result = JSON.parse(io.stdout()) as { objective: { metric: string; fraction: string } };
    expect(result.objective.metric).toBe(text);
    expect(result.objective.fraction).toBe(bruteForce(cases[1][1], 2).best.toString());
  });
});
