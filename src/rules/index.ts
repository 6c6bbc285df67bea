import type { Presentation } from '../contract/presentation.js';
import type { Rule } from '../contract/types.js';
import { type ChunkTask, runChunks } from '../engine/run-chunks.js';
import { UsageError } from '../errors.js';
import { didYouMean } from '../text/suggest.js';
import { deepFreeze } from './deep-freeze.js';
import { deployment } from './deployment/deployment.js';
import { deploymentPresentation } from './deployment/deployment.present.js';
import { fow } from './fow/fow.js';
import { fowPresentation } from './fow/fow.present.js';
import { infinity } from './infinity/infinity.js';
import { infinityPresentation } from './infinity/infinity.present.js';
import { noctvale } from './noctvale.js';
import { noctvalePresentation } from './noctvale.present.js';
import { reserves } from './reserves/reserves.js';
import { reservesPresentation } from './reserves/reserves.present.js';
import { rolloff } from './rolloff.js';
import { rolloffPresentation } from './rolloff.present.js';
import { warbands } from './warbands/warbands.js';
import { warbandsPresentation } from './warbands/warbands.present.js';

/** A built-in rule (`src/rules/<id>.ts`) and how its results are shown (`src/rules/<id>.present.ts`). */
interface RuleEntry {
  rule: Rule;
  presentation: Presentation;
}

/**
 * Every rule muster knows, in the order `muster list` shows them. A new rule is its two files, their tests, and
 * one entry here (with its imports); nothing else names it.
 */
export const registry: readonly RuleEntry[] = [
  { rule: reserves, presentation: reservesPresentation },
  { rule: deployment, presentation: deploymentPresentation },
  { rule: infinity, presentation: infinityPresentation },
  { rule: noctvale, presentation: noctvalePresentation },
  { rule: warbands, presentation: warbandsPresentation },
  { rule: fow, presentation: fowPresentation },
  { rule: rolloff, presentation: rolloffPresentation },
];

// Shared by every caller in a process (the library hands them out): frozen, so that none can change the next's.
for (const entry of registry) {
  deepFreeze(entry.rule);
  deepFreeze(entry.presentation);
}

export const rules: readonly Rule[] = registry.map((entry) => entry.rule);

/**
 * How a rule's results are shown: a rule file's own declaration (even where it reuses a built-in's id: its
 * metrics are its own), else the built-in's presentation module; {} draws everything generically.
 */
export function presentationOf(rule: Rule): Presentation {
  if (rule.file) return rule.presentation?.declared ?? {};
  return registry.find((entry) => entry.rule.id === rule.id)?.presentation ?? rule.presentation?.declared ?? {};
}

export function getRule(id: string): Rule {
  const rule = rules.find((r) => r.id === id);
  if (!rule)
    throw new UsageError(
      `rule: got ${JSON.stringify(id)}${didYouMean(
        id,
        rules.map((r) => r.id),
      )}; allowed: ${rules.map((r) => r.id).join(', ')}`,
    );
  return rule;
}

/** {@link runChunks} for a built-in rule named by the task's `ruleId`: the engine itself knows no registry. */
export function runBuiltinChunks(task: ChunkTask, onChunk?: (trials: number) => void): Float64Array {
  return runChunks(task, getRule(task.ruleId), onChunk);
}
