/**
 * Mordheim warbands (see warbands.ts): the parameters, read into warbands and alliances, and what the
 * ratings alone settle: the defender's candidates and the underdog.
 */

import type { ParamSpec } from '../../contract/types.js';
import { UsageError } from '../../errors.js';
import type { ParamsOf } from '../define.js';

const MIN_WARBANDS = 2;
const MAX_WARBANDS = 8;
const MAX_RATING = 10_000;
const MAX_MODELS = 200;
/** The underdog must trail every opposing side by more than this. */
const UNDERDOG_GAP = 50;

const WARBANDS_ALLOWED =
  `${MIN_WARBANDS}–${MAX_WARBANDS} comma-separated rating:models entries in seating order, rating ` +
  `0–${MAX_RATING}, models 1–${MAX_MODELS} (e.g. 152:9,148:11,120:8)`;
export const ALLIES_ALLOWED =
  'empty, or comma-separated alliances of two or more 1-based warband indices joined by + (e.g. 2+3), each ' +
  'warband in at most one alliance, not every warband in one';

/** One warband as the rules see it: its rating and how many models it fields. */
interface Warband {
  rating: number;
  models: number;
}

/** Reads the canonical `warbands` text (already checked by its parse). */
export function readWarbands(text: string): Warband[] {
  return text.split(',').map((entry) => {
    const [rating, models] = entry.split(':');
    return { rating: Number(rating), models: Number(models) };
  });
}

/** Reads the canonical `allies` text into alliances of 0-based warband indices. */
export function readAllies(text: string): number[][] {
  if (text === '') return [];
  return text.split(',').map((group) => group.split('+').map((index) => Number(index) - 1));
}

/** The house wording with the particular problem named: `<parameter>: got "<raw>" (<problem>); allowed: …`. */
export function refuse(parameter: string, raw: string, problem: string, allowed: string): UsageError {
  return new UsageError(`${parameter}: got ${JSON.stringify(raw)} (${problem}); allowed: ${allowed}`);
}

function parseWarbands(raw: string): string {
  const entries = raw.split(',').map((entry) => entry.trim());
  const canonical = entries.map((entry, i) => {
    const match = /^(\d{1,5}):(\d{1,3})$/.exec(entry);
    if (!match)
      throw refuse('warbands', raw, `entry ${i + 1} ${JSON.stringify(entry)} is not rating:models`, WARBANDS_ALLOWED);
    const rating = Number(match[1]);
    const models = Number(match[2]);
    if (rating > MAX_RATING || models < 1 || models > MAX_MODELS)
      throw refuse('warbands', raw, `entry ${i + 1} ${JSON.stringify(entry)} is out of range`, WARBANDS_ALLOWED);
    return `${rating}:${models}`;
  });
  if (entries.length < MIN_WARBANDS || entries.length > MAX_WARBANDS)
    throw refuse('warbands', raw, `${entries.length} warband${entries.length === 1 ? '' : 's'}`, WARBANDS_ALLOWED);
  return canonical.join(',');
}

function parseAllies(raw: string): string {
  if (raw === '') return '';
  const seen = new Set<number>();
  const alliances = raw.split(',').map((group) => {
    const members = group.split('+').map((index) => index.trim());
    if (members.length < 2)
      throw refuse('allies', raw, `${JSON.stringify(group.trim())} is an alliance of one`, ALLIES_ALLOWED);
    return members.map((member) => {
      const index = /^\d{1,2}$/.test(member) ? Number(member) : Number.NaN;
      if (!(index >= 1 && index <= MAX_WARBANDS))
        throw refuse('allies', raw, `${JSON.stringify(member)} is not a warband index`, ALLIES_ALLOWED);
      if (seen.has(index)) throw refuse('allies', raw, `warband ${index} appears twice`, ALLIES_ALLOWED);
      seen.add(index);
      return index;
    });
  });
  for (const alliance of alliances) alliance.sort((a, b) => a - b);
  alliances.sort((a, b) => a[0] - b[0]);
  return alliances.map((alliance) => alliance.join('+')).join(',');
}

export const params = [
  {
    name: 'warbands',
    type: 'text',
    default: '152:9,148:11,120:8',
    allowed: WARBANDS_ALLOWED,
    parse: parseWarbands,
    doc:
      'rating:models of each warband in seating (clockwise) order; the default is a typical three-player ' +
      'game with no underdog',
  },
  {
    name: 'allies',
    type: 'text',
    default: '',
    allowed: ALLIES_ALLOWED,
    parse: parseAllies,
    doc:
      'alliances of warbands (1-based indices joined by +, e.g. 2+3); allied ratings are summed for the ' +
      'underdog only, as the text says',
  },
  {
    name: 'defender',
    type: 'boolean',
    default: true,
    doc:
      'whether the scenario has a defender, who sets up first; the text defines one only "in scenarios ' +
      'where" it exists',
  },
  {
    name: 'underdogBy',
    type: 'choice',
    default: 'side',
    choices: ['side', 'warband'],
    doc:
      'who may be the underdog when warbands are allied: side (default) sums each alliance and takes the ' +
      'lowest side, since the text adds allied ratings "for the purposes of determining if there is an ' +
      'underdog" and a weak warband with a strong ally is not outmatched; ' +
      'warband takes the lowest single warband first, then adds its allies to measure the gap',
  },
] as const satisfies readonly ParamSpec[];

export type Warbands = ParamsOf<typeof params>;

interface Setup {
  warbands: Warband[];
  alliances: number[][];
  hasDefender: boolean;
  underdogBy: UnderdogBy;
}

export function read(p: Warbands): Setup {
  return {
    warbands: readWarbands(p.warbands),
    alliances: readAllies(p.allies),
    hasDefender: p.defender,
    underdogBy: p.underdogBy,
  };
}

/** The warbands with the highest rating and, among those, the most models: the defender is one of them. */
export function defenderCandidates(warbands: readonly Warband[]): number[] {
  let best = -1;
  let candidates: number[] = [];
  for (let i = 0; i < warbands.length; i++) {
    const { rating, models } = warbands[i];
    // Compare rating first, then models, as one key: rating · (MAX_MODELS + 1) + models.
    const key = rating * (MAX_MODELS + 1) + models;
    if (key > best) {
      best = key;
      candidates = [i];
    } else if (key === best) candidates.push(i);
  }
  return candidates;
}

/**
 * Whether each warband is (on) the underdog side: the side (alliance or lone
 * warband) whose summed rating is more than 50 below every other side's.
 */
export function underdogs(
  warbands: readonly Warband[],
  alliances: readonly (readonly number[])[],
  by: UnderdogBy = 'side',
): boolean[] {
  const allied = new Set(alliances.flat());
  const sides: number[][] = [
    ...alliances.map((a) => [...a]),
    ...warbands
      .map((_, i) => i)
      .filter((i) => !allied.has(i))
      .map((i) => [i]),
  ];
  const ratings = sides.map((side) => side.reduce((sum, i) => sum + warbands[i].rating, 0));
  // by warband: only the sides of the warbands with the lowest single rating may be the underdog.
  const lowestWarband = Math.min(...warbands.map((w) => w.rating));
  const eligible = (side: number[]) => by === 'side' || side.some((i) => warbands[i].rating === lowestWarband);
  const flags = warbands.map(() => false);
  sides.forEach((side, s) => {
    if (eligible(side) && ratings.every((other, t) => t === s || other - ratings[s] > UNDERDOG_GAP))
      for (const i of side) flags[i] = true;
  });
  return flags;
}

/** The two readings of who may be the underdog when warbands are allied (see the module comment). */
type UnderdogBy = 'side' | 'warband';
