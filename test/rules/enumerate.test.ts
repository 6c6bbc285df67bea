/**
 * Exact values by enumeration, for rule files without exact(): every
 * expected value here is worked by hand in the comment beside it, or
 * counted by a brute-force loop written in the test (the dice faces
 * themselves, not the enumerator's tables), and compared fraction for
 * fraction. The step form's simulation is checked against its enumeration
 * within 5σ (test/support/bounds.ts), with fixed seeds.
 */
import { describe, expect, it } from 'vitest';
import type { Params, Rule } from '../../src/contract/types.js';
import { CHUNK_TRIALS } from '../../src/engine/chunks.js';
import { STREAM_VERSIONS } from '../../src/engine/random.js';
import { runChunks } from '../../src/engine/run-chunks.js';
import { rationalOf } from '../../src/exact/double-value.js';
import { Fraction } from '../../src/exact/fraction.js';
import { NotEnumerable } from '../../src/exact/replay-dice.js';
import { lookUpExact } from '../../src/rules/exact-of.js';
import { resolveParams } from '../../src/rules/params.js';
import { estimate } from '../../src/stats/estimate.js';
import { proportionTolerance } from '../support/bounds.js';
import { exactTexts as exactOf, fractionText as f, fileRule } from '../support/rule-file-exact.js';

type Out = Record<string, unknown>;
interface TestDice {
  d(sides: number): number;
  count(n: number, sides: number, atLeast: number): number;
  below(bound: number): number;
  chance(p: number): boolean;
  random(): number;
}

const rule = (spec: Record<string, unknown>): Rule => fileRule('enum-test', 'enumeration test', spec);
const p = (name: string) => ({ name, probability: true });
const m = (name: string) => ({ name, probability: false });

describe('the trial form: the trial run on every path of its dice', () => {
  it('a hand-worked tree: paths of different lengths and dice', () => {
    // a = d2. On 1: x is a d3 showing 3 (1/3). On 2: x is a d4 showing 3+ (1/2), and m a d2.
    // P(x) = 1/2 · 1/3 + 1/2 · 1/2 = 5/12; E[m] = 1/2 · 3/2 = 3/4 (0 when not written).
    const tree = rule({
      metrics: [p('x'), m('m')],
      trial(dice: TestDice, _: Params, out: Out) {
        if (dice.d(2) === 1) out.x = dice.d(3) === 3;
        else {
          out.x = dice.d(4) >= 3;
          out.m = dice.d(2);
        }
      },
    });
    expect(exactOf(tree)).toEqual({ x: '5/12', m: '3/4' });
    expect(tree.exact?.by).toBe('enumeration');
  });

  it('dice.count is one binomial branch: the same as five d6 counted one by one, and as the formula', () => {
    const metrics = [m('hits.mean'), p('two.or.more')];
    const counted = rule({
      metrics,
      trial(dice: TestDice, _: Params, out: Out) {
        const hits = dice.count(5, 6, 5);
        out['hits.mean'] = hits;
        out['two.or.more'] = hits >= 2;
      },
    });
    // Brute force over the 6^5 ways five d6 fall, written here.
    let hitSum = 0;
    let twoOrMore = 0;
    for (let code = 0; code < 6 ** 5; code++) {
      let hits = 0;
      for (let die = 0, rest = code; die < 5; die++, rest = Math.floor(rest / 6)) hits += 1 + (rest % 6) >= 5 ? 1 : 0;
      hitSum += hits;
      twoOrMore += hits >= 2 ? 1 : 0;
    }
    expect(exactOf(counted)).toEqual({ 'hits.mean': f(hitSum, 6 ** 5), 'two.or.more': f(twoOrMore, 6 ** 5) });
    // And the formula: 5 · 1/3 = 5/3; 1 − (2/3)^5 − 5 · (1/3)(2/3)^4 = 131/243.
    expect(exactOf(counted)).toEqual({ 'hits.mean': '5/3', 'two.or.more': '131/243' });
    const oneByOne = rule({
      metrics,
      trial(dice: TestDice, _: Params, out: Out) {
        let hits = 0;
        for (let die = 0; die < 5; die++) hits += dice.d(6) >= 5 ? 1 : 0;
        out['hits.mean'] = hits;
        out['two.or.more'] = hits >= 2;
      },
    });
    expect(exactOf(oneByOne)).toEqual(exactOf(counted));
  });

  it('dice.count at the edges: atLeast above the faces (no hit), at or below 1 (all hit), no dice', () => {
    const edges = rule({
      metrics: [m('none'), m('all'), m('zero')],
      trial(dice: TestDice, _: Params, out: Out) {
        out.none = dice.count(3, 6, 7);
        out.all = dice.count(3, 6, -2);
        out.zero = dice.count(0, 6, 4);
      },
    });
    expect(exactOf(edges)).toEqual({ none: '0', all: '3', zero: '0' });
  });

  it('dice.below: two d6 as base-6 digits', () => {
    // Sum of the two digits' dice ≥ 10: (4,6) (5,5) (5,6) (6,4) (6,5) (6,6), 6 of 36.
    const digits = rule({
      metrics: [p('ten')],
      trial(dice: TestDice, _: Params, out: Out) {
        const v = dice.below(36);
        out.ten = 1 + (v % 6) + 1 + Math.floor(v / 6) >= 10;
      },
    });
    expect(exactOf(digits)).toEqual({ ten: '1/6' });
  });

  it('dice.chance(p) reads p as the decimal it prints as', () => {
    const chances = rule({
      params: [{ name: 'loss', type: 'number', default: 0.15, min: 0, max: 1 }],
      metrics: [p('lost'), m('both')],
      trial(dice: TestDice, params: Params, out: Out) {
        const first = dice.chance(params.loss as number);
        out.lost = first;
        out.both = first && dice.chance(1 / 3) ? 1 : 0;
      },
    });
    // 0.15 is 3/20; 1/3 prints as 0.3333333333333333, which is what is read.
    expect(exactOf(chances)).toEqual({ lost: '3/20', both: f(3n * 3333333333333333n, 20n * 10n ** 16n) });
    expect(exactOf(chances, ['loss=0'])).toEqual({ lost: '0', both: '0' });
    expect(exactOf(chances, ['loss=1'])).toEqual({ lost: '1', both: f(3333333333333333n, 10n ** 16n) });
  });

  it('a mean written as a double is read as the fraction it stands for', () => {
    // E[d3 / 3] = (1/3 + 2/3 + 1) / 3 = 2/3; the double 1/3 is 1/3, not 6004799503160661/2^54.
    const share = rule({
      metrics: [m('share')],
      trial(dice: TestDice, _: Params, out: Out) {
        out.share = dice.d(3) / 3;
      },
    });
    expect(exactOf(share)).toEqual({ share: '2/3' });
    expect(rationalOf(1 / 3)).toEqual([1n, 3n]);
    expect(rationalOf(0.15)).toEqual([3n, 20n]);
    // 0.1 + 0.2 is not the double nearest 3/10: read as its own binary value.
    const sum = Fraction.fromNumber(0.1 + 0.2);
    expect(rationalOf(0.1 + 0.2)).toEqual([sum.numerator, sum.denominator]);
  });

  it('positions and names both count, as in simulation; setup is done once and passed in', () => {
    const byPosition = rule({
      metrics: [p('six'), m('face')],
      setup: () => ({ six: 6 }),
      trial(dice: TestDice, _: Params, out: Out, prepared: { six: number }) {
        const face = dice.d(6);
        out[0] = face === prepared.six ? 1 : 0;
        out[1] = face;
      },
    });
    expect(exactOf(byPosition)).toEqual({ six: '1/6', face: '7/2' });
  });

  it('a rule that counts outcomes: each outcome weighed over the paths, then read once', () => {
    // The sum of 2d6, less 2: P(sum ≥ 10) = 6/36; E[sum] = 7.
    const counting = rule({
      metrics: [p('high'), m('sum.mean')],
      outcomes: () => 11,
      trial: (dice: TestDice) => dice.d(6) + dice.d(6) - 2,
      read(outcome: number, _: Params, out: Out) {
        out.high = outcome + 2 >= 10 ? 1 : 0;
        out['sum.mean'] = outcome + 2;
      },
    });
    expect(exactOf(counting)).toEqual({ high: '1/6', 'sum.mean': '7' });
  });
});

describe('the step form: a chain of states, loops solved exactly', () => {
  const rollOff = rule({
    params: [{ name: 'bonusA', type: 'integer', default: 0, min: -5, max: 5 }],
    metrics: [p('a.wins'), m('rolls.mean')],
    start: () => 'rolling',
    step(_: unknown, dice: TestDice, params: Params, out: Out) {
      out['rolls.mean'] = 1;
      const a = dice.d(6) + (params.bonusA as number);
      const b = dice.d(6);
      return a > b ? 'a' : a < b ? 'b' : 'rolling';
    },
    done: (state: string) => state !== 'rolling',
    report(state: string, _: Params, out: Out) {
      out['a.wins'] = state === 'a';
    },
  });

  it('a d6 roll-off re-rolled on ties: 1/2, and 6/5 rolls (a tie is 1/6, so 1 / (5/6) rolls)', () => {
    expect(exactOf(rollOff)).toEqual({ 'a.wins': '1/2', 'rolls.mean': '6/5' });
  });

  it('with +1 to A: A wins 21 of the 36 pairs, ties 5, so 21/31, and 36/31 rolls', () => {
    // Counted here: pairs (a, b) with a + 1 > b, and a + 1 = b.
    let wins = 0;
    let ties = 0;
    for (let a = 1; a <= 6; a++) for (let b = 1; b <= 6; b++) a + 1 > b ? wins++ : a + 1 === b ? ties++ : 0;
    expect([wins, ties]).toEqual([21, 5]);
    expect(exactOf(rollOff, ['bonusA=1'])).toEqual({ 'a.wins': f(wins, 36 - ties), 'rolls.mean': f(36, 36 - ties) });
  });

  it('two states that lead back to each other (Gaussian elimination over the loop)', () => {
    // From A a d6: 6 wins, 1 goes to B, else A again. From B: 1–2 back to A, else lost.
    // pA = 1/6 + pB/6 + 4pA/6 and pB = 2pA/6: pA = 3/5. Steps: sA = 1 + sB/6 + 4sA/6, sB = 1 + 2sA/6: sA = 21/5.
    const loop = rule({
      metrics: [p('win'), m('steps.mean')],
      start: () => 'A',
      step(state: string, dice: TestDice, _: Params, out: Out) {
        out['steps.mean'] = 1;
        const face = dice.d(6);
        if (state === 'A') return face === 6 ? 'win' : face === 1 ? 'B' : 'A';
        return face <= 2 ? 'A' : 'lose';
      },
      done: (state: string) => state === 'win' || state === 'lose',
      report(state: string, _: Params, out: Out) {
        out.win = state === 'win';
      },
    });
    expect(exactOf(loop)).toEqual({ win: '3/5', 'steps.mean': '21/5' });
  });

  it('states are merged by their canonical text, whatever order their keys were written in', () => {
    // Two coins, then done: heads counted. States {h, n} and {n, h} are one state. E[h] = 1, P(h = 2) = 1/4.
    let states = 0;
    const coins = rule({
      metrics: [m('heads'), p('both')],
      start: () => ({ n: 0, h: 0 }),
      step(state: { n: number; h: number }, dice: TestDice) {
        states++;
        const head = dice.d(2) === 2 ? 1 : 0;
        return state.n % 2 === 0 ? { h: state.h + head, n: state.n + 1 } : { n: state.n + 1, h: state.h + head };
      },
      done: (state: { n: number }) => state.n === 2,
      report(state: { h: number }, _: Params, out: Out) {
        out.heads = state.h;
        out.both = state.h === 2;
      },
    });
    expect(exactOf(coins)).toEqual({ heads: '1', both: '1/4' });
    // Three states step (start, and n = 1 with h = 0 or 1), each run twice per face (the second run is the
    // replay that checks the step is a function of its dice, replay-dice.ts): 12 runs; and each of the two states
    // a step finds is run once down its first branches when found, a bound on its paths (enumerate-steps.ts,
    // PathsAhead): 14.
    expect(states).toBe(14);
  });

  it('a start that is already done reports it with chance 1 and no steps', () => {
    const none = rule({
      metrics: [p('done'), m('steps')],
      start: () => 1,
      step: () => 1,
      done: () => true,
      report(_: unknown, __: Params, out: Out) {
        out.done = true;
      },
    });
    expect(exactOf(none)).toEqual({ done: '1', steps: '0' });
  });

  it('the step form simulates as it enumerates: within 5σ on every stream', () => {
    // 131,072 trials; σ = √(p(1 − p)/n) for a probability (5σ: a false alarm once in 1.7 million).
    const trials = 2 * CHUNK_TRIALS;
    const params = resolveParams(rollOff, ['bonusA=1']);
    for (const stream of STREAM_VERSIONS) {
      const tally = runChunks(
        { ruleId: rollOff.id, params, seed: 'steps', stream, firstChunk: 0, endChunk: 2, totalTrials: trials },
        rollOff,
      );
      const found = rollOff.tally.summarize(params, tally, trials);
      const aWins = estimate(found['a.wins'], 0.95).estimate;
      expect(Math.abs(aWins - 21 / 31)).toBeLessThanOrEqual(proportionTolerance(21 / 31, trials));
      // Rolls are geometric with success 31/36: sd = √(1 − q)/q with q = 31/36.
      const q = 31 / 36;
      const rolls = estimate(found['rolls.mean'], 0.95).estimate;
      expect(Math.abs(rolls - 1 / q)).toBeLessThanOrEqual((5 * Math.sqrt(1 - q)) / q / Math.sqrt(trials));
    }
  });
});

describe('dice.chance(p) in simulation: true with chance p, on every stream', () => {
  for (const chance of [0.15, 0.123456789, 1 / 7]) {
    it(`p = ${chance}: within 5σ`, () => {
      const r = rule({
        metrics: [p('yes')],
        trial(dice: TestDice, _: Params, out: Out) {
          out.yes = dice.chance(chance);
        },
      });
      const trials = 2 * CHUNK_TRIALS;
      for (const stream of STREAM_VERSIONS) {
        const tally = runChunks(
          { ruleId: r.id, params: {}, seed: 'chance', stream, firstChunk: 0, endChunk: 2, totalTrials: trials },
          r,
        );
        const yes = estimate(r.tally.summarize({}, tally, trials).yes, 0.95).estimate;
        expect(Math.abs(yes - chance)).toBeLessThanOrEqual(proportionTolerance(chance, trials));
      }
    });
  }
});

describe('what cannot be enumerated is one line, never a truncated value', () => {
  const fails = (r: Rule, pattern: RegExp) => {
    expect(() => r.exact!.values({})).toThrow(pattern);
    try {
      r.exact!.values({});
    } catch (error) {
      expect((error as Error).message).not.toMatch(/\n/);
    }
  };

  it('dice.random(): no list of outcomes; beside a simulation it is simply no exact value', () => {
    const uniform = rule({
      metrics: [p('x')],
      trial(dice: TestDice, _: Params, out: Out) {
        out.x = dice.random() < 0.5;
      },
    });
    fails(uniform, /^test\.mjs \(rule enum-test\): dice\.random\(\) cannot be enumerated.*dice\.chance\(p\)/);
    expect(() => uniform.exact!.values({})).toThrow(NotEnumerable);
    expect(lookUpExact(uniform, {}).values).toBeNull();
  });

  it(
    'dice.count of more dice than enumeration lists: no exact value beside a simulation, one line with ' + '--exact',
    () => {
      const many = rule({
        metrics: [m('hits')],
        trial(dice: TestDice, _: Params, out: Out) {
          out.hits = dice.count(5000, 6, 6);
        },
      });
      fails(many, /dice\.count of 5000 dice has more outcomes than enumeration lists/);
      expect(lookUpExact(many, {}).values).toBeNull();
    },
  );

  it('more paths than the budget (a million): says so, and what to do', () => {
    // Two d4096 read: 16.7 million paths.
    const wide = rule({
      metrics: [p('x')],
      trial(dice: TestDice, _: Params, out: Out) {
        out.x = dice.d(4096) === dice.d(4096);
      },
    });
    fails(wide, /enumeration needs more than 1,000,000 paths; allowed: the step form.*, or simulation$/);
  });

  it('a trial that repeats until something happens has paths of every length', () => {
    const forever = rule({
      metrics: [m('rolls')],
      trial(dice: TestDice, _: Params, out: Out) {
        let rolls = 1;
        while (dice.d(6) === dice.d(6)) rolls++;
        out.rolls = rolls;
      },
    });
    fails(
      forever,
      /more than 10,000 dice on one path of the trial; allowed: dice\.count.*, or the step form for a roll repeated until something happens/,
    );
  });

  it('a chain that cannot end names the state', () => {
    const stuck = rule({
      metrics: [p('x')],
      start: () => ({ at: 'A' }),
      step: (_state: { at: string }, dice: TestDice) => ({ at: dice.d(2) === 1 ? 'A' : 'B' }),
      done: () => false,
      report() {},
    });
    fails(stuck, /the procedure cannot end: from the state \{"at":"[AB]"\} no sequence of steps reaches a done state/);
  });

  it('a state that is not plain JSON, a step that changes its state, a step that writes a probability', () => {
    const base = {
      metrics: [p('x'), m('y')],
      start: () => ({ n: 0 }),
      done: (s: { n: number }) => s.n > 0,
      report() {},
    };
    fails(
      rule({ ...base, step: () => ({ n: 1, when: new Date(0) }) }),
      /step\(state, dice, params\) returned a state that is not plain JSON: \.when is an object of a class \(Date\)/,
    );
    fails(rule({ ...base, step: () => ({ n: Number.NaN }) }), /not plain JSON: \.n is NaN/);
    // Found deep in the state, and named by its whole path, though a sound state's text is written without one.
    fails(
      rule({ ...base, step: () => ({ n: 1, a: [0, { b: [2, () => 3] }] }) }),
      /not plain JSON: \.a\[1\]\.b\[1\] is a function/,
    );
    fails(
      rule({
        ...base,
        step(state: { n: number }) {
          state.n++;
          return state;
        },
      }),
      /step threw TypeError/,
    );
    fails(
      rule({
        ...base,
        step(_: unknown, __: TestDice, ___: Params, out: Out) {
          out.x = 1;
          return { n: 1 };
        },
      }),
      /step wrote the probability "x"; allowed: in a step, means only/,
    );
  });

  it('in simulation too: a step that throws, done that returns no boolean, a step that writes a probability', () => {
    const simulated = (spec: Record<string, unknown>) => () =>
      runChunks(
        { ruleId: 'enum-test', params: {}, seed: 's', stream: 3, firstChunk: 0, endChunk: 1, totalTrials: 10 },
        rule(spec),
      );
    const base = { metrics: [p('x'), m('y')], start: () => 0, done: (s: number) => s > 0, report() {} };
    expect(
      simulated({
        ...base,
        step() {
          throw new TypeError('no such table');
        },
      }),
    ).toThrow(
      /^test\.mjs \(rule enum-test\): step\(state, dice, params, out\) threw TypeError: no such table \(in a simulated trial\)$/,
    );
    expect(simulated({ ...base, step: () => 1, done: () => undefined })).toThrow(
      /done\(state, params\): returned undefined; allowed: true or false/,
    );
    expect(
      simulated({
        ...base,
        step(_: unknown, __: TestDice, ___: Params, out: Out) {
          out.x = 1;
          return 1;
        },
      }),
    ).toThrow(/step wrote the probability "x"/);
    // A step that forgot its return is the step's fault, as enumeration says, not done's on the next turn.
    const forgot = {
      ...base,
      start: () => ({ at: 'roll' }),
      done: (s: { at: string }) => s.at !== 'roll',
      step() {},
    };
    expect(simulated(forgot)).toThrow(
      /^test\.mjs \(rule enum-test\): step\(state, dice, params\) returned a state that is not plain JSON: the state is undefined \(a step from \{"at":"roll"\}, in a simulated trial\); allowed: null, true or false, finite numbers, strings, and arrays and plain objects of them$/,
    );
    fails(
      rule(forgot),
      /step\(state, dice, params\) returned a state that is not plain JSON: the state is undefined \(a step from \{"at":"roll"\}\)/,
    );
  });

  it('a bad value is refused as in simulation', () => {
    const bad = rule({
      metrics: [p('x')],
      trial(dice: TestDice, _: Params, out: Out) {
        out.x = dice.d(2) + 0.5;
      },
    });
    fails(bad, /metric "x": got 1\.5 from trial \(while enumerating\); allowed: 0, 1, false or true/);
  });
});
