/**
 * A card's distribution panel: the 2d6 roll-off's card (computed at one
 * point) prints its rolls as bars and a table of every value with P(=),
 * P(≥) and P(≤), each the brute force's to the rounding shown; a card of
 * many points has no panel.
 *
 * The oracle: the roll-off (Noctvale, Standard Battle Set-Up, step 3) is
 * rolled again while the totals tie; a tie's chance t counts all 6^4 throws
 * of four dice, and the rolls are geometric: P(= k) = t^(k−1)(1 − t),
 * P(≥ k) = t^(k−1), P(≤ k) = 1 − t^k.
 */
import { describe, expect, it } from 'vitest';
import { cardCharts, layoutCard, planCard, renderCardSheet } from '../../reports/card/layout.js';
import { compileSpec } from '../../reports/svg.js';
import { runCommand } from '../../src/cli/commands/run.js';
import { getRule } from '../../src/rules/index.js';
import { resolveParams } from '../../src/rules/params.js';
import { bufferIo } from '../support/io.js';

function tieChance(): number {
  let ties = 0;
  for (let a = 1; a <= 6; a++)
    for (let b = 1; b <= 6; b++) for (let c = 1; c <= 6; c++) for (let d = 1; d <= 6; d++) if (a + b === c + d) ties++;
  return ties / 1296;
}

/** "12.34%", "&lt;0.01%", "&gt;99.99%" (as the sheet escapes them) ─► the interval of chances it may stand for. */
function range(html: string): [number, number] {
  const text = html.replace('&lt;', '<').replace('&gt;', '>');
  if (text.startsWith('<')) return [0, Number.parseFloat(text.slice(1)) / 100];
  if (text.startsWith('>')) return [Number.parseFloat(text.slice(1)) / 100, 1];
  const x = Number.parseFloat(text) / 100;
  expect(Number.isFinite(x), html).toBe(true);
  // Two decimals of a percentage: within half of 0.01 pp.
  return [x - 0.00005 - 1e-12, x + 0.00005 + 1e-12];
}

describe('a card’s distribution panel', () => {
  it('rolloff at its defaults: bars, and a table whose P(=), P(≥) and P(≤) are the brute force’s', async () => {
    const rule = getRule('rolloff');
    const params = resolveParams(rule);
    const points = planCard(rule, params);
    expect(points).toHaveLength(1);
    const result = await runCommand('rolloff', { exact: true, quiet: true }, bufferIo());
    const card = layoutCard(rule, params, {}, [result]);
    const chart = cardCharts(card).find((c) => c.id === 'rolloff-card-distribution-rolls.mean');
    expect(chart).toBeDefined();
    expect(compileSpec(chart!.spec).warnings).toEqual([]);
    const sheet = renderCardSheet(card);
    const table = /<table class="distribution">(.*?)<\/table>/.exec(sheet)?.[1] ?? '';
    const rows = [...table.matchAll(/<tr>(.*?)<\/tr>/g)]
      .map((row) => [...row[1].matchAll(/<td[^>]*>(.*?)<\/td>/g)].map((cell) => cell[1]))
      .filter((cells) => cells.length > 0);
    const t = tieChance();
    expect(rows.map((cells) => cells[0])).toEqual(['1', '2', '3', '4', '5']);
    for (const [value, each, atLeast, atMost] of rows) {
      const k = Number(value);
      const want = [t ** (k - 1) * (1 - t), t ** (k - 1), 1 - t ** k];
      [each, atLeast, atMost].forEach((text, i) => {
        const [lo, hi] = range(text);
        expect(want[i], `${value}: ${text}`).toBeGreaterThanOrEqual(lo);
        expect(want[i], `${value}: ${text}`).toBeLessThanOrEqual(hi);
      });
    }
    // The rest summed under the table: 6 or more, t^5.
    const rest = /6 or more: ((?:&lt;|&gt;)?[\d.]+%)/.exec(sheet)?.[1];
    expect(rest).toBeDefined();
    const [lo, hi] = range(rest as string);
    expect(t ** 5).toBeGreaterThanOrEqual(lo);
    expect(t ** 5).toBeLessThanOrEqual(hi);
    // The bars stop where the table does.
    expect((chart?.spec.data as { values: unknown[] } | undefined)?.values).toHaveLength(5);
  });

  it('reserves at its defaults (a card of many points): no panel', async () => {
    const rule = getRule('reserves');
    const params = resolveParams(rule);
    expect(planCard(rule, params).length).toBeGreaterThan(1);
    const card = layoutCard(
      rule,
      params,
      {},
      await Promise.all(
        planCard(rule, params).map((point) =>
          runCommand(
            'reserves',
            { exact: true, quiet: true, set: Object.entries(point).map(([k, v]) => `${k}=${v}`) },
            bufferIo(),
          ),
        ),
      ),
    );
    expect(card.blocks.some((block) => block.kind === 'chart' && block.chart.id.includes('distribution'))).toBe(false);
  });
});
