import { callBlocks, policyBlock } from '../../../reports/card/decisions.js';
import { equilibriumBlock } from '../../../reports/card/equilibrium.js';
import { type Card, layoutCard, PAPERS, type Paper, planCard } from '../../../reports/card/layout.js';
import { renderCardPage } from '../../../reports/card/page.js';
import { checkChromium, PdfInterrupted, printToPdf } from '../../../reports/card/pdf.js';
import type { CardBlock } from '../../../reports/present/cards.js';
import { evaluateCard } from '../../analysis/card.js';
import {
  type MatrixEquilibrium,
  matrixSettings,
  planEquilibrium,
  planMatrix,
  solveEquilibrium,
  solveMatrix,
} from '../../analysis/matrix.js';
import { asksForCall, solveCall } from '../../analysis/reserves-call.js';
import type { Params, Rule, RuleExact } from '../../contract/types.js';
import { badValue, UsageError } from '../../errors.js';
import type { NotEnumerable } from '../../exact/replay-dice.js';
import { own } from '../../keyed.js';
import { checkDistinct, ruleFileInputs } from '../../output/files.js';
import { interruptedStatus, withInterrupt } from '../../output/interrupt.js';
import type { Io } from '../../output/io.js';
import { decisionResult } from '../../result.js';
import { isRulePath, loadRule } from '../../rule-files/load.js';
import { fullExact, refusalText } from '../../rules/exact-of.js';
import { getRule } from '../../rules/index.js';
import { resolveParams } from '../../rules/params.js';
import { ruleWord, shellWord } from '../../text/suggest.js';
import { checkOutputFile, parseSeed } from '../options.js';
import { checkOutputNames } from '../output-names.js';
import { writeReports } from '../output-paths.js';
import { parseSimulationSettings, parseTimeout, type RunOptions } from './run.js';

interface CardCommandOptions
  extends Pick<RunOptions, 'set' | 'trials' | 'seed' | 'stream' | 'threads' | 'confidence' | 'timeout' | 'quiet'> {
  range?: string;
  against?: string;
  out?: string;
  pdf?: string;
  paper?: string;
  equilibrium?: boolean;
  objective?: string;
}

/** Trials per point when a rule has no exact solution: a card's figures to about ±0.3 percentage points. */
const CARD_TRIALS = 100_000;

/**
 * `muster card <rule>`: the rule's one-page odds card as HTML (--out) and,
 * through Chromium, as PDF (--pdf). Exact wherever the rule has an exact
 * solution; simulated on the pool otherwise.
 */
export async function cardCommand(
  ruleId: string,
  options: CardCommandOptions,
  io: Io,
): Promise<{ html: string; pdf?: string } | null> {
  // A built-in rule is found without an await, so nothing (such as a Ctrl-C listener) waits on a tick.
  const rule = isRulePath(ruleId) ? await loadRule(ruleId) : getRule(ruleId);
  if (options.out === undefined)
    throw new UsageError('--out: missing; allowed: the HTML file to write, such as --out card.html');
  const out = checkOutputFile('--out', options.out);
  const pdfPath = options.pdf === undefined ? undefined : checkOutputFile('--pdf', options.pdf);
  checkDistinct(
    [
      { option: '--out', path: out },
      { option: '--pdf', path: pdfPath },
    ],
    ruleFileInputs([rule]),
  );
  checkOutputNames([
    { option: '--out', path: options.out, format: 'html' },
    { option: '--pdf', path: options.pdf, format: 'pdf' },
  ]);
  const paperText = (options.paper ?? 'a4').toLowerCase();
  if (!(PAPERS as readonly string[]).includes(paperText))
    throw badValue('--paper', options.paper as string, PAPERS.join(' or '));
  const paper = paperText as Paper;
  const call = asksForCall(rule, options.set ?? []);
  if (call || (rule.exact?.decisions && !options.equilibrium)) checkDecisionCardOptions(rule, options, call);
  // A rule with choices: --objective is what side a plays for, as in `muster run`.
  const set =
    rule.exact?.decisions && !options.equilibrium && options.objective !== undefined
      ? [...(options.set ?? []), `objective=${options.objective}`]
      : (options.set ?? []);
  if (call) return writeCard(callCard(rule, set, options.objective), { out, pdfPath, paper, options }, io);
  const params = resolveParams(rule, set);
  const cardOptions = { range: options.range, against: options.against };
  const plan = planCard(rule, params, cardOptions);
  // Exact wherever the rule has exact values at every point of the card: a rule file's dice enumerated to the
  // whole budget, as run --exact enumerates them (kept, so the card's own solving costs nothing after).
  let refused: { params: Params; refusal: NotEnumerable } | null = null;
  if (rule.exact && rule.exact.by === 'enumeration') {
    for (const point of plan) {
      const solved = fullExact(rule, point);
      if (solved !== null && 'refused' in solved) {
        refused = { params: point, refusal: solved.refused };
        break;
      }
    }
  }
  const exactCard = rule.exact !== undefined && refused === null;
  if (exactCard) {
    // Options that would be ignored are refused, as muster matrix does for an exact table.
    // Not --timeout: it stops a rule file's call that runs past it (cli/supervisor.ts), exact or simulated.
    if (options.timeout !== undefined) parseTimeout(options.timeout);
    for (const option of ['trials', 'stream', 'threads', 'confidence'] as const) {
      if (options[option] !== undefined)
        throw new UsageError(`--${option}: ${rule.id}'s card is exact; allowed: leave it out`);
    }
    if (options.seed !== undefined) parseSeed(options.seed);
  }
  const settings = exactCard
    ? null
    : parseSimulationSettings({ ...options, trials: options.trials ?? String(CARD_TRIALS) });
  if (pdfPath !== undefined) checkChromium();
  if (refused && !options.quiet) {
    const at = rule.params.map((spec) => `${spec.name}=${String(own(refused.params, spec.name))}`).join(' ');
    io.err(
      `muster: note: the card is simulated, as ${rule.id} has no exact values at ${at || 'its parameters'}: ` +
        `${refusalText(refused.refusal)}\n`,
    );
  }
  const equilibrium = cardEquilibrium(rule, options);

  // An exact card is computed as before, outside the Ctrl-C hold; a simulated one stops at Ctrl-C.
  const results =
    settings === null
      ? await evaluateCard(rule, plan, null)
      : await withInterrupt((signal) => evaluateCard(rule, plan, settings, signal));
  if (results === null) {
    io.err('muster: PARTIAL: interrupted before the card was computed; nothing was written\n');
    process.exitCode = interruptedStatus();
    return null;
  }
  const card = layoutCard(rule, params, cardOptions, results);
  if (equilibrium !== null)
    card.blocks.push(
      equilibriumBlock(equilibrium, rule.presentation?.matrix?.row ?? 'a', rule.presentation?.matrix?.col ?? 'b'),
    );
  if (rule.exact?.decisions) card.blocks.push(decisionsBlock(rule, params, set));
  return writeCard(card, { out, pdfPath, paper, options }, io);
}

/** Where a card goes: the HTML file, the PDF if asked for, the paper. */
interface CardTarget {
  out: string;
  pdfPath: string | undefined;
  paper: Paper;
  options: CardCommandOptions;
}

/** Renders the card, prints it through Chromium if asked, and writes both files, or neither. */
async function writeCard(
  card: Card,
  { out, pdfPath, paper, options }: CardTarget,
  io: Io,
): Promise<{ html: string; pdf?: string } | null> {
  const chromium = pdfPath === undefined ? undefined : checkChromium();
  const html = renderCardPage(card, paper);
  let pdf: Buffer | undefined;
  if (pdfPath !== undefined) {
    try {
      pdf = await withInterrupt((signal) => printToPdf(html, chromium, signal));
    } catch (error) {
      if (!(error instanceof PdfInterrupted)) throw error;
      io.err('muster: PARTIAL: interrupted while Chromium printed the card; it was stopped and nothing was written\n');
      process.exitCode = interruptedStatus();
      return null;
    }
  }
  // Both files appear whole, or neither does.
  writeReports(
    [
      { path: out, contents: html, option: '--out' },
      ...(pdfPath && pdf ? [{ path: pdfPath, contents: pdf, option: '--pdf' }] : []),
    ],
    io,
    options.quiet ?? false,
  );
  return { html: out, ...(pdfPath ? { pdf: pdfPath } : {}) };
}

/**
 * With --equilibrium: the rule's matrix solved as a game both sides play at once (as `muster matrix
 * --equilibrium`), for a block on the card; null without it. Checked before anything is computed.
 */
function cardEquilibrium(rule: Rule, options: CardCommandOptions): MatrixEquilibrium | null {
  if (!options.equilibrium) {
    if (options.objective !== undefined && !rule.exact?.decisions)
      throw new UsageError('--objective: only with --equilibrium; allowed: add --equilibrium, or leave it out');
    return null;
  }
  const matrixPlan = planMatrix(rule, {
    set: options.set,
    range: options.range,
    equilibrium: true,
    objective: options.objective,
  });
  const objective = planEquilibrium(matrixPlan, matrixSettings(matrixPlan, {}), {
    equilibrium: true,
    objective: options.objective,
  });
  return objective === null ? null : solveEquilibrium(matrixPlan, solveMatrix(matrixPlan), objective);
}

/**
 * A card of a rule with decisions is exact: best play is solved, never simulated on a card (the run's own
 * simulation plays it). The reserves call takes no --range or --against either (its card has no axis).
 */
function checkDecisionCardOptions(rule: Rule, options: CardCommandOptions, call: boolean): void {
  if (call) {
    for (const option of ['range', 'against', 'equilibrium'] as const)
      if (options[option] !== undefined)
        throw new UsageError(`--${option}: the card of chosenRound=call has no table axis; allowed: leave it out`);
    for (const option of ['trials', 'stream', 'threads', 'confidence'] as const)
      if (options[option] !== undefined)
        throw new UsageError(`--${option}: ${rule.id}'s card with chosenRound=call is exact; allowed: leave it out`);
    if (options.seed !== undefined) parseSeed(options.seed);
  }
}

/** The policy block of a rule with choices, solved exactly at the card's parameters (as `muster run` solves it). */
function decisionsBlock(rule: Rule, params: Params, set: readonly string[]): CardBlock {
  const decisions = (rule.exact!.decisions as NonNullable<RuleExact['decisions']>)(params);
  const { objective, policy } = decisionResult(decisions);
  const probability = rule.metrics(params).find((metric) => metric.name === objective.metric)?.probability === true;
  const again = [
    'muster run',
    ruleWord(rule),
    ...set.map((assignment) => `--set ${shellWord(assignment)}`),
    '--exact --all',
  ].join(' ');
  return policyBlock(objective, policy, probability, again);
}

/** `muster card reserves --set chosenRound=call`: when to call, the fixed rounds beside the call, the decisions. */
function callCard(rule: Rule, set: readonly string[], objective: string | undefined): Card {
  const result = solveCall(rule, set, objective);
  const { decision } = result;
  const changed = set.filter((assignment) => !/^\s*chosenRound\s*=/.test(assignment));
  const again = [
    'muster run reserves --set chosenRound=call',
    ...changed.map((assignment) => `--set ${shellWord(assignment)}`),
    ...(objective === undefined ? [] : [`--objective ${shellWord(objective)}`]),
    '--all',
  ].join(' ');
  const parameters = rule.params.map((spec) => `${spec.name}=${String(own(result.params, spec.name))}`).join(' ');
  return {
    rule: rule.id,
    title: `${rule.title}: when to call the chosen reserve round`,
    subtitle:
      "The chosen round called at the start of a round's Events Phase, seeing the squads still out and whether " +
      `the commander lives, solved exactly for ${decision.objective}.`,
    blocks: callBlocks(decision, again),
    footer: [
      `${rule.title} — ${rule.source}`,
      `parameters ${parameters}`,
      'reading: the chosen reserve round is called in play (the text does not say when it is chosen)',
      'exact values (rational arithmetic, no simulation)',
      again.replace('muster run', 'muster card').replace(' --all', ' --out card.html'),
    ].join(' · '),
  };
}
