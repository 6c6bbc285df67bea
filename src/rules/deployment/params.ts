/**
 * Genesys deployment (see deployment.ts): what a player can declare (the strategies, read from their
 * text), the parameters, and the strategy matrix's axes.
 */

import type { MatrixSpec, ParamSpec } from '../../contract/types.js';
import { UsageError } from '../../errors.js';
import type { ParamsOf } from '../define.js';

/**
 * Every deployment a player can declare, canonical: the 10 legal standard
 * sets (three of zones 1–6, at least two on the long board edge 1–3), then
 * the 6 forward gambles. The default axes of the strategy matrix.
 */
export const DEPLOYMENT_STRATEGIES: readonly string[] = [
  'standard:1,2,3',
  'standard:1,2,4',
  'standard:1,2,5',
  'standard:1,2,6',
  'standard:1,3,4',
  'standard:1,3,5',
  'standard:1,3,6',
  'standard:2,3,4',
  'standard:2,3,5',
  'standard:2,3,6',
  'forward:1',
  'forward:2',
  'forward:3',
  'forward:4',
  'forward:5',
  'forward:6',
];

const STRATEGY_ALLOWED =
  'standard:Z1,Z2,Z3 (three different zones 1–6, at least two of them on the long board edge 1–3) or ' +
  'forward:Z (Z a zone 1–6)';

/**
 * A strategy's canonical text, or why it is not a legal deployment.
 * @example canonicalStrategy(' Standard:3, 1,2') // { strategy: 'standard:1,2,3' }
 */
function canonicalStrategy(text: string): { strategy: string } | { problem: string } {
  const match = /^\s*(standard|forward)\s*:(.*)$/i.exec(text);
  if (!match) return { problem: 'not standard:… or forward:…' };
  const kind = match[1].toLowerCase();
  const parts = match[2].split(',').map((part) => part.trim());
  const zones: number[] = [];
  for (const part of parts) {
    if (!/^\d+$/.test(part)) return { problem: `zone ${JSON.stringify(part)} is not a number` };
    const zone = Number(part);
    if (zone < 1 || zone > 6) return { problem: `zone ${zone} is not one of 1–6` };
    if (zones.includes(zone)) return { problem: `zone ${zone} given twice` };
    zones.push(zone);
  }
  if (kind === 'forward') {
    if (zones.length !== 1) return { problem: 'forward deployment chooses exactly one zone' };
    return { strategy: `forward:${zones[0]}` };
  }
  if (zones.length !== 3) return { problem: 'standard deployment selects exactly three zones' };
  const onEdge = zones.filter((zone) => zone <= 3).length;
  if (onEdge < 2)
    return { problem: `${onEdge === 0 ? 'none' : 'only one'} of its zones on the long board edge 1–3, two needed` };
  return { strategy: `standard:${zones.sort((x, y) => x - y).join(',')}` };
}

function strategyParam<const N extends string>(name: N, fallback: string, doc: string) {
  return {
    name,
    type: 'text',
    default: fallback,
    allowed: STRATEGY_ALLOWED,
    doc,
    parse(raw: string): string {
      const outcome = canonicalStrategy(raw);
      if ('problem' in outcome)
        throw new UsageError(`${name}: got ${JSON.stringify(raw)} (${outcome.problem}); allowed: ${STRATEGY_ALLOWED}`);
      return outcome.strategy;
    },
  } as const satisfies ParamSpec;
}

export const params = [
  strategyParam('a', 'forward:1', "player a's deployment: standard:Z1,Z2,Z3 or forward:Z"),
  strategyParam('b', 'standard:1,2,3', "player b's deployment: standard:Z1,Z2,Z3 or forward:Z"),
  {
    name: 'compare',
    type: 'choice',
    default: 'raw',
    choices: ['raw', 'modified'],
    doc:
      "which forward die is lost: raw (default) loses a d6 showing the chosen zone's number, because the " +
      'text compares the die roll itself ("If any die roll is the same number as the first deployment zone ' +
      'you chose") and adds the +2 only after; modified compares d6 + 2, which makes the loss a mere ' +
      'duplicate that changes nothing',
  },
  {
    name: 'edges',
    type: 'choice',
    default: 'geometric',
    choices: ['geometric', 'long'],
    doc:
      'which zones give a board edge for noEdge: geometric (default) counts every zone touching any board ' +
      'edge, since each row of three 16" or 24" zones fills the board\'s width and "Any board edge that is ' +
      'part of your deployment zone" is an entry edge, so zones 1–4 and 6 (and 7, 8 with aocSides) have one ' +
      'and only zone 5 has none; long counts only the long board edge, zones 1–3',
  },
  {
    name: 'aocSides',
    type: 'boolean',
    default: true,
    doc:
      'with edges=geometric, whether zones 7 and 8 touch the side edges: true (default) as drawn, 7 above 4 ' +
      'and 8 above 6 in the same columns; false if the drawing places them only loosely, inset from the sides',
  },
  {
    name: 'squadsA',
    type: 'integer',
    default: 6,
    min: 1,
    max: 60,
    doc: "squads in a's army, deployed or declared as reserve (each counts as placed in the alternation, §6.3)",
  },
  { name: 'squadsB', type: 'integer', default: 6, min: 1, max: 60, doc: "squads in b's army" },
  {
    name: 'perTurn',
    type: 'integer',
    default: 2,
    min: 1,
    max: 10,
    doc:
      'squads a player places in each turn of the alternation (the text: "two squads at a time"); fewer when ' +
      'fewer are left',
  },
] as const satisfies readonly ParamSpec[];

export type Deployment = ParamsOf<typeof params>;

/**
 * A canonical strategy as numbers: the forward player's chosen zone (0 when standard) and the standard player's zone
 * set.
 */
export interface Plan {
  chosen: number;
  zones: number;
}

export function plan(strategy: string): Plan {
  const [kind, list] = strategy.split(':');
  const zones = list.split(',').map(Number);
  if (kind === 'forward') return { chosen: zones[0], zones: 0 };
  return { chosen: 0, zones: zones.reduce((set, zone) => set | (1 << zone), 0) };
}

const RANGE_ALLOWED =
  'strategies separated by spaces or semicolons (such as "forward:1 standard:1,2,3"), or standard, forward ' +
  'or all for that family';

/**
 * Reads `--range`: strategies separated by spaces or semicolons, where the
 * words standard, forward and all stand for a whole family. Repeats are dropped.
 */
function parseRange(text: string): string[] {
  const words = text.split(/[\s;]+/).filter((word) => word !== '');
  if (words.length === 0)
    throw new UsageError(`--range: got ${JSON.stringify(text)} (no strategies); allowed: ${RANGE_ALLOWED}`);
  const values: string[] = [];
  for (const word of words) {
    const family = word.toLowerCase();
    if (family === 'standard' || family === 'forward' || family === 'all') {
      values.push(...DEPLOYMENT_STRATEGIES.filter((strategy) => family === 'all' || strategy.startsWith(`${family}:`)));
      continue;
    }
    const outcome = canonicalStrategy(word);
    if ('problem' in outcome)
      throw new UsageError(`--range: got ${JSON.stringify(word)} (${outcome.problem}); allowed: ${RANGE_ALLOWED}`);
    values.push(outcome.strategy);
  }
  return [...new Set(values)];
}

export const matrix: MatrixSpec = {
  row: 'a',
  col: 'b',
  metrics: ['a.initiative', 'a.noEdge', 'a.aoc'],
  // Against a given opponent: first-round initiative against reaching the Area of Conflict (zone 7 or 8).
  tradeOff: ['a.initiative', 'a.aoc'],
  defaultValues: () => [...DEPLOYMENT_STRATEGIES],
  parseRange,
  // standard:1,2,3 → S123, forward:4 → F4: sixteen columns fit a terminal and a printed page.
  label: (value) =>
    String(value)
      .replace(/^standard:/, 'S')
      .replace(/^forward:/, 'F')
      .replaceAll(',', ''),
};
