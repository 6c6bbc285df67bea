/// <reference lib="dom" />
/**
 * Best play on the calculator page (docs/custom-rules.md, "Decisions"): for a rule with choices, under the answer's
 * figures, the objective under best play, the fixed plays beside it (always the first option offered, always the
 * last) with what playing well is worth over each, and the policy — every decision state best play reaches, each
 * option's exact value, the option taken. The values are the result's `objective` and `policy`, as `muster run`
 * and the library give them (src/result.ts withDecisions: the same solver, src/exact/decisions.ts). Text nodes
 * only: a rule's labels and option names are data.
 */

import { withDecisions } from '../analysis/result-of.js';
import type { Rule } from '../contract/types.js';
import { formatValue } from '../output/format.js';
import type { ObjectiveResult, PolicyResult, RunResult } from '../result.js';
import { make } from './dom.js';

/** Decision states listed on the page; past this a line says how many more `muster run --all` lists. */
export const PAGE_POLICY_ROWS = 200;

/**
 * A result with best play beside it: as given when it already has it (a rule written in the page answers with it),
 * else solved here for a rule with choices; unchanged for a rule without.
 */
export function withBestPlay(rule: Rule, result: RunResult): RunResult {
  if (result.policy || !rule.exact?.decisions) return result;
  return withDecisions(rule, result.params, result);
}

export class DecisionsView {
  /** The section, made once and put before the table of every metric (./build.ts's #metrics). */
  private readonly section: HTMLElement = make('section');

  constructor(before: HTMLElement | null) {
    this.section.id = 'best-play';
    this.section.hidden = true;
    this.section.setAttribute('aria-labelledby', 'best-play-title');
    before?.before(this.section);
  }

  /** Writes the result's best play, or hides the section for a result without decisions. */
  show(result: RunResult, rule: Rule): void {
    const { objective, policy } = result;
    if (!objective || !policy) {
      this.clear();
      return;
    }
    const probability = rule.metrics(result.params).find((m) => m.name === objective.metric)?.probability === true;
    const show = (value: number | null) => (value === null ? 'never ends' : formatValue(value, probability));
    const sides = new Set(policy.map((entry) => entry.side));
    const title = make('h3', '', `Best play for ${objective.metric}`);
    title.id = 'best-play-title';
    const who =
      sides.size > 1
        ? 'side a plays to raise it, side b to lower it'
        : sides.has('b')
          ? 'side b plays to lower it'
          : 'side a plays to raise it';
    const value = make(
      'p',
      'best-play-value',
      `Under best play ${objective.metric} is ${show(objective.value)}` +
        `${objective.fraction.includes('/') ? ` = ${objective.fraction}` : ''} (${who}).`,
    );
    this.section.replaceChildren(title, value, this.fixedPlays(objective, show, probability));
    if (policy.length === 0) {
      this.section.append(make('p', 'doc', 'No decision is reached: every play is the same.'));
    } else {
      this.section.append(
        make(
          'p',
          'doc',
          `${policy.length} decision state${policy.length === 1 ? '' : 's'} reached under best play, in the order ` +
            `play reaches them; each option's value is ${objective.metric} when it is taken and best play follows ` +
            '(ties go to the option listed first).',
        ),
        this.policyTable(policy, show, sides.size > 1),
      );
      if (policy.length > PAGE_POLICY_ROWS)
        this.section.append(
          make(
            'p',
            'doc',
            `The first ${PAGE_POLICY_ROWS} of ${policy.length}: muster run with --exact --all lists every one.`,
          ),
        );
    }
    this.section.hidden = false;
  }

  clear(): void {
    this.section.replaceChildren();
    this.section.hidden = true;
  }

  /** Best play against each fixed play: the objective under each, and the difference. */
  private fixedPlays(
    objective: ObjectiveResult,
    show: (value: number | null) => string,
    probability: boolean,
  ): HTMLElement {
    const worth = (fixed: number) => {
      const difference = objective.value - fixed;
      const sign = difference > 0 ? '+' : difference < 0 ? '−' : '±';
      return probability
        ? `${sign}${(Math.abs(difference) * 100).toFixed(3)} pp`
        : `${sign}${Math.abs(difference).toFixed(4)}`;
    };
    const rows: Array<[string, string, string]> = [['best play', show(objective.value), '']];
    for (const [name, fixed] of [
      ['always the first option offered', objective.alwaysFirst],
      ['always the last option offered', objective.alwaysLast],
    ] as const)
      rows.push(fixed === null ? [name, 'never ends', ''] : [name, show(fixed.value), worth(fixed.value)]);
    return tableOf(['play', objective.metric, 'best play is worth'], rows, 'best-play-fixed');
  }

  private policyTable(
    policy: readonly PolicyResult[],
    show: (value: number | null) => string,
    twoSides: boolean,
  ): HTMLElement {
    const columns: string[] = [];
    for (const entry of policy)
      for (const { option } of entry.options) if (!columns.includes(option)) columns.push(option);
    const rows = policy.slice(0, PAGE_POLICY_ROWS).map((entry) => [
      entry.label,
      ...(twoSides ? [entry.side] : []),
      ...columns.map((column) => {
        const found = entry.options.find((option) => option.option === column);
        return found ? show(found.value) : '';
      }),
      entry.choice,
    ]);
    return tableOf(['state', ...(twoSides ? ['side'] : []), ...columns, 'take'], rows, 'best-play-policy');
  }
}

/** A table of text cells in a scrolling box. */
function tableOf(head: readonly string[], rows: readonly (readonly string[])[], className: string): HTMLElement {
  const box = make('div', 'table-scroll');
  const table = make('table', className);
  const headRow = make('tr');
  for (const text of head) headRow.append(make('th', '', text));
  const body = make('tbody');
  for (const row of rows) {
    const line = make('tr');
    for (const text of row) line.append(make('td', '', text));
    body.append(line);
  }
  const thead = make('thead');
  thead.append(headRow);
  table.append(thead, body);
  box.append(table);
  return box;
}
