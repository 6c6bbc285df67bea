/**
 * Flames of War reserves (see fow.ts): the parameters, what each side brings to the battle, and the
 * mission's limits on them.
 */

import type { ParamSpec } from '../../contract/types.js';
import { badValue } from '../../errors.js';
import type { ParamsOf } from '../define.js';
import { canonicalScatter, SCATTER_ALLOWED } from './scatter.js';

export const SIDES = ['attacker', 'defender'] as const;
export type Side = (typeof SIDES)[number];

/** The mission's minimum: "at least half its platoons", so half rounded up. */
export const minimumReserves = (platoons: number): number => Math.ceil(platoons / 2);

/** Platoons a side may hold in reserve at most: all of them, less the defender's ambush platoon. */
const maximumReserves = (p: Fow, side: Side): number =>
  side === 'attacker' ? p.attackerPlatoons : p.defenderPlatoons - (p.ambush ? 1 : 0);

/** What one side brings to the battle, with the "0 = half, rounded up" reserve count resolved. */
export interface SideSetup {
  platoons: number;
  reserves: number;
  start: number;
}

export function sideSetup(p: Fow, side: Side): SideSetup {
  const platoons = side === 'attacker' ? p.attackerPlatoons : p.defenderPlatoons;
  const asked = side === 'attacker' ? p.attackerReserves : p.defenderReserves;
  return {
    platoons,
    reserves: asked === 0 ? minimumReserves(platoons) : asked,
    start: side === 'attacker' ? p.attackerStart : p.defenderStart,
  };
}

/** Turns a side's reserves are followed: every turn shown, and up to the end check (the attacker's turn endTurn). */
export const horizon = (p: Fow): number => Math.max(p.turns, p.endTurn);

/** Most reserve platoons for which the whole distribution ("at least k of n by turn t") is reported. */
export const DISTRIBUTION_RESERVES = 12;

/** Cross-parameter checks: the mission's reserve minimum and maximum, and rolling within the turns followed. */
export function validate(p: Fow): string | undefined {
  if (p.ambush && p.defenderPlatoons < 2) {
    return badValue(
      'defenderPlatoons',
      String(p.defenderPlatoons),
      'at least 2 while ambush is true (half in reserve, one in ambush)',
    ).message;
  }
  for (const side of SIDES) {
    const name = `${side}Reserves`;
    const asked = side === 'attacker' ? p.attackerReserves : p.defenderReserves;
    const platoons = side === 'attacker' ? p.attackerPlatoons : p.defenderPlatoons;
    const least = minimumReserves(platoons);
    const most = maximumReserves(p, side);
    if (asked !== 0 && (asked < least || asked > most)) {
      const ceiling =
        side === 'attacker'
          ? `${side}Platoons`
          : p.ambush
            ? 'defenderPlatoons less the ambush platoon'
            : 'defenderPlatoons';
      return badValue(
        name,
        String(asked),
        `0 (half, rounded up) or ${least} (half of ${platoons} platoons, rounded up) to ${most} (${ceiling})`,
      ).message;
    }
    const start = side === 'attacker' ? p.attackerStart : p.defenderStart;
    if (start > p.turns)
      return badValue(
        `${side}Start`,
        String(start),
        `1 to turns (${p.turns}), so the ${side}'s reserves roll within the turns followed`,
      ).message;
  }
  return undefined;
}

const EDITION = '4th-edition missions, 2017; the 3rd-edition text could not be checked';

export const params = [
  { name: 'attackerPlatoons', type: 'integer', default: 6, min: 1, max: 30, doc: "platoons in the attacker's force" },
  {
    name: 'attackerReserves',
    type: 'integer',
    default: 0,
    min: 0,
    max: 30,
    doc:
      'attacking platoons held in Reserves; 0 (the default) means the mission minimum, half rounded up, and ' +
      'the result shows the count used; at most attackerPlatoons',
  },
  {
    name: 'attackerStart',
    type: 'integer',
    default: 1,
    min: 1,
    max: 20,
    doc: `first turn the attacker rolls for Reserves (1: Reserves, per the ${EDITION})`,
  },
  {
    name: 'defenderPlatoons',
    type: 'integer',
    default: 6,
    min: 1,
    max: 30,
    doc: "platoons in the defender's force, the ambush platoon included",
  },
  {
    name: 'defenderReserves',
    type: 'integer',
    default: 0,
    min: 0,
    max: 30,
    doc:
      'defending platoons in Delayed and Scattered Reserves; 0 (the default) means the mission minimum, half ' +
      'rounded up, and the result shows the count used; at most defenderPlatoons less the ambush platoon',
  },
  {
    name: 'defenderStart',
    type: 'integer',
    default: 3,
    min: 1,
    max: 20,
    doc: `first turn the defender rolls for its reserves (3: Delayed Reserves, per the ${EDITION})`,
  },
  {
    name: 'ambush',
    type: 'boolean',
    default: true,
    doc:
      'one defending platoon is in Immediate Ambush: not in reserve, placed at the start and on the table ' +
      'from turn 1 (the text: may)',
  },
  {
    name: 'hit',
    type: 'integer',
    default: 5,
    min: 2,
    max: 6,
    doc: `a reserve die scoring this or more brings one platoon (5+, per the ${EDITION})`,
  },
  {
    name: 'guarantee',
    type: 'integer',
    default: 3,
    min: 0,
    max: 20,
    doc:
      `if this many dice or more were rolled and none scored, one platoon arrives anyway; 0 for never (3, ` +
      `per the ${EDITION})`,
  },
  {
    name: 'scatter',
    type: 'text',
    default: '1-2:left,3-4:centre,5-6:right',
    allowed: SCATTER_ALLOWED,
    parse: canonicalScatter,
    doc:
      `where a Scattered Reserve enters, by its die (a die per arriving platoon, per the ${EDITION}; the ` +
      `places are a table's own)`,
  },
  {
    name: 'turns',
    type: 'integer',
    default: 8,
    min: 1,
    max: 20,
    doc: 'turns followed; both sides start rolling within them',
  },
  {
    name: 'endTurn',
    type: 'integer',
    default: 6,
    min: 2,
    max: 20,
    doc:
      'the first turn the defender can win, at the start of its turn, with no attackers in its half (the ' +
      "text: from the sixth turn); the …atEnd figures are read at that check: after the attacker's roll of " +
      "that turn (it moves first), before the defender's",
  },
] as const satisfies readonly ParamSpec[];

export type Fow = ParamsOf<typeof params>;
