/**
 * A rule's exact values where it has them. A rule file without exact() has
 * them by enumeration (file-rule-exact.ts), which at some parameters is past
 * its budget or meets dice.random(): where exact values are only shown
 * beside a simulation, or chosen over it when available, that is "no exact
 * value" rather than an error. `--exact` still asks for them, and fails.
 */
import type { Fraction } from '../exact/fraction.js';
import { DEFAULT_PATHS, NotEnumerable } from '../exact/replay-dice.js';
import type { Params, Rule } from './types.js';

/**
 * Paths enumerated for an exact value shown beside a simulation or chosen over one (a twentieth of the full
 * budget, about a tenth of a second): a simulation never waits long for a value it may not get. --exact
 * and muster check enumerate to the full budget.
 */
const QUICK_PATHS = 50_000;

/** Why knownExact found no exact values for a rule, by its params' JSON (a sweep's points; at most REASONS a rule). */
const reasons = new WeakMap<Rule, Map<string, string>>();
const REASONS = 1000;

/** The rule's exact values at params, or null where it has none (or enumeration cannot give them). */
export function knownExact(rule: Rule, params: Params): Record<string, Fraction> | null {
  if (!rule.exact) return null;
  if (rule.exactBy !== 'enumeration' || !rule.enumerate) return rule.exact(params);
  try {
    return rule.enumerate(params, QUICK_PATHS);
  } catch (error) {
    if (!(error instanceof NotEnumerable)) throw error;
    let ofRule = reasons.get(rule);
    if (!ofRule) reasons.set(rule, (ofRule = new Map()));
    if (ofRule.size >= REASONS) ofRule.clear();
    ofRule.set(JSON.stringify(params), error.message);
    return null;
  }
}

/**
 * Why knownExact found no exact values at params by enumeration, in words (the rule's name and the advice for
 * --exact taken off), with what would give them; null when it did not try there or found them.
 */
export function whyNoExact(rule: Rule, params: Params): string | null {
  const message = reasons.get(rule)?.get(JSON.stringify(params));
  if (message === undefined) return null;
  const reason = message.replace(/^.*?\(rule [^)]*\): /, '').replace(/; allowed.*$/, '');
  const instead = /paths$/.test(reason)
    ? `; --exact enumerates up to ${DEFAULT_PATHS.toLocaleString('en-US')} paths, and the step form merges paths ` +
      'that reach the same state'
    : /^dice\.random\(\)/.test(reason)
      ? '; dice.chance(p), dice.d or dice.below in its place can be enumerated'
      : '; the step form, or an exact() of your own, gives them';
  return `${reason}${instead} (docs/custom-rules.md, "Exact without writing it")`;
}

/** Whether the rule has exact values at params (an enumeration is kept, so asking first costs nothing after). */
export function hasExact(rule: Rule, params: Params): boolean {
  return knownExact(rule, params) !== null;
}
