/**
 * Best play in a chain of states with decision points, solved exactly: a
 * simple stochastic game (Condon) in which side a maximises the expected
 * objective and side b minimises it, or a Markov decision process where
 * only one side decides. Values are fractions throughout; nothing is
 * iterated to a tolerance.
 *
 *   states ─► where play can end for sure (almost-sure reachability) ─► a first proper policy
 *          ─► strategy iteration (Hoffman–Karp): side a improves where an option is strictly better,
 *             side b best-responds by policy iteration, each policy evaluated by exact linear solves
 *          ─► ties: the option listed first among the best, unless it would let play go on forever
 *
 * A play that never ends has no value, so only proper plays count (under
 * which the chain ends with probability 1 from every state it reaches):
 * with one side deciding, its options that lead where the play cannot be
 * made to end for sure are never taken (their value is null), and policy
 * iteration from a proper policy that switches only on strict improvement
 * stays proper unless looping gains without bound, which is refused (Puterman
 * §7.2; Bertsekas and Tsitsiklis on stochastic shortest paths). With both
 * sides deciding, every way of choosing must end the play (a stopping game),
 * or the game is refused in one line.
 */
import { stronglyConnected } from './absorbing-chain.js';
import { Fraction, greatestCommonDivisor } from './fraction.js';
import { NotEnumerable } from './replay-dice.js';

/** Most states in one set of states that can reach one another under a policy (Gaussian elimination is cubic). */
const MAX_CYCLE_STATES = 400;

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

export interface DecisionSolution {
  /** The objective's value of each state under best play; null where play cannot be made to end for sure. */
  value: Array<Fraction | null>;
  /** At a decision state, the index of the option taken; -1 elsewhere. */
  choice: Int32Array;
  /** At a decision state, each option's value (null: taking it the play may never end); empty elsewhere. */
  optionValues: Array<Array<Fraction | null>>;
}

/** Solves the game: best play for both sides from every state where play can be made to end for sure. */
export function solveDecisions(game: DecisionGame): DecisionSolution {
  const sides = new Set(game.decisions.filter((d) => d !== null).map((d) => d.side));
  const trap = neverEnding(game);
  if (sides.size > 1 && trap !== null) {
    throw new NotEnumerable(
      `with both sides deciding, every way of choosing must end the procedure, but from the state ` +
        `${short(game.name(trap.state))} choosing ${JSON.stringify(trap.option)} there every time it never ends`,
      'choices under which the procedure always ends (keep a count of re-rolls or passes in the state)',
      '',
      false,
    );
  }
  // Only states some play reaches from the start count (an explored chain has no others).
  const reached = reachable(game);
  const sure = endsForSure(game).map((yes, s) => yes && reached[s]);
  if (!sure[0]) {
    throw new NotEnumerable(
      `no way of choosing makes the procedure end for sure from its start ${short(game.name(0))}`,
      'a procedure that some choices bring to done(state) with probability 1',
      '',
      false,
    );
  }
  // Options a proper play may take: into states from which play can be made to end for sure.
  const allowed = game.decisions.map((d, s) =>
    d === null || !sure[s] ? [] : d.options.map((_, o) => o).filter((o) => sure[game.to[s][o]]),
  );
  const choice = guessedPolicy(game, sure, allowed, properPolicy(game, sure, allowed));

  // Hoffman–Karp: side a's strategy improved against side b's best response, until no option is strictly better.
  for (let round = 0; ; round++) {
    if (round > 10_000) throw new Error('strategy iteration did not converge');
    const value = bestResponse(game, sure, allowed, choice, 'b');
    if (!improve(game, sure, allowed, choice, value, 'a')) return finish(game, sure, allowed, choice, value);
  }
}

/** Policy iteration for `side` with the other side's choices fixed; returns the values under the final policy. */
function bestResponse(
  game: DecisionGame,
  sure: boolean[],
  allowed: number[][],
  choice: Int32Array,
  side: Side,
): Array<Fraction | null> {
  for (let round = 0; ; round++) {
    if (round > 10_000) throw new Error('policy iteration did not converge');
    const value = evaluate(game, sure, choice);
    if (!improve(game, sure, allowed, choice, value, side)) return value;
  }
}

/** Switches each of `side`'s decisions to the best option where it is strictly better than the one taken. */
function improve(
  game: DecisionGame,
  sure: boolean[],
  allowed: number[][],
  choice: Int32Array,
  value: Array<Fraction | null>,
  side: Side,
): boolean {
  const sign = side === 'a' ? 1 : -1;
  let changed = false;
  for (let s = 0; s < game.size; s++) {
    const decision = game.decisions[s];
    if (decision === null || decision.side !== side || !sure[s]) continue;
    let best = choice[s];
    let bestValue = value[game.to[s][best]] as Fraction;
    for (const o of allowed[s]) {
      const q = value[game.to[s][o]] as Fraction;
      if (q.compare(bestValue) * sign > 0) {
        best = o;
        bestValue = q;
      }
    }
    if (best !== choice[s]) {
      choice[s] = best;
      changed = true;
    }
  }
  return changed;
}

/**
 * The values at a fixed policy, from every state that ends for sure: v = r + P v, solved one set of states that
 * reach one another at a time, each after the sets it leads to. A set that never leaves means the policy lets the
 * play go on forever: reached from a proper policy by strict improvement only when looping gains without bound.
 */
function evaluate(game: DecisionGame, sure: boolean[], choice: Int32Array): Array<Fraction | null> {
  const value: Array<Fraction | null> = new Array(game.size).fill(null);
  const successors = (s: number): ArrayLike<number> =>
    game.absorbing[s] ? EMPTY : game.decisions[s] !== null ? [game.to[s][choice[s]]] : game.to[s];
  const weights = (s: number): Fraction[] => (game.decisions[s] !== null ? ONE_EDGE : game.chances[s]);
  for (const members of stronglyConnected(game.size, successors, sure)) {
    if (members.length === 1 && game.absorbing[members[0]]) {
      value[members[0]] = game.terminal[members[0]];
      continue;
    }
    const inside = new Map(members.map((s, i) => [s, i]));
    const leaves = members.some((s) => Array.from(successors(s)).some((t) => !inside.has(t)));
    if (!leaves) {
      throw new NotEnumerable(
        `the objective grows without bound by choosing to go round a loop forever (from the state ` +
          `${short(game.name(members[0]))})`,
        'a procedure where looping gains nothing, or a limit kept in the state',
        '',
        false,
      );
    }
    if (members.length > MAX_CYCLE_STATES) {
      throw new NotEnumerable(
        `best play needs a loop of ${members.length} states that can return to one another (more than ` +
          `${MAX_CYCLE_STATES}), from the state ${short(game.name(members[0]))}`,
        'fewer states in the loop',
        '',
        false,
      );
    }
    // A decision inside the set is worth the state its option leads to, which is inside too (else it could not
    // return): each is replaced by the chance state its chain of decisions ends in, so only chance states are
    // unknowns. Cubic elimination makes that worth it: a decision before every roll halves the unknowns.
    const chanceMembers = members.filter((s) => game.decisions[s] === null);
    const unknown = new Map(chanceMembers.map((s, i) => [s, i]));
    // Where a decision's chain of decisions inside the set ends: a chance state inside, or a state outside (a lone
    // decision's option), whose value is known.
    const landing = (s: number): number => {
      let t = s;
      for (let hops = 0; game.decisions[t] !== null && inside.has(t); hops++) {
        if (hops > members.length) throw new Error('a loop of decisions alone inside a set that leaves');
        t = game.to[t][choice[t]];
      }
      return t;
    };
    // Row i: v_i − Σ_{j inside} p_ij v_j = r_i + Σ_{t outside} p_it v_t.
    const m = chanceMembers.length;
    const rows = chanceMembers.map((s, i) => {
      const row = new Array<Fraction>(m + 1).fill(Fraction.ZERO);
      row[i] = Fraction.ONE;
      let constant = game.reward[s];
      const to = successors(s);
      const chance = weights(s);
      for (let e = 0; e < to.length; e++) {
        if (!inside.has(to[e])) {
          constant = constant.add(chance[e].mul(value[to[e]] as Fraction));
          continue;
        }
        const j = unknown.get(landing(to[e])) as number;
        row[j] = row[j].sub(chance[e]);
      }
      row[m] = constant;
      return row;
    });
    const solved = solveLinear(rows);
    chanceMembers.forEach((s, i) => {
      value[s] = solved[i];
    });
    for (const s of members) if (game.decisions[s] !== null) value[s] = value[landing(s)];
  }
  return value;
}

const EMPTY = new Int32Array(0);
const ONE_EDGE = [Fraction.ONE];

/**
 * Solves an m × (m+1) augmented system with a unique solution, exactly. Each equation is scaled to whole numbers
 * (scaling an equation leaves the solution as it is) and eliminated fraction-free: a row below the pivot becomes
 * row·(pivot/g) − pivotRow·(entry/g), g their greatest common divisor, then is divided by the greatest common divisor
 * of its entries, so numbers stay as small as the system allows and no fraction is reduced per entry. The pivot is
 * the candidate row with the fewest nonzero entries (the chains are sparse; that keeps them so). Back substitution
 * is in fractions, m²/2 operations at most.
 */
function solveLinear(rows: Fraction[][]): Fraction[] {
  const m = rows.length;
  // One unknown, the most common set (a state that cannot return to itself, or only to itself): v = c / (1 − p).
  if (m === 1) return [rows[0][0].equals(Fraction.ONE) ? rows[0][1] : rows[0][1].div(rows[0][0])];
  const a: bigint[][] = rows.map((row) => {
    let common = 1n;
    for (const entry of row)
      if (entry.numerator !== 0n)
        common = (common / greatestCommonDivisor(common, entry.denominator)) * entry.denominator;
    return row.map((entry) => (entry.numerator === 0n ? 0n : entry.numerator * (common / entry.denominator)));
  });
  const nonzero = (row: bigint[], from: number) => {
    let count = 0;
    for (let k = from; k <= m; k++) if (row[k] !== 0n) count++;
    return count;
  };
  for (let col = 0; col < m; col++) {
    let pivot = -1;
    let fewest = Number.POSITIVE_INFINITY;
    for (let r = col; r < m; r++) {
      if (a[r][col] === 0n) continue;
      const count = nonzero(a[r], col);
      if (count < fewest) {
        pivot = r;
        fewest = count;
      }
    }
    if (pivot < 0) throw new Error('singular system for a set of states that leaves');
    [a[col], a[pivot]] = [a[pivot], a[col]];
    const lead = a[col];
    const leadEntry = lead[col];
    const used: number[] = [];
    for (let k = col; k <= m; k++) if (lead[k] !== 0n) used.push(k);
    for (let r = col + 1; r < m; r++) {
      const row = a[r];
      const entry = row[col];
      if (entry === 0n) continue;
      const g = greatestCommonDivisor(abs(leadEntry), abs(entry));
      const scale = leadEntry / g;
      const take = entry / g;
      if (scale !== 1n) for (let k = col; k <= m; k++) if (row[k] !== 0n) row[k] *= scale;
      for (const k of used) row[k] -= lead[k] * take;
      let content = 0n;
      for (let k = col + 1; k <= m && content !== 1n; k++)
        if (row[k] !== 0n) content = content === 0n ? abs(row[k]) : greatestCommonDivisor(content, abs(row[k]));
      if (content > 1n) for (let k = col + 1; k <= m; k++) if (row[k] !== 0n) row[k] /= content;
    }
  }
  const solution = new Array<Fraction>(m);
  for (let i = m - 1; i >= 0; i--) {
    let rest = Fraction.of(a[i][m]);
    for (let j = i + 1; j < m; j++) if (a[i][j] !== 0n) rest = rest.sub(solution[j].mul(Fraction.of(a[i][j])));
    solution[i] = rest.div(Fraction.of(a[i][i]));
  }
  return solution;
}

function abs(value: bigint): bigint {
  return value < 0n ? -value : value;
}

/**
 * The final policy: at each decision, the option listed first among those whose value equals the state's; where
 * those choices would let the play go on forever (a tie between "stop" and "wait"), a best option that leads
 * towards an end instead. Every proper policy that takes only best options has the same values.
 */
function finish(
  game: DecisionGame,
  sure: boolean[],
  allowed: number[][],
  solved: Int32Array,
  value: Array<Fraction | null>,
): DecisionSolution {
  const best: number[][] = allowed.map((options, s) => {
    if (options.length === 0) return [];
    const v = value[s] as Fraction;
    return options.filter((o) => (value[game.to[s][o]] as Fraction).equals(v));
  });
  const choice = new Int32Array(game.size).fill(-1);
  for (let s = 0; s < game.size; s++) if (best[s].length > 0) choice[s] = best[s][0];
  // Where the choices so far let the play go on forever, the first such decision (in the order states were found)
  // takes its first best option from which the play can end; then again, until every state can end. One at a time,
  // so that a decision keeps its first listed option wherever an earlier switch already lets the play end.
  // The solver's own policy takes best options only and is proper, so such an option always exists.
  for (;;) {
    const canEnd = reachesEnd(game, sure, choice);
    let switched = -1;
    for (let s = 0; s < game.size && switched < 0; s++) {
      if (choice[s] < 0 || canEnd[s]) continue;
      const into = best[s].find((o) => canEnd[game.to[s][o]]);
      if (into !== undefined) {
        choice[s] = into;
        switched = s;
      }
    }
    if (switched < 0) {
      for (let s = 0; s < game.size; s++) if (choice[s] >= 0 && !canEnd[s]) choice[s] = solved[s];
      break;
    }
  }
  const optionValues = game.decisions.map((d, s) =>
    d === null ? [] : d.options.map((_, o) => (sure[s] && sure[game.to[s][o]] ? value[game.to[s][o]] : null)),
  );
  return { value, choice, optionValues };
}

/** Whether each state can reach an ended state along the policy's edges (chance edges all count). */
function reachesEnd(game: DecisionGame, sure: boolean[], choice: Int32Array): boolean[] {
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
function endsForSure(game: DecisionGame): boolean[] {
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
function properPolicy(game: DecisionGame, sure: boolean[], allowed: number[][]): Int32Array {
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
function guessedPolicy(game: DecisionGame, sure: boolean[], allowed: number[][], proper: Int32Array): Int32Array {
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
function neverEnding(game: DecisionGame): { state: number; option: string } | null {
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
function reachable(game: DecisionGame): boolean[] {
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

/**
 * The objective from the start under a fixed play (each decision's option index in `choice`), or null when that
 * play does not end with probability 1: "always the first option", "always the last".
 */
export function valueOfPlay(game: DecisionGame, choice: Int32Array): Fraction | null {
  const all = new Array<boolean>(game.size).fill(true);
  // Only the states the play reaches: an unreached loop of the fixed play is no fault of it.
  const reached = new Array<boolean>(game.size).fill(false);
  const queue = [0];
  reached[0] = true;
  while (queue.length > 0) {
    const s = queue.pop() as number;
    if (game.absorbing[s]) continue;
    const targets = game.decisions[s] !== null ? [game.to[s][choice[s]]] : Array.from(game.to[s]);
    for (const t of targets) {
      if (!reached[t]) {
        reached[t] = true;
        queue.push(t);
      }
    }
  }
  for (let s = 0; s < game.size; s++) all[s] = reached[s];
  try {
    return evaluate(game, all, choice)[0];
  } catch (error) {
    if (error instanceof NotEnumerable && /grows without bound/.test(error.message)) return null;
    throw error;
  }
}

function short(text: string): string {
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
