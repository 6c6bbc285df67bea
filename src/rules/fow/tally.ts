/**
 * Flames of War reserves (see fow.ts): the fast path's tally, and every metric read off it.
 */
import { mean, proportion, type Tallied } from '../../stats/estimate.js';
import { scatterTable } from './scatter.js';
import { DISTRIBUTION_RESERVES, type Fow, horizon, SIDES, type SideSetup, sideSetup } from './setup.js';

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
export function layout(p: Fow): { sides: [SideLayout, SideLayout]; scatter: number; length: number } {
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
 * Adds a chunk's states into the tally, with the turns of first and last
 * arrival read off them: platoons in reserve never increase, so the trials
 * whose first platoon came in turn t are those with all reserves still out
 * after turn t − 1 less those after turn t, and the trials whose last came
 * in turn t are those with any still out after turn t − 1 less those after
 * turn t. Before its first rolling turn every trial has all its reserves.
 */
export function addSide(
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
    const onTable = mean(sum, sumOfSquares, trials);
    // Platoons on the table, from platoons − reserves (none in yet) up: value platoons − r counts inReserve[r].
    if (onTable.kind === 'mean')
      onTable.histogram = { min: platoons - reserves, counts: inReserve.slice().reverse(), beyond: null };
    states.push({ inReserve, onTable, allIn });
  }
  return states;
}

/**
 * The turn the last reserve arrives, 1 to `turns`, and turns + 1 for the trials with some still out after turn
 * `turns`: a histogram read off the last-arrival counts, its mean's sums from the same counts.
 */
function lastArrival(tally: Float64Array, at: SideLayout, turns: number, trials: number): Tallied {
  const counts = new Float64Array(turns + 1);
  let inBy = 0;
  let sum = 0;
  let sumOfSquares = 0;
  for (let t = 1; t <= turns + 1; t++) {
    const count = t <= turns ? tally[at.allIn + t - 1] : trials - inBy;
    counts[t - 1] = count;
    inBy += count;
    sum += count * t;
    sumOfSquares += count * t * t;
  }
  const counted = mean(sum, sumOfSquares, trials);
  if (counted.kind === 'mean') counted.histogram = { min: 1, counts, beyond: null };
  return counted;
}

export function summarize(p: Fow, tally: Float64Array, trials: number): Record<string, Tallied> {
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
    result[`${side}.last.arrival`] = lastArrival(tally, s, p.turns, trials);
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
