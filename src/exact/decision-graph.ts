/**
 * The structure of a decision game (./decisions.ts), apart from its values: where play can be made to end for sure,
 * which states a policy lets reach an end, a first proper policy, a guess in doubles to start strategy iteration
 * near best play, and a loop that a side could take forever. Nothing here is exact arithmetic on values but the
 * game's own fractions read as doubles for the guess.
 */
import type { Fraction } from './fraction.js';

export type Side = 'a' | 'b';

export interface DecisionGame {
  /** How many states; 0 is the start. */
  size: number;
  /** Ended states: their value is `terminal`. */
  absorbing: boolean[];
  /** At a decision state, whose decision it is and its options; null at a chance state. */
  decisions: Array<{ side: Side; options: readonly string[] } | null>;
  /** A chance state's successors, or a decision state's target of each option (in the order of the options). */
  to: Int32Array[];
  /** A chance state's chance of each successor (they sum to 1); empty at a decision state. */
  chances: Fraction[][];
  /** The objective's expected reward of one step from a chance state (0 elsewhere). */
  reward: Fraction[];
  /** The objective's value at an ended state (0 elsewhere). */
  terminal: Fraction[];
  /** How a state is named in a message. */
  name(state: number): string;
}

/** Whether each state can reach an ended state along the policy's edges (chance edges all count). */
export function reachesEnd(game: DecisionGame, sure: boolean[], choice: Int32Array): boolean[] {
  const into: number[][] = Array.from({ length: game.size }, () => []);
  for (let s = 0; s < game.size; s++) {
    if (game.absorbing[s] || !sure[s]) continue;
    if (game.decisions[s] !== null) into[game.to[s][choice[s]]].push(s);
    else for (const t of game.to[s]) into[t].push(s);
  }
  const reached = game.absorbing.slice();
  const queue = reached.flatMap((r, s) => (r ? [s] : []));
  while (queue.length > 0) {
    const t = queue.pop() as number;
    for (const s of into[t]) {
      if (!reached[s]) {
        reached[s] = true;
        queue.push(s);
      }
    }
  }
  return reached;
}

/**
 * The states from which the deciding sides, together, can make the play end with probability 1: the greatest set
 * from which an ended state stays reachable when chance states must keep all their successors inside and a decision
 * keeps at least one option inside (almost-sure reachability in a Markov decision process).
 */
export function endsForSure(game: DecisionGame): boolean[] {
  const inside = new Array<boolean>(game.size).fill(true);
  for (;;) {
    // Drop chance states that can fall outside and decisions with no option inside, until none is left to drop.
    let dropped = true;
    while (dropped) {
      dropped = false;
      for (let s = 0; s < game.size; s++) {
        if (!inside[s] || game.absorbing[s]) continue;
        const to = game.to[s];
        const keep = game.decisions[s] !== null ? Array.from(to).some((t) => inside[t]) : to.every((t) => inside[t]);
        if (!keep) {
          inside[s] = false;
          dropped = true;
        }
      }
    }
    // Then the states inside that cannot reach an end along edges inside.
    const into: number[][] = Array.from({ length: game.size }, () => []);
    for (let s = 0; s < game.size; s++) {
      if (!inside[s] || game.absorbing[s]) continue;
      for (const t of game.to[s]) if (inside[t]) into[t].push(s);
    }
    const reached = new Array<boolean>(game.size).fill(false);
    const queue: number[] = [];
    for (let s = 0; s < game.size; s++) {
      if (inside[s] && game.absorbing[s]) {
        reached[s] = true;
        queue.push(s);
      }
    }
    while (queue.length > 0) {
      const t = queue.pop() as number;
      for (const s of into[t]) {
        if (!reached[s]) {
          reached[s] = true;
          queue.push(s);
        }
      }
    }
    let removed = false;
    for (let s = 0; s < game.size; s++) {
      if (inside[s] && !reached[s]) {
        inside[s] = false;
        removed = true;
      }
    }
    if (!removed) return inside;
  }
}

/**
 * A first proper policy: states taken in order of their distance to an end (breadth first, backwards), each
 * decision taking its first allowed option that leads one step nearer, so that from every state the chosen play
 * has a path to an end.
 */
export function properPolicy(game: DecisionGame, sure: boolean[], allowed: number[][]): Int32Array {
  const choice = new Int32Array(game.size).fill(-1);
  const into: number[][] = Array.from({ length: game.size }, () => []);
  for (let s = 0; s < game.size; s++) {
    if (game.absorbing[s] || !sure[s]) continue;
    const targets = game.decisions[s] !== null ? allowed[s].map((o) => game.to[s][o]) : Array.from(game.to[s]);
    for (const t of targets) into[t].push(s);
  }
  // Distance to an end along the allowed edges: a decision takes its first option one step nearer.
  const distance = new Int32Array(game.size).fill(-1);
  let layer: number[] = [];
  for (let s = 0; s < game.size; s++) {
    if (game.absorbing[s]) {
      distance[s] = 0;
      layer.push(s);
    }
  }
  for (let d = 1; layer.length > 0; d++) {
    const next: number[] = [];
    for (const t of layer) {
      for (const s of into[t]) {
        if (distance[s] >= 0) continue;
        distance[s] = d;
        next.push(s);
      }
    }
    for (const s of next) {
      if (game.decisions[s] === null) continue;
      choice[s] = allowed[s].find((o) => {
        const t = distance[game.to[s][o]];
        return t >= 0 && t < d;
      }) as number;
    }
    layer = next;
  }
  return choice;
}

/**
 * Where to start the exact iteration: the play that looks best in doubles, by value iteration (Gauss–Seidel, states
 * taken from the last found to the first, a bounded number of sweeps), each decision taking its best option (ties to
 * the first listed). Only a start: strategy iteration from it still switches only on an exactly strict improvement
 * and stops only where none is left, so the result is the same exact best play from any start, and the ties are
 * broken as `finish` breaks them. It saves rounds where policy iteration from `proper` would learn the best play a
 * few states a round (a long race back to the start). A guess under which some state cannot end is not used.
 */
export function guessedPolicy(
  game: DecisionGame,
  sure: boolean[],
  allowed: number[][],
  proper: Int32Array,
): Int32Array {
  const chances = game.chances.map((row) => Float64Array.from(row, (chance) => chance.toNumber()));
  const reward = Float64Array.from(game.reward, (r) => r.toNumber());
  const value = Float64Array.from(game.terminal, (t) => t.toNumber());
  let edges = 0;
  for (const to of game.to) edges += to.length;
  const sweeps = Math.max(1, Math.min(10_000, Math.floor(GUESS_EDGE_VISITS / Math.max(1, edges))));
  const better = (side: Side, x: number, y: number) => (side === 'a' ? x > y : x < y);
  for (let sweep = 0; sweep < sweeps; sweep++) {
    let change = 0;
    for (let s = game.size - 1; s >= 0; s--) {
      if (!sure[s] || game.absorbing[s]) continue;
      const to = game.to[s];
      const decision = game.decisions[s];
      let next: number;
      if (decision !== null) {
        next = value[to[allowed[s][0]]];
        for (const o of allowed[s]) if (better(decision.side, value[to[o]], next)) next = value[to[o]];
      } else {
        next = reward[s];
        const p = chances[s];
        for (let e = 0; e < to.length; e++) next += p[e] * value[to[e]];
      }
      change = Math.max(change, Math.abs(next - value[s]) / Math.max(1, Math.abs(next)));
      value[s] = next;
    }
    if (!(change > 1e-13)) break; // converged, or not a number: either way stop sweeping
  }
  const guess = proper.slice();
  for (let s = 0; s < game.size; s++) {
    const decision = game.decisions[s];
    if (decision === null || allowed[s].length === 0) continue;
    let best = allowed[s][0];
    for (const o of allowed[s]) {
      const x = value[game.to[s][o]];
      const y = value[game.to[s][best]];
      if (!Number.isFinite(x) || !Number.isFinite(y)) return proper;
      if (better(decision.side, x, y) && Math.abs(x - y) > 1e-9 * Math.max(1, Math.abs(y))) best = o;
    }
    guess[s] = best;
  }
  const canEnd = reachesEnd(game, sure, guess);
  for (let s = 0; s < game.size; s++) if (sure[s] && !canEnd[s]) return proper;
  return guess;
}

/** How many edges the guess in doubles may visit, over all its sweeps (a few milliseconds' work). */
const GUESS_EDGE_VISITS = 2_000_000;

/**
 * Why a play can go on forever, or null: a state and an option from the greatest set in which every chance state
 * keeps all its successors and every decision keeps some option (whoever decides can keep the play inside).
 */
export function neverEnding(game: DecisionGame): { state: number; option: string } | null {
  // Among the states some play reaches from the start (an explored chain reaches all of them).
  const inside = reachable(game).map((yes, s) => yes && !game.absorbing[s]);
  let dropped = true;
  while (dropped) {
    dropped = false;
    for (let s = 0; s < game.size; s++) {
      if (!inside[s]) continue;
      const to = game.to[s];
      const keep = game.decisions[s] !== null ? Array.from(to).some((t) => inside[t]) : to.every((t) => inside[t]);
      if (!keep) {
        inside[s] = false;
        dropped = true;
      }
    }
  }
  for (let s = 0; s < game.size; s++) {
    const decision = game.decisions[s];
    if (!inside[s] || decision === null) continue;
    const option = decision.options.find((_, o) => inside[game.to[s][o]]) as string;
    return { state: s, option };
  }
  return null;
}

/** The states some play reaches from the start, along every edge. */
export function reachable(game: DecisionGame): boolean[] {
  const reached = new Array<boolean>(game.size).fill(false);
  const queue = [0];
  reached[0] = true;
  while (queue.length > 0) {
    const s = queue.pop() as number;
    for (const t of game.to[s]) {
      if (!reached[t]) {
        reached[t] = true;
        queue.push(t);
      }
    }
  }
  return reached;
}
