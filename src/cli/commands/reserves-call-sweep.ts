/**
 * `muster sweep reserves --set chosenRound=call --vary …`: the chosen reserve round called in play, solved exactly at
 * every point (src/analysis/reserves-call.ts, as `muster run` solves one), as one table — the objective under best
 * play, the best round declared before the game and its value, and what calling in play is worth there.
 *
 *   --vary (each parameter but chosenRound) ─► every combination ─► solveCall at each ─► the table
 */

import { type CallResult, solveCall } from '../../analysis/reserves-call.js';
import { combinations, parseVary } from '../../analysis/vary.js';
import type { Rule } from '../../contract/types.js';
import { UsageError } from '../../errors.js';
import type { Io } from '../../output/io.js';
import { renderTable, tableWidth, wrapLines } from '../format.js';

interface CallSweepOptions {
  vary?: string[];
  set?: string[];
  objective?: string;
  [option: string]: unknown;
}

/** One point of the sweep: the varied values and the call solved there. */
export interface CallSweepPoint {
  varied: Record<string, string>;
  result: CallResult;
}

const CHOSEN_ROUND = /^\s*chosenRound\s*=/;

export function reservesCallSweepCommand(rule: Rule, options: CallSweepOptions, io: Io): CallSweepPoint[] {
  // --exact is accepted: it says what happens anyway. Nothing is simulated and no report file is written.
  for (const option of [
    'best',
    'metric',
    'json',
    'csv',
    'html',
    'svg',
    'shard',
    'shards',
    'trials',
    'precision',
    'maxTrials',
    'threads',
    'confidence',
    'checkpoint',
    'stream',
    'timeout',
  ])
    if (options[option] !== undefined)
      throw new UsageError(
        `--${option.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}: a sweep of chosenRound=call is ` +
          'solved exactly and printed as one table; allowed: --vary, --set, --objective (muster run reserves ' +
          '--set chosenRound=call --json gives one point in full)',
      );
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
    const varied = Object.fromEntries(Object.entries(combo).map(([name, value]) => [name, String(value)]));
    const set = [...fixed, ...Object.entries(varied).map(([name, value]) => `${name}=${value}`), 'chosenRound=call'];
    return { varied, result: solveCall(rule, set, options.objective) };
  });
  const objective = points[0].result.decision.objective;
  const names = varies.map((vary) => vary.name);
  const rows = points.map(({ varied, result }) => {
    const { decision } = result;
    return [
      ...names.map((name) => varied[name]),
      decision.best.exact.toFixed(6),
      decision.bestFixed.chosenRound === 0 ? 'none' : String(decision.bestFixed.chosenRound),
      decision.bestFixed.value.exact.toFixed(6),
      `${decision.worth.exact >= 0 ? '+' : ''}${decision.worth.exact.toFixed(6)}`,
    ];
  });
  const width = tableWidth(io.columns);
  const lines = [
    ...wrapLines(
      [
        `reserves, the chosen round called in play, for ${objective}, solved exactly at each of ${points.length} ` +
          'points: its value under best play (in play), the best round declared before the game and its value ' +
          '(declared), and what calling in play is worth over it (muster run reserves --set chosenRound=call at ' +
          'a point says when to call):',
      ],
      width,
    ),
    renderTable([...names, 'in play', 'best round', 'declared', 'worth'], rows, width).trimEnd(),
  ];
  io.out(`${lines.join('\n')}\n`);
  return points;
}
