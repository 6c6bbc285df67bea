/**
 * Flames of War reserves in a prepared-positions mission (Flames of War 3rd
 * edition rulebook, p. 285, mission text in Russian: "Подготовка к сражению"
 * 4–5, "Начало сражения" 1 and 3, "Окончание сражения").
 *
 *   4. "Атакующий оставляет как минимум половину своих взводов в Резервах …"
 *      (the attacker keeps at least half its platoons in Reserves)
 *   5. "Обороняющийся оставляет как минимум половину своих взводов в
 *      Задерживающихся и Разрозненных Резервах. Он может назначить один из
 *      своих взводов в Немедленную Засаду." (the defender keeps at least half
 *      in Delayed and Scattered Reserves and may put one platoon in Immediate
 *      Ambush)
 *   Start 1: "Обороняющийся размещает взвод, назначенный им в Немедленную
 *      Засаду." (the ambush platoon is placed); start 3: "Атакующий игрок
 *      ходит первым." (the attacker moves first)
 *   End: "на начало хода обороняющегося игрока, начиная с шестого хода, на
 *      половине стола обороняющегося нет вражеских отделений" (from turn six,
 *      the defender wins at the start of its turn if no attacking teams are in
 *      its half)
 *
 * The mission names the reserve rules without giving them. The mechanics
 * were found in the Flames of War 4th-edition missions (2017); the
 * 3rd-edition wording could not be checked, so every
 * number is a parameter with the 4th-edition value as its default:
 * - at the start of its own turn, from its first rolling turn on, a side
 *   rolls one die, one more on each later turn (turn t rolls t − start + 1);
 *   each die scoring `hit` (5+) brings one platoon while any remain;
 * - if `guarantee` (three) or more dice were rolled and none scored, one
 *   platoon arrives anyway;
 * - Reserves start rolling on turn 1 (`attackerStart`), Delayed Reserves on
 *   turn 3 (`defenderStart`); note that rolling from turn 1 is what
 *   Immediate Reserves do, so at the default the attacker's ordinary Reserves
 *   play as Immediate Reserves (attackerStart=3 for reserves that wait);
 * - Scattered Reserves roll a die per arriving platoon for the place it
 *   enters (`scatter`).
 * The ambush platoon is neither deployed nor in reserve: it is placed at the
 * start of the battle, so it counts as on the table from turn 1 and its only
 * effect here is that it cannot also be held in reserve.
 *
 * The reserve counts default to the mission's minimum, which depends on the
 * platoon counts, so `attackerReserves`/`defenderReserves` take 0 for "half,
 * rounded up": 0 is never a legal count (the minimum is at least 1) and it
 * keeps the parameter a plain integer. `resolve` replaces the 0 with the
 * count it stands for, so a result's params show the count used; the exact,
 * zero-width metrics `attacker.reserves` and `defender.reserves` repeat it.
 *
 * The end condition ties the reserves to the mission's clock: `endTurn` (six)
 * is the first turn the defender can win at the start of its turn, so the
 * `…atEnd` figures read each side's reserves as they stand at that check.
 * The attacker moves first, so by then the attacker has played its turn
 * endTurn, reserve roll included, while the defender's roll of that turn
 * comes after the check (a platoon rolled in then arrives too late): the
 * attacker's reserves in by turn endTurn, the defender's in by turn
 * endTurn − 1. Both are followed up to turn endTurn whatever `turns`.
 *
 * The two sides never interact, so each side's reserves are a Markov chain
 * over the platoons still off the table; `exact` runs that chain in
 * fractions, `simulate` rolls every die: on streams 1 and 2 turn by turn,
 * on stream 3 several turns of a side from one draw (plan.ts).
 */

import type { Dice } from '../../contract/dice.js';
import type { MetricSpec, Rng } from '../../contract/types.js';
import { FOUR_D6 } from '../../engine/random.js';
import { defineBuiltin, type TrialOut } from '../define.js';
import { exactDistributions, exactValues } from './exact.js';
import { addOutcomes, planFor, runPlan } from './plan.js';
import { scatterTable } from './scatter.js';
import {
  DISTRIBUTION_RESERVES,
  type Fow,
  horizon,
  minimumReserves,
  params,
  SIDES,
  sideSetup,
  validate,
} from './setup.js';
import { turnByTurn } from './streams.js';
import { addSide, layout, summarize } from './tally.js';

// ---------------------------------------------------------------------------
// Metrics.

function metrics(p: Fow): MetricSpec[] {
  const { turns, scatter } = p;
  const list: MetricSpec[] = [];
  for (const side of SIDES) {
    list.push({
      name: `${side}.reserves`,
      doc: `platoons the ${side} holds in reserve (resolves ${side}Reserves=0 to half, rounded up)`,
      label: `${side}’s platoons in reserve`,
      probability: false,
    });
    const { platoons, reserves } = sideSetup(p, side);
    for (let t = 1; t <= turns; t++) {
      list.push({
        name: `${side}.onTable.${t}.mean`,
        doc: `${side} platoons on the table after its reserve roll in turn ${t}: the expected number, and its whole distribution`,
        label: `${side}’s platoons on the table, turn ${t} (expected)`,
        probability: false,
        distribution: { min: platoons - reserves, max: platoons },
      });
    }
    for (let t = 1; t <= turns; t++)
      list.push({
        name: `${side}.allIn.by.${t}`,
        doc: `every ${side} reserve has arrived by turn ${t}`,
        label: `${side}: every reserve in by turn ${t}`,
        probability: true,
      });
    for (let t = 1; t <= turns; t++)
      list.push({
        name: `${side}.first.${t}`,
        doc: `the ${side}'s first reserve platoon arrives in turn ${t}`,
        label: `${side}: first reserve in turn ${t}`,
        probability: true,
      });
    list.push({
      name: `${side}.last.arrival`,
      doc:
        `the turn the ${side}'s last reserve platoon arrives (${turns + 1}: some are still in reserve after turn ` +
        `${turns}), and its whole distribution`,
      label: `${side}: turn of the last reserve`,
      probability: false,
      distribution: { min: 1, max: turns + 1 },
    });
    // The whole distribution: at least k of the n reserve platoons in by turn t (k = n is allIn.by.t).
    if (reserves <= DISTRIBUTION_RESERVES) {
      for (let t = 1; t <= turns; t++) {
        for (let k = 1; k < reserves; k++)
          list.push({
            name: `${side}.atLeast.${k}.by.${t}`,
            doc: `at least ${k} of the ${side}'s ${reserves} reserve platoons have arrived by turn ${t}`,
            label: `${side}: at least ${k} of ${reserves} reserves in by turn ${t}`,
            probability: true,
          });
      }
    }
  }
  for (const place of scatterTable(scatter).places) {
    list.push({
      name: `defender.scatter.${place}`,
      doc: `an arriving defending platoon enters ${place} (share of all arrivals)`,
      label: `a scattered reserve enters ${place}`,
      probability: true,
    });
  }
  const { endTurn } = p;
  list.push(
    {
      name: 'defender.onTable.atEnd.mean',
      doc:
        `defending platoons on the table when the defender can first win, at the start of its turn ` +
        `${endTurn} (arrived by turn ${endTurn - 1}): the expected number, and its whole distribution`,
      label: `defender’s platoons on the table when it can first win, turn ${endTurn} (expected)`,
      probability: false,
      distribution: {
        min: sideSetup(p, 'defender').platoons - sideSetup(p, 'defender').reserves,
        max: sideSetup(p, 'defender').platoons,
      },
    },
    {
      name: 'defender.allIn.atEnd',
      doc:
        `every defending reserve is on the table at the start of the defender's turn ${endTurn}, when it can ` +
        `first win`,
      label: `defender: every reserve in when it can first win, turn ${endTurn}`,
      probability: true,
    },
    {
      name: 'attacker.allIn.atEnd',
      doc:
        `every attacking reserve is on the table at the start of the defender's turn ${endTurn}, when it can ` +
        `first win (the attacker moves first: in by its turn ${endTurn})`,
      label: `attacker: every reserve in when the defender can first win, turn ${endTurn}`,
      probability: true,
    },
  );
  return list;
}

/**
 * One battle's reserves as the mission and the 4th-edition reserve rules read: from its first rolling turn
 * each side rolls one die a turn more than the turn before, each die scoring `hit` bringing a platoon while
 * any remain, and `guarantee` dice or more with none scoring still bring one; the attacker rolls first in
 * each turn; every defending platoon that arrives rolls a die for the place it enters.
 */
function trial(dice: Dice, p: Fow, out: TrialOut): void {
  const { places, placeOfFace } = scatterTable(p.scatter);
  const entered = places.map(() => 0);
  const followed = horizon(p);
  const left = { attacker: sideSetup(p, 'attacker').reserves, defender: sideSetup(p, 'defender').reserves };
  for (let turn = 1; turn <= followed; turn++) {
    for (const side of SIDES) {
      const setup = sideSetup(p, side);
      const before = left[side];
      if (turn >= setup.start && before > 0) {
        const rolled = turn - setup.start + 1;
        let scored = 0;
        for (let die = 0; die < rolled; die++) if (dice.d(6) >= p.hit) scored++;
        const arriving = scored === 0 ? (p.guarantee > 0 && rolled >= p.guarantee ? 1 : 0) : Math.min(scored, before);
        left[side] -= arriving;
        if (side === 'defender') for (let platoon = 0; platoon < arriving; platoon++) entered[placeOfFace[dice.d(6)]]++;
      }
      const arrived = setup.reserves - left[side];
      if (turn <= p.turns) {
        out[`${side}.onTable.${turn}.mean`] = setup.platoons - left[side];
        out[`${side}.allIn.by.${turn}`] = +(left[side] === 0);
        out[`${side}.first.${turn}`] = +(before === setup.reserves && arrived > 0);
        for (let k = 1; k < setup.reserves; k++) out[`${side}.atLeast.${k}.by.${turn}`] = +(arrived >= k);
        if (left[side] === 0 && before > 0) out[`${side}.last.arrival`] = turn;
        else if (turn === p.turns && left[side] > 0) out[`${side}.last.arrival`] = p.turns + 1;
      }
      // The defender's check at the start of its turn endTurn: the attacker has rolled that turn, it has not.
      if (side === 'attacker' && turn === p.endTurn) out['attacker.allIn.atEnd'] = +(left.attacker === 0);
      if (side === 'defender' && turn === p.endTurn - 1) {
        out['defender.onTable.atEnd.mean'] = setup.platoons - left.defender;
        out['defender.allIn.atEnd'] = +(left.defender === 0);
      }
    }
  }
  for (const side of SIDES) out[`${side}.reserves`] = sideSetup(p, side).reserves;
  // A share of this battle's arrivals: not observed in a battle where no defending platoon arrives.
  const arrivals = entered.reduce((sum, count) => sum + count, 0);
  if (arrivals > 0) places.forEach((place, i) => (out[`defender.scatter.${place}`] = entered[i] / arrivals));
}

function simulate(p: Fow, rng: Rng, trials: number, tally: Float64Array): void {
  const { placeOfFace, places } = scatterTable(p.scatter);
  const at = layout(p);
  const attacker = sideSetup(p, 'attacker');
  const defender = sideSetup(p, 'defender');
  const followed = horizon(p);
  // This chunk's counts, in int32 (a chunk has at most 65,536 trials): states by turn and platoons
  // still in reserve (index (turn − 1)·(reserves + 1) + remaining), and arrivals by place.
  const attackerStates = new Int32Array(followed * (attacker.reserves + 1));
  const defenderStates = new Int32Array(followed * (defender.reserves + 1));
  const scattered = new Int32Array(places.length);
  if (rng.stream >= 3) {
    // Streams 3 and 4: each side by its plan, several turns of dice to a draw; the scatter dice after the trials.
    const sides = [attacker, defender].map((setup) =>
      planFor({ reserves: setup.reserves, start: setup.start, followed, hit: p.hit, guarantee: p.guarantee }),
    );
    const attackerCounts = new Int32Array(sides[0].outcomes);
    const defenderCounts = new Int32Array(sides[1].outcomes);
    runPlan(sides[0], rng, trials, attackerCounts);
    runPlan(sides[1], rng, trials, defenderCounts);
    addOutcomes(sides[0], attackerCounts, attackerStates);
    const arrivals = addOutcomes(sides[1], defenderCounts, defenderStates);
    scatterDice(rng, arrivals, placeOfFace, scattered);
  } else {
    // Streams 1 and 2: turn by turn (fow-streams.ts).
    turnByTurn({ rng, trials, hit: p.hit, guarantee: p.guarantee, followed, placeOfFace, scattered }, [
      { setup: attacker, states: attackerStates },
      { setup: defender, states: defenderStates },
    ]);
  }
  addSide(tally, at.sides[0], attacker, followed, attackerStates, trials);
  addSide(tally, at.sides[1], defender, followed, defenderStates, trials);
  for (let place = 0; place < places.length; place++) tally[at.scatter + place] += scattered[place];
}

/**
 * Where `arrivals` platoons enter: four dice to a draw, each draw's code
 * counted, and the codes read as base-6 faces once at the end.
 */
function scatterDice(rng: Rng, arrivals: number, placeOfFace: Int32Array, scattered: Int32Array): void {
  // The places of `dice` dice read from a code's base-6 digits, `times` over.
  const place = (code: number, dice: number, times: number) => {
    for (let rest = code, die = 0; die < dice; die++, rest = Math.floor(rest / 6))
      scattered[placeOfFace[1 + (rest % 6)]] += times;
  };
  const codes = new Int32Array(FOUR_D6);
  let left = arrivals;
  for (; left >= 4; left -= 4) codes[rng.below(FOUR_D6)]++;
  // The last few dice: a code below 6^left has zeros, not dice, in its upper digits.
  const lastCode = left > 0 ? rng.below(6 ** left) : 0;
  for (let code = 0; code < FOUR_D6; code++) if (codes[code] > 0) place(code, 4, codes[code]);
  place(lastCode, left, 1);
}

export const fow = defineBuiltin({
  id: 'fow',
  title: 'Flames of War reserves (prepared positions)',
  summary:
    'Flames of War: attacker Reserves against defender Delayed and Scattered Reserves with an Immediate ' +
    'Ambush; platoons on the table turn by turn and where the defence comes in',
  source:
    'Flames of War, 3rd edition, p. 285 (prepared positions); reserve dice per the 4th-edition missions ' +
    '(docs/rules/fow.md)',
  params,
  readings(p) {
    return [
      {
        param: 'attackerStart',
        text:
          p.attackerStart === 1
            ? "the attacker's ordinary Reserves roll from turn 1, which makes them the same as Immediate " +
              'Reserves; attackerStart=3 makes them wait to turn 3, like Delayed Reserves'
            : `the attacker's Reserves roll from turn ${p.attackerStart}; attackerStart=1 rolls from turn 1, ` +
              `as Immediate Reserves do`,
      },
      {
        param: 'defenderStart',
        text:
          `the defender's Delayed Reserves roll from turn ` +
          `${p.defenderStart}${p.defenderStart === 3 ? ' (as in the 4th-edition missions)' : ''}; ` +
          `defenderStart changes it`,
      },
      {
        param: 'hit',
        text:
          `each reserve die scoring ${p.hit}+ brings one ` +
          `platoon${p.hit === 5 ? ' (as in the 4th-edition missions)' : ''}; hit changes it`,
      },
      {
        param: 'guarantee',
        text:
          p.guarantee > 0
            ? `${p.guarantee} or more reserve dice with none scoring still bring one platoon; guarantee=0 for never`
            : 'no platoon arrives without a scoring die; guarantee=3 for the 4th-edition safety net',
      },
      {
        param: 'ambush',
        text: p.ambush
          ? 'the defender uses its Immediate Ambush (the text: may), so one platoon is on the table from ' +
            'turn 1 and never in reserve; ambush=false deploys or reserves that platoon instead'
          : 'the defender does not use its Immediate Ambush; ambush=true places one platoon at the start',
      },
      {
        param: 'endTurn',
        text:
          `the defender can first win at the start of its turn ${p.endTurn}; the attacker moves first, so ` +
          `the …atEnd figures count the attacker's reserves in by turn ${p.endTurn} and the defender's in by ` +
          `turn ${p.endTurn - 1}, its own roll of that turn coming after the check; endTurn moves the check`,
      },
    ];
  },
  resolve(p) {
    return {
      ...p,
      attackerReserves: p.attackerReserves === 0 ? minimumReserves(p.attackerPlatoons) : p.attackerReserves,
      defenderReserves: p.defenderReserves === 0 ? minimumReserves(p.defenderPlatoons) : p.defenderReserves,
    };
  },
  validate,
  metrics,
  // Each side: all its platoons on the table by each turn.
  headline: (p) =>
    metrics(p)
      .map((m) => m.name)
      .filter((name) => /^(attacker|defender)\.allIn\.by\.\d+$/.test(name)),
  trial,
  simulate,
  tally: { length: (p) => layout(p).length, summarize },
  // Ordered as metrics() lists them.
  exact: (p) => {
    const values = exactValues(p);
    return Object.fromEntries(metrics(p).map((m) => [m.name, values[m.name]]));
  },
  exactDistributions,
});
