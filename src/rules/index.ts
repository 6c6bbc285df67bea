import { didYouMean } from '../text/suggest.js';
import { UsageError } from '../errors.js';
import { deployment } from './deployment.js';
import { fow } from './fow.js';
import { infinity } from './infinity.js';
import { noctvale } from './noctvale.js';
import { reserves } from './reserves.js';
import type { Rule } from './types.js';
import { warbands } from './warbands.js';

/**
 * Every rule muster knows, in the order `muster list` shows them. A new rule system is one import and one entry here.
 */
export const rules: readonly Rule[] = [reserves, deployment, infinity, noctvale, warbands, fow];

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
