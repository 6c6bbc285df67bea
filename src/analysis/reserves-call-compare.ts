/**
 * `muster compare reserves --variant "call: chosenRound=call" --variant "fixed: chosenRound=3"`: variants of which
 * some call the chosen round in play (src/analysis/reserves-call.ts), each solved exactly, every metric under best
 * play beside the fixed variants' exact values, and the exact differences; the objective best play plays for, under
 * each variant.
 *
 *   detect (which variants ask for chosenRound=call, after --set) ─► plan (compare.ts, the call read as no round, so
 *   the variants parse; exact) ─► solve (the call's best play, or the rule's exact()) ─► assemble (compare.ts's
 *   differences; the call variants' params say "call"; the objective per variant)
 */

import type { Rule, RuleExact } from '../contract/types.js';
import { UsageError } from '../errors.js';
import type { Fraction } from '../exact/fraction.js';
import { resolveParams } from '../rules/params.js';
import { type ComparePlan, type CompareResult, compareGrid } from './compare.js';
import type { Evaluated } from './evaluate-types.js';
import { evaluateObjective, parseObjective } from './objective.js';
import { asksForCall, CALL, type CallDecisionResult, solveCallExact } from './reserves-call.js';
import { solveRun } from './run-in-thread.js';
import { parseVariant, variantAssignments } from './variant.js';

const CALL_VALUE = /(chosenRound\s*=\s*)call\b/gi;

/** A comparison with call variants: every variant's objective, exactly, and each call's answer. */
export interface CallComparison {
  /** The objective best play plays for, as typed (default all.by.<rounds> of the first call variant). */
  objective: string;
  variants: {
    label: string;
    call: boolean;
    /** The objective under the variant: best play for a call, the fixed round otherwise. */
    value: { exact: number; fraction: string };
    /** A call variant's answer: its best fixed round, what calling is worth over it, and the answer in words. */
    bestFixed?: CallDecisionResult['bestFixed'];
    worth?: CallDecisionResult['worth'];
    summary?: string[];
  }[];
}

export type CallCompareResult = CompareResult & { calls: CallComparison };

/**
 * Which variants ask for chosenRound=call (their assignments after --set), or null when none does: the comparison is
 * then compare.ts's own. Only the built-in reserves has the call.
 */
export function callVariants(
  rules: readonly Rule[],
  options: { variant?: string[]; set?: string[] },
): boolean[] | null {
  const raw = options.variant ?? [];
  const calls = raw.map((text, index) => {
    const rule = rules[index];
    return rule !== undefined && asksForCall(rule, variantAssignments(options.set ?? [], parseVariant(rule, text)));
  });
  return calls.some(Boolean) ? calls : null;
}

/** The texts with every chosenRound=call read as chosenRound=0, so that compare.ts plans them (the call is solved). */
export function withoutCall(texts: readonly string[] | undefined): string[] | undefined {
  return texts?.map((text) => text.replace(CALL_VALUE, '$10'));
}

/** Refuses what a comparison with a call variant cannot honour: it is exact, one machine, no --simulate. */
export function checkCallCompare(options: Record<string, unknown>): void {
  for (const option of ['simulate', 'trials', 'stream', 'threads', 'confidence', 'seedPerVariant', 'shard', 'shards']) {
    if (options[option] !== undefined && options[option] !== false)
      throw new UsageError(
        `--${option.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}: a comparison with a chosenRound=call variant ` +
          'is solved exactly; allowed: --objective, --json, --csv, --html, --metric, --all, --set',
      );
  }
}

/**
 * The comparison solved: `plan` as compare.ts planned it with the call read as no round, `calls` which variants call,
 * `texts` the variants as typed and `set` the --set assignments (to solve each call at its own parameters).
 */
export function compareCalls(
  plan: ComparePlan,
  calls: readonly boolean[],
  texts: readonly string[],
  set: readonly string[],
  objectiveText: string | undefined,
): CallCompareResult {
  const rule = plan.rule;
  const callIndex = calls.indexOf(true);
  const firstCall = resolveParams(rule, withoutCall([...variantAssignments(set, plan.variants[callIndex])]) ?? []);
  const text = objectiveText ?? `all.by.${firstCall.rounds as number}`;
  const answers: CallComparison['variants'] = [];
  const evaluated: Evaluated[] = plan.paramsList.map((params, index) => {
    const variantRule = plan.rules[index];
    const label = plan.variants[index].label;
    const names = variantRule.metrics(params).map((metric) => metric.name);
    const objective = parseObjective(text, names);
    if (calls[index]) {
      const assignments = variantAssignments(set, parseVariant(variantRule, texts[index]));
      const { result, exact } = solveCallExact(variantRule, assignments, text);
      const { decision } = result;
      answers.push({
        label,
        call: true,
        value: decision.best,
        bestFixed: decision.bestFixed,
        worth: decision.worth,
        summary: decision.summary,
      });
      return { result: { ...result, params }, tallied: null, exact };
    }
    const exact = (variantRule.exact as RuleExact).values(params);
    const value = evaluateObjective(objective, (metric) => exact[metric]);
    answers.push({ label, call: false, value: exactValue(value) });
    return { result: solveRun(variantRule, params, plan.base.seed), tallied: null, exact };
  });
  const compared = compareGrid.assemble(plan, evaluated, 0);
  return {
    ...compared,
    // Each variant as typed (the plan read the call as no round), a call's params saying so.
    variants: compared.variants.map((variant, index) => ({
      ...variant,
      assignments: parseVariant(plan.rules[index], texts[index]).assignments,
      ...(calls[index] ? { params: { ...variant.params, chosenRound: CALL } } : {}),
    })),
    calls: { objective: text, variants: answers },
  };
}

function exactValue(value: Fraction): { exact: number; fraction: string } {
  return { exact: value.toNumber(), fraction: value.toString() };
}
