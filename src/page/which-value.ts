/// <reference lib="dom" />
/**
 * "Which value?": the calculator's view that varies one parameter of the
 * rule shown (and optionally a second) and answers in words — the value
 * nearest a target, or the highest or lowest — with the table and the
 * balance map. The grid is computed in the page by the browser library's
 * `balance` (src/library/browser-balance.ts: `muster balance`'s own plan,
 * solver and words), exactly wherever the rule allows; the best value is
 * `muster sweep --best`'s (analysis/best.ts) over the same grid.
 *
 *   Find ─► the form's other values (as typed) ─► balanceOf(rule, { vary, metric, target, set })
 *        │     progress bar; stopped at LIMIT_MS with the settings finished (partial)
 *        ─► words (reports/balance-words.ts) │ findBest ─► table ─► chart (reports/balance-charts.ts)
 *
 * The other parameters keep the values the form shows; a rule written in the page runs only in its sandbox, so
 * the view asks the person to use `muster balance FILE` for it.
 */

import { balanceCharts } from '../../reports/balance-charts.js';
import { balanceVerdict, cliffLines, rowLines, sensitivityLines, withinLines } from '../../reports/balance-words.js';
import type { BalanceResult } from '../analysis/balance.js';
import { findBest } from '../analysis/best.js';
import type { MetricSpec, Params, Rule } from '../contract/types.js';
import { own } from '../keyed.js';
import { balanceOf } from '../library/browser-balance.js';
import { formatCount, formatParams, formatValue } from '../output/format.js';
import type { MetricResult } from '../result.js';
import { resolveParams } from '../rules/params.js';
import { ChartBoard } from './chart-board.js';
import { make } from './dom.js';
import {
  clipMessage,
  defaultText,
  evaluateForm,
  parseSeedText,
  parseStreamText,
  parseTrials,
  type RawValues,
  type SimulationChoice,
} from './form-values.js';
import {
  commandOf,
  mapTable,
  metricOf,
  startRange,
  unitOf,
  type WhichQuestion,
  wordsNodes,
} from './which-value-parts.js';
import { isSandboxed } from './workbench/proxy-rule.js';

export { startRange, type WhichQuestion };

/**
 * The page's time limit for one question: past it the work stops and the settings finished are weighed (said so).
 * A phone solves a 400-setting exact map of a built-in rule well within it.
 */
export const LIMIT_MS = 20_000;

/** What the view shows last: the result, the question and how long it took (tests and the bench read it). */
export interface WhichAnswer {
  question: WhichQuestion;
  result: BalanceResult;
  /** The CLI command giving the same figures. */
  command: string;
  ms: number;
}

/** What the view needs of the calculator: the rule shown, its form's values and the simulation's options. */
export interface WhichHost {
  readonly rule: Rule;
  readFields(rule: Rule): RawValues;
  readSimulation(): SimulationChoice;
  /** The rule as `muster balance` takes it (a bundled file's path, a built-in's id). */
  command(rule: Rule): string;
}

export class WhichValueView {
  readonly section = make('section', 'panel which-value');
  answer: WhichAnswer | null = null;
  /** The time limit of one question, in milliseconds (LIMIT_MS; a test shortens it). */
  limitMs = LIMIT_MS;
  private readonly firstParam = make('select');
  private readonly firstValues = make('input');
  private readonly secondParam = make('select');
  private readonly secondValues = make('input');
  private readonly goal = make('select');
  private readonly metric = make('select');
  private readonly target = make('input');
  private readonly within = make('input');
  private readonly find = make('button', '', 'Find');
  private readonly status = make('div', 'which-status');
  private readonly words = make('div', 'which-words');
  private readonly chartsBox = make('div', 'which-charts');
  private readonly table = make('div', 'table-scroll which-table');
  private readonly commandLine = make('p', 'method which-command');
  private readonly board = new ChartBoard(this.chartsBox);
  private running: AbortController | null = null;
  private generation = 0;
  private latest: Promise<void> = Promise.resolve();
  private shownRule: Rule | null = null;

  constructor(private readonly host: WhichHost) {
    this.section.id = 'which-value';
    this.section.setAttribute('aria-labelledby', 'which-title');
    const title = make('h2', '', 'Which value?');
    title.id = 'which-title';
    const about = make(
      'p',
      'doc',
      'Vary one parameter (and, if you like, a second) over a range, the others as set above, and find the value ' +
        'that brings a figure nearest a target, or makes it highest or lowest: exact wherever the rule allows, ' +
        'computed in this page as muster balance computes it.',
    );
    this.goal.append(
      new Option('nearest a target', 'target'),
      new Option('the highest', 'max'),
      new Option('the lowest', 'min'),
    );
    this.target.value = '50%';
    this.within.placeholder = 'e.g. 2pp';
    this.find.type = 'button';
    this.find.id = 'which-find';
    this.status.setAttribute('aria-live', 'polite');
    this.words.setAttribute('aria-live', 'polite');
    const fields = make('div', 'which-fields');
    fields.append(
      this.field('which-first', 'vary', this.firstParam, 'The parameter whose value is sought.'),
      this.field('which-first-values', 'over', this.firstValues, 'As --vary takes it: 0..4, 1..9:2 or a,b,c.'),
      this.field('which-second', 'and', this.secondParam, 'Optionally a second parameter: a map of both.'),
      this.field('which-second-values', 'over', this.secondValues, 'Its values, as above.'),
      this.field('which-metric', 'figure', this.metric, 'The metric asked about.'),
      this.field('which-goal', 'make it', this.goal, ''),
      this.field('which-target', 'target', this.target, 'As --target takes it: 50%, 1/2, 0.5, or a mean such as 2.5.'),
      this.field('which-within', 'also list within', this.within, 'Optional, as --within: 2pp.'),
    );
    const actions = make('div', 'actions');
    actions.append(this.find);
    this.section.append(title, about, fields, actions, this.status, this.words, this.chartsBox, this.table);
    this.section.append(this.commandLine);
    this.find.addEventListener('click', () => void this.run());
    this.firstParam.addEventListener('change', () => this.startValues(this.firstParam, this.firstValues));
    this.secondParam.addEventListener('change', () => this.startValues(this.secondParam, this.secondValues));
    this.goal.addEventListener('change', () => this.showGoal());
    this.metric.addEventListener('change', () => this.startTarget());
  }

  private field(id: string, label: string, control: HTMLElement, doc: string): HTMLDivElement {
    const field = make('div', 'field');
    control.id = id;
    const name = make('label', '', label);
    name.htmlFor = id;
    const row = make('div', 'control');
    row.append(name, control);
    field.append(row);
    if (doc) {
      const note = make('p', 'doc', doc);
      note.id = `${id}-doc`;
      control.setAttribute('aria-describedby', note.id);
      field.append(note);
    }
    return field;
  }

  /** Settles once the question asked last is answered and drawn. */
  async idle(): Promise<void> {
    let seen: Promise<void>;
    do {
      seen = this.latest;
      await seen;
    } while (seen !== this.latest);
  }

  /** The rule shown changed: its parameters and metrics offered, the last answer dropped. */
  ruleShown(rule: Rule): void {
    if (rule === this.shownRule) return;
    this.shownRule = rule;
    this.cancel();
    this.clearAnswer();
    const sandboxed = isSandboxed(rule);
    this.find.disabled = sandboxed;
    if (sandboxed) {
      this.status.replaceChildren(
        make(
          'p',
          'blocked',
          'A rule written in this page runs only in its sandbox: download it and ask muster balance FILE ' +
            '--vary … --metric … --target … (docs/commands.md) for its values.',
        ),
      );
      return;
    }
    const params = rule.params;
    this.firstParam.replaceChildren(...params.map((spec) => new Option(spec.name, spec.name)));
    this.secondParam.replaceChildren(
      new Option('(nothing else)', ''),
      ...params.map((spec) => new Option(spec.name, spec.name)),
    );
    this.secondParam.value = '';
    this.secondValues.value = '';
    this.startValues(this.firstParam, this.firstValues);
    // The metrics at the form's values, or at the rule's defaults while the form (or a link) holds a mistake.
    let metrics: MetricSpec[] = [];
    let headline: string | undefined;
    try {
      const at = this.params(rule) ?? resolveParams(rule);
      metrics = rule.metrics(at);
      headline = rule.presentation?.headline?.(at)?.[0];
    } catch {
      // A rule whose metrics cannot be listed here offers none; its own message is by the field.
    }
    this.metric.replaceChildren(...metrics.map((metric) => new Option(metric.label ?? metric.name, metric.name)));
    if (headline && metrics.some((metric) => metric.name === headline)) this.metric.value = headline;
    this.startTarget();
    this.showGoal();
  }

  /** The form's parameters as the rule reads them, or null when the form has a mistake. */
  private params(rule: Rule): Params | null {
    try {
      return evaluateForm(rule, this.host.readFields(rule)).params;
    } catch {
      return null;
    }
  }

  /** A starting range for a parameter: its default and a few values either side, or every choice. */
  private startValues(select: HTMLSelectElement, input: HTMLInputElement): void {
    const spec = this.host.rule.params.find((candidate) => candidate.name === select.value);
    input.value = spec ? startRange(spec) : '';
  }

  private startTarget(): void {
    const metric = this.chosenMetric();
    this.target.value = metric?.probability === false ? '1' : '50%';
  }

  private showGoal(): void {
    const nearest = this.goal.value === 'target';
    (this.target.closest('.field') as HTMLElement).hidden = !nearest;
    (this.within.closest('.field') as HTMLElement).hidden = !nearest;
  }

  private chosenMetric(): MetricSpec | undefined {
    const rule = this.host.rule;
    try {
      return rule.metrics(this.params(rule) ?? {}).find((metric) => metric.name === this.metric.value);
    } catch {
      return undefined;
    }
  }

  /** Sets the question's fields (tests and links), as a person would. */
  ask(question: Partial<WhichQuestion>): Promise<void> {
    if (question.first) {
      this.firstParam.value = question.first.name;
      this.firstValues.value = question.first.values;
    }
    if (question.second !== undefined) {
      this.secondParam.value = question.second?.name ?? '';
      this.secondValues.value = question.second?.values ?? '';
    }
    if (question.metric !== undefined) this.metric.value = question.metric;
    if (question.goal !== undefined) this.goal.value = question.goal;
    if (question.target !== undefined) this.target.value = question.target;
    if (question.within !== undefined) this.within.value = question.within;
    this.showGoal();
    return this.run();
  }

  private question(): WhichQuestion {
    return {
      first: { name: this.firstParam.value, values: this.firstValues.value.trim() },
      second: this.secondParam.value ? { name: this.secondParam.value, values: this.secondValues.value.trim() } : null,
      goal: this.goal.value as WhichQuestion['goal'],
      metric: this.metric.value,
      target: this.target.value.trim(),
      within: this.within.value.trim(),
    };
  }

  private cancel(): void {
    this.running?.abort();
    this.running = null;
    this.generation += 1;
  }

  private clearAnswer(): void {
    this.answer = null;
    this.board.clear();
    this.words.replaceChildren();
    this.table.replaceChildren();
    this.status.replaceChildren();
    this.commandLine.textContent = '';
  }

  /** Asks the question in the fields: the grid computed, the answer written, the chart drawn. */
  run(): Promise<void> {
    this.cancel();
    const mine = this.generation;
    const work = this.answerQuestion(mine).catch((error: unknown) => {
      if (mine !== this.generation) return;
      const usage = error instanceof Error && error.name === 'UsageError';
      if (!usage) console.error(error);
      const message = error instanceof Error ? error.message : String(error);
      this.clearAnswer();
      this.status.replaceChildren(
        make(
          'p',
          'blocked',
          clipMessage(usage ? `No answer: ${message}` : `Something went wrong in muster itself: ${message}`),
        ),
      );
    });
    this.latest = work;
    return work;
  }

  private async answerQuestion(mine: number): Promise<void> {
    const rule = this.host.rule;
    if (isSandboxed(rule)) return;
    const question = this.question();
    this.clearAnswer();
    const raw = this.host.readFields(rule);
    const outcome = evaluateForm(rule, raw);
    const varied = new Set([question.first.name, question.second?.name].filter((name) => name !== undefined));
    // The form's other values as typed, so a default that follows a varied parameter still follows it.
    const wrong = [...outcome.fieldErrors.keys()].filter((name) => !varied.has(name));
    if (wrong.length > 0)
      throw Object.assign(new Error(`${wrong.join(', ')}: the value in the form above needs changing first`), {
        name: 'UsageError',
      });
    const set = new Map<string, string>();
    for (const spec of rule.params) {
      const text = own(raw, spec.name);
      if (varied.has(spec.name) || text === undefined || text.trim() === '' || text === defaultText(spec)) continue;
      set.set(spec.name, text);
    }
    const vary = new Map<string, string>([[question.first.name, question.first.values]]);
    if (question.second) vary.set(question.second.name, question.second.values);
    const probability = this.chosenMetric()?.probability !== false;
    // The best value needs no target: the grid is balanced at one the metric allows, and only the points are read.
    const target = question.goal === 'target' ? question.target : probability ? '100%' : '0';
    const simulation = this.host.readSimulation();
    const simulationOptions = simulation.simulate
      ? {
          simulate: true,
          trials: parseTrials(simulation.trials),
          seed: parseSeedText(simulation.seed),
          stream: parseStreamText(simulation.stream),
        }
      : {};
    const stop = new AbortController();
    this.running = stop;
    const timer = setTimeout(() => stop.abort(), this.limitMs);
    const started = performance.now();
    const progress = make('progress');
    progress.id = 'which-progress';
    const label = make('label', 'progress-label', 'Working out every setting…');
    label.htmlFor = progress.id;
    this.status.replaceChildren(label, progress);
    let result: BalanceResult;
    try {
      result = await balanceOf(rule, {
        vary: Object.fromEntries(vary),
        metric: question.metric,
        target,
        ...(question.goal === 'target' && question.within ? { within: question.within } : {}),
        set: set,
        ...simulationOptions,
        signal: stop.signal,
        onProgress: (done, total) => {
          progress.max = total;
          progress.value = done;
          label.textContent = `Working out every setting: ${formatCount(done)} of ${formatCount(total)}${unitOf(simulationOptions)}`;
        },
      });
    } finally {
      clearTimeout(timer);
    }
    if (mine !== this.generation) return;
    this.running = null;
    const ms = performance.now() - started;
    const command = commandOf(this.host.command(rule), question, set, target, simulationOptions);
    this.answer = { question, result, command, ms };
    this.status.replaceChildren();
    this.show(rule, result, question);
    this.commandLine.textContent = `The same figures: ${command}`;
    const metric = this.chosenMetric() ?? metricOf(rule, result);
    await this.board.show(
      metric ? balanceCharts(rule, result, metric) : [],
      () => mine !== this.generation,
      () => {},
    );
  }

  private show(rule: Rule, result: BalanceResult, question: WhichQuestion): void {
    const metric = this.chosenMetric() ?? metricOf(rule, result);
    if (!metric) return;
    const { balance } = result;
    const simulated = result.method === 'simulation';
    const lines: string[] = [];
    if (result.partial)
      lines.push(
        `Stopped after ${+(this.limitMs / 1000).toFixed(3)} s with ${result.points.length} of the settings worked ` +
          'out: only those are weighed. Narrow the ranges, or run the command below.',
      );
    if (question.goal === 'target') {
      lines.push(
        balanceVerdict(balance, metric, simulated),
        ...withinLines(balance, metric),
        ...rowLines(balance, metric, result.vary[0].name),
        ...sensitivityLines(balance, metric),
        ...cliffLines(balance, metric),
      );
    } else if (result.points.length > 0) {
      const best = findBest(result, metric.name, question.goal);
      const point = result.points.find((candidate) => formatParams(candidate.params) === formatParams(best.params));
      const value = point ? (own(point.metrics, metric.name) as MetricResult | undefined) : undefined;
      const fraction = value?.fraction && value.fraction.length <= 15 ? ` (exactly ${value.fraction})` : '';
      lines.push(
        `${question.goal === 'max' ? 'Highest' : 'Lowest'} ${metric.name}: ${formatValue(best.value, metric.probability)}` +
          `${result.method === 'exact' ? fraction : ''} at ${formatParams(best.params)}.`,
      );
      if (best.runnerUp)
        lines.push(
          `  next: ${formatValue(best.runnerUp.value, metric.probability)} at ${formatParams(best.runnerUp.params)}` +
            `${best.decided === 'tied' ? ' (a tie: both are best)' : best.decided === 'within noise' ? ' (within the noise: either may be best)' : ''}`,
        );
    }
    this.words.replaceChildren(...wordsNodes(lines));
    this.table.replaceChildren(mapTable(result, metric, question));
  }
}
