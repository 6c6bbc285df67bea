/**
 * Runs a built-in rule's own `trial` (the rule text, die by die) with no fast path: the reference its
 * hand-tuned `simulate` is held to in test/rules/fast-paths.test.ts. Each metric is the mean of the values the
 * trials wrote for it; a trial that leaves a metric unwritten does not observe it (fow's scatter share, in a
 * battle with no arrivals).
 */

import type { Dice } from '../../src/contract/dice.js';
import type { Params, Rng } from '../../src/contract/types.js';
import { ChunkDice } from '../../src/rule-files/dice.js';
import { drawChance } from '../../src/rules/chance-draw.js';
import type { Builtin, TrialOut } from '../../src/rules/define.js';

/** One metric over the trials that observed it: how many, the sum of its values and of their squares. */
export interface Observed {
  count: number;
  sum: number;
  sumOfSquares: number;
}

/** The dice a rule file's trial gets (rule-files/rule.ts), over one stream. */
export function diceOf(rng: Rng): Dice {
  // The built-in rules count plain dice only; sums and counts of a sum read the stream as a rule file's dice do.
  const fileDice = new ChunkDice(rng);
  return {
    d: (sides) => rng.roll(sides),
    count: (n, sides, atLeast) =>
      typeof sides === 'string' ? fileDice.count(n, sides, atLeast) : rng.count(n, sides, atLeast),
    sum: (n, sides) => fileDice.sum(n, sides),
    highest: (n, sides, keep) => fileDice.highest(n, sides, keep),
    lowest: (n, sides, keep) => fileDice.lowest(n, sides, keep),
    below: (bound) => rng.below(bound),
    random: () => rng(),
    chance: (p) => drawChance(rng, p),
  };
}

export function runTrials(rule: Builtin, params: Params, rng: Rng, trials: number): Map<string, Observed> {
  const names = rule.metrics(params).map((metric) => metric.name);
  const observed = new Map(names.map((name) => [name, { count: 0, sum: 0, sumOfSquares: 0 }]));
  const dice = diceOf(rng);
  const out: TrialOut = Object.create(null);
  for (let trial = 0; trial < trials; trial++) {
    for (const name of names) out[name] = Number.NaN;
    rule.trial(dice, params, out);
    for (const name of names) {
      const value = out[name];
      if (Number.isNaN(value)) continue;
      const into = observed.get(name)!;
      into.count++;
      into.sum += value;
      into.sumOfSquares += value * value;
    }
  }
  return observed;
}
