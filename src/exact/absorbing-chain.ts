/**
 * An absorbing Markov chain solved exactly: from a start state, the chance
 * of ending in each absorbing state and the expected total of rewards
 * collected along the way (one reward vector a step, averaged over the
 * step's outcomes). The states are taken one strongly connected set at a
 * time, in an order where every set's inflow is known before it is solved
 * (Tarjan's algorithm gives them in reverse). For a state that cannot come
 * back to itself its expected visits are its inflow; a state that can only
 * return to itself (a tie rolled again) is visited inflow / (1 − q) times,
 * q its chance of staying; a larger set is solved as (I − Q)ᵀ v = inflow by
 * Gaussian elimination in fractions — the exact answer of icepool's
 * `map(..., repeat='inf')`, with no truncation.
 *
 * The chances and visits outside a larger set stay integer over integer
 * (WeightSum), so a chain without such sets is solved with no reduction.
 */
import { Fraction } from './fraction.js';
import { NotEnumerable } from './replay-dice.js';
import { WeightSum } from './weight-sum.js';

/** Most states in one set of states that can reach one another (Gaussian elimination is cubic in it). */
const MAX_CYCLE_STATES = 300;

export interface Chain {
  /** How many states; 0 is the start. */
  size: number;
  absorbing: boolean[];
  /** For each non-absorbing state, where one step goes and with what chance (the chances sum to 1). */
  to: Int32Array[];
  chances: WeightSum[][];
  /** For each non-absorbing state, the expected reward of one step from it, per reward slot (a hole: none). */
  rewards: WeightSum[][];
  rewardSlots: number;
  /** How a state is named in a message (its canonical text). */
  name(state: number): string;
}

interface ChainSolution {
  /** The chance of ending in each state (0 for the non-absorbing ones), reduced when first read. */
  readonly ending: Fraction[];
  /**
   * The same chances unreduced (integer over integer, zero for the non-absorbing states): reducing each costs a
   * greatest common divisor of numbers thousands of bits long, and a caller that only adds them up needs none.
   */
  endingWeights: WeightSum[];
  /** The expected total of each reward slot. */
  rewards: Fraction[];
  /** The expected number of steps. */
  steps: Fraction;
}

export function solveChain(chain: Chain): ChainSolution {
  const { size, absorbing } = chain;
  const inflow = Array.from({ length: size }, () => new WeightSum());
  inflow[0].add(1n, 1n);
  const rewardTotals = Array.from({ length: chain.rewardSlots }, () => new WeightSum());
  const steps = new WeightSum();
  const components = stronglyConnected(chain.size, (state) => (chain.absorbing[state] ? EMPTY : chain.to[state])).map(
    (members) => members.reverse(),
  );
  const componentOf = new Int32Array(size).fill(-1);
  components.forEach((members, index) => {
    for (const state of members) componentOf[state] = index;
  });
  // Tarjan finishes a set after every set it reaches: walked backwards, each set comes after all that lead into it.
  for (let c = components.length - 1; c >= 0; c--) {
    const members = components[c];
    if (members.length === 1 && absorbing[members[0]]) continue;
    const visits = visitsOf(chain, members, componentOf, c, inflow);
    members.forEach((state, i) => {
      const [vn, vd] = visits[i];
      if (vn === 0n) return;
      steps.add(vn, vd);
      const to = chain.to[state];
      const chances = chain.chances[state];
      // A step's chances mostly share one denominator (every path of a count has the same): vd times it once.
      let denominator = 0n;
      let scaled = 0n;
      for (let e = 0; e < to.length; e++) {
        if (componentOf[to[e]] === c) continue;
        const chance = chances[e];
        if (chance.denominator !== denominator) {
          denominator = chance.denominator;
          scaled = vd * denominator;
        }
        inflow[to[e]].add(vn * chance.numerator, scaled);
      }
      chain.rewards[state].forEach((reward, slot) => {
        rewardTotals[slot].add(vn * reward.numerator, vd * reward.denominator);
      });
    });
  }
  const none = new WeightSum();
  const endingWeights = inflow.map((mass, state) => (absorbing[state] ? mass : none));
  let ending: Fraction[] | undefined;
  return {
    get ending() {
      ending ??= endingWeights.map((mass) => (mass === none ? Fraction.ZERO : mass.toFraction()));
      return ending;
    },
    endingWeights,
    rewards: rewardTotals.map((sum) => sum.toFraction()),
    steps: steps.toFraction(),
  };
}

/** Expected visits to each member of one set, as integer over integer, from the inflow into the set. */
function visitsOf(
  chain: Chain,
  members: number[],
  componentOf: Int32Array,
  c: number,
  inflow: WeightSum[],
): Array<readonly [bigint, bigint]> {
  const leaves = members.some((state) => chain.to[state].some((target) => componentOf[target] !== c));
  if (!leaves) {
    // Simulated, it would not end either: no simulation is offered.
    throw new NotEnumerable(
      `the procedure cannot end: from the state ${shorten(chain.name(members[0]))} no sequence ` +
        `of steps reaches a done state`,
      'a procedure for which done(state) comes true',
      '',
      false,
    );
  }
  if (members.length === 1) {
    const state = members[0];
    const mass = inflow[state];
    const self = chain.to[state].indexOf(state);
    if (self < 0) return [[mass.numerator, mass.denominator]];
    // Staying with chance q = n/d: visited inflow · d / (d − n) times.
    const stay = chain.chances[state][self];
    return [[mass.numerator * stay.denominator, mass.denominator * (stay.denominator - stay.numerator)]];
  }
  if (members.length > MAX_CYCLE_STATES) {
    throw new NotEnumerable(
      `enumeration needs a cycle of ${members.length} states that can return to one another (more than ` +
        `${MAX_CYCLE_STATES}), from the state ${shorten(chain.name(members[0]))}`,
      'fewer states in the loop',
    );
  }
  // v_i − Σ_j v_j · P(j → i) = inflow_i over the set's members, solved in fractions.
  const index = new Map(members.map((state, i) => [state, i]));
  const m = members.length;
  const rows: Fraction[][] = Array.from({ length: m }, (_, i) => {
    const row = new Array<Fraction>(m + 1).fill(Fraction.ZERO);
    row[i] = Fraction.ONE;
    row[m] = inflow[members[i]].toFraction();
    return row;
  });
  members.forEach((from, j) => {
    chain.to[from].forEach((target, e) => {
      const i = index.get(target);
      if (i === undefined) return;
      const chance = chain.chances[from][e].toFraction();
      rows[i][j] = rows[i][j].sub(chance);
    });
  });
  for (let col = 0; col < m; col++) {
    let pivot = col;
    while (pivot < m && rows[pivot][col].numerator === 0n) pivot++;
    // I − Q is invalid only for a set that never leaves, caught above.
    if (pivot === m) throw new Error('singular system in a set of states that leaves');
    [rows[col], rows[pivot]] = [rows[pivot], rows[col]];
    const lead = rows[col][col];
    for (let k = col; k <= m; k++) rows[col][k] = rows[col][k].div(lead);
    for (let r = 0; r < m; r++) {
      const factor = rows[r][col];
      if (r === col || factor.numerator === 0n) continue;
      for (let k = col; k <= m; k++) {
        if (rows[col][k].numerator !== 0n) rows[r][k] = rows[r][k].sub(factor.mul(rows[col][k]));
      }
    }
  }
  return rows.map((row) => [row[m].numerator, row[m].denominator] as const);
}

/**
 * Sets of states that reach one another along `successors` (among `within`, all when it is left out), each finished
 * after every set it leads to (Tarjan, iteratively). Each set lists its states in the order the walk closed them.
 */
export function stronglyConnected(
  size: number,
  successors: (s: number) => ArrayLike<number>,
  within?: readonly boolean[],
): number[][] {
  const order = new Int32Array(size).fill(-1);
  const low = new Int32Array(size);
  const onStack = new Uint8Array(size);
  const stack: number[] = [];
  const components: number[][] = [];
  let counter = 0;
  for (let root = 0; root < size; root++) {
    if (order[root] >= 0 || (within && !within[root])) continue;
    // The walk's stack as two parallel arrays (state, next edge), no pair destructured: this runs once per
    // command, before the JIT has compiled it, where taking an array apart is an iterator's round trip.
    const walk: number[] = [root];
    const next: number[] = [0];
    order[root] = low[root] = counter++;
    stack.push(root);
    onStack[root] = 1;
    while (walk.length > 0) {
      const top = walk.length - 1;
      const state = walk[top];
      const out = successors(state);
      if (next[top] < out.length) {
        const target = out[next[top]++];
        if (within && !within[target]) continue;
        if (order[target] < 0) {
          order[target] = low[target] = counter++;
          stack.push(target);
          onStack[target] = 1;
          walk.push(target);
          next.push(0);
        } else if (onStack[target]) {
          low[state] = Math.min(low[state], order[target]);
        }
        continue;
      }
      walk.pop();
      next.pop();
      if (walk.length > 0) {
        const parent = walk[walk.length - 1];
        low[parent] = Math.min(low[parent], low[state]);
      }
      if (low[state] === order[state]) {
        const members: number[] = [];
        let member: number;
        do {
          member = stack.pop() as number;
          onStack[member] = 0;
          members.push(member);
        } while (member !== state);
        components.push(members);
      }
    }
  }
  return components;
}

const EMPTY = new Int32Array(0);

/** A state's text in a message: at most 120 characters. */
export function shorten(text: string): string {
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
