/**
 * A presentation's words (src/contract/presentation.ts `Words`) filled in for
 * one run: parameters, the index a metric pattern matched, a figure.
 */
import { bestOf } from '../../src/best-of.js';
import type { Condition, Words } from '../../src/contract/presentation.js';
import type { Params } from '../../src/contract/types.js';
import { own } from '../../src/keyed.js';
import type { RunResult } from '../../src/result.js';
import { markerKey } from '../charts/blocks.js';
import { percent } from '../numbers.js';

/** What words are filled from. */
export interface WordsContext {
  params: Params;
  result?: Pick<RunResult, 'metrics' | 'method' | 'confidence'>;
  /** The index a pattern matched (`{#i}`). */
  index?: number;
  /** An axis value's label (`{#value}`). */
  value?: string;
  /** Whether any drawn value is exact, for `{#markers}`. */
  anyExact?: boolean;
}

/** 1st, 2nd, 3rd, 4th … 11th, 12th, 13th, 21st. */
function ordinal(k: number): string {
  const tens = k % 100;
  const suffix =
    k % 10 === 1 && tens !== 11 ? 'st' : k % 10 === 2 && tens !== 12 ? 'nd' : k % 10 === 3 && tens !== 13 ? 'rd' : 'th';
  return `${k}${suffix}`;
}

function holds(condition: Condition, context: WordsContext): boolean {
  if ('index' in condition) return context.index === condition.index;
  if ('metric' in condition) return own(context.result?.metrics ?? {}, condition.metric) !== undefined;
  const value = own(context.params, condition.param);
  if ('equals' in condition) return value === condition.equals;
  if ('above' in condition) return Number(value) > condition.above;
  return value !== undefined && value !== false && value !== 0 && value !== '';
}

function special(name: string, context: WordsContext): string {
  const [head, ...rest] = name.split(':');
  switch (head) {
    case 'i':
      return String(context.index ?? '');
    case 'ordinal':
      return context.index === undefined ? '' : ordinal(context.index);
    case 'value':
      return context.value ?? '';
    case 'markers':
      return context.result ? markerKey(context.result, context.anyExact ?? false) : '';
    case 'percent': {
      const figures = own(context.result?.metrics ?? {}, rest.join(':'));
      return figures ? percent(bestOf(figures), 1) : '—';
    }
    case 'entry': {
      const [param, field] = rest;
      const entry = String(own(context.params, param) ?? '').split(',')[(context.index ?? 1) - 1] ?? '';
      return field === undefined ? entry : (entry.split(':')[Number(field)] ?? '');
    }
    default:
      return `{#${name}}`;
  }
}

/**
 * The words with every placeholder filled, on one line: a line or paragraph separator becomes a space, since words
 * also name a split's segments, which its legend sorts by in a Vega expression (where a separator ends the string).
 */
export function fill(words: Words, context: WordsContext): string {
  return fillPart(words, context).replace(/[\u2028\u2029]/g, ' ');
}

function fillPart(words: Words, context: WordsContext): string {
  if (typeof words === 'string')
    return words.replace(/\{\{|\{(#?)([^{}]+)\}/g, (match, hash: string, name: string) => {
      if (match === '{{') return '{';
      if (hash) return special(name, context);
      const value = own(context.params, name);
      return value === undefined ? match : String(value);
    });
  if (Array.isArray(words)) return words.map((part) => fillPart(part, context)).join('');
  const choice = words as { if: Condition; show: Words; else?: Words };
  if (holds(choice.if, context)) return fillPart(choice.show, context);
  return choice.else === undefined ? '' : fillPart(choice.else, context);
}

/** A metric name with `{#i}` filled. */
export const metricAt = (template: string, index: number) => template.replaceAll('{#i}', String(index));

/**
 * The indices a metric pattern such as `a.zone.{#i}` matches among reported metric names, in numeric order; other
 * placeholders (`{#j}` of a nested pattern) are filled first.
 */
export function indicesOf(names: readonly string[], pattern: string): number[] {
  const parts = pattern.split('{#i}');
  if (parts.length !== 2) return [];
  const quote = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const regex = new RegExp(`^${quote(parts[0])}(\\d+)${quote(parts[1])}$`);
  return names
    .map((name) => regex.exec(name))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => Number(match[1]))
    .sort((a, b) => a - b);
}
