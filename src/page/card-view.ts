/// <reference lib="dom" />
/**
 * The odds card the print button prints, laid out off screen (#print-card)
 * for the answer shown, zoomed to one sheet as `muster card`'s page is.
 */

import { cardCharts, layoutCard, planCard, renderCardSheet, SHEET } from '../../reports/card/layout.js';
import { buildResult } from '../analysis/result-of.js';
import type { Params, Rule } from '../contract/types.js';
import type { Fraction } from '../exact/fraction.js';
import { own } from '../keyed.js';
import type { RunResult } from '../result.js';
import { lookUpExact } from '../rules/exact-of.js';
import { element, make } from './dom.js';

interface EmbeddedView {
  finalize(): void;
}
declare const vegaEmbed: (
  element: HTMLElement,
  spec: unknown,
  options: Record<string, unknown>,
) => Promise<{ view: EmbeddedView }>;

/** What the card is drawn from: the answer on screen, and the change (generation) it answers. */
export interface ShownAnswer {
  generation: number;
  rule: Rule;
  /** The rule as the card's footer names it (a bundled rule file by the path given to muster app --rule). */
  cardRule: Rule;
  result: RunResult | null;
}

export class CardView {
  private readonly sheet = element<HTMLDivElement>('print-card');
  /** The generation whose card #print-card holds (body.card-ready), or -1. */
  private cardGeneration = -1;
  private views: EmbeddedView[] = [];
  private work: { generation: number; done: Promise<boolean> } | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;

  /** `settled` waits for the latest change to be shown; `shown` is then what the page shows. */
  constructor(
    private readonly settled: () => Promise<void>,
    private readonly shown: () => ShownAnswer,
  ) {}

  /**
   * The card is also drawn on its own once an answer has stood for `afterMs`,
   * so that the browser's own print command (Ctrl+P, a phone's share menu)
   * prints it too; before that, or for an answer with no card, the page's
   * fallback print layout does. Every change restarts the wait.
   */
  schedule(afterMs: number): void {
    clearTimeout(this.timer);
    if (!Number.isFinite(afterMs)) return;
    this.timer = setTimeout(() => {
      this.prepare().catch((error: unknown) => console.error(error));
    }, afterMs);
  }

  drop(): void {
    this.cardGeneration = -1;
    this.work = null;
    document.body.classList.remove('card-ready');
    for (const view of this.views) view.finalize();
    this.views = [];
    this.sheet.replaceChildren();
  }

  /** Lays out and draws the card for the answer shown; settles true once it is ready, false if there is none. */
  async prepare(): Promise<boolean> {
    await this.settled();
    const { generation, rule, cardRule, result } = this.shown();
    if (this.cardGeneration === generation) return true;
    if (this.work?.generation === generation) return this.work.done;
    if (!result) return false;
    const done = this.draw(generation, rule, cardRule, result);
    this.work = { generation, done };
    return done;
  }

  private async draw(generation: number, rule: Rule, cardRule: Rule, shown: RunResult): Promise<boolean> {
    const stale = () => this.shown().generation !== generation;
    const plan = planCard(rule, shown.params);
    const results = cardResults(rule, shown, plan);
    if (!results) return false;
    const card = layoutCard(cardRule, shown.params, {}, results);
    this.sheet.innerHTML = renderCardSheet(card);
    const views: EmbeddedView[] = [];
    for (const chart of cardCharts(card)) {
      const target = [...this.sheet.querySelectorAll<HTMLElement>('.vis')].find(
        (vis) => vis.dataset.chart === chart.id,
      );
      if (!target) continue;
      try {
        views.push((await vegaEmbed(target, chart.spec, { renderer: 'svg', actions: false })).view);
      } catch (error) {
        target.textContent = `This chart could not be drawn: ${(error as Error).message}`;
        target.classList.add('chart-error');
      }
      if (stale()) break;
    }
    if (stale()) {
      for (const view of views) view.finalize();
      return false;
    }
    this.views = views;
    // The link that reopens this question in the calculator, under the card's own footer.
    const sheet = this.sheet.querySelector<HTMLElement>('.card') as HTMLElement;
    sheet.append(make('p', 'card-link', `Reopen this question: ${location.href.split('/').pop() ?? location.hash}`));
    // As muster card's page: a card taller than the sheet (many warbands, a long footer) is zoomed to fit it.
    const padding = 28;
    const height = sheet.getBoundingClientRect().height - padding;
    if (height > SHEET.height) sheet.style.zoom = String(Math.floor((SHEET.height / height) * 1000) / 1000);
    this.cardGeneration = generation;
    document.body.classList.add('card-ready');
    return true;
  }
}

/**
 * The results the card needs, in planCard's order. A card of one parameter
 * set is the answer shown (exact or simulated, as on screen); a card of a
 * table (Infinity's WIPs, deployments, reserves' command levels, Noctvale's
 * fighters) needs the rule's exact solution at every cell, which every such
 * built-in rule has and computes in milliseconds. Without one, no card.
 */
function cardResults(rule: Rule, shown: RunResult, plan: readonly Params[]): RunResult[] | null {
  if (plan.length === 1 && rule.params.every((spec) => own(plan[0], spec.name) === own(shown.params, spec.name)))
    return [shown];
  // A rule file without exact() has its cells by enumeration, where that is quick at every one.
  const cells = plan.map((params) => lookUpExact(rule, params).values);
  if (cells.some((fractions) => fractions === null)) return null;
  return plan.map((params, index) => {
    const fractions = cells[index] as Record<string, Fraction>;
    return buildResult({
      rule: { ...rule, exact: { ...rule.exact, values: () => fractions } },
      params,
      seed: shown.seed,
      stream: null,
      threads: 0,
      confidence: 1,
      trials: 0,
      tally: null,
    });
  });
}
