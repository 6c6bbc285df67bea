/**
 * Each built-in's hand-written exact solver against its own `trial` (the rule text, die by die),
 * enumerated over every way its dice can fall (src/exact/replay-dice.ts, as a rule file's trial is):
 * exact equality of fractions, no tolerance. Only settings whose trial has finitely many paths within the
 * budget can be enumerated: no roll-off that repeats on a tie (infinity and warbands always have one; so
 * do deployment and noctvale on equal totals or counts), and few enough dice (fow over two turns).
 */
import { describe, expect, it } from 'vitest';
import { rationalOf } from '../../src/exact/double-value.js';
import { Fraction } from '../../src/exact/fraction.js';
import { forEachPath, pathBudget } from '../../src/exact/replay-dice.js';
import type { Builtin, TrialOut } from '../../src/rules/define.js';
import { deployment } from '../../src/rules/deployment/deployment.js';
import { fow } from '../../src/rules/fow/fow.js';
import { noctvale } from '../../src/rules/noctvale.js';
import { resolveParams } from '../../src/rules/params.js';
import { reserves } from '../../src/rules/reserves/reserves.js';

/**
 * Every metric's expectation over the trial's paths: Σ weight · value, the value read as the fraction it is,
 * over the weight of the paths that wrote it (a metric a trial leaves unwritten is not observed in it, as in
 * test/support/trial-run.ts: fow's scatter share is one given that a platoon arrives).
 */
function enumerateTrial(rule: Builtin, settings: string[]): Record<string, Fraction> {
  const params = resolveParams(rule, settings);
  const names = rule.metrics(params).map((metric) => metric.name);
  const sums = new Map(names.map((name) => [name, Fraction.ZERO]));
  const observed = new Map(names.map((name) => [name, Fraction.ZERO]));
  forEachPath(
    (dice) => {
      const out: TrialOut = Object.create(null);
      rule.trial(dice, params, out);
      return out;
    },
    (out, numerator, denominator) => {
      const weight = Fraction.of(numerator, denominator);
      for (const name of names) {
        if (out[name] === undefined) continue;
        const [top, bottom] = rationalOf(out[name]);
        sums.set(name, sums.get(name)!.add(weight.mul(Fraction.of(top, bottom))));
        observed.set(name, observed.get(name)!.add(weight));
      }
    },
    pathBudget('fewer dice'),
  );
  return Object.fromEntries(names.map((name) => [name, sums.get(name)!.div(observed.get(name)!)]));
}

function expectTrialIsExact(rule: Builtin, settings: string[]): void {
  const enumerated = enumerateTrial(rule, settings);
  const exact = rule.exact!.values(resolveParams(rule, settings));
  const differ = Object.keys(enumerated).filter((name) => !enumerated[name].equals(exact[name]));
  expect(differ.map((name) => `${name}: trial ${enumerated[name]}, exact ${exact[name]}`)).toEqual([]);
}

describe("a rule's exact solver is its trial, enumerated", () => {
  it('reserves: 2 squads over 3 rounds, 6^6 ways their dice fall', () =>
    expectTrialIsExact(reserves, ['squads=2', 'rounds=3']));

  it('reserves: the commander lost with chance 1/4 in the round before the chosen round 2, a fallback of 1', () =>
    expectTrialIsExact(reserves, [
      'squads=2',
      'rounds=3',
      'chosenRound=2',
      'command=3',
      'leaderLoss=0.25',
      'fallbackCommand=1',
    ]));

  it('reserves: rolls waiting for round 2, a target of 9', () =>
    expectTrialIsExact(reserves, ['squads=3', 'rounds=3', 'firstRound=2', 'target=9', 'chosenRound=2']));

  // standard:1,2,3 totals 6; forward:5 totals 5 (both dice lost) or at least 8: the totals never tie.
  it('deployment: forward:5 against standard:1,2,3, both readings of the lost die', () => {
    for (const compare of ['raw', 'modified'])
      expectTrialIsExact(deployment, ['a=forward:5', 'b=standard:1,2,3', `compare=${compare}`]);
  });

  it('deployment: standard:1,2,3 against forward:5, the long edge only, 7 squads against 4, 3 at a time', () =>
    expectTrialIsExact(deployment, [
      'a=standard:1,2,3',
      'b=forward:5',
      'edges=long',
      'squadsA=7',
      'squadsB=4',
      'perTurn=3',
    ]));

  it('noctvale: unequal retinues settle the initiative without dice', () => {
    for (const [a, b, groups] of [
      [5, 7, 3],
      [9, 2, 4],
    ])
      expectTrialIsExact(noctvale, [`fightersA=${a}`, `fightersB=${b}`, `groups=${groups}`]);
  });

  it('fow: two platoons a side over two turns, the scatter dice included', () =>
    expectTrialIsExact(fow, [
      'attackerPlatoons=2',
      'defenderPlatoons=2',
      'ambush=false',
      'defenderStart=2',
      'turns=2',
      'endTurn=2',
    ]));

  it('fow: a guarantee from two dice, hits on 4+, three places', () =>
    expectTrialIsExact(fow, [
      'attackerPlatoons=2',
      'attackerReserves=2',
      'defenderPlatoons=2',
      'ambush=false',
      'guarantee=2',
      'hit=4',
      'defenderStart=2',
      'turns=2',
      'endTurn=2',
      'scatter=1:a,2-3:b,4-6:c',
    ]));
});
