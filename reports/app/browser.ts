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
 * Text from rules (titles, docs, labels) reaches the page through
 * textContent, or through the report modules' escaping HTML builders.
 */
import { keyedRecord, own } from '../../src/keyed.js';
import { formatCount, formatParams, formatValue } from '../../src/output/format.js';
import { hasExact, knownExact } from '../../src/rules/exact-of.js';
import type { Fraction } from '../../src/exact/fraction.js';
import { DEFAULT_STREAM } from '../../src/engine/random.js';
import { buildResult, type MetricResult, type RunResult } from '../../src/result.js';
import type { MetricSpec, ParamSpec, Params, Rule, StreamVersion } from '../../src/rules/types.js';
import { runCharts } from '../charts/index.js';
import { cardCharts, layoutCard, planCard, renderCardSheet, SHEET } from '../card/layout.js';
import { confidenceLabel, formatInterval, metricsTable, readableFraction } from '../tables.js';
import { appRules } from './app-rules.js';
import { ChartBoard } from './chart-board.js';
import { extraRuleOrigins, extraRules } from './extra-rules.js';
import { shellWord } from '../../src/text/suggest.js';
import {
  APP_DEFAULT_SEED,
  APP_DEFAULT_TRIALS,
  canonicalText,
  clipMessage,
  defaultText,
  evaluateForm,
  fieldChoices,
  problemLines,
  hashEntries,
  parseSeedText,
  parseStreamText,
  parseTrials,
  readHash,
  type RawValues,
  type SimulationChoice,
} from './form-values.js';
import { formatHash, parseHash } from './hash.js';
import { startSimulation, type RunningSimulation } from './simulation.js';

/** The simulation worker's bundled source, put here by the build (./build.ts). */
declare const __MUSTER_WORKER_SOURCE__: string;

const CONFIDENCE = 0.95;
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

/** How long the last recompute took, in milliseconds (scripts/bench/app.ts reads them). */
export interface Timings {
  /** Parameters read, exact values or merged tally turned into the result. */
  compute: number;
  /** Headline and table written. */
  text: number;
  /** From the change to the rule's first chart on the page: the new answer and chart in full view. */
  firstChart: number;
  /** Drawing every chart. */
  charts: number;
  /** From the change to the last chart. */
  total: number;
}

interface AppHandle {
  /** Settles once the latest change is fully shown (charts drawn, simulation finished). */
  idle(): Promise<void>;
  /** Goes to a hash as a link would, at once (not on the later hashchange event), and settles when it is shown. */
  open(hash: string): Promise<void>;
  result: RunResult | null;
  timings: Timings | null;
  /**
   * Draws the odds card for the answer shown (what the print button prints); settles true once it is ready, false if
   * there is no answer.
   */
  prepareCard(): Promise<boolean>;
  /**
   * How long an answer stands before its card is drawn on its own, for the browser's print command (Infinity: never).
   */
  cardAfterMs: number;
}

const element = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const make = <K extends keyof HTMLElementTagNameMap>(tag: K, className = '', text = ''): HTMLElementTagNameMap[K] => {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text) node.textContent = text;
  return node;
};

const picker = element<HTMLSelectElement>('rule-picker');
const ruleAbout = element<HTMLParagraphElement>('rule-about');
const hashProblems = element<HTMLDivElement>('hash-problems');
const paramFields = element<HTMLDivElement>('param-fields');
const simulateBox = element<HTMLInputElement>('sim-on');
const simulateNote = element<HTMLParagraphElement>('sim-note');
const trialsInput = element<HTMLInputElement>('sim-trials');
const seedInput = element<HTMLInputElement>('sim-seed');
const streamInput = element<HTMLInputElement>('sim-stream');
const simulationDetails = element<HTMLDetailsElement>('simulation');
const answerTitle = element<HTMLHeadingElement>('answer-title');
const answerParams = element<HTMLParagraphElement>('answer-params');
const answerMethod = element<HTMLParagraphElement>('answer-method');
const statusBox = element<HTMLDivElement>('status');
const headline = element<HTMLDivElement>('headline');
const chartsBox = element<HTMLDivElement>('charts');
const readingsBox = element<HTMLDivElement>('readings');
const tableBox = element<HTMLDivElement>('metrics-table');
const printLink = element<HTMLParagraphElement>('print-link');
const quick = element<HTMLDivElement>('quick');
const printCard = element<HTMLDivElement>('print-card');

let rule: Rule = appRules[0];
let generation = 0;
let running: RunningSimulation | null = null;
const board = new ChartBoard(chartsBox);
let latest: Promise<void> = Promise.resolve();
let workerUrl: string | null = null;
/** The hash the page shows (as it rewrote it): a hashchange to anything else is a new question. */
let shownHash = '';
const handle: AppHandle = {
  idle: async () => {
    let seen: Promise<void>;
    do {
      seen = latest;
      await seen;
    } while (seen !== latest);
  },
  open: (hash) => {
    location.hash = hash;
    if (location.hash !== shownHash) loadHash();
    return handle.idle();
  },
  result: null,
  timings: null,
  prepareCard: () => prepareCard(),
  cardAfterMs: 700,
};
(window as unknown as { musterApp: AppHandle }).musterApp = handle;

// ─── the form ────────────────────────────────────────────────────────────────

function fieldId(spec: ParamSpec): string {
  return `param-${spec.name}`;
}

function allowedHint(spec: ParamSpec): string {
  switch (spec.type) {
    case 'integer':
      return `${spec.min}–${spec.max}`;
    case 'number':
      return `${spec.min} to ${spec.max}`;
    case 'text':
      return spec.allowed;
    default:
      return '';
  }
}

/** One labelled control per parameter, its meaning and a place for its message, all tied to it for screen readers. */
function buildFields(raw: RawValues): void {
  paramFields.replaceChildren();
  for (const spec of rule.params) {
    const id = fieldId(spec);
    const field = make('div', `field field-${spec.type}`);
    field.dataset.param = spec.name;
    const label = make('label', '', spec.name);
    label.htmlFor = id;
    const doc = make('p', 'doc', spec.doc);
    doc.id = `${id}-doc`;
    const error = make('p', 'error');
    error.id = `${id}-error`;
    error.hidden = true;
    const value = own(raw, spec.name) ?? defaultText(spec);
    let control: HTMLInputElement | HTMLSelectElement;
    const choices = fieldChoices(rule, spec);
    if (choices) {
      control = make('select');
      for (const choice of choices) control.append(new Option(choice.text, choice.value));
      // A short label from a link (a=F1) selects its value; a value the rule refuses stays visible, so its message
      // makes sense.
      const shown = canonicalText(rule, spec, value) ?? value;
      if (!choices.some((choice) => choice.value === shown)) control.append(new Option(shown, shown));
      control.value = shown;
      control.addEventListener('change', recompute);
    } else if (spec.type === 'boolean') {
      control = make('input');
      control.type = 'checkbox';
      control.checked = value === 'true';
      if (value !== 'true' && value !== 'false') control.dataset.raw = value;
      control.addEventListener('change', () => {
        delete (control as HTMLInputElement).dataset.raw;
        recompute();
      });
    } else {
      control = make('input');
      if (spec.type === 'integer' || spec.type === 'number') {
        control.type = 'number';
        control.min = String(spec.min);
        control.max = String(spec.max);
        control.step = spec.type === 'integer' ? '1' : 'any';
        control.inputMode = spec.type === 'integer' ? 'numeric' : 'decimal';
        // A number field cannot hold text such as "abc" from a hash: keep it until the field is edited, so the message
        // names it.
        control.value = value;
        if (control.value !== value.trim()) control.dataset.raw = value;
      } else {
        control.type = 'text';
        control.value = value;
        control.spellcheck = false;
        control.autocomplete = 'off';
      }
      control.addEventListener('input', () => {
        delete (control as HTMLInputElement).dataset.raw;
        recompute();
      });
    }
    control.id = id;
    control.name = spec.name;
    control.setAttribute('aria-describedby', `${doc.id} ${error.id}`);
    const hint = allowedHint(spec);
    const row = make('div', 'control');
    if (spec.type === 'boolean') {
      row.append(control, label);
    } else {
      row.append(label, control);
      // A list shows its values itself; a typed field says what it takes.
      if (hint && !choices) row.append(make('span', 'hint', hint));
    }
    field.append(row, error, doc);
    paramFields.append(field);
  }
}

function readFields(): RawValues {
  const raw: RawValues = keyedRecord();
  for (const spec of rule.params) {
    const control = document.getElementById(fieldId(spec)) as HTMLInputElement | HTMLSelectElement;
    if (control.dataset.raw !== undefined) raw[spec.name] = control.dataset.raw;
    else if (control instanceof HTMLInputElement && control.type === 'checkbox')
      raw[spec.name] = String(control.checked);
    else raw[spec.name] = control.value;
  }
  return raw;
}

function showFieldError(id: string, message: string | undefined): void {
  const control = document.getElementById(id);
  const error = document.getElementById(`${id}-error`);
  if (!control || !error) return;
  error.textContent = message === undefined ? '' : clipMessage(message);
  error.hidden = !message;
  if (message) control.setAttribute('aria-invalid', 'true');
  else control.removeAttribute('aria-invalid');
}

function readSimulation(): SimulationChoice {
  return { simulate: simulateBox.checked, trials: trialsInput.value, seed: seedInput.value, stream: streamInput.value };
}

/** The simulate box as the user left it, while enumeration has no answer and the box is held ticked; else null. */
let heldFrom: boolean | null = null;

/** Ticks and locks the simulate box where a rule file's enumeration gives no answer, and gives it back after. */
function forceSimulation(force: boolean): void {
  if (force && heldFrom === null) {
    heldFrom = simulateBox.checked;
    simulateBox.checked = true;
    simulateBox.disabled = true;
    simulateNote.textContent =
      'No exact value at these parameters (enumerating the rule’s dice is past the page’s budget): it is simulated in the page, with muster run’s streams.';
  } else if (!force && heldFrom !== null) {
    simulateBox.checked = heldFrom;
    simulateBox.disabled = false;
    simulateNote.textContent = EXACT_NOTE;
    heldFrom = null;
  }
}

const EXACT_NOTE =
  'Exact by default; tick to simulate instead, as muster run does, with the same numbers for the same seed and trials.';

function setSimulation(choice: SimulationChoice): void {
  heldFrom = null;
  simulateBox.checked = choice.simulate || !rule.exact;
  simulateBox.disabled = !rule.exact;
  trialsInput.value = choice.trials;
  seedInput.value = choice.seed;
  streamInput.value = choice.stream;
  simulateNote.textContent = rule.exact
    ? EXACT_NOTE
    : 'This rule has no exact solution: it is simulated in the page, with muster run’s streams.';
  if (choice.simulate || !rule.exact) simulationDetails.open = true;
}

function describeRule(): void {
  ruleAbout.textContent = `${rule.summary} (${rule.source})`;
  element('answer-source').textContent = `Rule text: ${rule.source}`;
  document.title = `${rule.title} — muster calculator`;
}

function selectRule(next: Rule, raw: RawValues, simulation: SimulationChoice): void {
  rule = next;
  picker.value = rule.id;
  describeRule();
  buildFields(raw);
  setSimulation(simulation);
}

// ─── recomputing ─────────────────────────────────────────────────────────────

function headlineNames(params: Params, metrics: readonly MetricSpec[]): string[] {
  const named = rule.headline?.(params).filter((name) => metrics.some((metric) => metric.name === name)) ?? [];
  return named.length > 0 ? named : metrics.slice(0, FALLBACK_HEADLINE).map((metric) => metric.name);
}

function renderHeadline(
  result: RunResult,
  metrics: readonly MetricSpec[],
  fractions: Record<string, Fraction> | null,
): void {
  const names = headlineNames(result.params, metrics);
  const cards = names.slice(0, MAX_FIGURES).map((name) => {
    const metric = metrics.find((candidate) => candidate.name === name) as MetricSpec;
    const value = own(result.metrics, name) as MetricResult;
    const card = make('div', 'figure');
    card.dataset.metric = name;
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
      const fraction = readableFraction(own(fractions, name));
      const exactText = simulated ? `exact ${formatValue(value.exact, metric.probability)}` : 'exactly';
      card.append(
        make(
          'p',
          'figure-sub figure-fraction',
          fraction ? `${exactText} = ${fraction}` : simulated ? exactText : 'exact (a long fraction)',
        ),
      );
    }
    card.append(make('p', 'figure-doc', metric.doc));
    return card;
  });
  const rest = names.length - cards.length;
  headline.replaceChildren(
    ...cards,
    ...(rest > 0
      ? [make('p', 'figure-more', `and ${rest} more headline figure${rest === 1 ? '' : 's'} in the table below`)]
      : []),
  );
  headline.classList.toggle('many', cards.length > MANY_FIGURES);
  quick.replaceChildren(
    ...cards.slice(0, QUICK_FIGURES).map((card) => {
      const item = make('span', '', `${card.querySelector('.figure-label')?.textContent ?? ''} `);
      item.append(make('b', '', card.querySelector('.figure-value')?.textContent ?? ''));
      return item;
    }),
  );
}

function renderReadings(params: Params): void {
  const readings = rule.readings?.(params) ?? [];
  readingsBox.replaceChildren();
  readingsBox.hidden = readings.length === 0;
  if (readings.length === 0) return;
  const list = make('ul');
  for (const reading of readings) {
    const item = make('li');
    item.append(make('span', 'name', reading.param), document.createTextNode(` ${reading.text}`));
    list.append(item);
  }
  readingsBox.append(make('h3', '', 'Readings in force'), list);
}

/**
 * How a command names the rule shown: a bundled rule file by the path given to `muster app --rule`, a built-in rule by
 * its id.
 */
function ruleCommandWord(): string {
  const origin = extraRuleOrigins[extraRules.indexOf(rule)];
  return shellWord(origin ?? rule.id);
}

function methodText(result: RunResult): string {
  if (result.method === 'exact') return 'Exact values, computed in rational arithmetic in this page.';
  return `Simulated in this page: ${formatCount(result.trials)} trials, seed ${JSON.stringify(result.seed)}, stream ${result.stream}, ${confidenceLabel(result.confidence)} intervals — the same figures as muster run ${ruleCommandWord()} with that seed and trials${result.stream === DEFAULT_STREAM ? '' : ` and --stream ${result.stream}`}.`;
}

async function showResult(
  result: RunResult,
  fractions: Record<string, Fraction> | null,
  mine: number,
  started: number,
  computed: number,
): Promise<void> {
  const metrics = rule.metrics(result.params);
  handle.result = result;
  answerMethod.textContent = methodText(result);
  renderHeadline(result, metrics, fractions);
  renderReadings(result.params);
  tableBox.innerHTML = metricsTable(result, metrics, fractions);
  // A printed card is one page: the table goes on it when it is short enough to fit under the chart.
  element('metrics').classList.toggle('fits-card', metrics.length <= PRINTED_TABLE_ROWS);
  const texted = performance.now();
  let first = texted;
  const current = await board.show(
    runCharts({ rule, result, metrics }),
    () => mine !== generation,
    () => {
      first = performance.now();
    },
  );
  if (!current) return;
  const ended = performance.now();
  handle.timings = {
    compute: computed - started,
    text: texted - computed,
    firstChart: first - started,
    charts: ended - texted,
    total: ended - started,
  };
}

function clearAnswer(message: string): void {
  handle.result = null;
  board.clear();
  headline.replaceChildren();
  quick.replaceChildren();
  tableBox.replaceChildren();
  readingsBox.replaceChildren();
  readingsBox.hidden = true;
  answerMethod.textContent = '';
  statusBox.replaceChildren(make('p', 'blocked', message));
}

function writeHash(raw: RawValues, simulation: SimulationChoice, simulating: boolean): void {
  const hash = `#${formatHash(rule.id, hashEntries(rule, raw, simulation, simulating))}`;
  if (location.hash !== hash) history.replaceState(null, '', hash);
  shownHash = location.hash;
  printLink.textContent = `This card: ${location.href.split('/').pop() ?? hash}`;
}

function workerSource(): string {
  workerUrl ??= URL.createObjectURL(new Blob([__MUSTER_WORKER_SOURCE__], { type: 'text/javascript' }));
  return workerUrl;
}

/** Reads the form, checks it, and shows the new answer; every change of any field lands here. */
function recompute(): void {
  const started = performance.now();
  const mine = ++generation;
  handle.timings = null;
  dropCard();
  scheduleCard();
  running?.cancel();
  running = null;
  let settle: () => void = () => undefined;
  latest = new Promise<void>((resolve) => {
    settle = resolve;
  });
  const finish = () => settle();

  const raw = readFields();
  let outcome: ReturnType<typeof evaluateForm>;
  try {
    outcome = evaluateForm(rule, raw);
  } catch (error) {
    // A bundled rule file's resolve or validate that throws: shown as its fault, never a page that stops answering.
    fail(finish)(error);
    return;
  }
  // A rule file without exact() is enumerated where that is quick (rules/exact-of.ts), else simulated.
  if (rule.exactBy === 'enumeration') {
    try {
      forceSimulation(outcome.params !== null && !hasExact(rule, outcome.params));
    } catch (error) {
      // The rule's own code threw while its dice were enumerated: its fault, shown as the CLI words it.
      fail(finish)(error);
      return;
    }
  }
  const simulation = readSimulation();
  const simulating = simulation.simulate || !rule.exact;
  for (const spec of rule.params) showFieldError(fieldId(spec), outcome.fieldErrors.get(spec.name));
  const simulationErrors: string[] = [];
  // Each simulation option through its parser, its message beside its field; unchecked (and no message) while solving
  // exactly.
  const option = <T>(name: 'trials' | 'seed' | 'stream', parse: (text: string) => T, fallback: T): T => {
    let value = fallback;
    let message: string | undefined;
    if (simulating) {
      try {
        value = parse(simulation[name]);
      } catch (error) {
        message = (error as Error).message;
        simulationErrors.push(name);
      }
    }
    showFieldError(`sim-${name}`, message);
    return value;
  };
  const trials = option('trials', parseTrials, APP_DEFAULT_TRIALS);
  const seed = option('seed', parseSeedText, APP_DEFAULT_SEED);
  const stream = option<StreamVersion>('stream', parseStreamText, DEFAULT_STREAM);
  writeHash(raw, simulation, simulating);
  answerTitle.textContent = rule.title;
  const formMessages = outcome.formErrors;
  hashProblems.replaceChildren(...problemLines(formMessages).map((message) => make('p', 'error', message)));
  if (!outcome.params || simulationErrors.length > 0) {
    const wrong = [...outcome.fieldErrors.keys(), ...simulationErrors];
    answerParams.textContent = '';
    clearAnswer(
      wrong.length > 0
        ? `No answer yet: ${wrong.join(', ')} ${wrong.length === 1 ? 'needs' : 'need'} a different value (see the message by the field).`
        : clipMessage(`No answer yet: ${formMessages.join(' ')}`),
    );
    finish();
    return;
  }
  const params = outcome.params;
  answerParams.textContent = formatParams(params);

  if (!simulating) {
    try {
      const fractions = (rule.exact as NonNullable<Rule['exact']>)(params);
      const result = buildResult({
        rule: { ...rule, exact: () => fractions },
        params,
        seed,
        stream: null,
        threads: 0,
        confidence: 1,
        trials: 0,
        tally: null,
      });
      statusBox.replaceChildren();
      void showResult(result, fractions, mine, started, performance.now()).then(finish, fail(finish));
    } catch (error) {
      fail(finish)(error);
    }
    return;
  }

  const threads = Math.max(1, Math.min(navigator.hardwareConcurrency || 2, 8));
  const progress = make('progress');
  progress.max = trials;
  progress.value = 0;
  progress.id = 'sim-progress';
  const progressLabel = make('label', 'progress-label', `Simulating: 0 of ${formatCount(trials)} trials`);
  progressLabel.htmlFor = progress.id;
  statusBox.replaceChildren(progressLabel, progress);
  let fractions: Record<string, Fraction> | null;
  try {
    fractions = knownExact(rule, params);
  } catch (error) {
    fail(finish)(error);
    return;
  }
  const exactRule: Rule = fractions ? { ...rule, exact: () => fractions as Record<string, Fraction> } : rule;
  running = startSimulation(workerSource(), {
    rule,
    params,
    seed,
    stream,
    trials,
    threads,
    onProgress: (done, total) => {
      progress.value = done;
      progressLabel.textContent = `Simulating: ${formatCount(done)} of ${formatCount(total)} trials`;
    },
  });
  running.finished.then(
    (tally) => {
      if (mine !== generation) return finish();
      running = null;
      const simulatedAt = performance.now();
      const result = buildResult({
        rule: exactRule,
        params,
        seed,
        stream,
        threads,
        confidence: CONFIDENCE,
        trials,
        tally,
      });
      statusBox.replaceChildren();
      void showResult(result, fractions, mine, simulatedAt, performance.now()).then(finish, fail(finish));
    },
    (error) => {
      if (mine !== generation) return finish();
      fail(finish)(error);
    },
  );
  // A cancelled run never settles its promise; a newer change settles `latest` instead.
}

/**
 * Shows why there is no answer. A UsageError is the rule's refusal or a
 * rule file's fault (a trial that throws, a bad metric value: the rule-file
 * adapter reports each as one), in the words `muster run` prints, as the CLI
 * exits 2 for it. Anything else is muster's own.
 */
function fail(finish: () => void): (error: unknown) => void {
  return (error) => {
    const message = error instanceof Error ? error.message : String(error);
    const ruleFault = error instanceof Error && error.name === 'UsageError';
    if (!ruleFault) console.error(error);
    clearAnswer(
      clipMessage(
        ruleFault ? `No answer: ${message}` : `Something went wrong in muster itself (please report it): ${message}`,
      ),
    );
    finish();
  };
}

function loadHash(): void {
  shownHash = location.hash;
  const reading = readHash(appRules, parseHash(location.hash));
  hashProblems.replaceChildren(...problemLines(reading.problems).map((message) => make('p', 'error', message)));
  selectRule(reading.rule, reading.raw, reading.simulation);
  const problems = [...hashProblems.children];
  recompute();
  // recompute replaces the list with the form's own messages: keep the hash's too.
  hashProblems.prepend(...problems);
}

// ─── the printed card ────────────────────────────────────────────────────────

interface EmbeddedView {
  finalize(): void;
}
declare const vegaEmbed: (
  element: HTMLElement,
  spec: unknown,
  options: Record<string, unknown>,
) => Promise<{ view: EmbeddedView }>;

/** The generation whose card #print-card holds (body.card-ready), or -1. */
let cardGeneration = -1;
let cardViews: EmbeddedView[] = [];
let cardWork: { generation: number; done: Promise<boolean> } | null = null;

/**
 * The card is also drawn on its own once an answer has stood for a moment,
 * so that the browser's own print command (Ctrl+P, a phone's share menu)
 * prints it too; before that, or for an answer with no card, the page's
 * fallback print layout does. Every change restarts the wait.
 */
let cardTimer: ReturnType<typeof setTimeout> | undefined;
function scheduleCard(): void {
  clearTimeout(cardTimer);
  if (!Number.isFinite(handle.cardAfterMs)) return;
  cardTimer = setTimeout(() => {
    prepareCard().catch((error: unknown) => console.error(error));
  }, handle.cardAfterMs);
}

function dropCard(): void {
  cardGeneration = -1;
  cardWork = null;
  document.body.classList.remove('card-ready');
  for (const view of cardViews) view.finalize();
  cardViews = [];
  printCard.replaceChildren();
}

/**
 * The results the card needs, in planCard's order. A card of one parameter
 * set is the answer shown (exact or simulated, as on screen); a card of a
 * table (Infinity's WIPs, deployments, reserves' command levels, Noctvale's
 * fighters) needs the rule's exact solution at every cell, which every such
 * built-in rule has and computes in milliseconds. Without one, no card.
 */
function cardResults(shown: RunResult, plan: readonly Params[]): RunResult[] | null {
  if (plan.length === 1 && rule.params.every((spec) => own(plan[0], spec.name) === own(shown.params, spec.name)))
    return [shown];
  // A rule file without exact() has its cells by enumeration, where that is quick at every one.
  const cells = plan.map((params) => knownExact(rule, params));
  if (cells.some((fractions) => fractions === null)) return null;
  return plan.map((params, index) => {
    const fractions = cells[index] as Record<string, Fraction>;
    return buildResult({
      rule: { ...rule, exact: () => fractions },
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

/** Lays out and draws the card for the answer shown, off screen, zoomed to one sheet like `muster card`'s page. */
async function prepareCard(): Promise<boolean> {
  await handle.idle();
  const mine = generation;
  if (cardGeneration === mine) return true;
  if (cardWork?.generation === mine) return cardWork.done;
  const shown = handle.result;
  if (!shown) return false;
  const done = (async () => {
    const plan = planCard(rule, shown.params);
    const results = cardResults(shown, plan);
    if (!results) return false;
    // The footer's command names a bundled rule file as muster card takes it: by the path given to muster app --rule.
    const origin = extraRuleOrigins[extraRules.indexOf(rule)];
    const cardRule: Rule = origin === undefined ? rule : { ...rule, file: { path: origin, sha256: '', origin } };
    const card = layoutCard(cardRule, shown.params, {}, results);
    printCard.innerHTML = renderCardSheet(card);
    const views: EmbeddedView[] = [];
    for (const chart of cardCharts(card)) {
      const target = [...printCard.querySelectorAll<HTMLElement>('.vis')].find((vis) => vis.dataset.chart === chart.id);
      if (!target) continue;
      try {
        views.push((await vegaEmbed(target, chart.spec, { renderer: 'svg', actions: false })).view);
      } catch (error) {
        target.textContent = `This chart could not be drawn: ${(error as Error).message}`;
        target.classList.add('chart-error');
      }
      if (mine !== generation) break;
    }
    if (mine !== generation) {
      for (const view of views) view.finalize();
      return false;
    }
    cardViews = views;
    // The link that reopens this question in the calculator, under the card's own footer.
    const sheet = printCard.querySelector<HTMLElement>('.card') as HTMLElement;
    sheet.append(make('p', 'card-link', `Reopen this question: ${location.href.split('/').pop() ?? location.hash}`));
    // As muster card's page: a card taller than the sheet (many warbands, a long footer) is zoomed to fit it.
    const padding = 28;
    const height = sheet.getBoundingClientRect().height - padding;
    if (height > SHEET.height) sheet.style.zoom = String(Math.floor((SHEET.height / height) * 1000) / 1000);
    cardGeneration = mine;
    document.body.classList.add('card-ready');
    return true;
  })();
  cardWork = { generation: mine, done };
  return done;
}

// ─── start ───────────────────────────────────────────────────────────────────

for (const candidate of appRules) picker.append(new Option(`${candidate.title} (${candidate.id})`, candidate.id));
picker.addEventListener('change', () => {
  const next = appRules.find((candidate) => candidate.id === picker.value) ?? appRules[0];
  selectRule(
    next,
    {},
    { simulate: false, trials: trialsInput.value, seed: seedInput.value, stream: streamInput.value },
  );
  hashProblems.replaceChildren();
  recompute();
});
simulateBox.addEventListener('change', recompute);
trialsInput.addEventListener('input', recompute);
seedInput.addEventListener('input', recompute);
streamInput.addEventListener('input', recompute);
element<HTMLButtonElement>('print').addEventListener('click', () => {
  void prepareCard().then(
    () => window.print(),
    (error: unknown) => {
      // The page's own print layout still prints the answer.
      console.error(error);
      window.print();
    },
  );
});
window.addEventListener('hashchange', () => {
  if (location.hash !== shownHash) loadHash();
});
element<HTMLFormElement>('controls').addEventListener('submit', (event) => event.preventDefault());
loadHash();
