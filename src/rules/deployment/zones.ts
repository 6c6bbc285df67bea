/**
 * Genesys deployment (see deployment.ts): zone sets as bit masks, a forward
 * deployment's zones from its two dice, who places the last squad, and the
 * tally's layout, shared by the rule's loops on every stream
 * (deployment.ts, and digits.ts for stream 5).
 */
import type { Deployment } from './params.js';

/** Zone sets are masks of bits 1–8. */
export const ZONE_SETS = 1 << 9;

/** Sum of the zone numbers in each zone set: the figure 6.3 compares. */
export const ZONE_TOTAL = new Int32Array(ZONE_SETS);
/** How many zones each zone set holds. */
export const ZONE_COUNT = new Int32Array(ZONE_SETS);
for (let zones = 0; zones < ZONE_SETS; zones++) {
  for (let zone = 1; zone <= 8; zone++) {
    if (zones & (1 << zone)) {
      ZONE_TOTAL[zones] += zone;
      ZONE_COUNT[zones]++;
    }
  }
}

/**
 * Squad turns a player needs to place `squads` squads `perTurn` at a time.
 * The player without initiative places first and the turns alternate, so the
 * first player places last only with more turns than the second.
 */
const turnsToPlace = (squads: number, perTurn: number): number => Math.ceil(squads / perTurn);

/** Whether a places the last squad, given who has initiative (the player without it places first). */
export function aPlacesLast(params: Deployment, aHasInitiative: boolean): boolean {
  const turnsA = turnsToPlace(params.squadsA, params.perTurn);
  const turnsB = turnsToPlace(params.squadsB, params.perTurn);
  return aHasInitiative ? turnsA >= turnsB : turnsA > turnsB;
}

/**
 * The zone set a forward deployment ends with, given its two dice. A die the
 * rule loses adds nothing; any other die adds zone die + 2 (3–8), collapsing
 * onto a zone already held rather than being re-rolled.
 */
export function forwardZones(chosen: number, first: number, second: number, compareRaw: boolean): number {
  let zones = 1 << chosen;
  if ((compareRaw ? first : first + 2) !== chosen) zones |= 1 << (first + 2);
  if ((compareRaw ? second : second + 2) !== chosen) zones |= 1 << (second + 2);
  return zones;
}

// Tally layout: two counts, then each player's zone sets as a histogram
// (entry `zones` counts the trials that player ended with that set). Every
// per-player metric is a function of the zone set, so it is read off the
// histogram; only the initiative needs the pair.
export const A_INITIATIVE = 0;
export const ROLLOFF = 1;
export const ZONE_SETS_OF = { a: 2, b: 2 + ZONE_SETS } as const;
/** Trials in which a deployed the last squad. */
export const A_PLACES_LAST = 2 + 2 * ZONE_SETS;
export const TALLY_LENGTH = 3 + 2 * ZONE_SETS;
