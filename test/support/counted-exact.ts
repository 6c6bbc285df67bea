/**
 * A rule whose exact values are counted as they are asked for, solved (values) or enumerated within a budget
 * (enumerate, where the rule has it): how a test shows that a command solves each point once (a balance or
 * comparison exact by default learns the values while it plans, and keeps them).
 */
import type { Rule } from '../../src/contract/types.js';

export function countedExact(rule: Rule): { rule: Rule; calls: () => number } {
  const exact = rule.exact;
  if (!exact) throw new Error(`countedExact: ${rule.id} has no exact values`);
  let calls = 0;
  return {
    rule: {
      ...rule,
      exact: {
        ...exact,
        values: (params) => {
          calls++;
          return exact.values(params);
        },
        ...(exact.enumerate
          ? {
              enumerate: (params: Parameters<typeof exact.values>[0], paths?: number) => {
                calls++;
                return (exact.enumerate as NonNullable<typeof exact.enumerate>)(params, paths);
              },
            }
          : {}),
      },
    },
    calls: () => calls,
  };
}
