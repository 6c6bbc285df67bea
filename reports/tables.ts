/**
 * HTML tables of figures. Every cell goes through escapeHtml; numbers are
 * formatted as the terminal formats them (src/cli/format.ts).
 */

import type { MetricSpec } from '../src/contract/types.js';
import type { Fraction } from '../src/exact/fraction.js';
import { own } from '../src/keyed.js';
import { formatValue } from '../src/output/format.js';
import type { MetricResult, RunResult } from '../src/result.js';
import { escapeHtml } from './escape.js';

/** Confidence as people write it: 0.95 → "95%". */
export function confidenceLabel(confidence: number): string {
  return `${+(confidence * 100).toFixed(4)}%`;
}

/** An interval "lo – hi" in the metric's units. */
export function formatInterval(value: Pick<MetricResult, 'lo' | 'hi'>, probability: boolean): string {
  return `${formatValue(value.lo, probability)} – ${formatValue(value.hi, probability)}`;
}

import { readableFraction } from '../src/output/format.js';

export { readableFraction };

/**
 * Every metric of a run: name, meaning, estimate, interval and exact value
 * (with the exact fraction when it is short).
 */
export function metricsTable(
  result: RunResult,
  metrics: readonly MetricSpec[],
  fractions: Record<string, Fraction> | null = null,
): string {
  const simulated = result.method === 'simulation';
  const level = confidenceLabel(result.confidence);
  const head = simulated
    ? `<tr><th>metric</th><th>meaning</th><th class="num">estimate</th><th class="num">${escapeHtml(level)} ` +
      `interval</th><th class="num">exact</th></tr>`
    : '<tr><th>metric</th><th>meaning</th><th class="num">exact</th></tr>';
  const rows = metrics.map((metric) => {
    const value = own(result.metrics, metric.name);
    if (!value) return '';
    const fraction = readableFraction(own(fractions, metric.name));
    const exact = `${escapeHtml(formatValue(value.exact, metric.probability))}${
      fraction ? `<span ` + `class="fraction">= ${escapeHtml(fraction)}</span>` : ''
    }`;
    const cells = [
      `<td class="name">${escapeHtml(metric.name)}</td>`,
      `<td class="doc">${escapeHtml(metric.doc)}</td>`,
    ];
    if (simulated) {
      cells.push(
        `<td class="num">${escapeHtml(formatValue(value.estimate, metric.probability))}</td>`,
        `<td class="num">${escapeHtml(formatInterval(value, metric.probability))}</td>`,
      );
    }
    cells.push(`<td class="num">${exact}</td>`);
    return `<tr>${cells.join('')}</tr>`;
  });
  return `<table class="metrics"><thead>${head}</thead><tbody>${rows.join('')}</tbody></table>`;
}

/** A titled section holding trusted (already escaped) HTML. */
export function htmlSection(id: string, title: string, html: string, note = ''): string {
  return `<section id="${escapeHtml(id)}"><h2>${escapeHtml(title)}</h2>${
    note ? `<p ` + `class="note">${escapeHtml(note)}</p>` : ''
  }${html}</section>`;
}
