/// <reference lib="dom" />
/**
 * The sandbox a rule written in the page runs in: a Web Worker of its own
 * (no DOM: a worker has no document), under the page's policy, which allows
 * no connection of any kind (connect-src falls back to default-src 'none').
 * One worker holds one version of one rule file: a new version gets a fresh
 * worker, so nothing a version did to the worker's globals outlives it, and
 * the page stops a worker that does not answer in time (./sandbox.ts).
 *
 *   load:   text ─► scriptOf ─► eval ─► the function, called ─► adaptRuleFile (muster run's checks) ─► description
 *   answer: raw form ─► evaluateForm ─► exact (enumeration) │ runChunks (muster run's streams) ─► buildResult
 */

import { buildResult, withDecisions } from '../../analysis/result-of.js';
import type { Rule, RuleExact } from '../../contract/types.js';
import { chunkCount } from '../../engine/chunks.js';
import { runChunks } from '../../engine/run-chunks.js';
import { adaptRuleFile } from '../../rule-files/rule.js';
import { lookUpExact } from '../../rules/exact-of.js';
import { evaluateForm } from '../form-values.js';
import { scriptOf, WRAPPER_LINES } from './module-text.js';
import type { SandboxAnswer, SandboxReply, SandboxRequest } from './sandbox-messages.js';

const CONFIDENCE = 0.95;

/** The worker global, typed by hand (the build's lib is DOM), its functions taken before any rule code runs. */
const scope = self as unknown as {
  onmessage: ((event: { ports: readonly MessagePort[] }) => void) | null;
  addEventListener(type: 'error', listener: (event: ErrorEvent) => void): void;
  removeEventListener(type: 'error', listener: (event: ErrorEvent) => void): void;
};
/**
 * Replies go on the port the page sent first, taken (with its postMessage) before any rule code runs: the rule's code
 * can post on the worker's own channel, which the page does not read, never on this one.
 */
let post: (message: SandboxReply) => void = () => undefined;
// biome-ignore lint/security/noGlobalEval: compiling the rule's own text is what this sandbox is for (module-text.ts).
const indirectEval = eval;

let rule: Rule | null = null;

/**
 * The line of a syntax error in `code`. An error caught from eval carries no
 * position, but one left uncaught reaches the worker's error event with the
 * line in the evaluated text: so the text is evaluated once more, from a timer.
 */
function syntaxErrorLine(code: string): Promise<number | null> {
  return new Promise((resolve) => {
    const listener = (event: ErrorEvent) => {
      event.preventDefault();
      scope.removeEventListener('error', listener);
      resolve(event.lineno > WRAPPER_LINES ? event.lineno - WRAPPER_LINES : null);
    };
    scope.addEventListener('error', listener);
    setTimeout(() => {
      indirectEval(code);
      scope.removeEventListener('error', listener);
      resolve(null);
    });
  });
}

const oneLine = (text: string) => text.replace(/[\u0000-\u001f\u007f]+/g, ' ');

/** Loads the text as muster run loads a file: the same checks, the same words (`name: does not load: …`). */
async function load(source: string, name: string): Promise<SandboxReply & { kind: 'loaded' | 'refused' }> {
  const script = scriptOf(source);
  const refused = (message: string) => ({ kind: 'refused' as const, id: 0, message: oneLine(message) });
  if ('problem' in script) return refused(`${name}: does not load: ${script.problem} (line ${script.line})`);
  let body: (module: { default?: unknown }) => void;
  try {
    body = indirectEval(script.code);
  } catch (error) {
    const line = error instanceof SyntaxError ? await syntaxErrorLine(script.code) : null;
    return refused(`${name}: does not load: ${describe(error)}${line ? ` (line ${line})` : ''}`);
  }
  const module: { default?: unknown } = {};
  try {
    body(module);
  } catch (error) {
    return refused(`${name}: does not load: ${describe(error)}${lineOfStack(error)}`);
  }
  try {
    rule = adaptRuleFile(module.default, name);
  } catch (error) {
    return refused(error instanceof Error ? error.message : String(error));
  }
  const { id, title, summary, params } = rule;
  const exact = rule.exact !== undefined;
  // Plain data only: a text parameter's parser (a rule with choices has one, objective) stays here, where the
  // form is checked; the page gets its description.
  const described = params.map((spec) => {
    if (spec.type !== 'text') return spec;
    const { parse: _parse, ...data } = spec;
    return data;
  });
  return { kind: 'loaded', id: 0, rule: { id, title, summary, source: rule.source, params: described, exact } };
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** " (line N)" from an error thrown by the file's top-level code, where its stack names a line of the eval'd text. */
function lineOfStack(error: unknown): string {
  const stack = error instanceof Error ? String(error.stack) : '';
  const line = /<anonymous>:(\d+):\d+/.exec(stack)?.[1];
  return line && Number(line) > WRAPPER_LINES ? ` (line ${Number(line) - WRAPPER_LINES})` : '';
}

function answer(current: Rule, request: SandboxRequest & { kind: 'answer' }): SandboxReply {
  const outcome = evaluateForm(current, request.raw);
  const replied = {
    kind: 'answered' as const,
    id: request.id,
    params: outcome.params,
    fieldErrors: [...outcome.fieldErrors],
    formErrors: outcome.formErrors,
    forced: false,
    answer: null,
  };
  const params = outcome.params;
  if (!params) return replied;
  // As the page's own rules: a rule file without exact() is enumerated where that is quick, else simulated.
  const forced = current.exact?.by === 'enumeration' && lookUpExact(current, params).values === null;
  const simulating = request.simulate || !current.exact || forced;
  if (simulating && !request.options) return { ...replied, forced };
  const about = {
    metrics: current.metrics(params),
    headline: current.presentation?.headline?.(params) ?? null,
    readings: current.presentation?.readings?.(params) ?? [],
  };
  const seed = request.options?.seed ?? 'muster';
  if (!simulating) {
    const exact = (current.exact as RuleExact).values(params);
    const input = { params, seed, stream: null, threads: 0, confidence: 1, trials: 0, tally: null };
    // A rule with choices: best play beside the figures, solved here as muster run solves it.
    const result = withDecisions(
      current,
      params,
      buildResult({ ...input, rule: { ...current, exact: { ...current.exact, values: () => exact } } }),
    );
    return { ...replied, forced, answer: { result, fractions: fractionsOf(exact), ...about } };
  }
  const { trials, stream } = request.options as NonNullable<typeof request.options>;
  const exact = lookUpExact(current, params).values;
  let done = 0;
  const task = { ruleId: current.id, params, seed, stream, firstChunk: 0, endChunk: chunkCount(trials) };
  const tally = runChunks({ ...task, totalTrials: trials }, current, (chunk) => {
    done += chunk;
    post({ kind: 'progress', id: request.id, done, total: trials });
  });
  const exactRule: Rule = exact ? { ...current, exact: { ...current.exact, values: () => exact } } : current;
  const input = { params, seed, stream, threads: 1, confidence: CONFIDENCE, trials, tally };
  const result = withDecisions(current, params, buildResult({ ...input, rule: exactRule }));
  const reply: SandboxAnswer = { result, fractions: exact ? fractionsOf(exact) : null, ...about };
  return { ...replied, forced, answer: reply };
}

function fractionsOf(exact: Record<string, { numerator: bigint; denominator: bigint }>): SandboxAnswer['fractions'] {
  return Object.keys(exact).map((name) => [name, exact[name].numerator, exact[name].denominator]);
}

function handle(request: SandboxRequest): void {
  if (request.kind === 'load') {
    void load(request.source, request.name).then((reply) => post({ ...reply, id: request.id }));
    return;
  }
  try {
    if (!rule) throw new Error('no rule loaded in this sandbox');
    post(answer(rule, request));
  } catch (error) {
    const usage = error instanceof Error && error.name === 'UsageError';
    post({ kind: 'fault', id: request.id, message: error instanceof Error ? error.message : String(error), usage });
  }
}

scope.onmessage = ({ ports }) => {
  const port = ports[0];
  if (!port) return;
  // One port per worker: the first; nothing on the worker's own channel is read after it.
  scope.onmessage = null;
  post = port.postMessage.bind(port);
  port.onmessage = ({ data }: MessageEvent<SandboxRequest>) => handle(data);
};
