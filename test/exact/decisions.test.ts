/**
 * Best play in rule files with decisions (docs/custom-rules.md, "Decisions"), against brute force written here
 * from each procedure's text: every deterministic stationary policy enumerated, each valued by its own small
 * recursion or closed form in fractions, the best taken. Nothing here calls the solver's code but through a rule
 * file's exact values and policy: the oracles share only Fraction arithmetic with it.
 *
 *   re-roll token roll-off, ties rolled again with the token kept (a loop) — every policy of 9 decisions
 *   unlimited re-rolls (some plays never end; only plays that end count) — every policy of 9 decisions
 *   push-your-luck on a mean objective — every policy of up to 2^8 stop/roll decisions
 *   both sides hold a token (a game): max over A's policies of min over B's, both ways round
 */
import { describe, expect, it } from 'vitest';
import type { Rule, RuleDecisions } from '../../src/contract/types.js';
import { Fraction } from '../../src/exact/fraction.js';
import { adaptRuleFile } from '../../src/rule-files/rule.js';
import { resolveParams } from '../../src/rules/params.js';

const F = (n: number, d = 1) => Fraction.of(n, d);
const ZERO = Fraction.ZERO;
const ONE = Fraction.ONE;

function solved(
  spec: object,
  set: string[],
): { rule: Rule; decisions: RuleDecisions; values: Record<string, Fraction> } {
  const rule = adaptRuleFile(spec, 'test.mjs');
  const params = resolveParams(rule, set);
  return {
    rule,
    decisions: (rule.exact!.decisions as Function)(params),
    values: (rule.exact!.values as Function)(params),
  };
}

/** Every assignment of one of `options` options to each of `count` decisions (count small). */
function* policies(count: number, options = 2): Generator<number[]> {
  const choice = new Array<number>(count).fill(0);
  for (;;) {
    yield choice.slice();
    let i = 0;
    while (i < count && ++choice[i] === options) choice[i++] = 0;
    if (i === count) return;
  }
}

/** The policy entry at a label. */
function entry(decisions: RuleDecisions, label: string) {
  const found = decisions.policy.find((e) => e.label === label);
  if (!found) throw new Error(`no decision labelled ${label}`);
  return found;
}

// Each rolls one die of `sides`; A, seeing both, may spend the token to roll again; ties roll again, the token kept.
const tokenRollOff = (order: string[]) => ({
  id: 'token-rolloff',
  title: 'token roll-off',
  params: [{ name: 'sides', type: 'integer', default: 3, min: 2, max: 6, doc: 'die' }],
  metrics: [
    { name: 'a.wins', probability: true, doc: 'A wins' },
    { name: 'used', probability: true, doc: 'the token was spent' },
  ],
  start: () => ({ phase: 'roll', token: 1 }),
  choices: (s: { phase: string; token: number }) => (s.phase === 'decide' && s.token > 0 ? order : null),
  choose(s: { a: number; b: number; token: number }, option: string) {
    if (option === 'reroll') return { phase: 'reroll', b: s.b, token: 0 };
    return s.a === s.b ? { phase: 'roll', token: s.token } : { winner: s.a > s.b ? 'a' : 'b', token: s.token };
  },
  step(s: { phase: string; b: number; token: number }, dice: { d(n: number): number }, p: { sides: number }) {
    if (s.phase === 'reroll') {
      const a = dice.d(p.sides);
      return a === s.b ? { phase: 'roll', token: 0 } : { winner: a > s.b ? 'a' : 'b', token: 0 };
    }
    const a = dice.d(p.sides);
    const b = dice.d(p.sides);
    if (s.token > 0) return { phase: 'decide', a, b, token: s.token };
    return a === b ? { phase: 'roll', token: 0 } : { winner: a > b ? 'a' : 'b', token: 0 };
  },
  done: (s: { winner?: string }) => s.winner !== undefined,
  report(s: { winner: string; token: number }, _p: unknown, out: Record<string, unknown>) {
    out['a.wins'] = s.winner === 'a';
    out.used = s.token === 0;
  },
  label: (s: { a: number; b: number }) => `${s.a}v${s.b}`,
});

describe('a re-roll token roll-off, ties rolled again with the token kept', () => {
  // From the text: without the token a roll-off of equal dice, ties rolled again, is won half the time (V0 = 1/2).
  // With it, a policy re-rolls on a set R of (a, b); one round from "token held" is decided, or returns on a tie
  // kept: V1 = c / (1 − t), c = Σ over (a, b) of 1/s² × (win if kept and a > b; P(a' > b) + P(a' = b)·V0 if
  // re-rolled), t = the chance of a kept tie.
  function worth(sides: number, reroll: (a: number, b: number) => boolean) {
    const V0 = F(1, 2);
    let c = ZERO;
    let t = ZERO;
    const cell = F(1, sides * sides);
    for (let a = 1; a <= sides; a++) {
      for (let b = 1; b <= sides; b++) {
        if (reroll(a, b)) c = c.add(cell.mul(F(sides - b, sides).add(F(1, sides).mul(V0))));
        else if (a > b) c = c.add(cell);
        else if (a === b) t = t.add(cell);
      }
    }
    return c.div(ONE.sub(t));
  }

  for (const order of [
    ['keep', 'reroll'],
    ['reroll', 'keep'],
  ]) {
    it(`sides 3, options listed ${order.join(', ')}: the best of all 2^9 policies, ties to the option listed first`, () => {
      const sides = 3;
      const cells: Array<[number, number]> = [];
      for (let a = 1; a <= sides; a++) for (let b = 1; b <= sides; b++) cells.push([a, b]);
      let best = ZERO;
      const all: Array<{ policy: number[]; value: Fraction }> = [];
      for (const policy of policies(cells.length)) {
        const value = worth(sides, (a, b) => policy[cells.findIndex(([x, y]) => x === a && y === b)] === 1);
        all.push({ policy, value });
        if (value.compare(best) > 0) best = value;
      }
      const { decisions, values } = solved(tokenRollOff(order), [`sides=${sides}`]);
      expect(decisions.value.toString()).toBe(best.toString());
      expect(values['a.wins'].toString()).toBe(best.toString());
      expect(decisions.objective).toBe('a.wins');
      cells.forEach(([a, b], i) => {
        // The option taken: the first listed with which some best policy plays here.
        const rerollIsBest = all.some((x) => x.policy[i] === 1 && x.value.equals(best));
        const keepIsBest = all.some((x) => x.policy[i] === 0 && x.value.equals(best));
        const first = order.find((o) => (o === 'reroll' ? rerollIsBest : keepIsBest));
        const e = entry(decisions, `${a}v${b}`);
        expect(e.choice, `${a}v${b}`).toBe(first);
        // Each option's value from the text, best play after: keep settles or returns to V1*; re-roll as above.
        const keep = a > b ? ONE : a < b ? ZERO : best;
        const reroll = F(sides - b, sides).add(F(1, sides * 2));
        const byOption = Object.fromEntries(e.options.map((o) => [o.option, o.value?.toString()]));
        expect(byOption).toEqual({ keep: keep.toString(), reroll: reroll.toString() });
      });
      expect(decisions.policy).toHaveLength(9);
      // Always keep: the token is never spent, 1/2; always re-roll: V1 of the policy that re-rolls everywhere.
      const alwaysKeep = F(1, 2);
      const alwaysReroll = worth(sides, () => true);
      expect(decisions.alwaysFirst?.toString()).toBe((order[0] === 'keep' ? alwaysKeep : alwaysReroll).toString());
      expect(decisions.alwaysLast?.toString()).toBe((order[1] === 'keep' ? alwaysKeep : alwaysReroll).toString());
    });
  }

  it('every metric under best play: the token is spent exactly as often as the policy re-rolls (sides 4)', () => {
    const sides = 4;
    const { decisions, values } = solved(tokenRollOff(['keep', 'reroll']), [`sides=${sides}`]);
    const rerolls = new Set(decisions.policy.filter((e) => e.choice === 'reroll').map((e) => e.label));
    // P(used) = r / (1 − t): r the chance of a re-rolled cell in a round, t of a kept tie.
    let r = ZERO;
    let t = ZERO;
    for (let a = 1; a <= sides; a++) {
      for (let b = 1; b <= sides; b++) {
        if (rerolls.has(`${a}v${b}`)) r = r.add(F(1, sides * sides));
        else if (a === b) t = t.add(F(1, sides * sides));
      }
    }
    expect(values.used.toString()).toBe(r.div(ONE.sub(t)).toString());
    // By hand, with a d4: re-roll when behind, and on a tie only at 1–1. Re-rolling a 2–2 tie wins 2/4 + 1/4 × 1/2
    // = 5/8, less than keeping it and rolling the roll-off again with the token, V1 = (69/128) / (13/16) = 69/104.
    expect([...rerolls].sort()).toEqual(['1v1', '1v2', '1v3', '1v4', '2v3', '2v4', '3v4']);
    expect(decisions.value.toString()).toBe('69/104');
  });
});

// A rolls one die against B's; A may re-roll as often as they like; ties go to B. Always re-rolling against a 3
// never ends: only plays that end count.
const unlimited = (order: string[]) => ({
  id: 'unlimited',
  title: 'unlimited re-rolls',
  metrics: [{ name: 'a.wins', probability: true, doc: 'A wins' }],
  start: () => ({ phase: 'roll' }),
  choices: (s: { phase: string }) => (s.phase === 'decide' ? order : null),
  choose: (s: { a: number; b: number }, option: string) =>
    option === 'reroll' ? { phase: 'reroll', b: s.b } : { winner: s.a > s.b ? 'a' : 'b' },
  step(s: { phase: string; b: number }, dice: { d(n: number): number }) {
    const a = dice.d(3);
    return { phase: 'decide', a, b: s.phase === 'reroll' ? s.b : dice.d(3) };
  },
  done: (s: { winner?: string }) => s.winner !== undefined,
  report: (s: { winner: string }, _p: unknown, out: Record<string, unknown>) => {
    out['a.wins'] = s.winner === 'a';
  },
  label: (s: { a: number; b: number }) => `${s.a}v${s.b}`,
});

describe('unlimited re-rolls: a play that never ends does not count', () => {
  // From the text: a policy re-rolls on R_b ⊆ {1,2,3} for each B's b. Re-rolls repeat until a face not in R_b,
  // each equally likely, so the re-roll is worth W_b = (wins among faces not in R_b) / (faces not in R_b); with
  // R_b every face, the play never ends and the policy does not count. Value: Σ 1/9 × (a ∈ R_b ? W_b : win).
  function worth(reroll: (a: number, b: number) => boolean): Fraction | null {
    let value = ZERO;
    for (let b = 1; b <= 3; b++) {
      const kept = [1, 2, 3].filter((a) => !reroll(a, b));
      if (kept.length === 0) return null;
      const W = F(kept.filter((a) => a > b).length, kept.length);
      for (let a = 1; a <= 3; a++) value = value.add(F(1, 9).mul(reroll(a, b) ? W : F(a > b ? 1 : 0)));
    }
    return value;
  }

  for (const order of [
    ['keep', 'reroll'],
    ['reroll', 'keep'],
  ]) {
    it(`options listed ${order.join(', ')}: the best of the 2^9 policies that end, never one that loops`, () => {
      let best: Fraction | null = null;
      const cells: Array<[number, number]> = [];
      for (let a = 1; a <= 3; a++) for (let b = 1; b <= 3; b++) cells.push([a, b]);
      for (const policy of policies(9)) {
        const value = worth((a, b) => policy[cells.findIndex(([x, y]) => x === a && y === b)] === 1);
        if (value !== null && (best === null || value.compare(best) > 0)) best = value;
      }
      const { decisions } = solved(unlimited(order), []);
      expect(best?.toString()).toBe('2/3');
      expect(decisions.value.toString()).toBe(best?.toString());
      // The policy taken is one of the best, and it ends: valued by the oracle, it is worth the best.
      const chosen = (a: number, b: number) => entry(decisions, `${a}v${b}`).choice === 'reroll';
      expect(worth(chosen)?.toString()).toBe(best?.toString());
      for (const [a, b] of cells) {
        const e = entry(decisions, `${a}v${b}`);
        // Behind or tied against 1 or 2, only re-rolling until ahead is best (worth 1).
        if (a <= b && b < 3) expect(e.choice, `${a}v${b}`).toBe('reroll');
        // Keeping always ends the play: listed first, it is taken wherever it is among the best (ahead; any v3).
        if (order[0] === 'keep' && (a > b || b === 3)) expect(e.choice, `${a}v${b}`).toBe('keep');
      }
      // Listed second, keep is taken against a 3 at the first state met (1v3), enough for the play to end.
      if (order[0] === 'reroll')
        expect(['1v3', '2v3', '3v3'].map((c) => entry(decisions, c).choice)).toEqual(['keep', 'reroll', 'reroll']);
      // Always re-rolling never ends: no value. Always keeping: P(a > b) = 3/9.
      const fixed = order[0] === 'keep' ? decisions.alwaysFirst : decisions.alwaysLast;
      const looping = order[0] === 'keep' ? decisions.alwaysLast : decisions.alwaysFirst;
      expect(fixed?.toString()).toBe('1/3');
      expect(looping).toBeNull();
    });
  }
});

// Roll a d6 and add it to the pot, or stop and bank the pot; a 1 busts (nothing banked); at `cap` A must stop.
const pushYourLuck = {
  id: 'push',
  title: 'push your luck',
  params: [{ name: 'cap', type: 'integer', default: 10, min: 2, max: 30, doc: 'the pot at which A must stop' }],
  metrics: [
    { name: 'banked', probability: false, doc: 'the pot banked' },
    { name: 'bust', probability: true, doc: 'A busts' },
  ],
  headline: ['banked'],
  start: () => ({ pot: 0 }),
  choices: (s: { pot: number; bust?: boolean; stop?: boolean }) => (s.pot > 0 ? ['stop', 'roll'] : null),
  choose: (s: { pot: number }, option: string) => (option === 'stop' ? { pot: s.pot, stop: true } : { pot: -s.pot }),
  step(s: { pot: number }, dice: { d(n: number): number }, p: { cap: number }) {
    const face = dice.d(6);
    if (face === 1) return { pot: 0, bust: true };
    const pot = Math.abs(s.pot) + face;
    return pot >= p.cap ? { pot, stop: true } : { pot };
  },
  done: (s: { bust?: boolean; stop?: boolean }) => s.bust === true || s.stop === true,
  report: (s: { pot: number; bust?: boolean }, _p: unknown, out: Record<string, unknown>) => {
    out.banked = s.bust ? 0 : s.pot;
    out.bust = s.bust === true;
  },
  label: (s: { pot: number }) => `pot ${s.pot}`,
};

describe('push your luck: a mean objective', () => {
  // From the text: a policy says, at each pot 2 … cap − 1, stop or roll. The pot only grows, so the value of a
  // pot is found downwards: stop → the pot; roll → Σ over faces 2…6 of 1/6 × (pot + face ≥ cap ? pot + face :
  // value(pot + face)), a 1 giving nothing.
  function worth(cap: number, rolls: (pot: number) => boolean): Fraction {
    const value = new Map<number, Fraction>();
    for (let pot = cap - 1; pot >= 0; pot--) {
      if (pot > 0 && !rolls(pot)) {
        value.set(pot, F(pot));
        continue;
      }
      let v = ZERO;
      for (let face = 2; face <= 6; face++) {
        const next = pot + face;
        v = v.add(F(1, 6).mul(next >= cap ? F(next) : (value.get(next) as Fraction)));
      }
      value.set(pot, v);
    }
    return value.get(0) as Fraction;
  }

  for (const cap of [6, 10]) {
    it(`cap ${cap}: the best of every stop/roll policy, and the policy`, () => {
      const pots = Array.from({ length: cap - 2 }, (_, i) => i + 2);
      let best = ZERO;
      const all: Array<{ policy: number[]; value: Fraction }> = [];
      for (const policy of policies(pots.length)) {
        const value = worth(cap, (pot) => policy[pots.indexOf(pot)] === 1);
        all.push({ policy, value });
        if (value.compare(best) > 0) best = value;
      }
      const { decisions, values } = solved(pushYourLuck, [`cap=${cap}`]);
      expect(decisions.objective).toBe('banked');
      expect(decisions.value.toString()).toBe(best.toString());
      expect(values.banked.toString()).toBe(best.toString());
      for (const e of decisions.policy) {
        const pot = Number(e.label.slice(4));
        const i = pots.indexOf(pot);
        const stopBest = all.some((x) => x.policy[i] === 0 && x.value.equals(best));
        expect(e.choice, e.label).toBe(stopBest ? 'stop' : 'roll');
      }
      // Always stop: the first roll banked (or a bust): 20/6.
      expect(decisions.alwaysFirst?.toString()).toBe(F(20, 6).toString());
    });
  }

  it('--set objective=bust: side a plays to bust as often as it can, so it always rolls', () => {
    const { decisions, values } = solved(pushYourLuck, ['cap=8', 'objective=bust']);
    expect(decisions.objective).toBe('bust');
    expect(decisions.policy.every((e) => e.choice === 'roll')).toBe(true);
    expect(values.bust.toString()).toBe(decisions.value.toString());
  });
});

// Each rolls a d2; A, if holding a token, may re-roll; then B, if holding one, may re-roll, seeing A's result;
// ties roll again with the tokens kept.
const bothTokens = {
  id: 'both',
  title: 'both hold a token',
  metrics: [{ name: 'a.wins', probability: true, doc: 'A wins' }],
  start: () => ({ phase: 'roll', ta: 1, tb: 1 }),
  choices(s: { phase: string; ta: number; tb: number }) {
    if (s.phase === 'a' && s.ta > 0) return { side: 'a', options: ['keep', 'reroll'] };
    if (s.phase === 'b' && s.tb > 0) return { side: 'b', options: ['keep', 'reroll'] };
    return null;
  },
  choose(s: { phase: string; a: number; b: number; ta: number; tb: number }, option: string) {
    if (option === 'reroll') return { ...s, phase: `${s.phase}-reroll` };
    return { ...s, phase: s.phase === 'a' ? 'b' : 'settle' };
  },
  step(s: { phase: string; a: number; b: number; ta: number; tb: number }, dice: { d(n: number): number }) {
    if (s.phase === 'roll') return { phase: 'a', a: dice.d(2), b: dice.d(2), ta: s.ta, tb: s.tb };
    if (s.phase === 'a') return { ...s, phase: 'b' };
    if (s.phase === 'a-reroll') return { ...s, phase: 'b', a: dice.d(2), ta: 0 };
    if (s.phase === 'b-reroll') return { ...s, phase: 'settle', b: dice.d(2), tb: 0 };
    if (s.phase === 'b') return { ...s, phase: 'settle' };
    if (s.a === s.b) return { phase: 'roll', ta: s.ta, tb: s.tb };
    return { winner: s.a > s.b ? 'a' : 'b' };
  },
  done: (s: { winner?: string }) => s.winner !== undefined,
  report: (s: { winner: string }, _p: unknown, out: Record<string, unknown>) => {
    out['a.wins'] = s.winner === 'a';
  },
  label: (s: { ta: number; tb: number; a: number; b: number }) => `${s.ta}${s.tb} ${s.a}v${s.b}`,
};

describe('both sides hold a token: a game, A maximising and B minimising', () => {
  // From the text: A's decisions are (tb, a, b) with A's token held, B's are (ta, a, b) with B's held (a is A's
  // final die), 8 each. Given both policies, a round from tokens (ta, tb) ends or, on a tie, returns with the
  // tokens left; each token state's value V(ta, tb) = c / (1 − t) over the 4 equally likely (a, b), found from
  // (0, 0) upwards, with B's choice averaged over A's re-roll.
  function worth(aPolicy: number[], bPolicy: number[]): Fraction {
    const aRerolls = (tb: number, a: number, b: number) => aPolicy[tb * 4 + (a - 1) * 2 + (b - 1)] === 1;
    const bRerolls = (ta: number, a: number, b: number) => bPolicy[ta * 4 + (a - 1) * 2 + (b - 1)] === 1;
    const V = new Map<string, Fraction>();
    for (const [ta, tb] of [
      [0, 0],
      [0, 1],
      [1, 0],
      [1, 1],
    ]) {
      let c = ZERO;
      let t = ZERO;
      // After A's final die a (tokens ta2 left), B decides: the chance of A's win, the chance of a tie and where.
      const afterB = (a: number, b: number, ta2: number, weight: Fraction) => {
        const finals: Array<[number, number]> =
          tb > 0 && bRerolls(ta2, a, b)
            ? [
                [1, 0],
                [2, 0],
              ]
            : [[b, tb]];
        for (const [bFinal, tb2] of finals) {
          const w = weight.mul(F(1, finals.length));
          if (a > bFinal) c = c.add(w);
          else if (a === bFinal) {
            if (ta2 === ta && tb2 === tb) t = t.add(w);
            else c = c.add(w.mul(V.get(`${ta2}${tb2}`) as Fraction));
          }
        }
      };
      for (let a = 1; a <= 2; a++) {
        for (let b = 1; b <= 2; b++) {
          const cell = F(1, 4);
          if (ta > 0 && aRerolls(tb, a, b)) {
            for (let a2 = 1; a2 <= 2; a2++) afterB(a2, b, 0, cell.mul(F(1, 2)));
          } else afterB(a, b, ta, cell);
        }
      }
      V.set(`${ta}${tb}`, c.div(ONE.sub(t)));
    }
    return V.get('11') as Fraction;
  }

  it('the value is max over A of min over B, and min over B of max over A, of all 2^8 × 2^8 pairs', () => {
    const table = [...policies(8)].map((a) => [...policies(8)].map((b) => worth(a, b)));
    const maxMin = table
      .map((row) => row.reduce((m, v) => (v.compare(m) < 0 ? v : m)))
      .reduce((m, v) => (v.compare(m) > 0 ? v : m));
    const minMax = table[0]
      .map((_, j) => table.reduce((m, row) => (row[j].compare(m) > 0 ? row[j] : m), ZERO))
      .reduce((m, v) => (v.compare(m) < 0 ? v : m));
    expect(maxMin.toString()).toBe(minMax.toString());
    const { decisions, values } = solved(bothTokens, []);
    expect(decisions.value.toString()).toBe(maxMin.toString());
    expect(values['a.wins'].toString()).toBe(maxMin.toString());
    expect(decisions.policy.some((e) => e.side === 'b')).toBe(true);
    expect(decisions.policy.some((e) => e.side === 'a')).toBe(true);
  });
});

describe('examples/rules/rolloff-token.mjs: 2d6, one token, ties rolled again with the token kept', () => {
  it('best play against brute force over every way of playing the ties (2^11), the rest decided cell by cell', async () => {
    const path = new URL('../../examples/rules/rolloff-token.mjs', import.meta.url).pathname;
    const spec = ((await import(path)) as { default: object }).default;
    // 2d6 totals: the chance of each, from the 36 faces.
    const chance = new Map<number, Fraction>();
    for (let x = 1; x <= 6; x++)
      for (let y = 1; y <= 6; y++) chance.set(x + y, (chance.get(x + y) ?? ZERO).add(F(1, 36)));
    const totals = [...chance.keys()].sort((x, y) => x - y);
    const above = (b: number) =>
      totals.filter((t) => t > b).reduce((sum, t) => sum.add(chance.get(t) as Fraction), ZERO);
    // A re-roll against b wins above b, and on a tie rolls again without the token: V0 = 1/2 (equal dice).
    const reroll = (b: number) => above(b).add((chance.get(b) as Fraction).mul(F(1, 2)));
    // Off a tie, keeping wins (1) or loses (0) outright, whatever comes after: the better of keep and re-roll is
    // taken cell by cell. On a tie at b, keeping returns to the start with the token: a policy re-rolls the ties in a
    // set R of totals, and V1 = c / (1 − t), c the chance of winning this round, t of a tie kept.
    let best = ZERO;
    let bestSet = 0;
    for (let set = 0; set < 1 << totals.length; set++) {
      let c = ZERO;
      let t = ZERO;
      for (const a of totals) {
        for (const b of totals) {
          const p = (chance.get(a) as Fraction).mul(chance.get(b) as Fraction);
          if (a !== b)
            c = c.add(p.mul(a > b ? ONE : reroll(b))); // ahead: keep wins for sure
          else if ((set >> totals.indexOf(b)) & 1) c = c.add(p.mul(reroll(b)));
          else t = t.add(p);
        }
      }
      const value = c.div(ONE.sub(t));
      if (value.compare(best) > 0) {
        best = value;
        bestSet = set;
      }
    }
    const { decisions, values } = solved(spec, []);
    expect(decisions.value.toString()).toBe(best.toString());
    expect(values['a.wins'].toString()).toBe(best.toString());
    for (const e of decisions.policy) {
      const { a, b } = e.state as { a: number; b: number };
      const expected = a === b ? ((bestSet >> totals.indexOf(b)) & 1 ? 'reroll' : 'keep') : a > b ? 'keep' : 'reroll';
      expect(e.choice, e.label).toBe(expected);
    }
    expect(decisions.policy).toHaveLength(121);
  });
});
