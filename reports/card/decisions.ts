/**
 * Best play on a card (docs/custom-rules.md, "Decisions"): for a rule with choices, a block with the objective under
 * best play, what playing well is worth against the fixed plays, and the policy as a table a person reads at the
 * table — each decision state, each option's value, the option to take; for `muster card reserves --set
 * chosenRound=call`, a card of its own: when to call in words, every round declared before the game beside the call,
 * and the decisions best play meets. Every text escaped (./layout.ts's table and renderCardSheet); the longest
 * policies are cut to what one printed page holds, with the command that lists every state.
 */
import type { CallDecisionResult } from '../../src/analysis/reserves-call.js';
import type { ObjectiveResult, PolicyResult } from '../../src/result.js';
import { escapeHtml } from '../escape.js';
import { chartLabel } from '../numbers.js';
import { type CardBlock, table } from '../present/cards.js';

/** Decision rows a card prints: at 11 px a row, with a chart above, one printed page still holds them. */
export const CARD_POLICY_ROWS = 28;

/** A value as the card prints it: a percentage for a probability, else four decimals; "never ends" for null. */
function valueText(value: number | null, probability: boolean): string {
  return value === null ? 'never ends' : chartLabel(value, probability, 2);
}

/** A signed difference: "+3.75 pp" for probabilities, "+0.0894" for means. */
function worthText(worth: number, probability: boolean): string {
  const sign = worth > 0 ? '+' : worth < 0 ? '−' : '±';
  const size = Math.abs(worth);
  return probability ? `${sign}${(size * 100).toFixed(2)} pp` : `${sign}${size.toFixed(4)}`;
}

/** A fraction short enough to print beside its decimal, else nothing. */
function shortFraction(fraction: string): string {
  return fraction.includes('/') && fraction.length <= 21 ? ` = ${fraction}` : '';
}

/**
 * The block for a rule with choices: best play for the objective, its worth over always taking the first or the
 * last option offered, and the policy, one row a decision state in the order play reaches them (at most
 * CARD_POLICY_ROWS; the caption says how many more and how to list them). `again` is the command that lists every
 * state (`muster run … --exact --all`).
 */
export function policyBlock(
  objective: ObjectiveResult,
  policy: readonly PolicyResult[],
  probability: boolean,
  again: string,
): CardBlock {
  const metric = objective.metric;
  const sides = new Set(policy.map((entry) => entry.side));
  const columns: string[] = [];
  for (const entry of policy)
    for (const { option } of entry.options) if (!columns.includes(option)) columns.push(option);
  const shown = policy.slice(0, CARD_POLICY_ROWS);
  const rows = shown.map((entry) => [
    entry.label,
    ...(sides.size > 1 ? [entry.side] : []),
    ...columns.map((column) => {
      const found = entry.options.find((option) => option.option === column);
      return found ? valueText(found.value, probability) : '';
    }),
    entry.choice,
  ]);
  const who =
    sides.size > 1
      ? `side a plays to raise ${metric}, side b to lower it`
      : sides.has('b')
        ? `side b plays to lower ${metric}`
        : `side a plays to raise ${metric}`;
  const fixed = [
    objective.alwaysFirst === null
      ? 'always the first option offered may never end'
      : `${worthText(objective.value - objective.alwaysFirst.value, probability)} over always the first option ` +
        `offered (${valueText(objective.alwaysFirst.value, probability)})`,
    objective.alwaysLast === null
      ? 'always the last may never end'
      : `${worthText(objective.value - objective.alwaysLast.value, probability)} over always the last ` +
        `(${valueText(objective.alwaysLast.value, probability)})`,
  ];
  const more = policy.length - shown.length;
  const caption = [
    `Under best play ${metric} is ${valueText(objective.value, probability)}${shortFraction(objective.fraction)} ` +
      `(${who}); playing well is worth ${fixed.join(' and ')}.`,
    policy.length === 0
      ? 'No decision is reached: every play is the same.'
      : `Each option's value is ${metric} when it is taken and best play follows; ties go to the option listed first.`,
    more > 0 ? `The first ${shown.length} of ${policy.length} decision states, in the order play reaches them:` : '',
    more > 0 ? `${again} lists every one.` : '',
  ];
  return {
    kind: 'table',
    id: 'best-play',
    title: `Best play for ${metric}: what to choose`,
    html: table(
      ['when', ...(sides.size > 1 ? ['side'] : []), ...columns, 'take'],
      rows,
      (column) => column > (sides.size > 1 ? 1 : 0) && column <= columns.length + (sides.size > 1 ? 1 : 0),
    ),
    caption: caption.filter((part) => part !== '').join(' '),
  };
}

/** The reserves call's card blocks: the answer in words, each round declared before the game against the call, the decisions. */
export function callBlocks(decision: CallDecisionResult, again: string): CardBlock[] {
  const value = (v: { exact: number; fraction: string }) => `${v.exact.toFixed(6)}${shortFraction(v.fraction)}`;
  const fixedRows = decision.fixed.map((row) => [
    row.chosenRound === 0 ? 'none' : `round ${row.chosenRound}`,
    value(row.value),
    row.chosenRound === decision.bestFixed.chosenRound ? 'the best round declared before the game' : '',
  ]);
  fixedRows.push(['called in play', value(decision.best), 'best play']);
  const shown = decision.policy.slice(0, CARD_POLICY_ROWS);
  const policyRows = shown.map((row) => [
    String(row.round),
    String(row.out),
    row.commander,
    chartLabel(row.reach.exact, true, 1),
    row.options[0].value.exact.toFixed(4),
    row.options[1].value.exact.toFixed(4),
    row.choice,
  ]);
  const more = decision.policy.length - shown.length;
  return [
    {
      kind: 'table',
      id: 'call-answer',
      title: `When to call, playing for ${decision.objective}`,
      html: `<ul class="answer">${decision.summary.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>`,
    },
    {
      kind: 'table',
      id: 'call-fixed',
      title: `${decision.objective}: each round declared before the game, and the call`,
      html: table(['chosen round', decision.objective, ''], fixedRows, (column) => column === 1),
      caption: `Calling in play is worth ${decision.worth.exact >= 0 ? '+' : '−'}${Math.abs(decision.worth.exact).toFixed(6)}${shortFraction(decision.worth.fraction.replace(/^-/, ''))} over the best round declared before the game.`,
    },
    {
      kind: 'table',
      id: 'call-policy',
      title: 'Every decision best play meets',
      html: table(
        ['round', 'squads out', 'commander', 'reached', 'wait', 'call', 'take'],
        policyRows,
        (column) => column <= 1 || (column >= 3 && column <= 5),
      ),
      caption:
        `At the start of each round's Events Phase, with the round not yet called: the chance best play gets there, ` +
        `and ${decision.objective} from there by waiting and by calling (ties call).` +
        (more > 0 ? ` The first ${shown.length} of ${decision.policy.length}: ${again} lists every one.` : ''),
    },
  ];
}
