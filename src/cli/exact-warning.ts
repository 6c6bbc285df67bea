/**
 * `run`'s one-line warning for an estimate more than 5 standard errors from
 * its exact value (exact-agreement.ts): by chance about once in 1.7 million
 * metrics, so the exact solution and the trial are almost surely two
 * different rules. The figures are printed as they are; the warning goes to
 * stderr and changes no exit status.
 */
import type { RunResult } from '../result.js';
import { ruleWord } from '../text/suggest.js';
import { farFromExact, formatSigmas } from './exact-agreement.js';
import type { Io } from './io.js';

/** `rule` names the rule in the hint as a command takes it: a rule file by its path (only a rule file has `check`). */
export function warnFarFromExact(result: RunResult, rule: { id: string; file?: { origin: string } }, io: Io): void {
  const far = farFromExact(result.metrics, result.confidence, result.trials);
  if (far.length === 0) return;
  const shown = far
    .slice(0, 3)
    .map(
      ({ metric, value, sigmas }) =>
        `${metric} (estimate ${value.estimate}, exact ` +
        `${value.fraction ?? value.exact}, ${formatSigmas(sigmas)} standard errors)`,
    )
    .join('; ');
  const more = far.length > 3 ? ` and ${far.length - 3} more` : '';
  io.err(
    `muster: warning: simulation and exact values disagree by more than 5 standard errors: ${shown}${more}; ` +
      (rule.file
        ? `muster check ${ruleWord(rule)} compares them point by point\n`
        : `muster run ${ruleWord(rule)} --exact prints the exact values\n`),
  );
}
