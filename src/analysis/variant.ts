/**
 * `--variant "label: name=value,…"`: a comparison's variants as typed, parsed against the rule they run
 * (the command's, or the one a variant names with rule=…).
 */

import type { Rule } from '../contract/types.js';
import { UsageError } from '../errors.js';
import { didYouMean } from '../text/suggest.js';

/** Most variants in one comparison. */
export const MAX_VARIANTS = 12;

export interface Variant {
  label: string;
  /** `name=value` assignments, each a whole value (commas inside values kept). */
  assignments: string[];
}

/**
 * Parses `label: name=value,name=value`. The label is the text before the
 * first colon, unless that text starts with `<known parameter>=` (then there
 * is no label and the assignments stand for it: `a=forward:1`). Assignments are separated by `;`, or by a comma
 * that is followed by `<known parameter>=` — so `a=standard:1,2,3,b=forward:2`
 * splits into two assignments, not four.
 */
export function parseVariant(rule: Rule, raw: string): Variant {
  const colon = raw.indexOf(':');
  // `rule=` names the variant's rule (see variantRuleRef); every other name is a parameter of that rule.
  const names = new Set([...rule.params.map((p) => p.name), 'rule']);
  const hasLabel = colon >= 0 && !startsAssignment(raw.slice(0, colon), names);
  const label = (hasLabel ? raw.slice(0, colon) : raw).trim();
  const body = hasLabel ? raw.slice(colon + 1) : raw;
  if (label === '')
    throw new UsageError(
      `--variant: got ${JSON.stringify(raw)}; allowed: "label: name=value,…" with a non-empty label`,
    );
  const assignments: string[] = [];
  let start = 0;
  for (let i = 0; i <= body.length; i++) {
    const atEnd = i === body.length;
    const separator =
      !atEnd &&
      (body[i] === ';' || ((body[i] === ',' || /\s/.test(body[i])) && startsAssignment(body.slice(i + 1), names)));
    if (atEnd || separator) {
      const piece = body.slice(start, i).trim();
      if (piece !== '') assignments.push(piece);
      start = i + 1;
    }
  }
  for (const assignment of assignments) {
    const equals = assignment.indexOf('=');
    const name = equals > 0 ? assignment.slice(0, equals).trim() : '';
    if (!names.has(name)) {
      throw new UsageError(
        `--variant ${JSON.stringify(label)}: got ${JSON.stringify(assignment)}` +
          `${name ? didYouMean(name, [...names]) : ''}; allowed: name=value with name one of ${[...names].join(', ')}`,
      );
    }
  }
  return { label, assignments };
}

function startsAssignment(rest: string, names: ReadonlySet<string>): boolean {
  const match = /^\s*([A-Za-z_][\w.]*)\s*=/.exec(rest);
  return match !== null && names.has(match[1]);
}

/** The assignments a variant runs with: --set, overridden by the variant's own (its `rule=` aside). */
export function variantAssignments(set: readonly string[], variant: Variant): string[] {
  const nameOf = (assignment: string) => assignment.slice(0, Math.max(0, assignment.indexOf('='))).trim();
  const ownAssignments = variant.assignments.filter((assignment) => nameOf(assignment) !== 'rule');
  const own = new Set(ownAssignments.map(nameOf));
  return [...set.filter((assignment) => !own.has(nameOf(assignment))), ...ownAssignments];
}

/**
 * The rule a variant names with `rule=<id or rule file>` (the command's
 * rule when it names none): `--variant "2d6: rule=./reserves-2d6.mjs target=10"`.
 * The reference ends at a space, comma or semicolon.
 */
export function variantRuleRef(raw: string): string | undefined {
  const found = [...raw.matchAll(/(?:^|[\s:;,])rule\s*=\s*([^\s;,]+)/g)].map((match) => match[1]);
  if (found.length > 1)
    throw new UsageError(`--variant: got ${JSON.stringify(raw)}; allowed: at most one rule=… in a variant`);
  return found[0];
}

/** The --variant texts parsed, each against its rule: two to MAX_VARIANTS of them, no label twice. */
export function parseVariants(rulesOf: readonly Rule[], raw: readonly string[]): Variant[] {
  if (raw.length < 2)
    throw new UsageError(
      `--variant: got ${raw.length}; ` +
        `allowed: at least two, such as --variant "A: name=value" --variant "B: name=value"`,
    );
  if (raw.length > MAX_VARIANTS) throw new UsageError(`--variant: got ${raw.length}; allowed: at most ${MAX_VARIANTS}`);
  const variants = raw.map((text, index) => parseVariant(rulesOf[index], text));
  const labels = new Set<string>();
  for (const variant of variants) {
    if (labels.has(variant.label))
      throw new UsageError(
        `--variant: label ${JSON.stringify(variant.label)} used twice; allowed: a different label for each variant`,
      );
    labels.add(variant.label);
  }
  return variants;
}
