/**
 * A rule written in the page, as the page's views see it: a Rule made of
 * data only. Its code stays in its sandbox (./sandbox.ts); what the views
 * ask a rule at some parameters (its metrics, headline, readings, exact
 * values) is what the sandbox answered at the parameters shown.
 */

import type { MetricSpec, ParamSpec, Params, Reading, Rule } from '../../contract/types.js';
import { Fraction } from '../../exact/fraction.js';
import { keyedRecord } from '../../keyed.js';
import type { Sandbox } from './sandbox.js';
import type { RuleDescription, SandboxAnswer } from './sandbox-messages.js';

export interface SandboxedRule extends Rule {
  sandbox: Sandbox;
  /** The rule's source packed for a link (./share.ts). */
  packed: string;
  /** What the sandbox answered last: the views read it through metrics(), headline() and readings(). */
  shown: { metrics: MetricSpec[]; headline: string[] | null; readings: Reading[] };
}

const PARAM_TYPES = new Set(['integer', 'number', 'boolean', 'choice', 'text']);

/** A parameter the sandbox described, checked as plain data (its code could post anything). */
function checkedParam(spec: unknown): ParamSpec {
  const candidate = spec as ParamSpec;
  if (
    typeof candidate !== 'object' ||
    candidate === null ||
    typeof candidate.name !== 'string' ||
    typeof candidate.doc !== 'string' ||
    !PARAM_TYPES.has(candidate.type)
  )
    throw new Error('the sandbox described a parameter that is not one');
  // A text parameter's parser stays in the sandbox, which checks the form; here the text is taken as typed.
  if (candidate.type === 'text') return { ...candidate, parse: (raw: string) => raw };
  return candidate;
}

function inSandbox(): never {
  throw new Error('a rule written in the page runs in its sandbox only');
}

export function sandboxedRule(description: RuleDescription, sandbox: Sandbox, packed: string): SandboxedRule {
  const shown: SandboxedRule['shown'] = { metrics: [], headline: null, readings: [] };
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return {
    id: text(description.id),
    title: text(description.title),
    summary: text(description.summary),
    source: text(description.source),
    params: description.params.map(checkedParam),
    metrics: () => shown.metrics,
    presentation: { headline: () => shown.headline ?? [], readings: () => shown.readings },
    tally: { length: inSandbox, simulate: inSandbox, summarize: inSandbox },
    ...(description.exact ? { exact: { values: inSandbox, by: 'enumeration' as const } } : {}),
    // Named by its file: its charts are the generic ones, its card's footer and commands name the file.
    file: { path: sandbox.name, sha256: '', origin: sandbox.name },
    sandbox,
    packed,
    shown,
  };
}

export function isSandboxed(rule: Rule): rule is SandboxedRule {
  return 'sandbox' in rule;
}

/** The exact values of an answer as fractions, keyed by metric name. */
export function fractionsOf(answer: SandboxAnswer): Record<string, Fraction> | null {
  if (!answer.fractions) return null;
  const fractions = keyedRecord<Fraction>();
  for (const [name, numerator, denominator] of answer.fractions)
    fractions[String(name)] = Fraction.of(BigInt(numerator), BigInt(denominator));
  return fractions;
}

/** The parameters an answer is for, as the page's own rules give them: keyed, own entries only. */
export function paramsOf(params: Params): Params {
  return keyedRecord(Object.entries(params));
}
