import { describe, expect, it } from 'vitest';
import { Fraction } from '../../src/exact/fraction.js';
import { fow } from '../../src/rules/fow/fow.js';
import { type Plan, type PlanSide, planFor } from '../../src/rules/fow/plan.js';
import { sideSetup } from '../../src/rules/fow/setup.js';
import { resolveParams } from '../../src/rules/params.js';

/**
 * Stream 3's plan for fow, enumerated: every code of every draw, each with
 * its chance 1/bound, followed through the plan's own tables (and a turn
 * counted group by group through every code of every group, stopping where
 * the plan stops). That gives the exact chance of each state the plan
 * records; it must equal fow.exact, the rule's Markov chain worked in
 * fractions from the rule text, to the last digit: the plan is then the
 * rule's chain, not an approximation of it.
 */
function enumeratePlan(plan: Plan): Map<number, Fraction> {
  const recorded = new Map<number, Fraction>();
  const weightOf = new Map<number, Fraction>([[plan.start, Fraction.of(1)]]);
  const reach = (outcome: number, chance: Fraction) => {
    for (let i = plan.recordStart[outcome]; i < plan.recordStart[outcome + 1]; i++) {
      const index = plan.recordIndex[i];
      recorded.set(index, (recorded.get(index) ?? Fraction.of(0)).add(chance));
    }
    const next = plan.next[outcome];
    if (next >= 0) weightOf.set(next, (weightOf.get(next) ?? Fraction.of(0)).add(chance));
  };
  // A state's successors have a later turn and so a larger index: taking the smallest first visits each once, complete.
  while (weightOf.size > 0) {
    const s = Math.min(...weightOf.keys());
    const weight = weightOf.get(s) as Fraction;
    weightOf.delete(s);
    const bound = plan.bound[s];
    if (bound !== 0) {
      for (let code = 0; code < bound; code++)
        reach(plan.outcomeOf[plan.first[s] + code], weight.div(Fraction.of(bound)));
      continue;
    }
    const out = plan.out[s];
    const dice = plan.dice[s];
    const groups = (left: number, hits: number, chance: Fraction): void => {
      if (left <= 0 || hits >= out) {
        reach(plan.outcomeOfHits[plan.first[s] + hits], chance);
        return;
      }
      const size = Math.min(left, plan.perDraw);
      const bound = plan.power[size];
      for (let code = 0; code < bound; code++)
        groups(left - plan.perDraw, hits + plan.hitsIn[code], chance.div(Fraction.of(bound)));
    };
    groups(dice, 0, weight);
  }
  return recorded;
}

function expectPlanIsTheChain(settings: string[]): void {
  const params = resolveParams(fow, settings);
  const exact = fow.exact!.values(params);
  const followed = Math.max(params.turns as number, (params.endTurn as number) - 1);
  for (const sideName of ['attacker', 'defender'] as const) {
    const setup = sideSetup(fow.read(params), sideName);
    const side: PlanSide = {
      reserves: setup.reserves,
      start: setup.start,
      followed,
      hit: params.hit as number,
      guarantee: params.guarantee as number,
    };
    const recorded = enumeratePlan(planFor(side));
    for (let turn = setup.start; turn <= (params.turns as number); turn++) {
      const stillOut = (r: number) => recorded.get((turn - 1) * (setup.reserves + 1) + r) ?? Fraction.of(0);
      let anyOut = Fraction.of(0);
      for (let r = 1; r <= setup.reserves; r++) anyOut = anyOut.add(stillOut(r));
      expect(anyOut.complement().toString(), `${sideName}.allIn.by.${turn}`).toBe(
        exact[`${sideName}.allIn.by.${turn}`].toString(),
      );
      // At least k in: at most reserves − k still out.
      let atMost = Fraction.of(1).sub(anyOut);
      for (let k = setup.reserves - 1; k >= 1; k--) {
        atMost = atMost.add(stillOut(setup.reserves - k));
        expect(atMost.toString(), `${sideName}.atLeast.${k}.by.${turn}`).toBe(
          exact[`${sideName}.atLeast.${k}.by.${turn}`].toString(),
        );
      }
    }
  }
}

describe('stream 3: fow by plan is exactly the rule’s Markov chain (every code of every draw enumerated)', () => {
  it('at the defaults: 5+ read as base-3 digits, seven dice a draw, turns 1–3 of a side from one draw', () => {
    const plan = planFor({ reserves: 3, start: 1, followed: 8, hit: 5, guarantee: 3 });
    expect(plan.power[plan.perDraw]).toBe(3 ** 7);
    expect(plan.bound[plan.start]).toBe(3 ** 6);
    expectPlanIsTheChain([]);
  });

  it(
    '4+ (base 2, twelve dice a draw) with 7 of 9 attackers in reserve and turns of thirteen dice counted group by ' +
      'group',
    () => {
      expectPlanIsTheChain(['hit=4', 'attackerPlatoons=9', 'attackerReserves=7', 'turns=14', 'guarantee=0']);
    },
  );

  it(
    '6+ (base 6, four dice a draw): from five dice a turn is counted group by group; the guarantee at four dice, ' +
      'and at six',
    () => {
      expectPlanIsTheChain([
        'hit=6',
        'guarantee=4',
        'turns=9',
        'defenderStart=2',
        'defenderPlatoons=7',
        'defenderReserves=5',
      ]);
      expectPlanIsTheChain(['hit=6', 'guarantee=6', 'turns=7', 'attackerPlatoons=4', 'defenderPlatoons=3']);
    },
  );

  it('2+ and 3+ (base 6 and base 3 with four scoring digits), the guarantee from one die', () => {
    expectPlanIsTheChain(['hit=2', 'guarantee=1', 'turns=7']);
    expectPlanIsTheChain([
      'hit=3',
      'guarantee=2',
      'turns=10',
      'attackerStart=3',
      'attackerPlatoons=4',
      'attackerReserves=4',
    ]);
  });
});
