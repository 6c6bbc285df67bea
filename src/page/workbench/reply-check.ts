/**
 * What the page accepts from a rule's sandbox (./sandbox.ts). A confirmed
 * rule's code runs in the worker beside muster's harness and can change
 * anything the harness uses there, so a reply is read as data from anywhere:
 * its shape checked, every probability in [0, 1], every exact fraction of
 * bounded size and equal to the decimal printed beside it, progress only
 * forward and only up to the trials asked. A reply that fails is refused
 * with the one line that says why; none is left pending.
 *
 *   port message ─► shape ─► progress: forward, ≤ trials asked
 *                         └─► answered: metrics in [0, 1] where a probability, fractions ≤ MAX_FRACTION_DIGITS
 *                                       and equal to their decimals ─► the page shows it
 */
import { Fraction } from '../../exact/fraction.js';
import { own } from '../../keyed.js';
import type { MetricResult } from '../../result.js';
import type { SandboxReply } from './sandbox-messages.js';

/** The most decimal digits a numerator or denominator from a sandbox may have (reducing bigger ones stalls the page). */
export const MAX_FRACTION_DIGITS = 4000;
const FRACTION_LIMIT = 10n ** BigInt(MAX_FRACTION_DIGITS);

/** A reply accepted, or the one line that says why it was refused. */
export type Checked = { reply: SandboxReply } | { refused: string };

/** What the page asked, and what it has heard so far of the answer to it. */
export interface Expected {
  id: number;
  /** The trials asked for (progress counts up to them), or null when nothing may be simulated. */
  trials: number | null;
  /** The progress heard last: each report counts further. */
  done: number;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isText = (value: unknown): value is string => typeof value === 'string';
const textList = (value: unknown): boolean => Array.isArray(value) && value.every(isText);

/** A reply to the request `expected` names, checked; a reply to an older request (stopped since) is null. */
export function checkedReply(data: unknown, expected: Expected): Checked | null {
  if (!isRecord(data) || typeof data.kind !== 'string') return { refused: 'a reply that is not one of the page’s' };
  if (data.id !== expected.id) return typeof data.id === 'number' ? null : { refused: 'a reply to no request' };
  switch (data.kind) {
    case 'progress':
      return checkedProgress(data, expected);
    case 'refused':
    case 'fault':
      return isText(data.message) ? { reply: data as SandboxReply } : { refused: `a ${data.kind} without its message` };
    case 'loaded':
      return isRecord(data.rule) && Array.isArray(data.rule.params)
        ? { reply: data as SandboxReply }
        : { refused: 'a rule description that is not one' };
    case 'answered': {
      const problem = answeredProblem(data);
      return problem ? { refused: problem } : { reply: data as SandboxReply };
    }
    default:
      return { refused: 'a reply of a kind the page does not know' };
  }
}

function checkedProgress(data: Record<string, unknown>, expected: Expected): Checked {
  const { done, total } = data;
  if (expected.trials === null) return { refused: 'progress where nothing is simulated' };
  if (total !== expected.trials)
    return { refused: `progress of ${String(total)} trials where ${expected.trials} were asked` };
  if (typeof done !== 'number' || !Number.isInteger(done) || done <= expected.done || done > expected.trials)
    return { refused: `progress to ${String(done)} after ${expected.done} of ${expected.trials} trials` };
  expected.done = done;
  return { reply: data as SandboxReply };
}

function answeredProblem(data: Record<string, unknown>): string | null {
  const pairs = data.fieldErrors;
  if (!Array.isArray(pairs) || !pairs.every((pair) => Array.isArray(pair) && pair.length === 2 && pair.every(isText)))
    return 'field errors that are not pairs of texts';
  if (!textList(data.formErrors)) return 'form errors that are not texts';
  if (data.params !== null && !isRecord(data.params)) return 'parameters that are not a record';
  if (typeof data.forced !== 'boolean') return 'an answer without its method';
  if (data.answer === null) return null;
  return isRecord(data.answer) ? answerProblem(data.answer) : 'an answer that is not one';
}

function answerProblem(answer: Record<string, unknown>): string | null {
  const { result, metrics, headline, readings } = answer;
  if (!isRecord(result) || !isRecord(result.metrics)) return 'a result without its metrics';
  if (!Array.isArray(metrics) || !metrics.every((spec) => isRecord(spec) && isText(spec.name)))
    return 'metric descriptions that are not ones';
  if (headline !== null && !textList(headline)) return 'a headline that is not texts';
  if (!Array.isArray(readings) || !readings.every((entry) => isRecord(entry) && isText(entry.text)))
    return 'readings that are not texts';
  const probability = new Set(metrics.filter((spec) => spec.probability === true).map((spec) => String(spec.name)));
  const values = result.metrics as Record<string, unknown>;
  for (const name of Object.keys(values)) {
    const problem = metricProblem(name, values[name], probability.has(name));
    if (problem) return problem;
  }
  return fractionsProblem(answer.fractions, values, probability);
}

const FIELDS = ['estimate', 'lo', 'hi', 'exact'] as const;

function metricProblem(name: string, value: unknown, probability: boolean): string | null {
  if (!isRecord(value)) return `${name}: a value that is not one`;
  for (const field of FIELDS) {
    const number = value[field];
    if (number === null) continue;
    if (typeof number !== 'number' || !Number.isFinite(number)) return `${name}: ${field} is not a finite number`;
    if (probability && (number < 0 || number > 1)) return `${name}: a probability of ${number}, outside [0, 1]`;
  }
  if (value.fraction !== null && !isText(value.fraction)) return `${name}: a fraction that is not text`;
  return null;
}

/** Each exact fraction: bounded, a probability's in [0, 1], and the very value printed beside it as a decimal. */
function fractionsProblem(
  fractions: unknown,
  values: Record<string, unknown>,
  probability: ReadonlySet<string>,
): string | null {
  const seen = new Set<string>();
  if (fractions !== null) {
    if (!Array.isArray(fractions)) return 'exact values that are not a list';
    for (const entry of fractions) {
      const problem = fractionProblem(entry, values, probability);
      if (problem) return problem;
      seen.add((entry as [string])[0]);
    }
  }
  for (const name of Object.keys(values)) {
    const value = values[name] as Partial<MetricResult>;
    if ((value.fraction !== null || value.exact !== null) && !seen.has(name))
      return `${name}: an exact value without its fraction`;
  }
  return null;
}

function fractionProblem(
  entry: unknown,
  values: Record<string, unknown>,
  probability: ReadonlySet<string>,
): string | null {
  if (!Array.isArray(entry) || entry.length !== 3) return 'an exact value that is not [name, numerator, denominator]';
  const [name, numerator, denominator] = entry as [unknown, unknown, unknown];
  if (!isText(name) || typeof numerator !== 'bigint' || typeof denominator !== 'bigint')
    return 'an exact value that is not [name, numerator, denominator]';
  const value = own(values, name) as Partial<MetricResult> | undefined;
  if (!value) return `${name}: an exact value for no metric`;
  const magnitude = numerator < 0n ? -numerator : numerator;
  if (magnitude >= FRACTION_LIMIT || denominator >= FRACTION_LIMIT)
    return `${name}: a fraction of more than ${MAX_FRACTION_DIGITS.toLocaleString('en-US')} digits`;
  if (denominator <= 0n) return `${name}: a fraction whose denominator is not positive`;
  const fraction = Fraction.of(numerator, denominator);
  if (probability.has(name) && (numerator < 0n || numerator > denominator))
    return `${name}: a probability of ${fraction}, outside [0, 1]`;
  if (value.fraction !== fraction.toString()) return `${name}: the fraction ${fraction} printed as ${value.fraction}`;
  const decimal = fraction.toNumber();
  if (value.exact !== decimal) return `${name}: the fraction ${fraction} printed as the decimal ${value.exact}`;
  return null;
}
