/**
 * What a step writes into out adds up over the steps (src/rule-files/sums.ts, stepProcedure): as exact fractions,
 * by name and by position, in any order. The enumeration reuses the last value's fraction and skips the sum where a
 * slot had nothing before; the values here are worked by hand.
 */
import { describe, expect, it } from 'vitest';
import type { Params } from '../../src/contract/types.js';
import { adaptRuleFile } from '../../src/rule-files/rule.js';
import { resolveParams } from '../../src/rules/params.js';

type Out = Record<string, unknown>;

describe('a step-form rule whose steps write means', () => {
  it('two steps of a d2: 1/2 and 1/4 on a 1, 1/3 twice and 2 on a 2', () => {
    const rule = adaptRuleFile(
      {
        id: 'step-rewards',
        title: 'step rewards',
        params: [],
        metrics: [
          { name: 'm', doc: 'm', probability: false },
          { name: 'n', doc: 'n', probability: false },
        ],
        start: () => 0,
        step(state: number, dice: { d(sides: number): number }, _: Params, out: Out) {
          if (dice.d(2) === 1) {
            out.m = 0.5;
            out[0] = 0.25;
          } else {
            out[0] = 1 / 3;
            out.m = 1 / 3;
            out.n = 2;
          }
          return state + 1;
        },
        done: (state: number) => state === 2,
        report() {},
      },
      'step-rewards.mjs',
    );
    const values = rule.exact?.values(resolveParams(rule, [])) ?? {};
    // Each step: m is 3/4 or 2/3, each half the time (17/24), n 0 or 2 (1); two steps.
    expect(Object.fromEntries(Object.entries(values).map(([name, value]) => [name, String(value)]))).toEqual({
      m: '17/12',
      n: '2',
    });
  });
});
