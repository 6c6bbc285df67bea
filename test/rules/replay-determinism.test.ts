/**
 * Exact values only for a rule that is a function of its dice: enumeration
 * runs each path of a trial (or of a state's step) twice and refuses, in one
 * line, a rule whose two runs differ (src/exact/replay-dice.ts), and a state
 * that JSON cannot hold (src/exact/canonical-state.ts). The oracle is the
 * contract itself (docs/custom-rules.md): each rule below is built to break
 * it in one named way — state kept between calls, a stubbed Math.random or
 * clock that moves between calls — and the expected values of the sound
 * rules beside them are worked by hand in the comments.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Params, Rule } from '../../src/contract/types.js';
import { UsageError } from '../../src/errors.js';
import { canonicalState } from '../../src/exact/canonical-state.js';
import { adaptRuleFile } from '../../src/rule-files/rule.js';
import { resolveParams } from '../../src/rules/params.js';

type Out = Record<string, unknown>;
interface TestDice {
  d(sides: number): number;
  chance(p: number): boolean;
}

const rule = (spec: Record<string, unknown>): Rule =>
  adaptRuleFile({ id: 'replay-test', title: 'replay test', ...spec }, 'test.mjs');
const exactOf = (r: Rule): Record<string, string> =>
  Object.fromEntries(
    Object.entries(r.exact!.values(resolveParams(r, []))).map(([name, value]) => [name, value.toString()]),
  );
const p = (name: string) => ({ name, probability: true });
const m = (name: string) => ({ name, probability: false });

/** The one line a rule that is not a function of its dice gets: a UsageError naming the file, the call and the path. */
function refused(r: Rule, detail: RegExp, procedure = 'trial'): void {
  let error: unknown;
  try {
    exactOf(r);
  } catch (caught) {
    error = caught;
  }
  expect(error).toBeInstanceOf(UsageError);
  const message = (error as Error).message;
  expect(message).not.toContain('\n');
  expect(message).toMatch(/^test\.mjs/);
  expect(message).toContain(`the rule is not a function of its dice: the ${procedure} `);
  expect(message).toContain(`exact values need a rule whose ${procedure} depends only on params`);
  expect(message).toMatch(detail);
}

afterEach(() => vi.restoreAllMocks());

describe('the trial form: each path run twice, the runs must agree', () => {
  it('a sound trial is unchanged: a d6 showing 5+ is 1/3, its mean 7/2 (hand-worked)', () => {
    const sound = rule({
      metrics: [p('five.up'), m('face.mean')],
      trial(dice: TestDice, _: Params, out: Out) {
        const face = dice.d(6);
        out['five.up'] = face >= 5;
        out['face.mean'] = face;
      },
    });
    expect(exactOf(sound)).toEqual({ 'five.up': '1/3', 'face.mean': '7/2' });
  });

  it('state kept between calls, no dice at all (one path): the value written flips', () => {
    let calls = 0;
    const flips = rule({ metrics: [p('win')], trial: (_: TestDice, __: Params, out: Out) => (out.win = ++calls % 2) });
    refused(flips, /wrote out\["win"\] = 1, then 0, on replay of path \[\]/);
  });

  it('Math.random read in the trial (stubbed to move as a generator does): refused, not 1 or 0', () => {
    const draws = [0.25, 0.75, 0.1, 0.9];
    let next = 0;
    vi.spyOn(Math, 'random').mockImplementation(() => draws[next++ % draws.length]);
    const coin = rule({
      metrics: [p('heads')],
      trial: (dice: TestDice, _: Params, out: Out) => {
        dice.d(2);
        out.heads = Math.random() < 0.5;
      },
    });
    refused(coin, /wrote out\["heads"\] = true, then false, on replay of path \[d2 → 1\]/);
  });

  it('a clock read in the trial (stubbed Date.now): a mean that moves is refused by position too', () => {
    let now = 1_000;
    vi.spyOn(Date, 'now').mockImplementation(() => (now += 7));
    const clocked = rule({
      metrics: [m('t.mean')],
      trial: (dice: TestDice, _: Params, out: Out) => {
        out[0] = dice.d(3) + (Date.now() % 2);
      },
    });
    refused(clocked, /wrote out\[0\] = 2, then 1, on replay of path \[d3 → 1\]/);
  });

  it('other dice on replay: another die, a die past the first run, a die fewer', () => {
    let calls = 0;
    const other = rule({
      metrics: [p('x')],
      trial: (dice: TestDice, _: Params, out: Out) => (out.x = dice.d(++calls % 2 ? 6 : 4) > 3),
    });
    refused(other, /asked for d4 on replay of path \[d6 → 1\]/);
    calls = 0;
    const more = rule({
      metrics: [p('x')],
      trial(dice: TestDice, _: Params, out: Out) {
        out.x = dice.d(6) > 3;
        if (++calls % 2 === 0) dice.d(6);
      },
    });
    refused(more, /asked for d6 past its dice on replay of path \[d6 → 1\]/);
    calls = 0;
    const fewer = rule({
      metrics: [p('x')],
      trial(dice: TestDice, _: Params, out: Out) {
        out.x = dice.d(6) > 3;
        if (++calls % 2 === 1) dice.chance(0.5);
      },
    });
    refused(fewer, /stopped after 1 of its 2 dice on replay of path \[d6 → 1, chance\(0\.5\) → true\]/);
  });

  it('state kept in what setup prepared: the later path sees the earlier one', () => {
    const seen = rule({
      metrics: [m('seen.mean')],
      setup: () => ({ seen: 0 }),
      trial(dice: TestDice, _: Params, out: Out, prepared: { seen: number }) {
        out['seen.mean'] = dice.d(2) + prepared.seen++;
      },
    });
    refused(seen, /wrote out\["seen\.mean"\] = 1, then 2, on replay of path \[d2 → 1\]/);
  });

  it('a trial that counts outcomes must return the same outcome on replay', () => {
    let calls = 0;
    const outcomes = rule({
      metrics: [p('x')],
      outcomes: () => 2,
      trial: (dice: TestDice) => (dice.d(6) + ++calls) % 2,
      read: (outcome: number, _: Params, out: Out) => (out.x = outcome === 1),
    });
    refused(outcomes, /returned 0, then 1, on replay of path \[d6 → 1\]/);
  });
});

describe("the step form: each state's step run twice on each path, done asked twice", () => {
  const base = {
    metrics: [p('a.wins'), m('rolls.mean')],
    start: () => 'rolling',
    done: (state: string) => state !== 'rolling',
    report: (state: string, _: Params, out: Out) => (out['a.wins'] = state === 'a'),
  };

  it('a sound roll-off re-rolled on ties is unchanged: 1/2, 6/5 rolls (a tie is 1/6: 1 / (5/6) rolls)', () => {
    const sound = rule({
      ...base,
      step(_: unknown, dice: TestDice, __: Params, out: Out) {
        out['rolls.mean'] = 1;
        const a = dice.d(6);
        const b = dice.d(6);
        return a > b ? 'a' : a < b ? 'b' : 'rolling';
      },
    });
    expect(exactOf(sound)).toEqual({ 'a.wins': '1/2', 'rolls.mean': '6/5' });
  });

  it('a step whose next state depends on a call counter', () => {
    let calls = 0;
    const flips = rule({ ...base, step: (_: unknown, dice: TestDice) => ((dice.d(2) + ++calls) % 2 ? 'a' : 'b') });
    refused(flips, /the step went to "b", then to "a", on replay of path \[d2 → 1\]/, 'step');
  });

  it('a step whose reward depends on a stubbed clock', () => {
    let now = 0;
    vi.spyOn(Date, 'now').mockImplementation(() => now++);
    const clocked = rule({
      ...base,
      step(_: unknown, dice: TestDice, __: Params, out: Out) {
        out['rolls.mean'] = 1 + (Date.now() % 2);
        return dice.d(2) === 1 ? 'a' : 'b';
      },
    });
    refused(clocked, /the step wrote 1\/1, then 2\/1, to metric 1/, 'step');
  });

  it('a done that flips between calls is refused by name', () => {
    let calls = 0;
    const flaky = rule({ ...base, done: () => ++calls % 2 === 0, step: () => 'a' });
    expect(() => exactOf(flaky)).toThrow(
      /^test\.mjs.*the rule is not a function of its state: done\(state\) returned false, then true, for the state "rolling"/,
    );
  });
});

describe('canonical states refuse what JSON cannot hold', () => {
  const withSymbol = { n: 1, [Symbol('tag')]: 2 };
  const hidden = Object.defineProperty({ n: 1 }, 'secret', { value: 2, enumerable: false });
  const getter = Object.defineProperty({ n: 1 }, 'g', {
    enumerable: true,
    get() {
      throw new Error('a getter must never run');
    },
  });
  const sparse = [1, 2, 3];
  delete sparse[1];
  const extra = Object.assign([1, 2], { tag: 'x' });
  class Point {
    x = 1;
  }
  const cases: Array<[string, unknown, RegExp]> = [
    ['-0', { n: -0 }, /\.n is -0 \(JSON has no negative zero; write 0\)/],
    ['-0 in an array', [0, -0], /\[1\] is -0/],
    ['a symbol key', withSymbol, /the state is an object with a symbol key \(tag\)/],
    ['a field that is not enumerable', hidden, /an object with a field that is not enumerable \("secret"\)/],
    ['a getter (never run)', { inner: getter }, /\.inner is an object with a getter or setter \("g"\)/],
    ['a null prototype', Object.create(null), /an object without a prototype/],
    ['a class', { p: new Point() }, /\.p is an object of a class \(Point\)/],
    ['a Map', new Map([[1, 2]]), /an object of a class \(Map\)/],
    ['a typed array', Int8Array.of(1), /an object of a class \(Int8Array\)/],
    ['a sparse array', sparse, /an array with holes/],
    ['an array with a field', extra, /an array with fields besides its elements/],
    [
      'an array of another prototype',
      Object.setPrototypeOf([1], Object.prototype),
      /is an object of a class \(Object\)/,
    ],
  ];
  for (const [name, state, expected] of cases) {
    it(`${name}: refused, naming where`, () => expect(() => canonicalState(state)).toThrow(expected));
  }

  it('plain states keep their canonical text: keys sorted, 0 as 0', () => {
    expect(canonicalState({ b: [0, 1.5, 'x'], a: { d: null, c: true } })).toBe(
      '{"a":{"c":true,"d":null},"b":[0,1.5,"x"]}',
    );
    expect(canonicalState(JSON.parse('{"n":0,"s":[]}'))).toBe('{"n":0,"s":[]}');
  });

  it('in a rule file, a state first reached with a symbol key or a getter that throws: refused by name', () => {
    const stepping = (next: () => unknown) =>
      rule({
        metrics: [p('x')],
        start: () => ({ n: 0 }),
        done: (s: { n: number }) => s.n !== 0,
        step: (_: unknown, dice: TestDice) => (dice.d(2) === 1 ? { n: 1 } : next()),
        report: () => {},
      });
    expect(() => exactOf(stepping(() => ({ n: 2, [Symbol('tag')]: 1 })))).toThrow(
      /^test\.mjs.*step\(state, dice, params\) returned a state that is not plain JSON: the state is an object with a symbol key \(tag\)/,
    );
    const throwing = () =>
      Object.defineProperty({ n: 2 }, 'g', {
        enumerable: true,
        get() {
          throw new Error('a getter that throws');
        },
      });
    expect(() => exactOf(stepping(throwing))).toThrow(
      /^test\.mjs.*step\(state, dice, params\) returned a state that is not plain JSON: the state is an object with a getter or setter \("g"\)/,
    );
  });

  it('in a rule file: one line naming the call that returned the state', () => {
    const negative = rule({
      metrics: [p('x')],
      start: () => ({ n: 0 }),
      done: (s: { n: number }) => s.n !== 0 || Object.is(s.n, -0),
      step: () => ({ n: -0 }),
      report: () => {},
    });
    expect(() => exactOf(negative)).toThrow(
      /^test\.mjs.*step\(state, dice, params\) returned a state that is not plain JSON: \.n is -0/,
    );
  });
});
