/**
 * A rule's exact values where it has them. A rule file without exact() has
 * them by enumeration (rule-files/exact.ts), which at some parameters is past
 * its budget or meets dice.random(): beside a simulation that is "no exact
 * value" rather than an error (a quick budget: a simulation never waits long
 * for a value it may not get). `--exact` asks for them, and fails; a command
 * that shows exact values by default (compare, card) enumerates to the full
 * budget too, and says why when it simulates instead (fullExact).
 */

import type { Params, Rule } from '../contract/types.js';
import type { Fraction } from '../exact/fraction.js';
import { DEFAULT_PATHS, NotEnumerable } from '../exact/replay-dice.js';

/**
 * Paths enumerated for an exact value shown beside a simulation or chosen over one (a twentieth of the full
 * budget, about a tenth of a second): a simulation never waits long for a value it may not get. --exact,
 * muster check, and compare and card where they are exact by default, enumerate to the full budget.
 */
const QUICK_PATHS = 50_000;

/** Why knownExact found no exact values for a rule, by its params' JSON (a sweep's points; at most REASONS a rule). */
const reasons = new WeakMap<Rule, Map<string, NotEnumerable>>();
const REASONS = 1000;

/** The rule's exact values at params, or null where it has none (or enumeration cannot give them). */
export function knownExact(rule: Rule, params: Params): Record<string, Fraction> | null {
  if (!rule.exact) return null;
  try {
    // A rule's own exact() refuses as enumeration does where it cannot give a value asked of it (a distribution's
    // tail it has no distribution for: analysis/tails.ts).
    if (rule.exact.by !== 'enumeration' || !rule.exact.enumerate) return rule.exact.values(params);
    return rule.exact.enumerate(params, QUICK_PATHS);
  } catch (error) {
    if (!(error instanceof NotEnumerable)) throw error;
    let ofRule = reasons.get(rule);
    if (!ofRule) reasons.set(rule, (ofRule = new Map()));
    if (ofRule.size >= REASONS) ofRule.clear();
    ofRule.set(JSON.stringify(params), error);
    return null;
  }
}

const GUIDE = '(docs/custom-rules.md, "Exact without writing it")';

/**
 * Why knownExact found no exact values at params by enumeration, in words (the rule's name taken off), with what
 * would give them: --exact where only the quick budget was tried (run, sweep and compare all take it), and the
 * rule's own remedy; null when it did not try there or found them.
 */
export function whyNoExact(rule: Rule, params: Params): string | null {
  const refusal = reasons.get(rule)?.get(JSON.stringify(params));
  return refusal === undefined ? null : refusalText(refusal);
}

/**
 * A refusal to enumerate as a note beside a simulation: the reason, then what would give exact values (--exact
 * first where only the quick budget was tried), without the rule's name or any way to simulate.
 */
export function refusalText(refusal: NotEnumerable): string {
  const overPaths = refusal.reason.endsWith(`${QUICK_PATHS.toLocaleString('en-US')} paths`);
  const full = overPaths
    ? `--exact in place of the simulation's options (it enumerates up to ${DEFAULT_PATHS.toLocaleString('en-US')} ` +
      'paths), or '
    : '';
  const guide = refusal.remedy.includes(GUIDE) ? '' : ` ${GUIDE}`;
  return `${refusal.reason}; exact values need ${full}${refusal.remedy}${guide}`;
}

/**
 * Whether `--exact` may still give exact values where knownExact found none beside a simulation: true when every
 * point it could not enumerate stopped only at the quick path budget, and some did (dice.random() or a loop never
 * enumerate, whatever the budget).
 */
export function pastQuickBudgetOnly(rule: Rule, points: readonly Params[]): boolean {
  const refusals = points.flatMap((params) => {
    const refusal = reasons.get(rule)?.get(JSON.stringify(params));
    return refusal === undefined ? [] : [refusal];
  });
  const quick = `${QUICK_PATHS.toLocaleString('en-US')} paths`;
  return refusals.length > 0 && refusals.every((refusal) => refusal.reason.endsWith(quick));
}

/** Whether the rule has exact values at params (an enumeration is kept, so asking first costs nothing after). */
export function hasExact(rule: Rule, params: Params): boolean {
  return knownExact(rule, params) !== null;
}

/**
 * Where a command shows exact values by default (compare, card): the rule's exact values at params with the whole
 * budget, as --exact enumerates, or the refusal that says why it has none there; null for a rule with no exact
 * solution at all. The enumeration is kept, so solving the point afterwards costs nothing.
 */
export function fullExact(
  rule: Rule,
  params: Params,
): { values: Record<string, Fraction> } | { refused: NotEnumerable } | null {
  if (!rule.exact) return null;
  try {
    return { values: rule.exact.values(params) };
  } catch (error) {
    if (error instanceof NotEnumerable) return { refused: error };
    throw error;
  }
}
