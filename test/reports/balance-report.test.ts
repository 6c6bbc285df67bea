/**
 * The balance map (reports/balance.ts): every chart compiles with no warning
 * and draws in Node; the target's contour and the outlined cells are where a
 * scan of the grid puts them, with each cell's side of the target computed
 * here from the rule text (Genesys Project preview §6.5: a squad arrives in
 * round r on 1d6 + r ≥ target, so P(all of n in by round 4) =
 * (1 − Π_{r=1..4} P(1d6 < target − r))^n); user text is escaped.
 */
import { describe, expect, it } from 'vitest';
import { balanceCharts, balancePage } from '../../reports/balance.js';
import { withTitle } from '../../reports/charts/chart.js';
import { compileSpec, renderSvg } from '../../reports/svg.js';
import { planBalance } from '../../src/analysis/balance.js';
import { evaluateBalance } from '../../src/analysis/sweep-evaluate.js';
import { getRule } from '../../src/rules/index.js';
import { echoRule, HOSTILE } from '../support/hostile.js';

function allIn(squads: number, target: number): number {
  let out = 1;
  for (let round = 1; round <= 4; round++) out *= Math.min(6, Math.max(0, target - round - 1)) / 6;
  return (1 - out) ** squads;
}

type Cell = { row: string; col: string; fair: boolean; contour: string };

describe('the balance map', () => {
  it('two parameters: the contour runs between cells either side of the target; the nearest is outlined', async () => {
    const rule = getRule('reserves');
    const plan = planBalance(rule, {
      vary: ['squads=3..8', 'target=4..9'],
      metric: 'all.by.4',
      target: '70%',
    });
    const result = await evaluateBalance(plan);
    const [chart] = balanceCharts(rule, result, plan.metric);
    expect(compileSpec(chart.spec).warnings).toEqual([]);
    const svg = await renderSvg(withTitle(chart));
    expect(svg).toContain('<path'); // the contour symbols are drawn
    const cells = (chart.spec.data as { values: Cell[] }).values;
    expect(cells).toHaveLength(36);
    const side = (squads: number, target: number) => Math.sign(allIn(squads, target) - 0.7);
    for (const cell of cells) {
      const squads = Number(cell.row);
      const target = Number(cell.col);
      const right = target < 9 && side(squads, target) * side(squads, target + 1) < 0;
      const below = squads < 8 && side(squads, target) * side(squads + 1, target) < 0;
      expect([cell.contour.includes('M1,'), cell.contour.includes('M-1,')], `${squads} ${target}`).toEqual([
        right,
        below,
      ]);
    }
    // The crossing happens between targets 6 and 7 (and, at 7, between squads 3 and 4): the contour is not empty.
    expect(cells.filter((cell) => cell.contour !== '').length).toBeGreaterThan(0);
    // The outlined cell is the one nearest 70% by the oracle.
    let best = { key: '', gap: Number.POSITIVE_INFINITY };
    for (let squads = 3; squads <= 8; squads++)
      for (let target = 4; target <= 9; target++) {
        const gap = Math.abs(allIn(squads, target) - 0.7);
        if (gap < best.gap) best = { key: `${squads},${target}`, gap };
      }
    expect(cells.filter((cell) => cell.fair).map((cell) => `${cell.row},${cell.col}`)).toEqual([best.key]);
  });

  it('one parameter: a line, the target a rule across it, the nearest ringed', async () => {
    const rule = getRule('rolloff');
    const plan = planBalance(rule, { vary: ['bonusA=-3..3'], metric: 'a.wins', target: '60%' });
    const result = await evaluateBalance(plan);
    const [chart] = balanceCharts(rule, result, plan.metric);
    expect(compileSpec(chart.spec).warnings).toEqual([]);
    await renderSvg(withTitle(chart));
    const layers = chart.spec.layer as Array<{ data: { values: Array<Record<string, unknown>> } }>;
    expect(layers[2].data.values.map((d) => d.target)).toEqual([0.6]);
    // 721/1156 = 62.4% misses 60% by 2.4 pp; 1/2 by 10 pp: bonus 1 is ringed.
    expect(layers[0].data.values.filter((d) => d.fair).map((d) => d.setting)).toEqual(['1']);
  });

  it('escapes user text: a hostile rule and parameter value never reach the page as markup', async () => {
    const plan = planBalance(echoRule, {
      vary: [`label=${JSON.stringify([HOSTILE, 'plain'])}`],
      metric: 'p',
      target: '1/3',
    });
    const result = await evaluateBalance(plan);
    const { html } = balancePage(echoRule, result, plan.metric);
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('<style>body{display:none}');
    expect(html).toContain('&lt;img src=x');
  });
});
