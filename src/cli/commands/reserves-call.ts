import { chooseMetrics } from '../../analysis/metrics.js';
import { type CallResult, checkCallOptions, simulateCallRun, solveCall } from '../../analysis/reserves-call.js';
import type { Rule } from '../../contract/types.js';
import { parseSimulationSettings } from '../../engine/settings.js';
import { checkDistinct } from '../../output/files.js';
import type { Io } from '../../output/io.js';
import { toJson } from '../../output/json.js';
import { resolveParams } from '../../rules/params.js';
import { renderRun, renderTable, tableWidth, wrapLines } from '../format.js';
import { hiddenNote } from '../metrics.js';
import { checkOutputFile } from '../options.js';
import { checkOutputNames } from '../output-names.js';
import { ruleFileInputs, writeReports } from '../output-paths.js';
import { reportIo } from '../report-io.js';

/** What `muster run` passes on: its options, of which a solved call honours these (and refuses the rest). */
interface CallOptions {
  set?: string[];
  objective?: string;
  json?: string;
  metric?: string[];
  all?: boolean;
  quiet?: boolean;
  exact?: boolean;
  trials?: string;
  seed?: string;
  stream?: string;
  threads?: string;
  confidence?: string;
}

/** Decisions printed without --all; beyond, a line says how many there are. */
const DECISIONS_SHOWN = 40;

/**
 * `muster run reserves --set chosenRound=call`: the chosen reserve round called in play, solved exactly — the
 * answer in words, every round declared before the game beside it, the decisions, then the metrics under the best
 * play: simulated, trials playing that policy, each estimate beside its exact value; with --exact, the exact values
 * alone.
 */
export async function reservesCallCommand(rule: Rule, options: CallOptions, io: Io): Promise<CallResult> {
  const exact = options.exact === true;
  checkCallOptions(options as Record<string, unknown>, exact);
  const set = options.set ?? [];
  const settings = exact ? null : parseSimulationSettings(options);
  const params = resolveParams(
    rule,
    set.map((a) => (/^\s*chosenRound\s*=/.test(a) ? 'chosenRound=0' : a)),
  );
  const choice = chooseMetrics(rule, rule.metrics(params), options.metric, { all: options.all, params });
  const jsonPath = options.json === undefined ? undefined : checkOutputFile('--json', options.json, { stdout: true });
  checkDistinct([{ option: '--json', path: jsonPath }], ruleFileInputs([rule]));
  checkOutputNames([{ option: '--json', path: options.json, format: 'json' }]);
  const started = performance.now();
  const result =
    settings === null
      ? solveCall(rule, set, options.objective)
      : await simulateCallRun(rule, set, options.objective, settings);
  const seconds = settings === null ? null : (performance.now() - started) / 1000;
  const width = tableWidth(io.columns);
  const { decision } = result;
  const show = (value: { exact: number; fraction: string }) =>
    value.fraction.includes('/') ? `${value.exact.toFixed(6)} = ${value.fraction}` : value.fraction;
  const fixedRows = decision.fixed.map((row) => [
    row.chosenRound === 0 ? 'none' : String(row.chosenRound),
    show(row.value),
    row.chosenRound === decision.bestFixed.chosenRound ? 'best fixed' : '',
  ]);
  fixedRows.push(['call', show(decision.best), 'in play']);
  const decimal = (value: { exact: number }) => value.exact.toFixed(6);
  const decisionRows = decision.policy.map((row) => [
    String(row.round),
    String(row.out),
    row.commander,
    `${(row.reach.exact * 100).toFixed(3)}%`,
    decimal(row.options[0].value),
    decimal(row.options[1].value),
    row.choice,
  ]);
  const everyDecision = options.all || decisionRows.length <= DECISIONS_SHOWN;
  const run = renderRun(result, choice.shown, seconds, {
    fold: choice.how === 'headline',
    note: hiddenNote(choice),
    width,
  }).trimEnd();
  const parts = [
    run.replace('exact values (no simulation)', 'exact values under the best play (no simulation)'),
    '',
    ...wrapLines([`the chosen round called in play, for ${decision.objective}:`, ...decision.summary], width),
    '',
    `${decision.objective} with each chosen round:`,
    renderTable(['chosenRound', decision.objective, ''], fixedRows, width).trimEnd(),
    '',
    ...wrapLines(
      [
        everyDecision
          ? 'every decision the best play meets: the chance it is reached, and the objective from there by waiting ' +
            'and by calling (--json has them as fractions):'
          : `${decisionRows.length} decisions: --all prints them, --json has them as fractions`,
      ],
      width,
    ),
    ...(everyDecision
      ? [renderTable(['round', 'out', 'commander', 'reached', 'wait', 'call', 'choice'], decisionRows, width).trimEnd()]
      : []),
  ];
  reportIo(io, jsonPath).out(`${parts.join('\n')}\n`);
  writeReports(
    jsonPath ? [{ path: jsonPath, contents: toJson(result), option: '--json' }] : [],
    io,
    options.quiet ?? false,
  );
  return result;
}
