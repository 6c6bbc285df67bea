/**
 * Best play in the terminal, under a run's table (docs/custom-rules.md, "Decisions"): the objective under best
 * play, one line on what playing well is worth over always taking the first or the last option, and the policy
 * as tables a person reads — the decision states grouped by who decides and the option taken, each with every
 * option's exact value, the longest groups cut to their first rows (--all, or --json, has every one).
 */

import { formatValue } from '../output/format.js';
import { terminalLine } from '../output/terminal.js';
import type { ExactValue, PolicyResult, RunResult } from '../result.js';
import { renderTable, wrapText } from './format.js';

/** Rows of one group shown without --all. */
const GROUP_ROWS = 24;

export interface DecisionsOptions {
  /** Whether the objective is a probability (printed as a percentage). */
  probability: boolean;
  width: number;
  /** Every row of every group. */
  all?: boolean;
}

/** The objective, what playing well is worth, and the policy; '' for a result without decisions. */
export function renderDecisions(result: RunResult, options: DecisionsOptions): string {
  const { objective, policy } = result;
  if (!objective || !policy) return '';
  const { probability, width } = options;
  const show = (value: number | null) => formatValue(value, probability);
  const sides = new Set(policy.map((entry) => entry.side));
  const who =
    sides.size > 1
      ? 'side a maximises it, side b minimises it'
      : sides.has('b')
        ? 'side b minimises it'
        : 'side a maximises it';
  const metric = terminalLine(objective.metric);
  const lines = [`best play for ${metric} (${who}): ${exactText(objective, probability)}`];
  lines.push(wrapText(worthText(objective, probability, sides.size > 1), width, ''));
  if (policy.length === 0) {
    lines.push('no decision is reached: every play is the same');
    return `\n${lines.join('\n')}\n`;
  }
  lines.push(
    wrapText(
      `policy: ${policy.length} decision state${policy.length === 1 ? '' : 's'} reached under best play, by the ` +
        `option taken (each option's value is ${metric} when it is taken and best play follows)`,
      width,
      '',
    ),
  );
  const groups = new Map<string, PolicyResult[]>();
  for (const entry of policy) {
    const key = JSON.stringify([entry.side, entry.choice]);
    const group = groups.get(key);
    if (group) group.push(entry);
    else groups.set(key, [entry]);
  }
  const tables: string[] = [];
  for (const entries of groups.values()) {
    const { side, choice } = entries[0];
    const shown = options.all ? entries : entries.slice(0, GROUP_ROWS);
    const columns: string[] = [];
    for (const entry of entries)
      for (const { option } of entry.options) if (!columns.includes(option)) columns.push(option);
    const rows = shown.map((entry) => [
      entry.label,
      ...columns.map((column) => {
        const found = entry.options.find((o) => o.option === column);
        if (!found) return '';
        const text = found.value === null ? 'never ends' : show(found.value);
        return column === choice ? `${text} *` : text;
      }),
    ]);
    const more = entries.length - shown.length;
    const title = `${sides.size > 1 ? `side ${side}: ` : ''}${choice} (${entries.length} state${entries.length === 1 ? '' : 's'})`;
    tables.push(
      `${terminalLine(title)}\n${renderTable(['state', ...columns], rows, width)}` +
        (more > 0 ? `… and ${more} more (--all shows every one; --json has them)\n` : ''),
    );
  }
  return `\n${lines.join('\n')}\n\n${tables.join('\n')}(* the option taken)\n`;
}

function exactText(value: ExactValue, probability: boolean): string {
  const fraction = value.fraction.includes('/') && value.fraction.length <= 23 ? ` = ${value.fraction}` : '';
  return `${formatValue(value.value, probability)}${fraction}`;
}

/** "playing well is worth +16.197 pp over always the first option (50.000%) and +2.000 pp over always the last (…)" */
function worthText(objective: RunResultObjective, probability: boolean, bothSides: boolean): string {
  const gains: string[] = [];
  const endless: string[] = [];
  for (const [play, which] of [
    [objective.alwaysFirst, 'first'],
    [objective.alwaysLast, 'last'],
  ] as const) {
    if (play === null) {
      endless.push(which);
      continue;
    }
    const gain = objective.value - play.value;
    const amount = probability ? `${signed(gain * 100, 3)} pp` : signed(gain, 4);
    const against = bothSides ? `both sides always taking the ${which} option` : `always the ${which} option`;
    gains.push(`${amount} ${bothSides ? 'from' : 'over'} ${against} (${formatValue(play.value, probability)})`);
  }
  const parts: string[] = [];
  if (gains.length > 0)
    parts.push(`${bothSides ? 'best play by both sides moves it' : 'playing well is worth'} ${gains.join(' and ')}`);
  if (endless.length > 0) parts.push(`always taking the ${endless.join(' or the ')} option may never end`);
  return parts.join('; ');
}

type RunResultObjective = NonNullable<RunResult['objective']>;

function signed(value: number, digits: number): string {
  const text = Math.abs(value).toFixed(digits);
  return `${value < 0 && Number(text) !== 0 ? '−' : '+'}${text}`;
}
