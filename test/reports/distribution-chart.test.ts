/**
 * The distribution charts of a run's report, in Node: every one compiles
 * without a warning and draws, on screen (the radio) and in print (three
 * panels); a metric's label and doc that a rule file chose stay text; an
 * --svg export saves the print panels. The values they draw are checked
 * against brute force in the browser (test/browser/distribution-browser.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { withTitle } from '../../reports/charts/chart.js';
import { distributionBars, distributionChart, distributionCharts } from '../../reports/charts/distribution.js';
import { renderPage } from '../../reports/page.js';
import { buildRunPage, runPageInput } from '../../reports/run-report.js';
import { compileSpec, renderSvg } from '../../reports/svg.js';
import { runCommand } from '../../src/cli/commands/run.js';
import type { MetricSpec } from '../../src/contract/types.js';
import { getRule } from '../../src/rules/index.js';
import { HOSTILE } from '../support/hostile.js';
import { bufferIo } from '../support/io.js';

describe('distribution charts', () => {
  it('reserves squads=4, exact and simulated: each distribution compiles cleanly and draws, screen and print', async () => {
    const rule = getRule('reserves');
    for (const options of [{ exact: true }, { trials: '4000' }]) {
      const result = await runCommand('reserves', { ...options, set: ['squads=4'], quiet: true }, bufferIo());
      const charts = distributionCharts({ rule, result, metrics: rule.metrics(result.params) });
      // Squads in by each of the 4 rounds, and the round of the last arrival.
      expect(charts.map(({ screen }) => screen.id)).toEqual([
        'reserves-distribution-arrived.by.1.mean',
        'reserves-distribution-arrived.by.2.mean',
        'reserves-distribution-arrived.by.3.mean',
        'reserves-distribution-arrived.by.4.mean',
        'reserves-distribution-last.arrival',
      ]);
      for (const { screen, print } of charts) {
        for (const chart of [screen, print]) {
          expect(compileSpec(chart.spec).warnings, chart.id).toEqual([]);
          // Drawing takes vega a while: the round of the last arrival stands for the others.
          if (chart.id.includes('last.arrival'))
            expect(await renderSvg(withTitle(chart)), chart.id).toMatch(/aria-roledescription="bar"/);
        }
      }
      // Page: the screen chart and its print panels; --svg: the panels, named as the screen chart.
      const page = buildRunPage(rule, result);
      expect(page.html).toContain('class="chart screen-only" id="reserves-distribution-last.arrival"');
      expect(page.html).toContain('class="chart print-only" id="reserves-distribution-last.arrival-print"');
      expect(page.charts.filter((chart) => chart.id.includes('-distribution-')).map((chart) => chart.id)).toEqual(
        charts.map(({ screen }) => screen.id),
      );
    }
  });

  it('a squad count of 4 at the last round: the bars of each view add up as a distribution does', async () => {
    const rule = getRule('reserves');
    const result = await runCommand('reserves', { exact: true, set: ['squads=4'], quiet: true }, bufferIo());
    const distribution = result.distributions?.['arrived.by.4.mean'];
    if (!distribution) throw new Error('reserves has no arrived.by.4.mean distribution');
    const bars = distributionBars(distribution);
    const each = bars.filter((bar) => bar.view === 'each');
    const atLeast = bars.filter((bar) => bar.view === 'at least');
    const atMost = bars.filter((bar) => bar.view === 'at most');
    expect(each.map((bar) => bar.label)).toEqual(['0', '1', '2', '3', '4']);
    // The tails are running sums of the chances drawn, from each end (to a double's rounding).
    each.forEach((_, index) => {
      const below = each.slice(0, index + 1).reduce((sum, bar) => sum + bar.best, 0);
      const above = each.slice(index).reduce((sum, bar) => sum + bar.best, 0);
      expect(atMost[index].best).toBeCloseTo(below, 12);
      expect(atLeast[index].best).toBeCloseTo(above, 12);
    });
    expect(rule.metrics(result.params).some((metric) => metric.name === 'arrived.by.4.mean')).toBe(true);
  });

  it('a label, doc and title a rule file chose stay text in the page and draw as titles', async () => {
    const rule = getRule('rolloff');
    const result = await runCommand('rolloff', { exact: true, quiet: true }, bufferIo());
    const distribution = result.distributions?.['rolls.mean'];
    if (!distribution) throw new Error('rolloff has no rolls.mean distribution');
    for (const label of [HOSTILE, 'constructor', '__proto__']) {
      const metric: MetricSpec = {
        name: 'rolls.mean',
        doc: HOSTILE,
        label,
        probability: false,
        distribution: { min: 1, max: null },
      };
      const hostileRule = { ...rule, title: HOSTILE };
      for (const print of [false, true]) {
        const chart = distributionChart({ rule: hostileRule, result }, metric, distribution, print);
        expect(compileSpec(chart.spec).warnings, label).toEqual([]);
        expect(await renderSvg(withTitle(chart)), label).toMatch(/aria-roledescription="bar"/);
        const input = runPageInput(rule, result, []);
        const html = renderPage({ ...input, sections: [{ kind: 'chart', chart }] });
        expect(html).not.toContain('<img src=x');
        expect(html).toContain('&lt;img src=x');
      }
    }
  });
});
