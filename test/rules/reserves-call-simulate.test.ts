/**
 * `muster run reserves --set chosenRound=call` without --exact: trials that play the exact policy
 * (src/rules/reserves/call.ts simulateCall). Every metric's estimate is held within 5σ of its exact value under
 * best play, itself checked against brute force over every calling policy in test/rules/reserves-call.test.ts.
 * Fixed seeds; the same numbers on 1 and 2 threads.
 *
 * The bounds, each 5 standard errors of a mean of n independent games (support/bounds.ts), with the standard
 * deviation of one game's value bounded from its exact mean m alone (Bhatia–Davis: a value in [lo, hi] with mean m
 * has variance at most (m − lo)(hi − m)):
 * - a probability (all.by.r, atLeast.k.by.r): a Bernoulli game, variance m(1 − m);
 * - a squad's share (squad.round.r, squad.never): the game's share of squads, in [0, 1], variance at most m(1 − m)
 *   (the squads of a game are not independent under play, so the game is the observation);
 * - squads in by round r and squads lost, in [0, S]; dice rolled, in [0, S·R]; the round of the last arrival, in
 *   [1, R + 1].
 */
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { meanTolerance, proportionTolerance } from '../support/bounds.js';
import { bufferIo } from '../support/io.js';

interface Metric {
  estimate: number;
  exact: number;
}
interface Result {
  method: string;
  trials: number;
  metrics: Record<string, Metric>;
  decision: { best: { exact: number }; bestFixed: { value: { exact: number } }; worth: { exact: number } };
}

async function simulated(set: string[], extra: string[]): Promise<Result> {
  const io = bufferIo();
  const status = await main(['run', 'reserves', '--set', 'chosenRound=call', ...set, ...extra, '--json', '-'], io);
  expect(status, io.stderr()).toBe(0);
  return JSON.parse(io.stdout()) as Result;
}

/** The range [lo, hi] a metric's value of one game lies in, by its name (reserves.ts's metrics). */
function rangeOf(name: string, squads: number, rounds: number): [number, number] {
  if (/^(arrived\.by\.\d+\.mean|lost\.mean)$/.test(name)) return [0, squads];
  if (name === 'dice.mean') return [0, squads * rounds];
  if (name === 'last.arrival') return [1, rounds + 1];
  return [0, 1];
}

function expectWithin5Sigma(result: Result, squads: number, rounds: number): void {
  const n = result.trials;
  const names = Object.keys(result.metrics);
  expect(names.length).toBeGreaterThan(10);
  for (const name of names) {
    const { estimate, exact } = result.metrics[name];
    const [lo, hi] = rangeOf(name, squads, rounds);
    const tolerance =
      lo === 0 && hi === 1
        ? proportionTolerance(exact, n)
        : meanTolerance(Math.sqrt(Math.max(0, (exact - lo) * (hi - exact))), n);
    expect(Math.abs(estimate - exact), `${name}: ${estimate} against ${exact}`).toBeLessThanOrEqual(tolerance);
  }
}

describe('chosenRound=call simulated: trials play the exact policy', () => {
  const leaderLoss = ['command=3', 'fallbackCommand=1', 'leaderLoss=0.2'];

  it('every metric within 5σ of its exact value under best play (4 squads, 4 rounds, leader loss 0.2)', async () => {
    const result = await simulated(leaderLoss, ['--trials', '200000', '--seed', 'call-sim']);
    expect(result.method).toBe('simulation');
    expect(result.trials).toBe(200_000);
    expectWithin5Sigma(result, 4, 4);
    // The trials played the policy, not the best round declared before the game: all.by.4 is 0.0188 above that, far
    // beyond 5σ (5·sqrt(0.94·0.06/200000) = 0.0027).
    const allIn = result.metrics['all.by.4'];
    const fixed = result.decision.bestFixed.value.exact;
    expect(allIn.exact - fixed).toBeGreaterThan(0.018);
    expect(Math.abs(allIn.estimate - fixed)).toBeGreaterThan(proportionTolerance(fixed, result.trials));
  });

  it('an objective that weighs early arrivals, rolls from round 2: within 5σ', async () => {
    const result = await simulated(
      ['squads=3', 'rounds=5', 'target=8', 'firstRound=2', 'leaderLoss=0.5', 'command=3'],
      ['--objective', 'all.by.5 + 0.5*arrived.by.3.mean', '--trials', '100000', '--seed', 'call-sim-2'],
    );
    expectWithin5Sigma(result, 3, 5);
  });

  it('past the outcome histogram (20 squads, 5 rounds: 21^6 codes), the running sums: within 5σ', async () => {
    const result = await simulated(
      ['squads=20', 'rounds=5', 'target=8', 'leaderLoss=0.3', 'command=3'],
      ['--trials', '40000', '--seed', 'call-sim-3'],
    );
    expectWithin5Sigma(result, 20, 5);
  });

  it('the same numbers on 1 and 2 threads, and on a second run', async () => {
    const args = ['--trials', '150000', '--seed', 'threads'];
    const one = await simulated(leaderLoss, [...args, '--threads', '1']);
    const two = await simulated(leaderLoss, [...args, '--threads', '2']);
    const again = await simulated(leaderLoss, [...args, '--threads', '2']);
    expect(two.metrics).toEqual(one.metrics);
    expect(again.metrics).toEqual(one.metrics);
  });
});
