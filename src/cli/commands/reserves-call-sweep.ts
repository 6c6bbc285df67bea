/**
 * `muster sweep reserves --set chosenRound=call --vary …`: the chosen reserve round called in play, solved exactly at
 * every point (src/analysis/reserves-call-sweep.ts), as one table — the objective under best play, the best round
 * declared before the game and its value, and what calling in play is worth there; --json, --csv and --html write it
 * (reports/call-sweep.ts).
 *
 *   --vary (each parameter but chosenRound) ─► every combination ─► solveCall at each ─► the table and the files
 */

import { type CallSweepResult, solveCallSweep } from '../../analysis/reserves-call-sweep.js';
import type { Rule } from '../../contract/types.js';
import { UsageError } from '../../errors.js';
import { checkDistinct, type OutputFile } from '../../output/files.js';
import type { Io } from '../../output/io.js';
import { toJson } from '../../output/json.js';
import { renderTable, tableWidth, wrapLines } from '../format.js';
import { checkOutputFile } from '../options.js';
import { checkOutputNames } from '../output-names.js';
import { ruleFileInputs, writeReports } from '../output-paths.js';
import { reportIo } from '../report-io.js';

interface CallSweepOptions {
  vary?: string[];
  set?: string[];
  objective?: string;
  json?: string;
  csv?: string;
  html?: string;
  quiet?: boolean;
  [option: string]: unknown;
}

export type { CallSweepResult };

export async function reservesCallSweepCommand(
  rule: Rule,
  options: CallSweepOptions,
  io: Io,
): Promise<CallSweepResult> {
  // --exact is accepted: it says what happens anyway. Nothing is simulated.
  for (const option of [
    'best',
    'metric',
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
          'solved exactly and printed as one table; allowed: --vary, --set, --objective, --json, --csv, --html ' +
          '(muster run reserves --set chosenRound=call --json gives one point in full)',
      );
  const jsonPath = options.json === undefined ? undefined : checkOutputFile('--json', options.json, { stdout: true });
  const csvPath = options.csv === undefined ? undefined : checkOutputFile('--csv', options.csv, { stdout: true });
  const htmlPath = options.html === undefined ? undefined : checkOutputFile('--html', options.html);
  checkDistinct(
    [
      { option: '--json', path: jsonPath },
      { option: '--csv', path: csvPath },
      { option: '--html', path: htmlPath },
    ],
    ruleFileInputs([rule]),
  );
  checkOutputNames([
    { option: '--json', path: options.json, format: 'json' },
    { option: '--csv', path: options.csv, format: 'csv' },
    { option: '--html', path: options.html, format: 'html' },
  ]);
  const sweep = solveCallSweep(rule, options);
  reportIo(io, jsonPath, csvPath).out(renderCallSweep(sweep, tableWidth(io.columns)));
  const files: OutputFile[] = [];
  if (jsonPath) files.push({ path: jsonPath, contents: toJson(sweep), option: '--json' });
  if (csvPath || htmlPath) {
    const { callSweepCsv, callSweepPage } = await import('../../../reports/call-sweep.js');
    if (csvPath) files.push({ path: csvPath, contents: callSweepCsv(sweep), option: '--csv' });
    if (htmlPath) files.push({ path: htmlPath, contents: callSweepPage(rule, sweep).html, option: '--html' });
  }
  writeReports(files, io, options.quiet ?? false);
  return sweep;
}

/** The table: a row a point. */
function renderCallSweep(sweep: CallSweepResult, width: number): string {
  const names = sweep.vary.map((vary) => vary.name);
  const rows = sweep.points.map(({ params, call }) => [
    ...names.map((name) => String(params[name])),
    call.best.exact.toFixed(6),
    call.bestFixed.chosenRound === 0 ? 'none' : String(call.bestFixed.chosenRound),
    call.bestFixed.value.exact.toFixed(6),
    `${call.worth.exact >= 0 ? '+' : ''}${call.worth.exact.toFixed(6)}`,
  ]);
  const lines = [
    ...wrapLines(
      [
        `reserves, the chosen round called in play, for ${sweep.objective}, solved exactly at each of ` +
          `${sweep.points.length} points: its value under best play (in play), the best round declared before the ` +
          'game and its value (declared), and what calling in play is worth over it (muster run reserves --set ' +
          'chosenRound=call at a point says when to call):',
      ],
      width,
    ),
    renderTable([...names, 'in play', 'best round', 'declared', 'worth'], rows, width).trimEnd(),
  ];
  return `${lines.join('\n')}\n`;
}
