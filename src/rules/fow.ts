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
 * on stream 3 several turns of a side from one draw (fow-plan.ts).
 */
import { FOUR_D6 } from '../engine/random.js';
import { Fraction } from '../exact/fraction.js';
import { badValue, UsageError } from '../errors.js';
import { mean, proportion, type Tallied } from '../stats/estimate.js';
import { defineBuiltin, type ParamsOf, type TrialOut } from './define.js';
import type { Dice } from './file-rule.js';
import type { MetricSpec, ParamSpec, Rng } from './types.js';
import { addOutcomes, planFor, runPlan } from './fow-plan.js';

export const SIDES = ['attacker', 'defender'] as const;
type Side = (typeof SIDES)[number];

/** The mission's minimum: "at least half its platoons", so half rounded up. */
export const minimumReserves = (platoons: number): number => Math.ceil(platoons / 2);

/** Platoons a side may hold in reserve at most: all of them, less the defender's ambush platoon. */
export const maximumReserves = (p: Fow, side: Side): number =>
  side === 'attacker' ? p.attackerPlatoons : p.defenderPlatoons - (p.ambush ? 1 : 0);

/** What one side brings to the battle, with the "0 = half, rounded up" reserve count resolved. */
interface SideSetup {
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

// ---------------------------------------------------------------------------
// Scattered Reserves: which die face sends an arriving platoon where.

const PLACE = /^[a-z][a-z0-9_-]*$/;
const FACES = /^([1-6])(?:-([1-6]))?$/;
const SCATTER_ALLOWED =
  'each die face 1-6 given exactly once as face:place or from-to:place, comma-separated; a place is a word of letters, digits, _ or - starting with a letter, kept lowercase (e.g. 1-2:left,3-4:centre,5-6:right)';

/**
 * Parses a scatter map into the place of each face (index 1–6) and returns
 * its canonical text: faces in order, neighbouring faces of one place joined
 * into a range.
 * @example canonicalScatter(' 5-6:right, 1-2:Left,3-4:centre') // '1-2:left,3-4:centre,5-6:right'
 */
export function canonicalScatter(raw: string): string {
  const placeOf: string[] = new Array(7).fill('');
  const fail = () => badValue('scatter', raw, SCATTER_ALLOWED);
  for (const entry of raw.split(',')) {
    const colon = entry.indexOf(':');
    if (colon < 0) throw fail();
    const faces = FACES.exec(entry.slice(0, colon).trim());
    const place = entry
      .slice(colon + 1)
      .trim()
      .toLowerCase();
    if (!faces || !PLACE.test(place)) throw fail();
    const from = Number(faces[1]);
    const to = faces[2] === undefined ? from : Number(faces[2]);
    if (to < from) throw fail();
    for (let face = from; face <= to; face++) {
      if (placeOf[face] !== '')
        throw new UsageError(
          `scatter: got ${JSON.stringify(raw)}: face ${face} is given twice; allowed: ${SCATTER_ALLOWED}`,
        );
      placeOf[face] = place;
    }
  }
  const missing = [1, 2, 3, 4, 5, 6].filter((face) => placeOf[face] === '');
  if (missing.length > 0)
    throw new UsageError(
      `scatter: got ${JSON.stringify(raw)}: no place for face ${missing.join(', ')}; allowed: ${SCATTER_ALLOWED}`,
    );
  const parts: string[] = [];
  for (let face = 1; face <= 6; ) {
    let last = face;
    while (last < 6 && placeOf[last + 1] === placeOf[face]) last++;
    parts.push(`${last === face ? face : `${face}-${last}`}:${placeOf[face]}`);
    face = last + 1;
  }
  return parts.join(',');
}

/**
 * A canonical scatter map read back: the places in order of their lowest face, and each face's place index (index 1–6).
 */
export function scatterTable(canonical: string): { places: string[]; placeOfFace: Int32Array } {
  const places: string[] = [];
  const placeOfFace = new Int32Array(7);
  for (const entry of canonical.split(',')) {
    const [faces, place] = entry.split(':');
    const [from, to = from] = faces.split('-').map(Number);
    if (!places.includes(place)) places.push(place);
    for (let face = from; face <= to; face++) placeOfFace[face] = places.indexOf(place);
  }
  return { places, placeOfFace };
}

// ---------------------------------------------------------------------------
// Metrics and the tally.

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
    for (let t = 1; t <= turns; t++) {
      list.push({
        name: `${side}.onTable.${t}.mean`,
        doc: `expected ${side} platoons on the table after its reserve roll in turn ${t}`,
        label: `${side}’s platoons on the table, turn ${t} (expected)`,
        probability: false,
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
    // The whole distribution: at least k of the n reserve platoons in by turn t (k = n is allIn.by.t).
    const { reserves } = sideSetup(p, side);
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
      doc: `expected defending platoons on the table when the defender can first win, at the start of its turn ${endTurn} (arrived by turn ${endTurn - 1})`,
      label: `defender’s platoons on the table when it can first win, turn ${endTurn} (expected)`,
      probability: false,
    },
    {
      name: 'defender.allIn.atEnd',
      doc: `every defending reserve is on the table at the start of the defender's turn ${endTurn}, when it can first win`,
      label: `defender: every reserve in when it can first win, turn ${endTurn}`,
      probability: true,
    },
    {
      name: 'attacker.allIn.atEnd',
      doc: `every attacking reserve is on the table at the start of the defender's turn ${endTurn}, when it can first win (the attacker moves first: in by its turn ${endTurn})`,
      label: `attacker: every reserve in when the defender can first win, turn ${endTurn}`,
      probability: true,
    },
  );
  return list;
}

/** Turns a side's reserves are followed: every turn shown, and up to the end check (the attacker's turn endTurn). */
const horizon = (p: Fow): number => Math.max(p.turns, p.endTurn);

/** Most reserve platoons for which the whole distribution ("at least k of n by turn t") is reported. */
export const DISTRIBUTION_RESERVES = 12;

// The tally counts states, not sums: per side and turn, how many trials
// ended the turn with r platoons still in reserve (r ≥ 1), in which turn the
// first platoon arrived and in which the last. Turns before a side starts
// rolling (all still in reserve) and turns after its last platoon arrived
// (none left) are not counted one by one: summarize fills them in. Every
// mean, its square and the end-check figures are read off these counts
// afterwards, so the hot loop only increments integers, and only while a
// side is still rolling.

interface SideLayout {
  /** Index of "r platoons still in reserve after turn t's roll": r + (t − 1)·(reserves + 1); r = 0 is unused. */
  remaining: number;
  /** Trials whose first reserve arrived in turn t (index t − 1). */
  first: number;
  /** Trials whose last reserve arrived in turn t (index t − 1). */
  allIn: number;
}

// Side 0 is the attacker, side 1 the defender, each over the turns followed; then one count per scatter place.
function layout(p: Fow): { sides: [SideLayout, SideLayout]; scatter: number; length: number } {
  const followed = horizon(p);
  let next = 0;
  const side = (setup: SideSetup): SideLayout => {
    const at = {
      remaining: next,
      first: next + followed * (setup.reserves + 1),
      allIn: next + followed * (setup.reserves + 2),
    };
    next += followed * (setup.reserves + 3);
    return at;
  };
  const sides: [SideLayout, SideLayout] = [side(sideSetup(p, 'attacker')), side(sideSetup(p, 'defender'))];
  return { sides, scatter: next, length: next + scatterTable(p.scatter).places.length };
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
    // Streams 1 and 2: turn by turn, each turn's dice counted by rng.count, the scatter dice as platoons arrive.
    // Whether a turn with this many dice brings a platoon even when none scores (a guarantee of 0 never does).
    const guaranteedWith = new Int32Array(followed + 1);
    for (let dice = 1; dice <= followed; dice++) guaranteedWith[dice] = +(p.guarantee > 0 && dice >= p.guarantee);
    for (let trial = 0; trial < trials; trial++) {
      // The attacker moves first, so in each turn its roll comes first; the sides never interact.
      followReserves(rng, attackerStates, attacker, followed, p.hit, guaranteedWith, null, scattered);
      followReserves(rng, defenderStates, defender, followed, p.hit, guaranteedWith, placeOfFace, scattered);
    }
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

/**
 * One side's reserves through one battle. With `placeOfFace` (the
 * defender's Scattered Reserves) every arriving platoon also rolls for
 * where it enters. The turn's dice are counted by rng.count (on stream 2,
 * four to a draw), and the platoon that arrives by the guarantee is added
 * without a branch: a turn's arrivals are 0 exactly when no die scored, as
 * at least one platoon is still out.
 */
function followReserves(
  rng: Rng,
  states: Int32Array,
  setup: SideSetup,
  followed: number,
  hit: number,
  guaranteedWith: Int32Array,
  placeOfFace: Int32Array | null,
  scattered: Int32Array,
): void {
  const { reserves, start } = setup;
  const stride = reserves + 1;
  let remaining = reserves;
  for (let turn = start; turn <= followed; turn++) {
    const dice = turn - start + 1;
    const hits = rng.count(dice, 6, hit);
    let arriving = Math.min(hits, remaining);
    arriving += guaranteedWith[dice] & +(arriving === 0);
    remaining -= arriving;
    if (placeOfFace !== null) {
      for (let platoon = 0; platoon < arriving; platoon++) scattered[placeOfFace[1 + ((rng() * 6) | 0)]]++;
    }
    if (remaining === 0) return;
    states[(turn - 1) * stride + remaining]++;
  }
}

/**
 * Adds a chunk's states into the tally, with the turns of first and last
 * arrival read off them: platoons in reserve never increase, so the trials
 * whose first platoon came in turn t are those with all reserves still out
 * after turn t − 1 less those after turn t, and the trials whose last came
 * in turn t are those with any still out after turn t − 1 less those after
 * turn t. Before its first rolling turn every trial has all its reserves.
 */
function addSide(
  tally: Float64Array,
  at: SideLayout,
  setup: SideSetup,
  followed: number,
  states: Int32Array,
  trials: number,
): void {
  const { reserves, start } = setup;
  const stride = reserves + 1;
  let allOutBefore = trials;
  let anyOutBefore = trials;
  for (let turn = start; turn <= followed; turn++) {
    const row = (turn - 1) * stride;
    let anyOut = 0;
    for (let r = 1; r <= reserves; r++) {
      tally[at.remaining + row + r] += states[row + r];
      anyOut += states[row + r];
    }
    const allOut = states[row + reserves];
    tally[at.first + turn - 1] += allOutBefore - allOut;
    tally[at.allIn + turn - 1] += anyOutBefore - anyOut;
    allOutBefore = allOut;
    anyOutBefore = anyOut;
  }
}

/**
 * A side after each turn's roll, over all trials: how many still had r
 * platoons in reserve (index r), platoons on the table (summed, and
 * squared), and trials with every reserve in.
 */
function turnStates(tally: Float64Array, at: SideLayout, setup: SideSetup, followed: number, trials: number) {
  const { platoons, reserves, start } = setup;
  const states: Array<{ inReserve: Float64Array; onTable: Tallied; allIn: number }> = [];
  let allIn = 0;
  for (let t = 1; t <= followed; t++) {
    allIn += tally[at.allIn + t - 1];
    const inReserve = new Float64Array(reserves + 1);
    inReserve[0] = allIn;
    let sum = allIn * platoons;
    let sumOfSquares = allIn * platoons * platoons;
    for (let r = 1; r <= reserves; r++) {
      // Before the side rolls, every trial still has all its reserves.
      inReserve[r] = t < start ? (r === reserves ? trials : 0) : tally[at.remaining + (t - 1) * (reserves + 1) + r];
      sum += inReserve[r] * (platoons - r);
      sumOfSquares += inReserve[r] * (platoons - r) * (platoons - r);
    }
    states.push({ inReserve, onTable: mean(sum, sumOfSquares, trials), allIn });
  }
  return states;
}

function summarize(p: Fow, tally: Float64Array, trials: number): Record<string, Tallied> {
  const { places } = scatterTable(p.scatter);
  const at = layout(p);
  const followed = horizon(p);
  const result: Record<string, Tallied> = {};
  const atEnd = SIDES.map((side, index) => {
    const s = at.sides[index];
    const setup = sideSetup(p, side);
    const states = turnStates(tally, s, setup, followed, trials);
    // A constant: zero variance, so its interval is the point itself.
    result[`${side}.reserves`] = mean(setup.reserves * trials, setup.reserves * setup.reserves * trials, trials);
    for (let t = 1; t <= p.turns; t++) result[`${side}.onTable.${t}.mean`] = states[t - 1].onTable;
    for (let t = 1; t <= p.turns; t++) result[`${side}.allIn.by.${t}`] = proportion(states[t - 1].allIn, trials);
    for (let t = 1; t <= p.turns; t++) result[`${side}.first.${t}`] = proportion(tally[s.first + t - 1], trials);
    if (setup.reserves <= DISTRIBUTION_RESERVES) {
      for (let t = 1; t <= p.turns; t++) {
        // At least k arrived: at most n − k still in reserve.
        let atMost = 0;
        for (let k = setup.reserves; k >= 1; k--) {
          atMost += states[t - 1].inReserve[setup.reserves - k];
          if (k < setup.reserves) result[`${side}.atLeast.${k}.by.${t}`] = proportion(atMost, trials);
        }
      }
    }
    // At the defender's check of turn endTurn the attacker has rolled for that turn, the defender not yet.
    return states[side === 'attacker' ? p.endTurn - 1 : p.endTurn - 2];
  });
  result['defender.onTable.atEnd.mean'] = atEnd[1].onTable;
  result['defender.allIn.atEnd'] = proportion(atEnd[1].allIn, trials);
  result['attacker.allIn.atEnd'] = proportion(atEnd[0].allIn, trials);
  // Where a platoon enters is its own die, independent of how many platoons
  // arrived and of every other platoon; so given the total number of arrivals
  // the count at a place is binomial, and pooling arrivals over trials gives
  // an honest Wilson interval for "a given arriving platoon enters here".
  let arrivals = 0;
  for (let i = 0; i < places.length; i++) arrivals += tally[at.scatter + i];
  places.forEach((place, i) => {
    result[`defender.scatter.${place}`] = proportion(tally[at.scatter + i], arrivals);
  });
  return result;
}

// ---------------------------------------------------------------------------
// The exact answer: a Markov chain over platoons still in reserve.

/**
 * Ways k of `dice` dice score, k = 0..dice, out of 6^dice: each die scores on
 * `scoring` faces and misses on `missing`, so the count for k is
 * C(dice, k) · scoring^k · missing^(dice − k).
 */
function hitsCounts(dice: number, scoring: bigint, missing: bigint): bigint[] {
  let counts = [1n];
  for (let die = 0; die < dice; die++) {
    const next = new Array<bigint>(counts.length + 1).fill(0n);
    for (let hits = 0; hits < counts.length; hits++) {
      next[hits] += counts[hits] * missing;
      next[hits + 1] += counts[hits] * scoring;
    }
    counts = next;
  }
  return counts;
}

/**
 * State r: platoons still in reserve. A turn with d dice moves r to
 * r − min(hits, r), or to r − 1 when no die scored and d ≥ guarantee.
 * "First arrival in turn t" is the chance of leaving the full state then.
 *
 * Every chance here is a whole number of the 6^D equally likely ways the D
 * dice a side has rolled so far can fall, so the chain runs on those whole
 * numbers (BigInt), the denominator 6^D kept aside; a metric becomes a
 * reduced fraction once, when it is read. Run on Fractions, reducing after
 * every sum and product, the largest sizes took half a second.
 */
function exact(p: Fow): Record<string, Fraction> {
  const scoring = BigInt(7 - p.hit);
  const missing = BigInt(p.hit - 1);
  const result: Record<string, Fraction> = {};
  for (const side of SIDES) {
    const { platoons, reserves, start } = sideSetup(p, side);
    result[`${side}.reserves`] = Fraction.of(reserves);
    // ways[r]: the ways (of `outOf`) to have r platoons still in reserve.
    let ways = new Array<bigint>(reserves + 1).fill(0n);
    ways[reserves] = 1n;
    let outOf = 1n;
    for (let turn = 1; turn <= horizon(p); turn++) {
      let untouched = ways[reserves];
      if (turn >= start) {
        const dice = turn - start + 1;
        const hits = hitsCounts(dice, scoring, missing);
        const scale = 6n ** BigInt(dice);
        const guaranteed = p.guarantee > 0 && dice >= p.guarantee;
        const next = new Array<bigint>(reserves + 1).fill(0n);
        next[0] = ways[0] * scale;
        for (let remaining = 1; remaining <= reserves; remaining++) {
          if (ways[remaining] === 0n) continue;
          for (let scored = 0; scored < hits.length; scored++) {
            const arriving = scored === 0 && guaranteed ? 1 : Math.min(scored, remaining);
            next[remaining - arriving] += ways[remaining] * hits[scored];
          }
        }
        ways = next;
        outOf *= scale;
        untouched *= scale;
      }
      const chance = (count: bigint) => Fraction.of(count, outOf);
      let expectedRemaining = 0n;
      for (let remaining = 1; remaining <= reserves; remaining++)
        expectedRemaining += BigInt(remaining) * ways[remaining];
      const onTable = Fraction.of(BigInt(platoons) * outOf - expectedRemaining, outOf);
      // The defender's check of turn endTurn: after the attacker's roll of that turn, before the defender's.
      if (side === 'defender' && turn === p.endTurn - 1) {
        result['defender.onTable.atEnd.mean'] = onTable;
        result['defender.allIn.atEnd'] = chance(ways[0]);
      }
      if (side === 'attacker' && turn === p.endTurn) result['attacker.allIn.atEnd'] = chance(ways[0]);
      if (turn > p.turns) continue;
      result[`${side}.onTable.${turn}.mean`] = onTable;
      result[`${side}.allIn.by.${turn}`] = chance(ways[0]);
      result[`${side}.first.${turn}`] = chance(untouched - ways[reserves]);
      if (reserves <= DISTRIBUTION_RESERVES) {
        let atMost = 0n;
        for (let k = reserves; k >= 1; k--) {
          atMost += ways[reserves - k];
          if (k < reserves) result[`${side}.atLeast.${k}.by.${turn}`] = chance(atMost);
        }
      }
    }
  }
  const { places, placeOfFace } = scatterTable(p.scatter);
  places.forEach((place, i) => {
    result[`defender.scatter.${place}`] = Fraction.of(
      placeOfFace.filter((index, face) => face >= 1 && index === i).length,
      6,
    );
  });
  // Order as metrics() lists them.
  return Object.fromEntries(metrics(p).map((m) => [m.name, result[m.name]]));
}

// ---------------------------------------------------------------------------

/** Cross-parameter checks: the mission's reserve minimum and maximum, and rolling within the turns followed. */
function validate(p: Fow): string | undefined {
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

const params = [
  { name: 'attackerPlatoons', type: 'integer', default: 6, min: 1, max: 30, doc: "platoons in the attacker's force" },
  {
    name: 'attackerReserves',
    type: 'integer',
    default: 0,
    min: 0,
    max: 30,
    doc: 'attacking platoons held in Reserves; 0 (the default) means the mission minimum, half rounded up, and the result shows the count used; at most attackerPlatoons',
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
    doc: 'defending platoons in Delayed and Scattered Reserves; 0 (the default) means the mission minimum, half rounded up, and the result shows the count used; at most defenderPlatoons less the ambush platoon',
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
    doc: 'one defending platoon is in Immediate Ambush: not in reserve, placed at the start and on the table from turn 1 (the text: may)',
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
    doc: `if this many dice or more were rolled and none scored, one platoon arrives anyway; 0 for never (3, per the ${EDITION})`,
  },
  {
    name: 'scatter',
    type: 'text',
    default: '1-2:left,3-4:centre,5-6:right',
    allowed: SCATTER_ALLOWED,
    parse: canonicalScatter,
    doc: `where a Scattered Reserve enters, by its die (a die per arriving platoon, per the ${EDITION}; the places are a table's own)`,
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
    doc: "the first turn the defender can win, at the start of its turn, with no attackers in its half (the text: from the sixth turn); the …atEnd figures are read at that check: after the attacker's roll of that turn (it moves first), before the defender's",
  },
] as const satisfies readonly ParamSpec[];

type Fow = ParamsOf<typeof params>;

export const fow = defineBuiltin({
  id: 'fow',
  title: 'Flames of War reserves (prepared positions)',
  summary:
    'Flames of War: attacker Reserves against defender Delayed and Scattered Reserves with an Immediate Ambush; platoons on the table turn by turn and where the defence comes in',
  source:
    'Flames of War, 3rd edition, p. 285 (prepared positions); reserve dice per the 4th-edition missions (docs/rules/fow.md)',
  params,
  readings(p) {
    return [
      {
        param: 'attackerStart',
        text:
          p.attackerStart === 1
            ? "the attacker's ordinary Reserves roll from turn 1, which makes them the same as Immediate Reserves; attackerStart=3 makes them wait to turn 3, like Delayed Reserves"
            : `the attacker's Reserves roll from turn ${p.attackerStart}; attackerStart=1 rolls from turn 1, as Immediate Reserves do`,
      },
      {
        param: 'defenderStart',
        text: `the defender's Delayed Reserves roll from turn ${p.defenderStart}${p.defenderStart === 3 ? ' (as in the 4th-edition missions)' : ''}; defenderStart changes it`,
      },
      {
        param: 'hit',
        text: `each reserve die scoring ${p.hit}+ brings one platoon${p.hit === 5 ? ' (as in the 4th-edition missions)' : ''}; hit changes it`,
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
          ? 'the defender uses its Immediate Ambush (the text: may), so one platoon is on the table from turn 1 and never in reserve; ambush=false deploys or reserves that platoon instead'
          : 'the defender does not use its Immediate Ambush; ambush=true places one platoon at the start',
      },
      {
        param: 'endTurn',
        text: `the defender can first win at the start of its turn ${p.endTurn}; the attacker moves first, so the …atEnd figures count the attacker's reserves in by turn ${p.endTurn} and the defender's in by turn ${p.endTurn - 1}, its own roll of that turn coming after the check; endTurn moves the check`,
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
  exact,
});
