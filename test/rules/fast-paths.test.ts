/**
 * Every built-in rule's hand-tuned `simulate` (the fast path the engine runs) against the rule's own
 * `trial` (the rule text, die by die: src/rules/define.ts), and both against the rule's exact solver.
 * Each setting below reaches one branch of a fast path: reserves' outcome histogram, chunk histogram and
 * running sums; warbands' outcome codes and per-place counts; fow's turn-by-turn dice (streams 1, 2) and
 * its plans (stream 3); stream 1's one uniform a die and streams 3 and 4's dice several to a draw; stream 5's
 * infinity rolls and deployment trials several to a 32-bit output, and warbands' tables, each roll-off's
 * outcome and dice drawn apart.
 *
 * Bounds (5σ, per metric). For an estimate of n observations, σ is
 * - a probability metric (values in [0, 1], mean p exact): at most √(p(1 − p)/n), the variance of a
 *   [0, 1] value with mean p being largest for a 0/1 one; so 5·√(p(1 − p)/n) is a 5σ bound or wider;
 * - a mean: the sample standard deviation over √n (n ≥ 25,000 here, so it is within a few per cent of
 *   the true one). Where the sample shows no spread at all, a rare departure (fow's last platoon still
 *   out in turn 9, one battle in 600,000) may simply not have happened, and the sample says nothing:
 *   then σ is Bhatia–Davis's bound √((m − 0)(largest − m)/n) for a value in [0, largest] with mean m,
 *   `largest` given by the case (fow: the platoons a side has); a metric with no such bound, or a
 *   constant (m = largest or 0), must come out exactly.
 * Fast path against trial: the two runs draw from different streams, so their difference has variance
 * σ_fast² + σ_trial², and 5·√(σ_fast² + σ_trial²) bounds it. A 5σ deviation happens by chance with
 * probability 5.7e-7 a comparison; this file makes about 6,600, so a correct build fails for about one
 * seed in 270. The seeds are fixed (printed in each title), so it never flakes.
 */
import { describe, expect, it } from 'vitest';
import type { StreamVersion } from '../../src/contract/types.js';
import { CHUNK_TRIALS } from '../../src/engine/chunks.js';
import { chunkStream } from '../../src/engine/random.js';
import { runChunks } from '../../src/engine/run-chunks.js';
import type { Builtin } from '../../src/rules/define.js';
import { deployment } from '../../src/rules/deployment/deployment.js';
import { fow } from '../../src/rules/fow/fow.js';
import { rules } from '../../src/rules/index.js';
import { infinity } from '../../src/rules/infinity/infinity.js';
import { noctvale } from '../../src/rules/noctvale.js';
import { resolveParams } from '../../src/rules/params.js';
import { reserves } from '../../src/rules/reserves/reserves.js';
import { warbands } from '../../src/rules/warbands/warbands.js';
import type { Tallied } from '../../src/stats/estimate.js';
import { type Observed, runTrials } from '../support/trial-run.js';

const FAST_TRIALS = 2 * CHUNK_TRIALS - 1000; // 130,072: the final chunk short, as in a real run
const TRIAL_TRIALS = 25_000;
const SIGMAS = 5;

interface Case {
  rule: Builtin;
  settings: string[];
  streams: StreamVersion[];
  /** Where every mean metric is a count from 0 to this (see the header): its Bhatia–Davis bound. */
  largest?: number;
}

const CASES: Case[] = [
  // Stream 5: three rolls an output, counted without a branch; WIP 1 against 1 runs about 10.5 rolls a trial.
  { rule: infinity, settings: [], streams: [1, 3, 5] },
  { rule: infinity, settings: ['crits=false', 'wipA=25'], streams: [3, 5] },
  { rule: infinity, settings: ['wipA=1', 'wipB=1'], streams: [2, 5] },
  { rule: infinity, settings: ['wipA=21', 'wipB=27'], streams: [5] },
  { rule: noctvale, settings: [], streams: [1, 3] },
  { rule: noctvale, settings: ['fightersA=2', 'fightersB=9', 'groups=5'], streams: [3] },
  // Stream 5: a trial's dice and roll-off coin as one digit of base 72 (one forward player), 2592 (two) or 2 (none).
  { rule: deployment, settings: [], streams: [1, 3, 5] },
  { rule: deployment, settings: ['a=forward:3', 'b=forward:5', 'compare=modified', 'edges=long'], streams: [3, 5] },
  {
    rule: deployment,
    settings: ['a=standard:1,2,4', 'b=forward:5', 'aocSides=false', 'squadsA=7', 'perTurn=3'],
    streams: [2, 5],
  },
  // Equal totals every trial: the roll-off decides each, a.initiative 1/2.
  { rule: deployment, settings: ['a=standard:1,2,6', 'b=standard:2,3,4'], streams: [3, 5] },
  { rule: deployment, settings: ['a=forward:4', 'b=forward:4'], streams: [5] },
  // (S+1)^(R+1) = 3,125 outcomes: the outcome histogram.
  { rule: reserves, settings: [], streams: [1, 3, 4] },
  {
    rule: reserves,
    settings: ['squads=3', 'firstRound=2', 'chosenRound=3', 'command=3', 'leaderLoss=0.5'],
    streams: [1, 3],
  },
  // 13^5 outcomes, past the outcome histogram but within a chunk's: running sums from a chunk histogram.
  { rule: reserves, settings: ['squads=12'], streams: [1, 3, 4] },
  // 13^7: running sums trial by trial, the commander's fate shared by every squad.
  {
    rule: reserves,
    settings: ['squads=12', 'rounds=6', 'chosenRound=3', 'leaderLoss=0.3', 'fallbackCommand=1'],
    streams: [1, 3, 4],
  },
  // One defender without dice, two rollers: settlePair; 3^2·3 outcome codes. Stream 5: the outcome index on
  // the setup pair's draw (7 dice), the first turn's three from an 8-dice table.
  { rule: warbands, settings: [], streams: [1, 3, 5] },
  // A defender roll-off among three, five rollers: 6^5·6 codes, past the outcome histogram. Stream 5: per-place
  // counts, 3·5!·6 outcomes drawn on their own.
  {
    rule: warbands,
    settings: ['warbands=100:5,100:5,80:4,100:5,90:9,60:3', 'allies=3+6'],
    streams: [1, 3, 5],
  },
  // Stream 5: a setup sort of four read 6 dice a draw with 24 outcomes, no defender.
  {
    rule: warbands,
    settings: ['warbands=50:5,200:7,120:8,90:2', 'defender=false', 'underdogBy=warband'],
    streams: [3, 5],
  },
  // Stream 5: two tied for defender, none left to sort, the first turn carrying the outcome index.
  { rule: warbands, settings: ['warbands=150:9,150:9'], streams: [5] },
  // Stream 5: three of four tied for defender, 72 outcomes drawn on their own, a setup sort of three.
  { rule: warbands, settings: ['warbands=120:9,120:9,120:9,80:12'], streams: [5] },
  // Stream 5: eight tied, a defender roll-off among eight and seven sorting; 8·7! orders, the first turn apart.
  { rule: warbands, settings: [`warbands=${Array(8).fill('100:5').join(',')}`, 'allies=1+2,3+4'], streams: [5] },
  // Stream 5: eight sorting with no defender, 8! orders, the first turn apart.
  { rule: warbands, settings: [`warbands=${Array(8).fill('100:5').join(',')}`, 'defender=false'], streams: [5] },
  { rule: fow, settings: [], streams: [1, 2, 3], largest: 6 },
  {
    rule: fow,
    settings: ['ambush=false', 'guarantee=0', 'hit=4', 'attackerStart=3', 'turns=10', 'scatter=1:a,2-3:b,4-6:c'],
    streams: [2, 3],
    largest: 6,
  },
];

// A rule no case above names (a rule just added) is held to its trial at its defaults on the default stream,
// so a new built-in is covered without editing this file; every built-in is declared through defineBuiltin.
for (const rule of rules)
  if (!CASES.some((c) => c.rule.id === rule.id)) CASES.push({ rule: rule as Builtin, settings: [], streams: [3] });

interface Bounded {
  exact: number;
  probability: boolean;
  largest?: number;
}

/** An estimate and its σ bound (see the header). */
function fromTallied(tallied: Tallied, metric: Bounded): { value: number; sigma: number } {
  if (tallied.kind === 'proportion') {
    const { exact } = metric;
    return { value: tallied.successes / tallied.trials, sigma: Math.sqrt((exact * (1 - exact)) / tallied.trials) };
  }
  return fromSums(tallied.count, tallied.sum, tallied.sumOfSquares, metric);
}

function fromSums(count: number, sum: number, sumOfSquares: number, { exact, probability, largest }: Bounded) {
  const value = sum / count;
  const sample = Math.sqrt(Math.max(0, sumOfSquares / count - value * value) / count);
  if (probability) return { value, sigma: Math.max(sample, Math.sqrt((exact * (1 - exact)) / count)) };
  const spreadless = sample === 0 && largest !== undefined ? Math.sqrt((exact * (largest - exact)) / count) : 0;
  return { value, sigma: sample > 0 ? sample : spreadless };
}

const observedEstimate = (o: Observed, metric: Bounded) => fromSums(o.count, o.sum, o.sumOfSquares, metric);

// Floating-point slack for values that are exact in principle (a constant's mean, p = 0 or 1).
const SLACK = 1e-12;

describe('each fast path counts what its rule text, played die by die, gives', () => {
  for (const { rule, settings, streams, largest } of CASES) {
    for (const stream of streams) {
      const seed = `fast-${rule.id}-${settings.join('&')}`;
      const title = `${rule.id} ${settings.join(' ') || '(defaults)'}, stream ${stream}, seed "${seed}"`;
      it(`${title}: fast path, trial and exact agree within 5σ`, () => {
        const params = resolveParams(rule, settings);
        const task = { ruleId: rule.id, params, seed, stream, firstChunk: 0, endChunk: 2, totalTrials: FAST_TRIALS };
        const tallied = rule.tally.summarize(params, runChunks(task, rule), FAST_TRIALS);
        const observed = runTrials(rule, params, chunkStream(`${seed}/trial`, rule.id, 0, stream), TRIAL_TRIALS);
        const exact = rule.exact!.values(params);
        const metrics = rule.metrics(params);
        // summarize reads every metric and no other.
        expect(Object.keys(tallied).sort()).toEqual(metrics.map((m) => m.name).sort());
        const wrong: string[] = [];
        for (const { name, probability } of metrics) {
          const truth = exact[name].toNumber();
          const bounded = { exact: truth, probability, largest };
          const fast = fromTallied(tallied[name], bounded);
          const trial = observedEstimate(observed.get(name)!, bounded);
          const both = Math.sqrt(fast.sigma ** 2 + trial.sigma ** 2);
          if (Math.abs(fast.value - truth) > SIGMAS * fast.sigma + SLACK)
            wrong.push(`${name}: fast path ${fast.value} against exact ${truth} (σ ${fast.sigma})`);
          if (Math.abs(trial.value - truth) > SIGMAS * trial.sigma + SLACK)
            wrong.push(`${name}: trial ${trial.value} against exact ${truth} (σ ${trial.sigma})`);
          if (Math.abs(fast.value - trial.value) > SIGMAS * both + SLACK)
            wrong.push(`${name}: fast path ${fast.value} against trial ${trial.value} (σ ${both})`);
        }
        expect(wrong).toEqual([]);
      });
    }
  }
});
