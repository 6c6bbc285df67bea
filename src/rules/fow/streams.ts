/**
 * Flames of War reserves (see fow.ts) on streams 1 and 2, bit for bit as
 * every result on them was made: turn by turn, each turn's dice counted by
 * rng.count (four to a draw on stream 2), the scatter dice one uniform a
 * die as platoons arrive. Streams 3 to 5, the default among them, draw
 * several turns of a side's dice at once (fow-plan.ts).
 */

import type { Rng } from '../../contract/types.js';
import type { SideSetup } from './setup.js';

/** A chunk as the turn-by-turn loop reads it. */
export interface TurnByTurn {
  rng: Rng;
  trials: number;
  /** The face a reserve die needs, and the dice in a turn that bring a platoon even when none scores (0: none). */
  hit: number;
  guarantee: number;
  /** Turns followed (fow-setup.ts horizon). */
  followed: number;
  /** The defender's Scattered Reserves: the place of each face; arrivals counted by place into `scattered`. */
  placeOfFace: Int32Array;
  scattered: Int32Array;
}

/**
 * Each trial, the attacker's reserves and then the defender's (the attacker moves first, so in each turn its roll
 * comes first; the sides never interact), counted into each side's `states` (fow.ts's layout of turn and platoons
 * still out); only the defender's arrivals roll for where they enter.
 */
export function turnByTurn(chunk: TurnByTurn, sides: ReadonlyArray<{ setup: SideSetup; states: Int32Array }>): void {
  const { rng, trials, hit, guarantee, followed, placeOfFace, scattered } = chunk;
  // Whether a turn with this many dice brings a platoon even when none scores (a guarantee of 0 never does).
  const guaranteedWith = new Int32Array(followed + 1);
  for (let dice = 1; dice <= followed; dice++) guaranteedWith[dice] = +(guarantee > 0 && dice >= guarantee);
  const [attacker, defender] = sides;
  for (let trial = 0; trial < trials; trial++) {
    followReserves(rng, attacker.states, attacker.setup, followed, hit, guaranteedWith, null, scattered);
    followReserves(rng, defender.states, defender.setup, followed, hit, guaranteedWith, placeOfFace, scattered);
  }
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
