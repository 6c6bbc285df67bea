/**
 * A rule's exact values where it has them. A rule file without exact() has
 * them by enumeration (file-rule-exact.ts), which at some parameters is past
 * its budget or meets dice.random(): where exact values are only shown
 * beside a simulation, or chosen over it when available, that is "no exact
 * value" rather than an error. `--exact` still asks for them, and fails.
 */
import type { Fraction } from '../exact/fraction.js';
import { NotEnumerable } from '../exact/replay-dice.js';
import type { Params, Rule } from './types.js';

/**
 * Paths enumerated for an exact value shown beside a simulation or chosen over one (a twentieth of the full
 * budget, about a tenth of a second): a simulation never waits long for a value it may not get. --exact
 * and muster check enumerate to the full budget.
 */
const QUICK_PATHS = 50_000;

/** The rule's exact values at params, or null where it has none (or enumeration cannot give them). */
export function knownExact(rule: Rule, params: Params): Record<string, Fraction> | null {
  if (!rule.exact) return null;
  if (rule.exactBy !== 'enumeration' || !rule.enumerate) return rule.exact(params);
  try {
    return rule.enumerate(params, QUICK_PATHS);
  } catch (error) {
    if (error instanceof NotEnumerable) return null;
    throw error;
  }
}

/** Whether the rule has exact values at params (an enumeration is kept, so asking first costs nothing after). */
export function hasExact(rule: Rule, params: Params): boolean {
  return knownExact(rule, params) !== null;
}
