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
import {
  type DecisionGame,
  endsForSure,
  guessedPolicy,
  neverEnding,
  properPolicy,
  reachable,
  reachesEnd,
  type Side,
} from './decision-graph.js';
import { Fraction, greatestCommonDivisor } from './fraction.js';
import { NotEnumerable } from './replay-dice.js';

/** Most states in one set of states that can reach one another under a policy (Gaussian elimination is cubic). */
const MAX_CYCLE_STATES = 400;

export type { DecisionGame, Side } from './decision-graph.js';

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
