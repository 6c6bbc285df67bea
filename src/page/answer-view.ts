/// <reference lib="dom" />
/**
 * The answer's side of the page: the headline figures (and their copy at
 * the foot of a phone's screen), the readings in force, every metric in a
 * table, the charts and the status line. It writes the DOM only, from a
 * result already built.
 */

import { confidenceLabel, formatInterval, metricsTable, readableFraction } from '../../reports/tables.js';
import type { MetricSpec, Params, Rule } from '../contract/types.js';
import { DEFAULT_STREAM } from '../engine/random.js';
import type { Fraction } from '../exact/fraction.js';
import { own } from '../keyed.js';
import { formatCount, formatValue } from '../output/format.js';
import type { MetricResult, RunResult } from '../result.js';
import { answerCharts } from './answer-charts.js';
import { ChartBoard } from './chart-board.js';
import { element, make } from './dom.js';

/** Metrics shown first when a rule names no headline ones. */
const FALLBACK_HEADLINE = 3;
/**
 * A rule may name a whole series as its headline (a figure per turn): the first this many get cards, the table has all.
 */
const MAX_FIGURES = 12;
/** More headline figures than this get small cards. */
const MANY_FIGURES = 6;
/** The figures kept at the foot of a phone's screen. */
const QUICK_FIGURES = 4;
/** The most metrics whose table still fits on the printed card below the headline and the chart. */
const PRINTED_TABLE_ROWS = 12;

/** When the text of an answer was written and its first and last charts drawn (performance.now()). */
export interface Drawn {
  texted: number;
  firstChart: number;
  ended: number;
}

export class AnswerView {
  readonly title = element<HTMLHeadingElement>('answer-title');
  readonly params = element<HTMLParagraphElement>('answer-params');
  private readonly method = element<HTMLParagraphElement>('answer-method');
  private readonly status = element<HTMLDivElement>('status');
  private readonly headline = element<HTMLDivElement>('headline');
  private readonly readings = element<HTMLDivElement>('readings');
  private readonly table = element<HTMLDivElement>('metrics-table');
  private readonly printLink = element<HTMLParagraphElement>('print-link');
  private readonly quick = element<HTMLDivElement>('quick');
  private readonly charts = element<HTMLDivElement>('charts');
  private readonly board = new ChartBoard(this.charts);

  /**
   * Writes an answer and draws its charts; settles with the times, or null when `stale` turned true while charts were
   * drawn (a newer change took over).
   */
  async show(
    rule: Rule,
    result: RunResult,
    fractions: Record<string, Fraction> | null,
    method: string,
    stale: () => boolean,
  ): Promise<Drawn | null> {
    const metrics = this.writeFigures(rule, result, fractions, method);
    this.charts.classList.remove('pending');
    this.renderReadings(rule, result.params);
    // A printed card is one page: the table goes on it when it is short enough to fit under the chart.
    element('metrics').classList.toggle('fits-card', metrics.length <= PRINTED_TABLE_ROWS);
    const texted = performance.now();
    let firstChart = texted;
    const current = await this.board.show(answerCharts({ rule, result, metrics }), stale, () => {
      firstChart = performance.now();
    });
    return current ? { texted, firstChart, ended: performance.now() } : null;
  }

  /**
   * A running simulation's estimate so far: the figures and table only, the last answer's charts dimmed until the
   * run's own are drawn (drawing charts for every step would take the cores the simulation needs).
   */
  showPartial(rule: Rule, result: RunResult, fractions: Record<string, Fraction> | null, method: string): void {
    this.writeFigures(rule, result, fractions, method);
    this.charts.classList.add('pending');
  }

  private writeFigures(
    rule: Rule,
    result: RunResult,
    fractions: Record<string, Fraction> | null,
    method: string,
  ): MetricSpec[] {
    const metrics = rule.metrics(result.params);
    this.method.textContent = method;
    this.renderHeadline(rule, result, metrics, fractions);
    this.table.innerHTML = metricsTable(result, metrics, fractions);
    return metrics;
  }

  private renderHeadline(
    rule: Rule,
    result: RunResult,
    metrics: readonly MetricSpec[],
    fractions: Record<string, Fraction> | null,
  ): void {
    const names = headlineNames(rule, result.params, metrics);
    const cards = names.slice(0, MAX_FIGURES).map((name) => {
      const metric = metrics.find((candidate) => candidate.name === name) as MetricSpec;
      return figureCard(result, metric, own(result.metrics, name) as MetricResult, fractions);
    });
    const rest = names.length - cards.length;
    this.headline.replaceChildren(
      ...cards,
      ...(rest > 0
        ? [make('p', 'figure-more', `and ${rest} more headline figure${rest === 1 ? '' : 's'} in the table below`)]
        : []),
    );
    this.headline.classList.toggle('many', cards.length > MANY_FIGURES);
    this.quick.replaceChildren(
      ...cards.slice(0, QUICK_FIGURES).map((card) => {
        const item = make('span', '', `${card.querySelector('.figure-label')?.textContent ?? ''} `);
        item.append(make('b', '', card.querySelector('.figure-value')?.textContent ?? ''));
        return item;
      }),
    );
  }

  private renderReadings(rule: Rule, params: Params): void {
    const readings = rule.presentation?.readings?.(params) ?? [];
    this.readings.replaceChildren();
    this.readings.hidden = readings.length === 0;
    if (readings.length === 0) return;
    const list = make('ul');
    for (const reading of readings) {
      const item = make('li');
      item.append(make('span', 'name', reading.param), document.createTextNode(` ${reading.text}`));
      list.append(item);
    }
    this.readings.append(make('h3', '', 'Readings in force'), list);
  }

  /** No answer: why, in the status line, and nothing else of the last one. */
  clear(message: string): void {
    this.board.clear();
    this.charts.classList.remove('pending');
    this.headline.replaceChildren();
    this.quick.replaceChildren();
    this.table.replaceChildren();
    this.readings.replaceChildren();
    this.readings.hidden = true;
    this.method.textContent = '';
    this.status.replaceChildren(make('p', 'blocked', message));
  }

  clearStatus(): void {
    this.status.replaceChildren();
  }

  /** A progress bar for a simulation; returns the function that moves it. */
  showProgress(trials: number): (done: number, total: number) => void {
    const progress = make('progress');
    progress.max = trials;
    progress.value = 0;
    progress.id = 'sim-progress';
    const label = make('label', 'progress-label', `Simulating: 0 of ${formatCount(trials)} trials`);
    label.htmlFor = progress.id;
    this.status.replaceChildren(label, progress);
    return (done, total) => {
      progress.value = done;
      label.textContent = `Simulating: ${formatCount(done)} of ${formatCount(total)} trials`;
    };
  }

  showLink(hash: string): void {
    this.printLink.textContent = `This card: ${location.href.split('/').pop() ?? hash}`;
  }
}

function headlineNames(rule: Rule, params: Params, metrics: readonly MetricSpec[]): string[] {
  const named =
    rule.presentation?.headline?.(params).filter((name) => metrics.some((metric) => metric.name === name)) ?? [];
  return named.length > 0 ? named : metrics.slice(0, FALLBACK_HEADLINE).map((metric) => metric.name);
}

function figureCard(
  result: RunResult,
  metric: MetricSpec,
  value: MetricResult,
  fractions: Record<string, Fraction> | null,
): HTMLDivElement {
  const card = make('div', 'figure');
  card.dataset.metric = metric.name;
  card.append(make('p', 'figure-label', metric.label ?? metric.name));
  const simulated = result.method === 'simulation';
  card.append(make('p', 'figure-value', formatValue(simulated ? value.estimate : value.exact, metric.probability)));
  if (simulated)
    card.append(
      make(
        'p',
        'figure-sub',
        `${confidenceLabel(result.confidence)} interval ${formatInterval(value, metric.probability)}`,
      ),
    );
  if (value.exact !== null) {
    const fraction = readableFraction(own(fractions, metric.name));
    const exactText = simulated ? `exact ${formatValue(value.exact, metric.probability)}` : 'exactly';
    const text = fraction ? `${exactText} = ${fraction}` : simulated ? exactText : 'exact (a long fraction)';
    card.append(make('p', 'figure-sub figure-fraction', text));
  }
  card.append(make('p', 'figure-doc', metric.doc));
  return card;
}

/**
 * How the answer was found, and the command that gives the same figures (`command`: the rule as muster run
 * names it).
 */
export function methodText(result: RunResult, command: string): string {
  if (result.method === 'exact') return 'Exact values, computed in rational arithmetic in this page.';
  return (
    `Simulated in this page: ${formatCount(result.trials)} trials, seed ${JSON.stringify(result.seed)}, ` +
    `stream ${result.stream}, ${confidenceLabel(result.confidence)} intervals — the same figures as muster run ` +
    `${command} with that seed and trials${result.stream === DEFAULT_STREAM ? '' : ` and --stream ${result.stream}`}.`
  );
}
