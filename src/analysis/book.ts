/**
 * The report book's computing (`muster book`): every rule at its defaults,
 * then the points of its one-page card, on one shared pool. The pages and
 * cards are rendered from these results by reports/book.ts.
 *
 *   for each rule: simulate the defaults ─► the card's points (exact where the rule allows, else simulated)
 *   an interruption stops after the rules already finished
 */

import type { Params, Rule, StreamVersion } from '../contract/types.js';
import { SimulationPool } from '../engine/pool.js';
import { formatCount } from '../output/format.js';
import type { RunResult } from '../result.js';
import { resolveParams } from '../rules/params.js';
import { evaluateUntilInterrupted, type GridSettings } from './evaluate.js';

interface BookRunSettings {
  seed: string;
  stream: StreamVersion;
  confidence: number;
  threads: number;
  /** Trials for each rule's run at its defaults. */
  trials: number;
  /** Trials per point of a card that has to be simulated (rules without an exact solution). */
  printableTrials: number;
  /** Told what is being worked on. */
  onProgress?: (message: string) => void;
  /** Told the trials simulated so far, of all the book simulates (runs at the defaults and simulated cards). */
  onTrials?: (done: number, total: number) => void;
  /** Ctrl-C: the book stops after the rules already finished. */
  signal?: AbortSignal;
  /** Watchdog in seconds (--timeout). */
  timeout?: number;
}

/** One rule of the book, computed: at its defaults, and at every point its card shows. */
export interface BookRun {
  rule: Rule;
  defaults: Params;
  result: RunResult;
  card: RunResult[];
}

/** The card's points at a rule's defaults: the card's design decides them (reports/card/layout.ts planCard). */
type CardPoints = (rule: Rule, defaults: Params) => Params[];

/** Every rule computed in order; `partial` when an interruption stopped the book (the runs listed finished). */
export async function evaluateBook(
  rules: readonly Rule[],
  settings: BookRunSettings,
  cardPoints: CardPoints,
): Promise<{ runs: BookRun[]; partial: boolean }> {
  const pool = SimulationPool.take(settings.threads);
  const runs: BookRun[] = [];
  let partial = false;
  const { signal } = settings;
  // Every trial the book will simulate: each rule at its defaults, and the cards of rules with no exact solution.
  const totalTrials = rules.reduce(
    (sum, rule) =>
      sum +
      settings.trials +
      (rule.exact ? 0 : cardPoints(rule, resolveParams(rule)).length * settings.printableTrials),
    0,
  );
  let trialsBefore = 0;
  const onTrials = (done: number) => settings.onTrials?.(trialsBefore + done, totalTrials);
  try {
    for (const [position, rule] of rules.entries()) {
      if (signal?.aborted) {
        partial = true;
        break;
      }
      const step = `[${position + 1}/${rules.length}] ${rule.id}`;
      const defaults = resolveParams(rule);
      const simulation: GridSettings = {
        method: 'simulation',
        seed: settings.seed,
        stream: settings.stream,
        confidence: settings.confidence,
        trials: settings.trials,
        threads: settings.threads,
        timeout: settings.timeout,
      };
      settings.onProgress?.(`${step}: simulating ${formatCount(settings.trials)} trials at the defaults`);
      const stopped = await evaluateUntilInterrupted(rule, [defaults], simulation, { pool, signal, onTrials });
      trialsBefore += settings.trials;
      if (stopped.interrupted) {
        partial = true;
        break;
      }
      const [{ result }] = stopped.evaluated;
      const cardSettings: GridSettings = rule.exact
        ? { ...simulation, method: 'exact', stream: null }
        : { ...simulation, trials: settings.printableTrials };
      const plan = cardPoints(rule, defaults);
      settings.onProgress?.(
        `${step}: the card, ${plan.length} parameter set${plan.length === 1 ? '' : 's'}` +
          `${rule.exact ? ' (exact)' : `, ${formatCount(settings.printableTrials)} trials each`}`,
      );
      const solvedCard = await evaluateUntilInterrupted(rule, plan, cardSettings, { pool, signal, onTrials });
      if (!rule.exact) trialsBefore += plan.length * settings.printableTrials;
      if (solvedCard.interrupted) {
        partial = true;
        break;
      }
      runs.push({ rule, defaults, result, card: solvedCard.evaluated.map((point) => point.result) });
    }
  } finally {
    await pool.close();
  }
  return { runs, partial };
}
