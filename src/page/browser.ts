/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * The calculator page (`muster app`), bundled by esbuild into one offline
 * file: pick a rule, set its parameters, read the odds. Every change
 * recomputes at once — exactly, in rational arithmetic, wherever the rule
 * has an exact solution; otherwise (or with the hash's `simulate=1`) by
 * simulation in Web Workers on muster's own streams.
 *
 *   hash or form ─► evaluateForm (the rule's parsers and checks, messages by the field)
 *                ─► exact(params) │ workers ─► buildResult (as muster run)
 *                ─► headline figures, the rule's charts (vega-embed), every metric in a table
 *                ─► the hash, so a link opens the same question
 *
 * This file only wires the page together: the controller (./controller.ts)
 * holds the state, the views write the DOM.
 *
 * Text from rules (titles, docs, labels) reaches the page through
 * textContent, or through the report modules' escaping HTML builders.
 */

import type { Rule } from '../contract/types.js';
import type { RunResult } from '../result.js';
import { appRules } from './app-rules.js';
import { Calculator, type Timings } from './controller.js';
import { element } from './dom.js';
import { extraRuleOrigins, extraRules } from './extra-rules.js';
import { readHash } from './form-values.js';
import { type HashState, parseHash } from './hash.js';
import { type WhichValueView, whichValueView } from './which-value-mount.js';
import { isSandboxed } from './workbench/proxy-rule.js';
import { CODE_MARK } from './workbench/share.js';
import { type ShippedFile, Workbench } from './workbench/workbench.js';

/** The simulation worker's bundled source, put here by the build (./build.ts). */
declare const __MUSTER_WORKER_SOURCE__: string;
/** The sandbox worker's bundled source (./workbench/sandbox-worker.ts), put here by the build. */
declare const __MUSTER_SANDBOX_SOURCE__: string;
/** The rule files of examples/rules/, shipped in the page for the workbench, put here by the build. */
declare const __MUSTER_SHIPPED_FILES__: ShippedFile[];

export type { Timings };

interface AppHandle {
  /** Settles once the latest change is fully shown (charts drawn, simulation finished). */
  idle(): Promise<void>;
  /** Goes to a hash as a link would, at once (not on the later hashchange event), and settles when it is shown. */
  open(hash: string): Promise<void>;
  readonly result: RunResult | null;
  readonly timings: Timings | null;
  /**
   * Draws the odds card for the answer shown (what the print button prints); settles true once it is ready, false if
   * there is no answer.
   */
  prepareCard(): Promise<boolean>;
  /**
   * How long an answer stands before its card is drawn on its own, for the browser's print command (Infinity: never).
   */
  cardAfterMs: number;
  /** How long a rule written in the page may run without a word before the page stops it. */
  ruleLimitMs: number;
  /** The "Which value?" view (./which-value.ts): its last answer, and `ask` to put a question to it. */
  readonly whichValue: WhichValueView;
}

/** A bundled rule file's path as given to `muster app --rule`, or undefined for a built-in rule. */
const originOf = (rule: Rule): string | undefined => extraRuleOrigins[extraRules.indexOf(rule)];

const calculator = new Calculator(
  appRules,
  __MUSTER_WORKER_SOURCE__,
  // A command names a bundled rule file by its path, a rule written here by its file's name, a built-in by its id.
  (rule) => originOf(rule) ?? (isSandboxed(rule) ? rule.sandbox.name : rule.id),
  // The card's footer names a bundled rule file as muster card takes it: by that path.
  (rule) => {
    const origin = originOf(rule);
    return origin === undefined ? rule : { ...rule, file: { path: origin, sha256: '', origin } };
  },
);
const { form } = calculator;
const whichValue = whichValueView(calculator, (rule) => originOf(rule) ?? rule.id);
const sandboxUrl = URL.createObjectURL(new Blob([__MUSTER_SANDBOX_SOURCE__], { type: 'text/javascript' }));
const workbench = new Workbench(calculator, sandboxUrl, __MUSTER_SHIPPED_FILES__);

const handle: AppHandle = {
  idle: () => workbench.settled(),
  open: (hash) => {
    location.hash = hash;
    if (location.hash !== calculator.shownHash) loadHash();
    return workbench.settled();
  },
  get result() {
    return calculator.result;
  },
  get timings() {
    return calculator.timings;
  },
  prepareCard: () => calculator.card.prepare(),
  get cardAfterMs() {
    return calculator.cardAfterMs;
  },
  set cardAfterMs(value: number) {
    calculator.cardAfterMs = value;
  },
  get ruleLimitMs() {
    return workbench.limitMs;
  },
  set ruleLimitMs(value: number) {
    workbench.limitMs = value;
  },
  whichValue,
};
(window as unknown as { musterApp: AppHandle }).musterApp = handle;

function loadHash(): void {
  calculator.shownHash = location.hash;
  const state = parseHash(location.hash);
  if (state.ruleId?.startsWith(CODE_MARK)) {
    // A link with a rule's code: shown, and run only when the person says so (./workbench/workbench.ts).
    // A link whose code cannot be read is refused whole, as any malformed link: one line and the defaults.
    workbench.openLink(state.ruleId.slice(CODE_MARK.length), state.entries, (refused) =>
      showQuestion({ ruleId: null, entries: [], refused }),
    );
    return;
  }
  showQuestion(state);
}

function showQuestion(state: HashState): void {
  const reading = readHash(appRules, state);
  calculator.showProblems(reading.problems);
  calculator.selectRule(reading.rule, reading.raw, reading.simulation);
  const problems = [...element('hash-problems').children];
  calculator.recompute();
  // recompute replaces the list with the form's own messages: keep the hash's too.
  element('hash-problems').prepend(...problems);
}

const recompute = () => calculator.recompute();
for (const candidate of appRules) form.picker.append(new Option(`${candidate.title} (${candidate.id})`, candidate.id));
form.picker.addEventListener('change', () => {
  // A link's code not run stays behind its gate, in the editor: another rule shown does not make it the person's.
  const next = appRules.find((candidate) => candidate.id === form.picker.value) ?? appRules[0];
  const { trials, seed, stream } = form.readSimulation();
  calculator.selectRule(next, {}, { simulate: false, trials, seed, stream });
  calculator.showProblems([]);
  recompute();
});
form.simulateBox.addEventListener('change', recompute);
form.trialsInput.addEventListener('input', recompute);
form.seedInput.addEventListener('input', recompute);
form.streamInput.addEventListener('input', recompute);
element<HTMLButtonElement>('print').addEventListener('click', () => {
  void calculator.card.prepare().then(
    () => window.print(),
    (error: unknown) => {
      // The page's own print layout still prints the answer.
      console.error(error);
      window.print();
    },
  );
});
window.addEventListener('hashchange', () => {
  if (location.hash !== calculator.shownHash) loadHash();
});
element<HTMLFormElement>('controls').addEventListener('submit', (event) => event.preventDefault());
loadHash();
