/// <reference lib="dom" />
/**
 * "Which value?" put on the page: the view (./which-value.ts) placed below the form and the answer, told each rule
 * the calculator shows, reading the calculator's form.
 */
import type { Rule } from '../contract/types.js';
import type { Calculator } from './controller.js';
import { element } from './dom.js';
import { WhichValueView } from './which-value.js';

export type { WhichValueView };

/** The view, on the page and following the calculator; `command` names a rule as muster balance takes it. */
export function whichValueView(calculator: Calculator, command: (rule: Rule) => string): WhichValueView {
  const view = new WhichValueView({
    get rule() {
      return calculator.rule;
    },
    readFields: (rule) => calculator.form.readFields(rule),
    readSimulation: () => calculator.form.readSimulation(),
    command,
  });
  element('answer').closest('.layout')?.after(view.section);
  calculator.ruleShownListeners.push((rule) => view.ruleShown(rule));
  return view;
}
