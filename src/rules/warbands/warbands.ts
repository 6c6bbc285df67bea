/**
 * Mordheim warbands: Mordheim community rules, setup chapter ("Attackers and
 * Defenders", "Underdogs", "Deployment", "Order of Play").
 *
 *   "the defender is the player whose warband has the highest rating. If more
 *    than one warband have the same highest rating, the defender will be the
 *    one among them whose warband includes the most models. If there is still
 *    a tie, roll a dice to determine who gets to be the defender."
 *   "The warband with the lowest warband rating is considered the 'underdog'
 *    if the difference of their compared with all other opposing warbands in
 *    the scenario is greater than 50. If two warbands have allied together
 *    then their ratings are added together …"
 *   "… that warband [the defender] is set up first. Remaining warbands to
 *    setup are determined by the players rolling a D6, with the highest roll
 *    set up next … For ties, additional rolls should be performed with the
 *    highest result of the additional rolls going first of the tied results."
 *   "Each player rolls a D6. The player with the highest roll gets the first
 *    turn. Play proceeds clock-wise around the table from there. For ties,
 *    additional rolls should be performed until a single player has the
 *    highest dice roll."
 *
 * What the text leaves open, and the reading chosen:
 * - Warbands are listed in seating (clockwise) order, so the order of play is
 *   fixed once the first player is known: only `w{i}.first` is reported.
 * - Alliances count only for the underdog (the text adds ratings "for the
 *   purposes of determining if there is an underdog"); the defender and both
 *   roll-offs are per warband.
 * - A side is an alliance or a lone warband. Which side can be the underdog
 *   is open (`underdogBy`). By default (side) the lowest-rated side is the
 *   underdog when its rating is more than 50 below every other side: the
 *   text adds allied ratings "for the purposes of determining if there is an
 *   underdog", which covers finding the lowest as well as measuring the gap,
 *   and a weak warband allied with a strong one is not outmatched on the
 *   table. The other reading (warband) takes "the warband with the lowest
 *   warband rating" first, alone, and only then adds its allies' ratings to
 *   measure the gap to every other side. Either way, when the underdog side
 *   is an alliance every member is flagged `w{i}.underdog`; two sides tied
 *   for lowest are never more than 50 apart, so then no one is.
 * - "Roll a dice" for the defender is read as a roll-off among the tied
 *   warbands, re-rolling those tied for highest, as in the order of play.
 *   Its dice are counted in `dice.defender.mean`, apart from the setup dice.
 * - Setup ties are re-rolled among the tied only, each tied group keeping
 *   its place, until the order is strict. A single warband left to set up
 *   after the defender goes without rolling.
 *
 * Streams 1 to 4 play the roll-offs die by die (warbands-streams.ts); stream 5, the default, draws each
 * roll-off's outcome and its dice count apart, from tables
 * (fast.ts, dice.ts), with the same law.
 */

import type { Dice } from '../../contract/dice.js';
import type { MetricSpec, Rng } from '../../contract/types.js';
import { forEachOutcome } from '../../engine/outcome-histogram.js';
import { proportion, type Tallied } from '../../stats/estimate.js';
import { defineBuiltin, type TrialOut } from '../define.js';
import { exact, exactDistributions } from './exact.js';
import { simulateFast } from './fast.js';
import { diceMean, layout } from './layout.js';
import {
  ALLIES_ALLOWED,
  defenderCandidates,
  params,
  read,
  readAllies,
  readWarbands,
  refuse,
  underdogs,
  type Warbands,
} from './setup.js';

import { simulateByDie } from './streams.js';

function metrics(p: Warbands): MetricSpec[] {
  const n = readWarbands(p.warbands).length;
  const list: MetricSpec[] = [];
  for (let i = 1; i <= n; i++) {
    list.push({
      name: `w${i}.defender`,
      doc: `warband ${i} is the defender (0 in a scenario without one)`,
      label: `warband ${i} defends`,
      probability: true,
    });
    list.push({
      name: `w${i}.underdog`,
      doc: `warband ${i} is the underdog, or allied with it (fixed by the ratings)`,
      label: `warband ${i} is the underdog`,
      probability: true,
    });
    for (let k = 1; k <= n; k++)
      list.push({
        name: `w${i}.setup.${k}`,
        doc: `warband ${i} sets up ${k}${ordinalSuffix(k)}`,
        label: `warband ${i} sets up ${k}${ordinalSuffix(k)}`,
        probability: true,
      });
    list.push({
      name: `w${i}.first`,
      doc: `warband ${i} takes the first turn (then play goes clockwise)`,
      label: `warband ${i} moves first`,
      probability: true,
    });
  }
  list.push({
    name: 'dice.setup.mean',
    doc:
      'D6 thrown to settle the setup order (not counting the defender roll-off): the expected number, and its ' +
      'whole distribution',
    label: 'dice for the setup order (expected)',
    probability: false,
    // Ties re-roll without end: listed to a depth, with the chance of everything beyond it.
    distribution: { min: 0, max: null },
  });
  list.push({
    name: 'dice.first.mean',
    doc: 'D6 thrown to settle who takes the first turn: the expected number, and its whole distribution',
    label: 'dice for the first turn (expected)',
    probability: false,
    distribution: { min: 0, max: null },
  });
  list.push({
    name: 'dice.defender.mean',
    doc:
      'D6 thrown to break a tie for defender on rating and models: the expected number, and its whole ' +
      'distribution',
    label: 'dice for the defender (expected)',
    probability: false,
    distribution: { min: 0, max: null },
  });
  return list;
}

function ordinalSuffix(k: number): string {
  return k === 1 ? 'st' : k === 2 ? 'nd' : k === 3 ? 'rd' : 'th';
}

function trial(dice: Dice, p: Warbands, out: TrialOut): void {
  const { warbands, alliances, hasDefender, underdogBy } = read(p);
  const n = warbands.length;
  const thrown = { setup: 0, first: 0, defender: 0 };
  /** Those of `group` alone on the highest roll, rolling again while several share it. */
  const rollOffAmong = (group: number[], purpose: 'first' | 'defender'): number => {
    let tied = group;
    while (tied.length > 1) {
      const rolls = tied.map(() => dice.d(6));
      thrown[purpose] += tied.length;
      const best = Math.max(...rolls);
      tied = tied.filter((_, i) => rolls[i] === best);
    }
    return tied[0];
  };
  /** `group` in setup order: each rolls, highest first, and every tied run is ordered again among itself. */
  const setupOrder = (group: number[]): number[] => {
    if (group.length <= 1) return group;
    const rolls = group.map(() => dice.d(6));
    thrown.setup += group.length;
    const order: number[] = [];
    for (let face = 6; face >= 1; face--) order.push(...setupOrder(group.filter((_, i) => rolls[i] === face)));
    return order;
  };
  const candidates = defenderCandidates(warbands);
  const defender = hasDefender ? rollOffAmong(candidates, 'defender') : -1;
  const others = warbands.map((_, i) => i).filter((i) => i !== defender);
  const order = [...(defender >= 0 ? [defender] : []), ...setupOrder(others)];
  const first = rollOffAmong(
    warbands.map((_, i) => i),
    'first',
  );
  const underdog = underdogs(warbands, alliances, underdogBy);
  for (let i = 0; i < n; i++) {
    out[`w${i + 1}.defender`] = +(i === defender);
    out[`w${i + 1}.underdog`] = +underdog[i];
    for (let k = 1; k <= n; k++) out[`w${i + 1}.setup.${k}`] = +(order[k - 1] === i);
    out[`w${i + 1}.first`] = +(i === first);
  }
  out['dice.setup.mean'] = thrown.setup;
  out['dice.first.mean'] = thrown.first;
  out['dice.defender.mean'] = thrown.defender;
}

function simulate(p: Warbands, rng: Rng, trials: number, tally: Float64Array): void {
  const { warbands, alliances, hasDefender, underdogBy } = read(p);
  const n = warbands.length;
  const at = layout(p);
  const candidates = Int32Array.from(defenderCandidates(warbands));
  const underdogFlags = underdogs(warbands, alliances, underdogBy);
  // Scratch reused by every trial.
  const active = new Int32Array(n);
  const order = new Int32Array(n); // warbands in setup order, defender excluded
  const roll = new Int32Array(n); // roll[p]: the latest roll of the warband at order[p]
  const segments = new Int32Array(2 * n); // stack of [start, end) tied groups still to settle

  // One candidate defends without a roll: no dice, the same warband every trial.
  const fixedDefender = !hasDefender ? -1 : candidates.length === 1 ? candidates[0] : null;

  // Stream 5: each roll-off's outcome and dice count as separate exact draws (fast.ts, dice.ts).
  // Streams 1 to 4, as every result on them was made: die by die.
  if (rng.stream >= 5) simulateFast(n, hasDefender ? [...candidates] : [], at, rng, trials, tally);
  else simulateByDie(rng, trials, tally, at, candidates, fixedDefender, { active, order, roll, segments });
  for (let i = 0; i < n; i++) if (underdogFlags[i]) tally[at.underdog + i] += trials;
  if (fixedDefender !== null) {
    // Every trial: the same defender (or none), set up first, after no dice.
    if (fixedDefender >= 0) {
      tally[at.defender + fixedDefender] += trials;
      tally[at.setup + fixedDefender * n] += trials;
    }
    tally[at.defenderDice] += trials;
  }
}

function summarize(p: Warbands, tally: Float64Array, trials: number): Record<string, Tallied> {
  const at = layout(p);
  const { n, rollers } = at;
  // Places and first players, counted one by one or read off the outcome codes.
  const setup = tally.slice(at.setup, at.setup + n * n);
  const first = tally.slice(at.first, at.first + n);
  const offset = n - rollers; // the defender, when there is one, sets up first
  forEachOutcome({ outcomes: at.outcomes, at: at.outcome }, tally, (code, count) => {
    first[code % n] += count;
    let rest = Math.floor(code / n);
    for (let p = 0; p < rollers; p++) {
      setup[(rest % n) * n + p + offset] += count;
      rest = Math.floor(rest / n);
    }
  });
  const result: Record<string, Tallied> = {};
  for (let i = 0; i < n; i++) {
    result[`w${i + 1}.defender`] = proportion(tally[at.defender + i], trials);
    result[`w${i + 1}.underdog`] = proportion(tally[at.underdog + i], trials);
    for (let k = 0; k < n; k++) result[`w${i + 1}.setup.${k + 1}`] = proportion(setup[i * n + k], trials);
    result[`w${i + 1}.first`] = proportion(first[i], trials);
  }
  result['dice.setup.mean'] = diceMean(tally, at.setupDice, trials);
  result['dice.first.mean'] = diceMean(tally, at.firstDice, trials);
  result['dice.defender.mean'] = diceMean(tally, at.defenderDice, trials);
  return result;
}

export const warbands = defineBuiltin({
  id: 'warbands',
  title: 'Mordheim attackers, defenders, underdogs and turn order',
  summary:
    'Mordheim (community rules): who defends, who is the underdog, setup order and who plays first, with ' +
    'the dice the roll-offs take',
  source:
    'Mordheim community rules, setup: Attackers and Defenders, Underdogs, Deployment, Order of Play ' +
    '(docs/rules/warbands.md)',
  params,
  readings(params) {
    return [
      {
        param: 'underdogBy',
        text:
          params.underdogBy === 'side'
            ? "with allies, each alliance's ratings are summed and the lowest side is the underdog if more " +
              'than 50 below every other side; underdogBy=warband starts from the lowest single warband'
            : "with allies, the lowest single warband is found first, then its allies' ratings are added to " +
              'measure the gap; underdogBy=side takes the lowest summed side',
      },
      {
        param: 'defender',
        text: params.defender
          ? 'the scenario has a defender (highest rating, then most models, then a roll-off), who sets up ' +
            'first; defender=false for scenarios without one'
          : 'the scenario has no defender: every warband rolls for its setup place; defender=true gives one',
      },
    ];
  },
  validate(p) {
    const n = readWarbands(p.warbands).length;
    const alliances = readAllies(p.allies);
    const allowed = `${ALLIES_ALLOWED}; with ${n} warbands, indices 1–${n}`;
    const beyond = alliances.flat().find((i) => i >= n);
    if (beyond !== undefined) return refuse('allies', p.allies, `there is no warband ${beyond + 1}`, allowed).message;
    if (alliances.some((alliance) => alliance.length === n))
      return refuse('allies', p.allies, 'every warband in one alliance leaves no opposing side', allowed).message;
    return undefined;
  },
  metrics,
  // Each warband: does it defend, and does it play first.
  headline: (p) =>
    metrics(p)
      .map((m) => m.name)
      .filter((name) => /^w\d+\.(defender|first)$/.test(name)),
  trial,
  simulate,
  tally: { length: (p) => layout(p).length, summarize },
  exact,
  exactDistributions,
});
