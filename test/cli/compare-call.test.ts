/**
 * `muster compare reserves` with a chosenRound=call variant: every variant solved exactly, the call's metrics under
 * best play. Oracles that share no code with the built-in call (src/rules/reserves/call.ts): the rule-file port
 * examples/rules/reserves-call-steps.mjs, solved by enumerating its states (src/exact/decisions.ts), for the call
 * variant; reserves.exact for a fixed round; the differences and the objective's value under each variant computed
 * here in fractions.
 */
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import type { Params, Rule, RuleDecisions } from '../../src/contract/types.js';
import { Fraction } from '../../src/exact/fraction.js';
import { adaptRuleFile } from '../../src/rule-files/rule.js';
import { resolveParams } from '../../src/rules/params.js';
import { reserves } from '../../src/rules/reserves/reserves.js';
import { bufferIo } from '../support/io.js';

const path = new URL('../../examples/rules/reserves-call-steps.mjs', import.meta.url).pathname;
const spec = ((await import(path)) as { default: object }).default;

interface Json {
  method: string;
  variants: { label: string; assignments: string[]; params: Params; metrics: Record<string, { fraction: string }> }[];
  differences: { metric: string; variant: string; exactFraction: string | null }[];
  calls: { objective: string; variants: { label: string; call: boolean; value: { fraction: string } }[] };
}

async function compare(args: string[]): Promise<Json> {
  const io = bufferIo();
  const status = await main(['compare', 'reserves', ...args, '--json', '-'], io);
  expect(status, io.stderr()).toBe(0);
  return JSON.parse(io.stdout()) as Json;
}

/** The port solved at `set` for `objective`: its best play's value and every metric's exact value under it. */
function port(set: string[], objective: string) {
  const rule = adaptRuleFile(spec, 'reserves-call-steps.mjs');
  const params = resolveParams(rule, [...set, `objective=${objective}`]);
  const decisions = (rule.exact!.decisions as (p: Params) => RuleDecisions)(params);
  const values = (rule.exact!.values as (p: Params) => Record<string, Fraction>)(params);
  return { decisions, values };
}

function fixed(set: string[]): Record<string, Fraction> {
  const rule = reserves as unknown as Rule;
  return (rule.exact!.values as (p: Params) => Record<string, Fraction>)(resolveParams(rule, set));
}

describe('muster compare reserves with a chosenRound=call variant', () => {
  const shared = ['command=4', 'fallbackCommand=1', 'leaderLoss=0.2'];

  it('the call under best play against round 3 declared: every metric and difference, exactly', async () => {
    const result = await compare([
      '--set',
      ...shared,
      '--variant',
      'call: chosenRound=call',
      '--variant',
      'fixed: chosenRound=3',
    ]);
    expect(result.method).toBe('exact');
    const [call, round3] = result.variants;
    expect(call.params.chosenRound).toBe('call');
    expect(call.assignments).toEqual(['chosenRound=call']);
    const { decisions, values } = port(shared, 'all.by.4');
    const declared = fixed([...shared, 'chosenRound=3']);
    const names = Object.keys(values);
    expect(names.length).toBeGreaterThan(10);
    for (const name of names) {
      expect(call.metrics[name].fraction, name).toBe(values[name].toString());
      expect(round3.metrics[name].fraction, name).toBe(declared[name].toString());
    }
    // The differences, fixed − call, for every metric the comparison tested that the port has too.
    const checked = result.differences.filter((difference) => values[difference.metric] !== undefined);
    expect(checked.length).toBeGreaterThan(10);
    for (const difference of checked) {
      const expected = declared[difference.metric].sub(values[difference.metric]);
      expect(difference.exactFraction, difference.metric).toBe(expected.toString());
    }
    expect(result.differences.some((d) => d.metric === 'all.by.4')).toBe(true);
    // The objective under each variant: best play's value for the call, the fixed round's own.
    expect(result.calls.objective).toBe('all.by.4');
    expect(result.calls.variants.map((v) => [v.label, v.call, v.value.fraction])).toEqual([
      ['call', true, decisions.value.toString()],
      ['fixed', false, declared['all.by.4'].toString()],
    ]);
  });

  it('the call set for every variant with --set: each variant solved at its own command', async () => {
    const set = ['chosenRound=call', 'leaderLoss=0.2', 'fallbackCommand=1'];
    const result = await compare(['--set', ...set, '--variant', 'command 3: command=3', '--variant', 'c4: command=4']);
    expect(result.calls.variants.every((v) => v.call)).toBe(true);
    for (const [index, command] of ['command=3', 'command=4'].entries()) {
      const { decisions, values } = port(['leaderLoss=0.2', 'fallbackCommand=1', command], 'all.by.4');
      const variant = result.variants[index];
      expect(variant.params.chosenRound).toBe('call');
      for (const name of Object.keys(values))
        expect(variant.metrics[name].fraction, `${command} ${name}`).toBe(values[name].toString());
      expect(result.calls.variants[index].value.fraction).toBe(decisions.value.toString());
    }
  });

  it("a weighted objective: a fixed round's value by hand, the call at least the best of every fixed round", async () => {
    const result = await compare([
      '--set',
      ...shared,
      '--variant',
      'call: chosenRound=call',
      '--variant',
      'round 2: chosenRound=2',
      '--objective',
      'all.by.4 + 0.5*all.by.2',
    ]);
    const weighted = (values: Record<string, Fraction>) =>
      values['all.by.4'].add(values['all.by.2'].mul(Fraction.of(1, 2)));
    const [call, round2] = result.calls.variants;
    expect(round2.value.fraction).toBe(weighted(fixed([...shared, 'chosenRound=2'])).toString());
    // Every fixed round (and none) is a calling policy, so best play is worth at least the best of them.
    const best = [0, 1, 2, 3, 4]
      .map((round) => weighted(fixed([...shared, `chosenRound=${round}`])))
      .reduce((x, y) => (x.compare(y) >= 0 ? x : y));
    const [numerator, denominator] = call.value.fraction.split('/').map(BigInt);
    expect(Fraction.of(numerator, denominator ?? 1n).compare(best)).toBeGreaterThanOrEqual(0);
    expect(result.calls.objective).toBe('all.by.4 + 0.5*all.by.2');
  });

  it.each([
    [['--variant', 'a: chosenRound=call', '--variant', 'b: chosenRound=2', '--simulate'], '--simulate'],
    [['--variant', 'a: chosenRound=call', '--variant', 'b: chosenRound=2', '--trials', '1000'], '--trials'],
    [['--variant', 'a: chosenRound=2', '--variant', 'b: chosenRound=3', '--objective', 'all.by.4'], '--objective'],
    [['--variant', 'a: chosenRound=call', '--variant', 'b: chosenRound=2', '--objective', 'all.by.9'], '--objective'],
    [['--variant', 'a: chosenRound=call', '--variant', 'b: chosenRound=2', '--out', 'x.json'], '--out'],
  ])('%j is a one-line error', async (args, parameter) => {
    const io = bufferIo();
    expect(await main(['compare', 'reserves', ...args], io)).toBe(2);
    const lines = io.stderr().trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0].startsWith(`muster: ${parameter}: `), lines[0]).toBe(true);
  });
});
