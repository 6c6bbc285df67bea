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
import type { NoExact } from '../result.js';

/**
 * Paths enumerated for an exact value shown beside a simulation or chosen over one (a twentieth of the full
 * budget, about a tenth of a second): a simulation never waits long for a value it may not get. --exact,
 * muster check, and compare and card where they are exact by default, enumerate to the full budget.
 */
const QUICK_PATHS = 50_000;

/**
 * A rule's exact values at params beside a simulation (the quick budget), with why there are none where its
 * dice could not be enumerated: the reason travels with the answer, to the result and the note beside it.
 */
export interface ExactLookUp {
  /** The exact values, or null where the rule has none at params. */
  values: Record<string, Fraction> | null;
  /** Why enumeration gave none at params; null where it did, or where the rule has no exact solution at all. */
  noExact: NoExact | null;
}

/** The rule's exact values at params beside a simulation, or why enumeration could not give them (ExactLookUp). */
export function lookUpExact(rule: Rule, params: Params): ExactLookUp {
  if (!rule.exact) return { values: null, noExact: null };
  try {
    // A rule's own exact() refuses as enumeration does where it cannot give a value asked of it (a distribution's
    // tail it has no distribution for: analysis/tails.ts).
    if (rule.exact.by !== 'enumeration' || !rule.exact.enumerate)
      return { values: rule.exact.values(params), noExact: null };
    return { values: rule.exact.enumerate(params, QUICK_PATHS), noExact: null };
  } catch (error) {
    if (!(error instanceof NotEnumerable)) throw error;
    return { values: null, noExact: noExactOf(error) };
  }
}

const GUIDE = '(docs/custom-rules.md, "Exact without writing it")';

/** A refusal to enumerate as a result carries it: its note, and whether only the quick budget stopped it. */
function noExactOf(refusal: NotEnumerable): NoExact {
  return { why: refusalText(refusal), quickBudget: refusal.pastPaths === QUICK_PATHS };
}

/**
 * A refusal to enumerate as a note beside a simulation: the reason, then what would give exact values (--exact
 * first where only the quick budget was tried), without the rule's name or any way to simulate.
 */
export function refusalText(refusal: NotEnumerable): string {
  const full =
    refusal.pastPaths === QUICK_PATHS
      ? `--exact in place of the simulation's options (it enumerates up to ${DEFAULT_PATHS.toLocaleString('en-US')} ` +
        'paths), or '
      : '';
  const guide = refusal.remedy.includes(GUIDE) ? '' : ` ${GUIDE}`;
  return `${refusal.reason}; exact values need ${full}${refusal.remedy}${guide}`;
}

/**
 * Whether `--exact` may still give exact values where none were found beside a simulation: true when every point
 * without them stopped only at the quick path budget, and some did (dice.random() or a loop never enumerate,
 * whatever the budget).
 */
export function pastQuickBudgetOnly(missing: ReadonlyArray<NoExact | null | undefined>): boolean {
  const found = missing.filter((noExact): noExact is NoExact => noExact != null);
  return found.length > 0 && found.every((noExact) => noExact.quickBudget);
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
