/// <reference lib="dom" />
/**
 * The calculator's controller: the question shown (rule, form, hash) and
 * every change recomputed in small steps, the views (./form-view.ts,
 * ./answer-view.ts, ./card-view.ts) doing the writing.
 *
 *   change ─► begin (a new generation; the last one's simulation and card dropped)
 *          ─► question (the form through the rule's parsers and checks) ─► options (trials, seed, stream)
 *          ─► the hash ─► blocked? a message : exact(params) │ simulation ─► buildResult ─► the views
 */

import { buildResult } from '../analysis/result-of.js';
import type { Params, Rule, RuleExact, StreamVersion } from '../contract/types.js';
import { DEFAULT_STREAM } from '../engine/random.js';
import type { Fraction } from '../exact/fraction.js';
import { formatCount, formatParams } from '../output/format.js';
import type { RunResult } from '../result.js';
import { lookUpExact } from '../rules/exact-of.js';
import { shellWord } from '../text/suggest.js';
import { AnswerView, methodText } from './answer-view.js';
import { CardView } from './card-view.js';
import type { Options, Timings, Turn } from './controller-types.js';
import { DecisionsView, withBestPlay } from './decisions-view.js';
import { element, make } from './dom.js';
import {
  APP_DEFAULT_SEED,
  APP_DEFAULT_TRIALS,
  clipMessage,
  evaluateForm,
  type FormOutcome,
  hashEntries,
  parseSeedText,
  parseStreamText,
  parseTrials,
  problemLines,
  type RawValues,
  type SimulationChoice,
} from './form-values.js';
import { FormView, fieldId } from './form-view.js';
import { formatHash } from './hash.js';
import { type RunningSimulation, SimulationPool } from './simulation.js';
import { fractionsOf, isSandboxed, paramsOf, type SandboxedRule } from './workbench/proxy-rule.js';
import { CODE_MARK } from './workbench/share.js';

const CONFIDENCE = 0.95;
/** How often a running simulation's estimate so far is redrawn: often enough to watch it settle. */
const PARTIAL_EVERY_MS = 100;
/** A run over sooner than this shows only its answer: the main thread keeps out of the workers' way. */
const PARTIAL_FIRST_MS = 250;

/** The method line while a simulation runs. */
function partialText(done: number, trials: number): string {
  return `Simulating in this page: the estimate so far, from ${formatCount(done)} of ${formatCount(trials)} trials.`;
}

export type { Timings, Turn };

export class Calculator {
  readonly form = new FormView();
  readonly answer = new AnswerView();
  /** A rule with choices: best play under the figures (./decisions-view.ts). */
  readonly decisions = new DecisionsView(document.getElementById('metrics'));
  readonly card: CardView;
  rule: Rule;
  result: RunResult | null = null;
  timings: Timings | null = null;
  cardAfterMs = 700;
  private generation = 0;
  private running: RunningSimulation | null = null;
  private latest: Promise<void> = Promise.resolve();
  private pool: SimulationPool | null = null;
  /** Simulation workers kept: one a core, at most eight. */
  private readonly threads = Math.max(1, Math.min(navigator.hardwareConcurrency || 2, 8));
  /** The hash the page shows (as it rewrote it): a hashchange to anything else is a new question. */
  shownHash = '';
  /** Told each rule shown, once its fields are built (the views that vary its parameters: ./which-value.ts). */
  readonly ruleShownListeners: Array<(rule: Rule) => void> = [];
  private readonly hashProblems = element<HTMLDivElement>('hash-problems');

  /**
   * `rules`: every rule the picker offers; `workerSource`: the simulation worker's bundle; `command` names a rule as
   * muster run takes it.
   */
  constructor(
    readonly rules: readonly Rule[],
    private readonly workerSource: string,
    private readonly command: (rule: Rule) => string,
    private readonly cardRule: (rule: Rule) => Rule,
  ) {
    this.rule = rules[0];
    this.card = new CardView(
      () => this.idle(),
      () => ({ generation: this.generation, rule: this.rule, cardRule: this.cardRule(this.rule), result: this.result }),
    );
  }

  /** Settles once the latest change is fully shown (charts drawn, simulation finished). */
  async idle(): Promise<void> {
    let seen: Promise<void>;
    do {
      seen = this.latest;
      await seen;
    } while (seen !== this.latest);
  }

  selectRule(next: Rule, raw: RawValues, simulation: SimulationChoice): void {
    // A rule written in the page that is no longer shown needs its sandbox no more.
    if (isSandboxed(this.rule) && this.rule !== next) this.rule.sandbox.stop();
    this.rule = next;
    // A rule written in the page is not in the picker (its list is the rules the page was built with).
    if (isSandboxed(next)) this.form.picker.selectedIndex = -1;
    else this.form.picker.value = next.id;
    this.form.describeRule(next);
    this.form.buildFields(next, raw, () => this.recompute());
    this.form.setSimulation(next, simulation);
    for (const listener of this.ruleShownListeners) listener(next);
  }

  showProblems(problems: readonly string[]): void {
    this.hashProblems.replaceChildren(...problemLines(problems).map((message) => make('p', 'error', message)));
  }

  /** Reads the form, checks it, and shows the new answer; every change of any field lands here. */
  recompute(): void {
    const turn = this.begin();
    const raw = this.form.readFields(this.rule);
    if (isSandboxed(this.rule)) {
      this.askSandbox(this.rule, raw, turn);
      return;
    }
    const outcome = this.question(raw, turn);
    if (!outcome) return;
    const simulation = this.form.readSimulation();
    const simulating = simulation.simulate || !this.rule.exact;
    const options = this.options(simulation, simulating);
    this.showQuestion(raw, simulation, simulating, outcome);
    const params = this.ready(outcome, options, turn);
    if (!params) return;
    if (simulating) this.simulate(params, options, turn);
    else this.solve(params, options, turn);
  }

  /**
   * A rule written in the page: the same steps, its own code run in its sandbox (form, exact values or simulation
   * in one request), the page's own checks here.
   */
  private askSandbox(rule: SandboxedRule, raw: RawValues, turn: Turn): void {
    const asked = this.form.readSimulation();
    const quiet = this.quietOptions(asked);
    let progress: ((done: number, total: number) => void) | null = null;
    const pending = rule.sandbox.ask(
      // The person's own choice: the sandbox decides again whether enumeration forces a simulation.
      { kind: 'answer', raw, simulate: this.form.chosenSimulate(), options: quiet },
      (done, total) => {
        progress ??= this.answer.showProgress(total);
        progress(done, total);
      },
    );
    this.running = { finished: new Promise(() => undefined), cancel: () => pending.cancel() };
    pending.reply.then(
      (reply) => {
        if (this.isStale(turn)) return turn.finish();
        this.running = null;
        if (reply.kind === 'fault') {
          const error = new Error(reply.message);
          if (reply.usage) error.name = 'UsageError';
          return this.fail(turn)(error);
        }
        if (reply.kind !== 'answered') return this.fail(turn)(new Error(`the sandbox replied ${reply.kind}`));
        if (rule.exact?.by === 'enumeration') this.form.forceSimulation(reply.forced);
        const simulation = this.form.readSimulation();
        const simulating = simulation.simulate || !rule.exact;
        const options = this.options(simulation, simulating);
        const params = reply.params ? paramsOf(reply.params) : null;
        const outcome = { params, fieldErrors: new Map(reply.fieldErrors), formErrors: reply.formErrors };
        this.showQuestion(raw, simulation, simulating, outcome);
        if (!this.ready(outcome, options, turn)) return;
        if (!reply.answer) return this.fail(turn)(new Error('the sandbox gave no answer'));
        rule.shown.metrics = reply.answer.metrics;
        rule.shown.headline = reply.answer.headline;
        rule.shown.readings = reply.answer.readings;
        this.answer.clearStatus();
        this.show(reply.answer.result, fractionsOf(reply.answer), turn, turn.started, performance.now());
      },
      (error: unknown) => {
        if (this.isStale(turn)) return turn.finish();
        this.running = null;
        this.fail(turn)(error);
      },
    );
  }

  /** The simulation's options if all parse, else null (their messages are shown once the answer says they matter). */
  private quietOptions(simulation: SimulationChoice): { trials: number; seed: string; stream: StreamVersion } | null {
    try {
      const trials = parseTrials(simulation.trials);
      return { trials, seed: parseSeedText(simulation.seed), stream: parseStreamText(simulation.stream) };
    } catch {
      return null;
    }
  }

  /** A new generation: the last one's simulation and card dropped, `latest` pending until this one is shown. */
  begin(): Turn {
    const started = performance.now();
    const mine = ++this.generation;
    this.timings = null;
    this.card.drop();
    this.card.schedule(this.cardAfterMs);
    this.running?.cancel();
    this.running = null;
    let settle: () => void = () => undefined;
    this.latest = new Promise<void>((resolve) => {
      settle = resolve;
    });
    return { mine, started, finish: () => settle() };
  }

  isStale(turn: Turn): boolean {
    return turn.mine !== this.generation;
  }

  /** The form through the rule's parsers and checks; null (the fault shown) when the rule's own code threw. */
  private question(raw: RawValues, turn: Turn): FormOutcome | null {
    try {
      const outcome = evaluateForm(this.rule, raw);
      // A rule file without exact() is enumerated where that is quick (rules/exact-of.ts), else simulated.
      if (this.rule.exact?.by === 'enumeration')
        this.form.forceSimulation(outcome.params !== null && lookUpExact(this.rule, outcome.params).values === null);
      return outcome;
    } catch (error) {
      // A bundled rule file's resolve, validate or dice that throw: shown as its fault, in the CLI's words, never a
      // page that stops answering.
      this.fail(turn)(error);
      return null;
    }
  }

  /**
   * Each simulation option through its parser, its message beside its field; unchecked (and no message) while solving
   * exactly.
   */
  options(simulation: SimulationChoice, simulating: boolean): Options {
    const wrong: string[] = [];
    const option = <T>(name: 'trials' | 'seed' | 'stream', parse: (text: string) => T, fallback: T): T => {
      let value = fallback;
      let message: string | undefined;
      if (simulating) {
        try {
          value = parse(simulation[name]);
        } catch (error) {
          message = (error as Error).message;
          wrong.push(name);
        }
      }
      this.form.showFieldError(`sim-${name}`, message);
      return value;
    };
    const trials = option('trials', parseTrials, APP_DEFAULT_TRIALS);
    const seed = option('seed', parseSeedText, APP_DEFAULT_SEED);
    const stream = option<StreamVersion>('stream', parseStreamText, DEFAULT_STREAM);
    return { trials, seed, stream, wrong };
  }

  /** The fields' messages, the hash, the title and the form's own problems. */
  showQuestion(raw: RawValues, simulation: SimulationChoice, simulating: boolean, outcome: FormOutcome): void {
    for (const spec of this.rule.params) this.form.showFieldError(fieldId(spec), outcome.fieldErrors.get(spec.name));
    this.writeHash(raw, simulation, simulating);
    this.answer.title.textContent = this.rule.title;
    this.showProblems(outcome.formErrors);
  }

  /** The parameters to answer, or null with the reason shown when a field or option is wrong. */
  ready(outcome: FormOutcome, options: Options, turn: Turn): Params | null {
    if (outcome.params && options.wrong.length === 0) {
      this.answer.params.textContent = formatParams(outcome.params);
      return outcome.params;
    }
    const wrong = [...outcome.fieldErrors.keys(), ...options.wrong];
    this.answer.params.textContent = '';
    this.clear(
      wrong.length > 0
        ? `No answer yet: ${wrong.join(', ')} ${wrong.length === 1 ? 'needs' : 'need'} a different value (see the ` +
            `message by the field).`
        : clipMessage(`No answer yet: ${outcome.formErrors.join(' ')}`),
    );
    turn.finish();
    return null;
  }

  private solve(params: Params, options: Options, turn: Turn): void {
    try {
      const fractions = (this.rule.exact as RuleExact).values(params);
      const result = buildResult({
        rule: { ...this.rule, exact: { ...this.rule.exact, values: () => fractions } },
        params,
        seed: options.seed,
        stream: null,
        threads: 0,
        confidence: 1,
        trials: 0,
        tally: null,
      });
      this.answer.clearStatus();
      this.show(result, fractions, turn, turn.started, performance.now());
    } catch (error) {
      this.fail(turn)(error);
    }
  }

  private simulate(params: Params, options: Options, turn: Turn): void {
    const { trials, seed, stream } = options;
    const progress = this.answer.showProgress(trials);
    const rule = this.rule;
    // Set just after the workers start (below), before any chunk can come back.
    let fractions: Record<string, Fraction> | null = null;
    let exactRule: Rule = rule;
    const build = (done: number, tally: Float64Array, partial: boolean) =>
      buildResult({
        rule: exactRule,
        params,
        seed,
        stream,
        threads: this.threads,
        confidence: CONFIDENCE,
        trials: done,
        tally,
        exact: fractions,
        partial,
      });
    // The estimate so far: first after PARTIAL_FIRST_MS, then at most every PARTIAL_EVERY_MS.
    let latest: { done: number; tally: Float64Array } | null = null;
    let nextPartial = performance.now() + PARTIAL_FIRST_MS;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const showPartial = () => {
      timer = null;
      if (this.isStale(turn) || !latest || latest.done >= trials) return;
      const result = build(latest.done, latest.tally, true);
      this.answer.showPartial(rule, result, fractions, partialText(latest.done, trials));
      nextPartial = performance.now() + PARTIAL_EVERY_MS;
    };
    const running = this.simulations().start({
      rule,
      params,
      seed,
      stream,
      trials,
      onProgress: (done, total, tally) => {
        progress(done, total);
        latest = { done, tally };
        if (timer === null && done < total)
          timer = setTimeout(showPartial, Math.max(0, nextPartial - performance.now()));
      },
    });
    this.running = {
      finished: running.finished,
      cancel: () => {
        if (timer !== null) clearTimeout(timer);
        running.cancel();
      },
    };
    // The exact values shown beside the estimates are worked out here while the workers simulate, not before.
    try {
      const known = lookUpExact(rule, params).values;
      fractions = known;
      if (known) exactRule = { ...rule, exact: { ...rule.exact, values: () => known } };
    } catch (error) {
      this.running.cancel();
      this.running = null;
      this.fail(turn)(error);
      return;
    }
    running.finished.then(
      (tally) => {
        if (timer !== null) clearTimeout(timer);
        if (this.isStale(turn)) return turn.finish();
        this.running = null;
        const simulatedAt = performance.now();
        const result = build(trials, tally, false);
        this.answer.clearStatus();
        // Timed from the change: the answer's time is what a person waits, the simulation included.
        this.show(result, fractions, turn, turn.started, performance.now(), simulatedAt - turn.started);
      },
      (error) => {
        if (timer !== null) clearTimeout(timer);
        if (this.isStale(turn)) return turn.finish();
        this.running = null;
        this.fail(turn)(error);
      },
    );
    // A cancelled run never settles its promise; a newer change settles `latest` instead.
  }

  /** The kept simulation workers, started on the first simulation and reused by every one after it. */
  simulations(): SimulationPool {
    if (!this.pool) {
      const url = URL.createObjectURL(new Blob([this.workerSource], { type: 'text/javascript' }));
      this.pool = new SimulationPool(url, this.threads);
    }
    return this.pool;
  }

  /** Shows a result built for `turn`: `from` and `computed` time its computing, for the timings. */
  show(
    result: RunResult,
    fractions: Record<string, Fraction> | null,
    turn: Turn,
    from: number,
    computed: number,
    simulation = 0,
  ): void {
    try {
      result = withBestPlay(this.rule, result);
    } catch (error) {
      this.fail(turn)(error);
      return;
    }
    this.result = result;
    this.decisions.show(result, this.rule);
    const method = methodText(result, shellWord(this.command(this.rule)));
    void this.answer
      .show(this.rule, result, fractions, method, () => this.isStale(turn))
      .then((drawn) => {
        if (drawn)
          this.timings = {
            compute: computed - from,
            simulation,
            text: drawn.texted - computed,
            firstChart: drawn.firstChart - from,
            charts: drawn.ended - drawn.texted,
            total: drawn.ended - from,
          };
        turn.finish();
      }, this.fail(turn));
  }

  clear(message: string): void {
    this.result = null;
    this.decisions.clear();
    this.answer.clear(message);
  }

  /**
   * Shows why there is no answer. A UsageError is the rule's refusal or a
   * rule file's fault (a trial that throws, a bad metric value: the rule-file
   * adapter reports each as one), in the words `muster run` prints, as the CLI
   * exits 2 for it. Anything else is muster's own.
   */
  fail(turn: Turn): (error: unknown) => void {
    return (error) => {
      const message = error instanceof Error ? error.message : String(error);
      const ruleFault = error instanceof Error && error.name === 'UsageError';
      if (!ruleFault) console.error(error);
      this.clear(
        clipMessage(
          ruleFault ? `No answer: ${message}` : `Something went wrong in muster itself (please report it): ${message}`,
        ),
      );
      turn.finish();
    };
  }

  writeHash(raw: RawValues, simulation: SimulationChoice, simulating: boolean): void {
    // A rule written in the page is carried by its code, packed, where a rule id would be.
    const id = isSandboxed(this.rule) ? `${CODE_MARK}${this.rule.packed}` : this.rule.id;
    const hash = `#${formatHash(id, hashEntries(this.rule, raw, simulation, simulating))}`;
    if (location.hash !== hash) history.replaceState(null, '', hash);
    this.shownHash = location.hash;
    this.answer.showLink(hash);
  }
}
