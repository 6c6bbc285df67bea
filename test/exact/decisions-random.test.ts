/**
 * The decision solver (src/exact/decisions.ts) on small random games, drawn from fixed seeds with muster's own
 * random streams, against brute force written here: every deterministic stationary policy (one side), or every
 * pair of them (both sides), valued by this file's own reachability check and Gaussian elimination in fractions.
 * One side: the best value among the policies under which play ends with probability 1 (none: the solver must
 * refuse). Both sides: where every pair ends, max over A of min over B, checked as a saddle point — no policy of
 * either side does better against the other's (else the solver must refuse the game).
 */
import { describe, expect, it } from 'vitest';
import type { Rng } from '../../src/contract/types.js';
import { chunkStream } from '../../src/engine/random.js';
import { type DecisionGame, solveDecisions } from '../../src/exact/decisions.js';
import { Fraction } from '../../src/exact/fraction.js';
import { NotEnumerable } from '../../src/exact/replay-dice.js';

const ZERO = Fraction.ZERO;

/**
 * A random game: `inner` states that are not ended (state 0 the start), then `ended` ended ones worth 0 to 4.
 * Each inner state is a decision of 2 options (of side a, or of a or b when `bothSides`) with chance 1/2, else a
 * chance state of 1 to 3 successors with weights 1 to 3; targets anywhere, loops included. Chance steps earn
 * 0 to 2 of the objective only in games of both sides (one side could otherwise gain without bound by looping).
 */
function randomGame(rng: Rng, inner: number, ended: number, bothSides: boolean): DecisionGame {
  const size = inner + ended;
  const game: DecisionGame = {
    size,
    absorbing: Array.from({ length: size }, (_, s) => s >= inner),
    decisions: [],
    to: [],
    chances: [],
    reward: [],
    terminal: Array.from({ length: size }, (_, s) => (s >= inner ? Fraction.of(rng.roll(5) - 1) : ZERO)),
    name: (s) => `s${s}`,
  };
  for (let s = 0; s < size; s++) {
    if (s >= inner) {
      game.decisions.push(null);
      game.to.push(new Int32Array(0));
      game.chances.push([]);
      game.reward.push(ZERO);
    } else if (rng.roll(2) === 1) {
      const side = bothSides && rng.roll(2) === 2 ? 'b' : 'a';
      game.decisions.push({ side, options: ['x', 'y'] });
      game.to.push(Int32Array.from([rng.roll(size) - 1, rng.roll(size) - 1]));
      game.chances.push([]);
      game.reward.push(ZERO);
    } else {
      const targets = [...new Set(Array.from({ length: rng.roll(3) }, () => rng.roll(size) - 1))];
      const weights = targets.map(() => rng.roll(3));
      const total = weights.reduce((a, b) => a + b, 0);
      game.decisions.push(null);
      game.to.push(Int32Array.from(targets));
      game.chances.push(weights.map((w) => Fraction.of(w, total)));
      game.reward.push(bothSides ? Fraction.of(rng.roll(3) - 1) : ZERO);
    }
  }
  return game;
}

/** Where each state's play goes under `choice` (one option index per decision state), with what chance. */
function edges(game: DecisionGame, choice: number[], s: number): Array<[number, Fraction]> {
  if (game.absorbing[s]) return [];
  if (game.decisions[s] !== null) return [[game.to[s][choice[s]], Fraction.ONE]];
  return Array.from(game.to[s], (t, e) => [t, game.chances[s][e]]);
}

/** The value of the start under a fixed play, or null when, from some state it reaches, it cannot end. */
function playValue(game: DecisionGame, choice: number[]): Fraction | null {
  const reached = [0];
  const seen = new Set([0]);
  for (let i = 0; i < reached.length; i++) {
    for (const [t] of edges(game, choice, reached[i])) {
      if (!seen.has(t)) {
        seen.add(t);
        reached.push(t);
      }
    }
  }
  // Proper: every reached state reaches an ended one.
  for (const s of reached) {
    const stack = [s];
    const visited = new Set([s]);
    let ends = false;
    while (stack.length > 0 && !ends) {
      const u = stack.pop() as number;
      if (game.absorbing[u]) ends = true;
      for (const [t] of edges(game, choice, u)) {
        if (!visited.has(t)) {
          visited.add(t);
          stack.push(t);
        }
      }
    }
    if (!ends) return null;
  }
  // v_s − Σ p v_t = reward_s (inner), v_s = terminal_s (ended), over the reached states.
  const index = new Map(reached.map((s, i) => [s, i]));
  const m = reached.length;
  const rows = reached.map((s, i) => {
    const row = new Array<Fraction>(m + 1).fill(ZERO);
    row[i] = Fraction.ONE;
    if (game.absorbing[s]) row[m] = game.terminal[s];
    else {
      row[m] = game.reward[s];
      for (const [t, p] of edges(game, choice, s)) {
        const j = index.get(t) as number;
        row[j] = row[j].sub(p);
      }
    }
    return row;
  });
  for (let c = 0; c < m; c++) {
    const pivot = rows.findIndex((row, r) => r >= c && row[c].numerator !== 0n);
    [rows[c], rows[pivot]] = [rows[pivot], rows[c]];
    const lead = rows[c][c];
    rows[c] = rows[c].map((x) => x.div(lead));
    for (let r = 0; r < m; r++) {
      if (r === c) continue;
      const f = rows[r][c];
      rows[r] = rows[r].map((x, k) => x.sub(f.mul(rows[c][k])));
    }
  }
  return rows[0][m];
}

/** Every assignment of option 0 or 1 to the states in `states`, others left at -1. */
function* plays(size: number, states: number[]): Generator<number[]> {
  for (let mask = 0; mask < 1 << states.length; mask++) {
    const choice = new Array<number>(size).fill(-1);
    states.forEach((s, i) => {
      choice[s] = (mask >> i) & 1;
    });
    yield choice;
  }
}

const combine = (x: number[], y: number[]) => x.map((v, i) => (v >= 0 ? v : y[i]));

describe('one side deciding, random games of 8 inner states (seeds decisions-random-0 … 59)', () => {
  it('the best value among plays that end, and a policy that ends and attains it', () => {
    let solvedCount = 0;
    for (let seed = 0; seed < 60; seed++) {
      const rng = chunkStream(`decisions-random-${seed}`, 'decisions', 0, 5);
      const game = randomGame(rng, 8, 3, false);
      const deciding = game.decisions.flatMap((d, s) => (d ? [s] : []));
      let best: Fraction | null = null;
      for (const choice of plays(game.size, deciding)) {
        const value = playValue(game, choice);
        if (value !== null && (best === null || value.compare(best) > 0)) best = value;
      }
      if (best === null) {
        expect(() => solveDecisions(game), `seed ${seed}`).toThrow(NotEnumerable);
        continue;
      }
      const solution = solveDecisions(game);
      expect(solution.value[0]?.toString(), `seed ${seed}`).toBe(best.toString());
      expect(playValue(game, Array.from(solution.choice))?.toString(), `seed ${seed}`).toBe(best.toString());
      solvedCount++;
    }
    // Most draws have a play that ends: the comparison is not vacuous.
    expect(solvedCount).toBeGreaterThan(30);
  });
});

describe('both sides deciding, random games of 7 inner states (seeds decisions-game-0 … 59)', () => {
  it('the value is max over A of min over B, and the solved pair is a saddle point', () => {
    let solvedCount = 0;
    for (let seed = 0; seed < 60; seed++) {
      const rng = chunkStream(`decisions-game-${seed}`, 'decisions', 0, 5);
      const game = randomGame(rng, 7, 3, true);
      const ofSide = (side: 'a' | 'b') => game.decisions.flatMap((d, s) => (d?.side === side ? [s] : []));
      const aPlays = [...plays(game.size, ofSide('a'))];
      const bPlays = [...plays(game.size, ofSide('b'))];
      const table = aPlays.map((a) => bPlays.map((b) => playValue(game, combine(a, b))));
      const stopping = table.every((row) => row.every((v) => v !== null));
      const anyEnd = table.some((row) => row.some((v) => v !== null));
      if (!stopping) {
        // Some pair of plays can go on forever: refused when both decide (or nothing ends at all).
        if (ofSide('a').length > 0 && ofSide('b').length > 0) expect(() => solveDecisions(game)).toThrow(NotEnumerable);
        else if (!anyEnd) expect(() => solveDecisions(game)).toThrow(NotEnumerable);
        continue;
      }
      const values = table as Fraction[][];
      const maxMin = values
        .map((row) => row.reduce((m, v) => (v.compare(m) < 0 ? v : m)))
        .reduce((m, v) => (v.compare(m) > 0 ? v : m));
      const solution = solveDecisions(game);
      expect(solution.value[0]?.toString(), `seed ${seed}`).toBe(maxMin.toString());
      const choice = Array.from(solution.choice);
      const sigma = combine(
        choice.map((c, s) => (game.decisions[s]?.side === 'a' ? c : -1)),
        new Array(game.size).fill(-1),
      );
      const tau = choice.map((c, s) => (game.decisions[s]?.side === 'b' ? c : -1));
      // Saddle point: no B play lowers A's value against A's solved play, no A play raises it against B's.
      for (const b of bPlays)
        expect((playValue(game, combine(sigma, b)) as Fraction).compare(maxMin), `seed ${seed}`).toBeGreaterThanOrEqual(
          0,
        );
      for (const a of aPlays)
        expect((playValue(game, combine(a, tau)) as Fraction).compare(maxMin), `seed ${seed}`).toBeLessThanOrEqual(0);
      solvedCount++;
    }
    expect(solvedCount).toBeGreaterThan(10);
  });
});
