/**
 * A card's distribution panel: a rule with distribution metrics prints, under
 * its headline blocks, one of them whole — each value's chance as bars, and
 * beside them a table of every value with its chance, at least and at most —
 * so the sheet answers "what are the odds of k or more?" without a screen.
 * The distribution shown is the first headline metric that is one, else the
 * first the rule declares; only a card computed at one point has one.
 *
 * No node: imports here, so the calculator page can bundle it.
 */

import type { MetricSpec, Rule } from '../../src/contract/types.js';
import { own } from '../../src/keyed.js';
import type { RunResult } from '../../src/result.js';
import type { DistributionResult } from '../../src/result-distribution.js';
import { markerKey } from '../charts/blocks.js';
import { type DistributionBar, distributionBars, distributionViewSpec } from '../charts/distribution.js';
import { escapeHtml } from '../escape.js';
import { percent } from '../numbers.js';
import type { CardBlock } from '../present/cards.js';

/** Most values the table lists; the rest are summed in its last row ("k or more"). */
const MOST_ROWS = 16;

/** The distribution metric a card shows, with its distribution; null when it has none. */
function chosen(rule: Rule, result: RunResult): { metric: MetricSpec; distribution: DistributionResult } | null {
  const found = result.distributions;
  if (!found) return null;
  const metrics = rule.metrics(result.params).filter((metric) => metric.distribution && own(found, metric.name));
  const headline = new Set(rule.presentation?.headline?.(result.params) ?? []);
  const metric = metrics.find((m) => headline.has(m.name)) ?? metrics[0];
  return metric ? { metric, distribution: own(found, metric.name) as DistributionResult } : null;
}

const cell = (bar: DistributionBar | undefined) => escapeHtml(bar ? percent(bar.best, 2) : '—');

/** The bars and the table of a card computed at one point; none for a card of several points or no distribution. */
export function distributionBlocks(rule: Rule, results: readonly RunResult[]): CardBlock[] {
  if (results.length !== 1) return [];
  const [result] = results;
  const picked = chosen(rule, result);
  if (!picked) return [];
  const { metric, distribution } = picked;
  const bars = distributionBars(distribution);
  const words = (metric.label ?? metric.name).replace(/\s*\(expected\)$/, '');
  const id = `${rule.id}-card-distribution-${metric.name}`.replace(/[^A-Za-z0-9.-]+/g, '-');
  const byView = (view: DistributionBar['view']) =>
    new Map(bars.filter((b) => b.view === view).map((b) => [b.label, b]));
  const each = byView('each');
  const atLeast = byView('at least');
  const atMost = byView('at most');
  const labels = [...each.keys()];
  // The table stops where the rest is under a hundredth of a percent (or at MOST_ROWS), summing what follows.
  const tiny = labels.findIndex((label, index) => index > 0 && (atLeast.get(label)?.best ?? 1) < 5e-5);
  const cut = Math.min(tiny < 0 ? labels.length : tiny, labels.length > MOST_ROWS ? MOST_ROWS - 1 : labels.length);
  const listed = labels.slice(0, cut);
  const rows = listed.map(
    (label) =>
      `<tr><td class="num">${escapeHtml(label)}</td><td class="num">${cell(each.get(label))}</td><td ` +
      `class="num">${cell(atLeast.get(label))}</td><td class="num">${cell(atMost.get(label))}</td></tr>`,
  );
  const next = listed.length < labels.length ? labels[listed.length] : null;
  const rest = next === null ? '' : ` ${next} or more: ${percent(atLeast.get(next)?.best ?? 0, 2)}.`;
  const head =
    '<thead><tr><th class="num">value</th><th class="num">P(=)</th><th class="num">P(≥)</th><th class="num">P(≤)</th></tr></thead>';
  return [
    {
      kind: 'chart',
      chart: {
        id,
        title: `${words}: the whole distribution`,
        caption: `${metric.doc}${/[.!?]$/.test(metric.doc) ? '' : '.'} ${markerKey(
          result,
          bars.some((b) => b.exact !== null),
        )}`,
        spec: distributionViewSpec(
          bars.filter((bar) => listed.includes(bar.label)),
          words,
          'each',
          110,
        ),
      },
    },
    {
      kind: 'table',
      id: `${id}-table`,
      title: `${words}: at least and at most`,
      html: `<table class="distribution">${head}<tbody>${rows.join('')}</tbody></table>`,
      caption:
        (result.method === 'exact' ? 'Exact chances, rounded.' : 'Exact chances where known, else simulated shares.') +
        rest,
    },
  ];
}
