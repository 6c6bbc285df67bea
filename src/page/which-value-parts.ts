/// <reference lib="dom" />
/**
 * The parts of the "Which value?" view (./which-value.ts) that need no view:
 * the question's type, the form's first ranges, the answer's words and map
 * as DOM nodes, and the CLI command that gives the same figures.
 */

import { formatFigure } from '../../reports/balance-words.js';
import type { BalanceResult } from '../analysis/balance.js';
import { findBest } from '../analysis/best.js';
import type { MetricSpec, ParamSpec, Rule } from '../contract/types.js';
import { own } from '../keyed.js';
import { formatParams } from '../output/format.js';
import type { MetricResult } from '../result.js';
import { shellWord } from '../text/suggest.js';
import { make } from './dom.js';

/** Values a varied parameter starts with in the form: its default and up to this many either side. */
const START_SPAN = 3;
/** The marks beside the nearest settings and the others within the distance asked (as the terminal's map). */
const NEAREST_MARK = '◆';
const WITHIN_MARK = '◇';

/** The question as asked in the view. */
export interface WhichQuestion {
  first: { name: string; values: string };
  second: { name: string; values: string } | null;
  /** 'target': nearest `target`; 'max' or 'min': the highest or lowest. */
  goal: 'target' | 'max' | 'min';
  metric: string;
  target: string;
  within: string;
}

/** A word of a command, quoted for a shell where it must be. */
function shell(text: string): string {
  return shellWord(text);
}

/** What the progress counts: trials when simulated, settings when solved. */
export function unitOf(simulation: { simulate?: boolean }): string {
  return simulation.simulate ? ' trials' : ' settings';
}

/** The metric the result was balanced for, from the rule at its first point. */
export function metricOf(rule: Rule, result: BalanceResult): MetricSpec | undefined {
  const first = result.points[0];
  if (!first) return undefined;
  return rule.metrics({ ...result.params, ...first.params }).find((m) => m.name === result.balance.metric);
}

/** The first values a parameter is varied over: around its default, within its bounds; every choice. */
export function startRange(spec: ParamSpec): string {
  switch (spec.type) {
    case 'integer': {
      const low = Math.max(spec.min, spec.default - START_SPAN);
      const high = Math.min(spec.max, spec.default + START_SPAN);
      return `${low}..${high}`;
    }
    case 'boolean':
      return 'false,true';
    case 'choice':
      return spec.choices.join(',');
    default:
      return String(spec.default);
  }
}

/** Lines as paragraphs, an indented line as an item of the list before it; text only, never HTML. */
export function wordsNodes(lines: readonly string[]): HTMLElement[] {
  const nodes: HTMLElement[] = [];
  let list: HTMLUListElement | null = null;
  for (const line of lines) {
    if (line.startsWith('  ')) {
      if (!list) {
        list = make('ul');
        nodes.push(list);
      }
      list.append(make('li', '', line.trim()));
    } else {
      list = null;
      nodes.push(make('p', '', line));
    }
  }
  return nodes;
}

/** The metric over the grid: a column for one parameter, rows × columns for two, the nearest marked. */
export function mapTable(result: BalanceResult, metric: MetricSpec, question: WhichQuestion): HTMLTableElement {
  const { balance, vary } = result;
  const best =
    question.goal === 'target' || result.points.length === 0 ? null : findBest(result, metric.name, question.goal);
  const marked = new Set(
    best ? [formatParams(best.params)] : balance.nearest.map((point) => formatParams(point.params)),
  );
  const within = new Set((balance.within?.points ?? []).map((point) => formatParams(point.params)));
  const cell = (point: BalanceResult['points'][number] | undefined): string => {
    if (!point) return '';
    const value = own(point.metrics, metric.name) as MetricResult | undefined;
    if (!value) return '—';
    const shown = formatFigure(
      {
        value: (result.method === 'exact' ? value.exact : value.estimate) ?? Number.NaN,
        fraction: null,
      },
      metric.probability,
    );
    const key = formatParams(point.params);
    return `${shown}${marked.has(key) ? ` ${NEAREST_MARK}` : within.has(key) ? ` ${WITHIN_MARK}` : ''}`;
  };
  const table = make('table', 'which-map');
  const head = make('tr');
  const body = make('tbody');
  const at = new Map(
    result.points.map((point) => [vary.map((v) => String(own(point.params, v.name))).join('\u0000'), point]),
  );
  if (vary.length === 1) {
    head.append(make('th', '', vary[0].name), make('th', '', metric.name));
    for (const value of vary[0].values) {
      const row = make('tr');
      row.append(make('th', '', String(value)), make('td', '', cell(at.get(String(value)))));
      body.append(row);
    }
  } else {
    const [down, across] = vary;
    head.append(
      make('th', '', `${down.name} ╲ ${across.name}`),
      ...across.values.map((v) => make('th', '', String(v))),
    );
    for (const row of down.values) {
      const line = make('tr');
      line.append(make('th', '', String(row)));
      for (const column of across.values)
        line.append(make('td', '', cell(at.get(`${String(row)}\u0000${String(column)}`))));
      body.append(line);
    }
  }
  const thead = make('thead');
  thead.append(head);
  const caption = make(
    'caption',
    '',
    `${metric.name} (${metric.doc})${marked.size > 0 ? `; ${NEAREST_MARK} ${best ? (best.goal === 'max' ? 'highest' : 'lowest') : 'nearest'}` : ''}` +
      `${within.size > 0 ? `, ${WITHIN_MARK} within ${balance.within?.distance.text}` : ''}`,
  );
  table.append(caption, thead, body);
  return table;
}

/** The command giving the same figures: `muster balance` (a target) or `muster sweep --best` (highest, lowest). */
export function commandOf(
  rule: string,
  question: WhichQuestion,
  set: ReadonlyMap<string, string>,
  target: string,
  simulation: { simulate?: boolean; trials?: number; seed?: string; stream?: number },
): string {
  const parts = ['muster', question.goal === 'target' ? 'balance' : 'sweep', shell(rule)];
  parts.push('--vary', shell(`${question.first.name}=${question.first.values}`));
  if (question.second) parts.push('--vary', shell(`${question.second.name}=${question.second.values}`));
  for (const [name, value] of set) parts.push('--set', shell(`${name}=${value}`));
  if (question.goal === 'target') {
    parts.push('--metric', shell(question.metric), '--target', shell(target));
    if (question.within) parts.push('--within', shell(question.within));
  } else {
    parts.push('--best', shell(`${question.metric}${question.goal === 'min' ? ':min' : ''}`));
  }
  if (simulation.simulate) {
    if (question.goal === 'target') parts.push('--simulate');
    parts.push('--trials', String(simulation.trials), '--seed', shell(String(simulation.seed)));
    parts.push('--stream', String(simulation.stream), '--threads', '1');
  } else if (question.goal !== 'target') parts.push('--exact');
  return parts.join(' ');
}
