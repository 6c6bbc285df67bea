/**
 * No card prints "—" where a figure should be. The card's table and chart
 * builders print "—" for a metric a result does not have, so a card that
 * names a metric wrongly would print it silently: every built-in rule's card
 * is laid out at its defaults and at corner settings, and no table cell or
 * chart label may hold the placeholder.
 */
import { describe, expect, it } from 'vitest';
import { type Card, cardCharts, layoutCard, planCard, renderCardSheet } from '../../reports/card/layout.js';
import { buildResult } from '../../src/analysis/result-of.js';
import type { Rule } from '../../src/contract/types.js';
import type { RunResult } from '../../src/result.js';
import { rules } from '../../src/rules/index.js';
import { resolveParams } from '../../src/rules/params.js';

const PLACEHOLDER = '—';

/**
 * Settings per rule: defaults, the README's questions and corners (fewest rounds, most warbands, an attacker held
 * back).
 */
const CASES: ReadonlyMap<string, string[][]> = new Map(
  Object.entries({
    reserves: [
      [],
      ['chosenRound=3', 'command=3'],
      ['squads=6', 'chosenRound=2', 'command=3', 'leaderLoss=0.15', 'fallbackCommand=1'],
      ['rounds=1'],
      ['rounds=12', 'target=6'],
    ],
    deployment: [[], ['a=standard:1,2,4', 'b=forward:4'], ['a=forward:6', 'compare=modified', 'edges=long']],
    infinity: [[], ['wipA=13', 'wipB=15'], ['wipA=25', 'wipB=8', 'crits=false'], ['wipA=30', 'wipB=21']],
    noctvale: [[], ['fightersA=7', 'fightersB=9', 'groups=2'], ['fightersA=12', 'fightersB=12', 'groups=5']],
    warbands: [
      [],
      ['warbands=100:5,90:6,80:7,150:12', 'allies=2+3'],
      ['defender=false', 'warbands=120:8,120:8'],
      ['warbands=90:5,152:9,148:11,300:20,120:8,151:12,100:3,200:9', 'allies=1+2'],
    ],
    fow: [
      [],
      ['attackerPlatoons=8', 'defenderPlatoons=7', 'ambush=false'],
      ['hit=4', 'guarantee=0', 'scatter=1-3:left,4-6:right', 'turns=6'],
      ['attackerStart=3'],
    ],
  }),
);

const exactResult = (rule: Rule, params: RunResult['params']) =>
  buildResult({ rule, params, seed: 'muster', stream: null, threads: 0, confidence: 1, trials: 0, tally: null });

/** Every table cell and every chart text field of a card that shows the placeholder. */
function placeholders(card: Card): string[] {
  const cells = [...renderCardSheet(card).matchAll(/<td[^>]*>([^<]*)<\/td>/g)]
    .map((match) => match[1])
    .filter((text) => text.includes(PLACEHOLDER));
  const labels = cardCharts(card).flatMap(
    (chart) => JSON.stringify(chart.spec).match(/"(?:[^"\\]|\\.)*—(?:[^"\\]|\\.)*"/g) ?? [],
  );
  return [...cells.map((cell) => `cell ${cell}`), ...labels.map((label) => `chart ${label}`)];
}

function cardOf(rule: Rule, set: string[], results?: (params: RunResult['params']) => RunResult): Card {
  const params = resolveParams(rule, set);
  return layoutCard(
    rule,
    params,
    {},
    planCard(rule, params).map((point) => (results ?? ((p) => exactResult(rule, p)))(point)),
  );
}

describe('no card prints a placeholder where a figure should be', () => {
  for (const rule of rules) {
    it(`${rule.id}: every setting's card has a figure in every cell and label`, () => {
      // A rule with no settings listed here is checked at its defaults.
      for (const set of CASES.get(rule.id) ?? [[]])
        expect(placeholders(cardOf(rule, set)), `${rule.id} ${set.join(' ')}`).toEqual([]);
    });
  }

  it('the check finds one: a result missing a metric the deployment card tabulates shows as a placeholder', () => {
    const deployment = rules.find((rule) => rule.id === 'deployment') as Rule;
    const missing = (params: RunResult['params']) => {
      const result = exactResult(deployment, params);
      const { 'a.aoc': _dropped, ...rest } = result.metrics;
      return { ...result, metrics: rest };
    };
    expect(placeholders(cardOf(deployment, [], missing)).length).toBeGreaterThan(0);
  });
});
