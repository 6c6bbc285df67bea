/**
 * `run`'s one-line warning for an estimate more than 5 standard errors from
 * its exact value (exact-agreement.ts): by chance about once in 1.7 million
 * metrics, so the exact solution and the trial are almost surely two
 * different rules. The figures are printed as they are; the warning goes to
 * stderr and changes no exit status.
 */

import type { Params } from '../contract/types.js';
import { NotEnumerable } from '../exact/replay-dice.js';
import { own } from '../keyed.js';
import type { Io } from '../output/io.js';
import type { NoExact, RunResult } from '../result.js';
import { ruleWord } from '../text/suggest.js';
import { farFromExact, formatSigmas } from './exact-agreement.js';

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

/**
 * The note where a rule file's dice could not be enumerated beside a simulation: why its exact column is empty, and
 * what would fill it (the results' `noExact`, from rules/exact-of.ts lookUpExact). One line on stderr for a run, or
 * for a sweep's points (the first such point named by the parameters it `varies`); nothing where every point was
 * enumerated.
 */
export function noteNoExact(
  points: ReadonlyArray<{ params: Params; noExact?: NoExact }>,
  io: Io,
  varies: readonly string[] = [],
): void {
  const missing = points.flatMap(({ params, noExact }) => (noExact ? [{ params, why: noExact.why }] : []));
  if (missing.length === 0) return;
  const first = varies.map((name) => `${name}=${String(own(missing[0].params, name))}`).join(' ');
  const where = points.length === 1 ? '' : ` at ${missing.length} of ${points.length} points (the first: ${first})`;
  io.err(`muster: note: no exact values beside the simulation${where}: ${missing[0].why}\n`);
}

/**
 * Runs `solve`, and gives a refusal to enumerate that it throws the command's own way to simulate instead
 * ("leave out --exact", "add --simulate"), so the line never names a flag the command does not take.
 */
export async function orSimulate<T>(how: string, solve: () => T | Promise<T>): Promise<T> {
  try {
    return await solve();
  } catch (error) {
    throw error instanceof NotEnumerable ? error.simulatedBy(how) : error;
  }
}
