/**
 * `muster sweep reserves --set chosenRound=call --vary …`, apart from how it is shown: the chosen reserve round called
 * in play, solved exactly at every point (./reserves-call.ts, as `muster run` solves one), as the sweep result JSON
 * (docs/json.md, "sweep": kind `sweep`, method `exact`, with a `calls` block a point).
 *
 *   --vary (each parameter but chosenRound) ─► every combination ─► solveCall at each ─► CallSweepResult
 */

import type { Params, ParamValue, Rule } from '../contract/types.js';
import { UsageError } from '../errors.js';
import { envelope, type MetricResult } from '../result.js';
import { resolveParams } from '../rules/params.js';
import { CALL, type CallDecisionResult, solveCall } from './reserves-call.js';
import { combinations, parseVary } from './vary.js';

const CHOSEN_ROUND = /^\s*chosenRound\s*=/;

/** One point's call: the objective under best play, the best round declared before the game, the worth. */
export interface CallSweepPoint {
  /** The varied parameters' values at the point. */
  params: Params;
  metrics: Record<string, MetricResult>;
  /** The objective at the point (the default all.by.<rounds> follows a varied rounds), and the call solved for it. */
  call: Pick<CallDecisionResult, 'objective' | 'best' | 'bestFixed' | 'worth' | 'summary'>;
}

/** The sweep result of a call sweep (docs/json.md): the generic sweep fields, exact, and `objective`. */
export interface CallSweepResult {
  format: string;
  kind: 'sweep';
  version: string;
  rule: string;
  title: string;
  source: string;
  /** The parameters every point shares (chosenRound "call"). */
  params: Params;
  vary: { name: string; values: ParamValue[] }[];
  method: 'exact';
  seed: string;
  stream: null;
  trials: 0;
  threads: 0;
  confidence: 1;
  /** What best play plays for, as typed, or the points' default (all.by.<rounds>) where they share it. */
  objective: string;
  points: CallSweepPoint[];
  skipped: never[];
  partial: false;
}

/** Solves the call at every combination of `vary`, the other parameters as `set` gives them. */
export function solveCallSweep(
  rule: Rule,
  options: { vary?: string[]; set?: string[]; objective?: string },
): CallSweepResult {
  const varies = (options.vary ?? []).map((raw) => parseVary(rule, raw));
  if (varies.length === 0)
    throw new UsageError(
      '--vary: missing; allowed: one or more parameters to vary, such as --vary leaderLoss=0..0.3:0.1',
    );
  if (varies.some((vary) => vary.name === 'chosenRound'))
    throw new UsageError(
      '--vary: chosenRound is called in play here; allowed: vary another parameter (a sweep of chosenRound=0..4 ' +
        'without =call compares the rounds declared before the game)',
    );
  const fixed = (options.set ?? []).filter((assignment) => !CHOSEN_ROUND.test(assignment));
  const points: CallSweepPoint[] = combinations(varies).map((combo) => {
    const set = [...fixed, ...Object.entries(combo).map(([name, value]) => `${name}=${value}`), 'chosenRound=call'];
    const { metrics, decision } = solveCall(rule, set, options.objective);
    const { objective, best, bestFixed, worth, summary } = decision;
    return { params: { ...combo }, metrics, call: { objective, best, bestFixed, worth, summary } };
  });
  const objectives = [...new Set(points.map((point) => point.call.objective))];
  return {
    ...envelope('sweep', rule),
    kind: 'sweep',
    source: rule.source,
    params: { ...resolveParams(rule, [...fixed, 'chosenRound=0']), chosenRound: CALL },
    vary: varies.map((vary) => ({ name: vary.name, values: [...vary.values] })),
    method: 'exact',
    seed: '',
    stream: null,
    trials: 0,
    threads: 0,
    confidence: 1,
    objective: objectives.length === 1 ? objectives[0] : 'all.by.<rounds>',
    points,
    skipped: [],
    partial: false,
  };
}
