/**
 * Noctvale battle setup: Noctvale Standard Battle Set-Up, steps 3, 5 and 6.
 *
 *   "3. … initiative goes to the player with the lower activation count. At
 *    deployment, every fighter is Active, so this is the number of fighters in
 *    the retinue. If both players have the same activation count, each player
 *    rolls 2d6; the higher result has initiative. Reroll ties."
 *   "5. Each player divides their retinue into 3 deployment groups as evenly as
 *    possible. If the fighters cannot be divided evenly, that player chooses
 *    which groups contain the additional fighters."
 *   "6. Starting with the player with initiative, players alternate setting up
 *    one deployment group at a time … until both retinues have been deployed."
 *
 * What the text leaves open, and the reading chosen: group sizes are reported
 * largest first (the player's choice of which groups get the extra fighters
 * only reorders them); a retinue smaller than the group count forms one group
 * per fighter, since an empty group has nothing to set up; when one player
 * has placed every group the other places the rest in turn, so the player
 * with initiative places last exactly when they have more groups.
 * None of these choices changes a figure: a retinue that keeps empty groups,
 * each taking its turn as a pass, would have as many turns as the other, and
 * then the player without initiative (the larger retinue) places last, just
 * as it does with more groups. So `readings` lists none.
 * Later rounds depend on casualties and are not
 * modelled: this is the pre-game procedure only.
 */

import type { Dice } from '../contract/dice.js';
import type { MetricSpec, ParamSpec, Rng } from '../contract/types.js';
import { distributionOf, type ExactDistribution, geometricDistribution } from '../exact/exact-distribution.js';
import { Fraction } from '../exact/fraction.js';
import { defineBuiltin, histogramOf, type ParamsOf, type Slots, type TrialOut } from './define.js';
import { type RollCount, rollOffTrials } from './rolloff.js';

const params = [
  {
    name: 'fightersA',
    type: 'integer',
    default: 8,
    min: 1,
    max: 60,
    doc:
      "fighters in A's retinue, its activation count at deployment (8 and 8 by default: equal counts, so the " +
      '2d6 roll-off decides)',
  },
  {
    name: 'fightersB',
    type: 'integer',
    default: 8,
    min: 1,
    max: 60,
    doc: "fighters in B's retinue, its activation count at deployment",
  },
  {
    name: 'groups',
    type: 'integer',
    default: 3,
    min: 1,
    max: 10,
    doc: 'deployment groups per retinue (the text: 3); a retinue with fewer fighters forms one group per fighter',
  },
] as const satisfies readonly ParamSpec[];

type Noctvale = ParamsOf<typeof params>;

/** The deployment groups a retinue forms: the group count, but never more groups than fighters. */
const groupCount = (fighters: number, groups: number): number => Math.min(groups, fighters);

/**
 * Sizes of groups 1…groups, largest first, for a retinue split as evenly as
 * possible; 0 for the groups a retinue smaller than the group count cannot fill.
 * @example groupSizes(8, 3) // Int32Array [3, 3, 2]
 */
export function groupSizes(fighters: number, groups: number): Int32Array {
  const sizes = new Int32Array(groups);
  const formed = groupCount(fighters, groups);
  const base = Math.floor(fighters / formed);
  const extra = fighters % formed;
  for (let g = 0; g < formed; g++) sizes[g] = base + (g < extra ? 1 : 0);
  return sizes;
}

/**
 * Chance that one 2d6 roll-off of equal activation counts is a tie: Σ (ways to roll s)² / 36² over s = 2…12 = 146/1296.
 */
const ROLLOFF_TIE = Fraction.of(146, 1296);

function metrics({ groups }: Noctvale): MetricSpec[] {
  const list: MetricSpec[] = [
    {
      name: 'a.initiative',
      doc: 'player A has initiative (chooses the deployment edge and sets up first)',
      label: 'player A has the initiative',
      probability: true,
    },
    {
      name: 'rolloffs.mean',
      doc: 'expected 2d6 roll-offs until initiative is decided (0 when the activation counts differ)',
      label: 'roll-offs needed (expected)',
      probability: false,
      // 0 when the counts differ; ties can repeat without end: listed to a depth, with the chance beyond it.
      distribution: { min: 0, max: null },
    },
  ];
  for (let g = 1; g <= groups; g++)
    list.push({
      name: `a.group.${g}.size`,
      doc: `fighters in A's deployment group ${g}, largest first`,
      label: `player A’s group ${g} (fighters)`,
      probability: false,
    });
  for (let g = 1; g <= groups; g++)
    list.push({
      name: `b.group.${g}.size`,
      doc: `fighters in B's deployment group ${g}, largest first`,
      label: `player B’s group ${g} (fighters)`,
      probability: false,
    });
  list.push({
    name: 'a.placesLast',
    doc: 'player A sets up the final deployment group (and so sees every enemy group first)',
    label: 'player A places last',
    probability: true,
  });
  return list;
}

/**
 * The tally keeps the layout shards were written in: a.placesLast before the group sizes (A's groups, then B's).
 */
function tallyOrder({ groups }: Noctvale): string[] {
  const sizes = (player: string) => Array.from({ length: groups }, (_, g) => `${player}.group.${g + 1}.size`);
  return ['a.initiative', 'rolloffs.mean', 'a.placesLast', ...sizes('a'), ...sizes('b')];
}

/**
 * One battle set-up as steps 3, 5 and 6 read: the lower activation count takes the initiative, equal counts roll
 * 2d6 each until one is higher; each retinue splits into its groups; the groups are set up in turn, the initiative
 * player first, a player with none left passed over.
 */
function trial(dice: Dice, p: Noctvale, out: TrialOut): void {
  let aHasInitiative = p.fightersA < p.fightersB;
  let rolloffs = 0;
  if (p.fightersA === p.fightersB) {
    let rollA = 0;
    let rollB = 0;
    while (rollA === rollB) {
      rolloffs++;
      rollA = dice.d(6) + dice.d(6);
      rollB = dice.d(6) + dice.d(6);
    }
    aHasInitiative = rollA > rollB;
  }
  const sizesA = groupSizes(p.fightersA, p.groups);
  const sizesB = groupSizes(p.fightersB, p.groups);
  let leftA = sizesA.filter((size) => size > 0).length;
  let leftB = sizesB.filter((size) => size > 0).length;
  let aToPlace = aHasInitiative;
  let lastPlacedByA = false;
  while (leftA + leftB > 0) {
    if (aToPlace ? leftA > 0 : leftB === 0) {
      leftA--;
      lastPlacedByA = true;
    } else {
      leftB--;
      lastPlacedByA = false;
    }
    aToPlace = !lastPlacedByA;
  }
  out['a.initiative'] = +aHasInitiative;
  out['rolloffs.mean'] = rolloffs;
  for (let g = 0; g < p.groups; g++) {
    out[`a.group.${g + 1}.size`] = sizesA[g];
    out[`b.group.${g + 1}.size`] = sizesB[g];
  }
  out['a.placesLast'] = +lastPlacedByA;
}

function simulate(p: Noctvale, rng: Rng, trials: number, tally: Float64Array, at: Slots): void {
  const groupsA = groupCount(p.fightersA, p.groups);
  const groupsB = groupCount(p.fightersB, p.groups);
  const sizesA = groupSizes(p.fightersA, p.groups);
  const sizesB = groupSizes(p.fightersB, p.groups);
  // Who places last follows from who has the initiative alone: played out once for each, not every trial.
  const lastIfA = aPlacesLast(true, groupsA, groupsB);
  const lastIfB = aPlacesLast(false, groupsA, groupsB);
  const tied = p.fightersA === p.fightersB;

  const { at: counted, top, beyond } = histogramOf(metrics(p)[1], at);
  if (tied) {
    // The 2d6 roll-off, drawn as the plain roll-off draws it (rules/rolloff.ts); its histogram counts from 0 rolls.
    const count: RollCount = { tally, counted: counted + 1, top, beyond, sums: new Float64Array(4) };
    rollOffTrials(0, rng, trials, count);
    const [aInitiative, , rolloffSum, rolloffSquared] = count.sums;
    tally[at['a.initiative']] += aInitiative;
    tally[at['a.placesLast']] += (lastIfA ? aInitiative : 0) + (lastIfB ? trials - aInitiative : 0);
    tally[at['rolloffs.mean']] += rolloffSum;
    tally[at['rolloffs.mean'] + 1] += rolloffSquared;
  } else {
    // Unequal counts: no roll-off, 0 in every trial; the lower count has the initiative in each.
    tally[counted] += trials;
    const aLower = p.fightersA < p.fightersB;
    tally[at['a.initiative']] += aLower ? trials : 0;
    tally[at['a.placesLast']] += (aLower ? lastIfA : lastIfB) ? trials : 0;
  }
  // The group sizes do not depend on the dice: every trial adds the same.
  for (let g = 0; g < p.groups; g++) {
    const a = at[`a.group.${g + 1}.size`];
    const b = at[`b.group.${g + 1}.size`];
    tally[a] += trials * sizesA[g];
    tally[a + 1] += trials * sizesA[g] * sizesA[g];
    tally[b] += trials * sizesB[g];
    tally[b + 1] += trials * sizesB[g] * sizesB[g];
  }
}

/**
 * Whether A sets up its last group after B's last, groups placed in turn from the initiative player; a player with none
 * left is passed over.
 */
function aPlacesLast(aHasInitiative: boolean, groupsA: number, groupsB: number): boolean {
  let leftA = groupsA;
  let leftB = groupsB;
  let aToPlace = aHasInitiative;
  let aPlacedLast = false;
  while (leftA + leftB > 0) {
    if (aToPlace && leftA > 0) {
      leftA--;
      aPlacedLast = true;
    } else if (!aToPlace && leftB > 0) {
      leftB--;
      aPlacedLast = false;
    }
    aToPlace = !aToPlace;
  }
  return aPlacedLast;
}

/**
 * Equal counts: the roll-off is symmetric, so A wins it with 1/2, and the
 * roll-offs are geometric with parameter 1 − 146/1296. The last group is set
 * up by the initiative player when they have more groups, else by the other.
 */
function exact(p: Noctvale): Record<string, Fraction> {
  const equal = p.fightersA === p.fightersB;
  const aInitiative = equal ? Fraction.of(1, 2) : p.fightersA < p.fightersB ? Fraction.ONE : Fraction.ZERO;
  const groupsA = groupCount(p.fightersA, p.groups);
  const groupsB = groupCount(p.fightersB, p.groups);
  const aLastWithInitiative = groupsA > groupsB ? Fraction.ONE : Fraction.ZERO;
  const aLastWithout = groupsA >= groupsB ? Fraction.ONE : Fraction.ZERO;
  const result: Record<string, Fraction> = {
    'a.initiative': aInitiative,
    'rolloffs.mean': equal ? Fraction.ONE.div(ROLLOFF_TIE.complement()) : Fraction.ZERO,
    'a.placesLast': aInitiative.mul(aLastWithInitiative).add(aInitiative.complement().mul(aLastWithout)),
  };
  const sizesA = groupSizes(p.fightersA, p.groups);
  const sizesB = groupSizes(p.fightersB, p.groups);
  for (let g = 0; g < p.groups; g++) {
    result[`a.group.${g + 1}.size`] = Fraction.of(sizesA[g]);
    result[`b.group.${g + 1}.size`] = Fraction.of(sizesB[g]);
  }
  return Object.fromEntries(metrics(p).map((m) => [m.name, result[m.name]]));
}

/** The roll-offs: none when the counts differ, else geometric from 1, each a tie with chance 146/1296. */
function exactDistributions(p: Noctvale): Record<string, ExactDistribution> {
  const rolloffs =
    p.fightersA === p.fightersB ? geometricDistribution(1, ROLLOFF_TIE) : distributionOf(new Map([[0, Fraction.ONE]]));
  return { 'rolloffs.mean': rolloffs };
}

export const noctvale = defineBuiltin({
  id: 'noctvale',
  title: 'Noctvale initiative and deployment groups',
  summary:
    'Noctvale setup: initiative to the lower activation count (2d6 roll-off on equal counts), retinues in ' +
    'deployment groups placed alternately',
  source: 'Noctvale, Standard Battle Set-Up, steps 3, 5 and 6 (docs/rules/noctvale.md)',
  params,
  // The text settles every figure modelled here (see the module comment).
  readings: () => [],
  metrics,
  headline: () => ['a.initiative', 'a.placesLast', 'rolloffs.mean'],
  trial,
  tallyOrder,
  simulate,
  exact,
  exactDistributions,
});
