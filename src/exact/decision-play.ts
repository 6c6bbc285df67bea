/**
 * A rule file's decisions (src/rule-files/exact.ts), around the solver (./decisions.ts): the game it solves,
 * built from the explored states with the objective's weights, and every metric under the play it finds, solved as
 * the absorbing chain that play follows (./absorbing-chain.ts).
 */
import { type Chain, solveChain } from './absorbing-chain.js';
import type { DecisionGame } from './decisions.js';
import type { StepGraph } from './enumerate-steps.js';
import { Fraction } from './fraction.js';
import type { ObjectiveTerms } from './objective.js';
import { WeightSum } from './weight-sum.js';

/**
 * The decision game of the explored states for a weighted objective: each chance step's reward the weighted sum of
 * the metrics it adds, each ended state's value the weighted sum of its reported metrics plus the constant (once a
 * play, at its end: a play that counts ends for sure). `ended[state]` holds an ended state's metrics.
 */
export function weightedGame(graph: StepGraph, ended: readonly Fraction[][], weights: ObjectiveTerms): DecisionGame {
  const weigh = (value: (slot: number) => Fraction | undefined, start: Fraction) =>
    weights.terms.reduce((sum, [slot, weight]) => {
      const at = value(slot);
      return at ? sum.add(weight.mul(at)) : sum;
    }, start);
  return {
    size: graph.keys.length,
    absorbing: graph.absorbing,
    decisions: graph.decisions,
    to: graph.to,
    chances: graph.chances.map((list) => list.map((chance) => chance.toFraction())),
    reward: graph.rewards.map((list) => weigh((slot) => list[slot]?.toFraction(), Fraction.ZERO)),
    terminal: ended.map((values, state) =>
      graph.absorbing[state] ? weigh((slot) => values[slot], weights.constant) : Fraction.ZERO,
    ),
    name: (state) => graph.keys[state],
  };
}

/**
 * Every metric under a fixed play (`choice[state]`, the option index at each decision): the chain of the states that
 * play reaches from the start, each decision a step of chance 1, solved exactly; `order` lists those states.
 */
export function valuesUnderPlay(
  graph: StepGraph,
  choice: ArrayLike<number>,
  names: readonly string[],
  ended: readonly Fraction[][],
): { order: number[]; values: Record<string, Fraction> } {
  const order: number[] = [0];
  const index = new Map<number, number>([[0, 0]]);
  const nextOf = (state: number): number[] =>
    graph.absorbing[state]
      ? []
      : graph.decisions[state] !== null
        ? [graph.to[state][choice[state]]]
        : Array.from(graph.to[state]);
  for (let i = 0; i < order.length; i++) {
    for (const next of nextOf(order[i])) {
      if (!index.has(next)) {
        index.set(next, order.length);
        order.push(next);
      }
    }
  }
  const one = new WeightSum();
  one.add(1n, 1n);
  const chain: Chain = {
    size: order.length,
    absorbing: order.map((state) => graph.absorbing[state]),
    to: order.map((state) => Int32Array.from(nextOf(state), (next) => index.get(next) as number)),
    chances: order.map((state) => (graph.decisions[state] !== null ? [one] : graph.chances[state])),
    rewards: order.map((state) => (graph.decisions[state] !== null ? [] : graph.rewards[state])),
    rewardSlots: names.length,
    name: (state) => graph.keys[order[state]],
  };
  const solved = solveChain(chain);
  const values: Record<string, Fraction> = {};
  names.forEach((name, m) => {
    let total = solved.rewards[m];
    solved.ending.forEach((chance, i) => {
      if (chance.numerator !== 0n) total = total.add(chance.mul(ended[order[i]][m]));
    });
    values[name] = total;
  });
  return { order, values };
}
