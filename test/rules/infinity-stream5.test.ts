/**
 * Stream 5's reading of infinity's dice, exactly: the fast path's tally against the same generator's outputs read
 * again (test/support/digit-replay.ts: BigInt, three base-400 digits an output, A's d20 the higher base-20 digit of
 * each) and played out with the Face to Face rules as written (infinity-brute-force.ts). Counts must be equal, not
 * close; the outcome table is checked against the rules on its own too, at every setting.
 */
import { describe, expect, it } from 'vitest';
import { chunkStream, xoshiroState } from '../../src/engine/random.js';
import {
  A_CRITICAL,
  A_WINS,
  B_CRITICAL,
  B_WINS,
  type InitiativeRoll,
  infinity,
  ROLL_AGAIN,
  rollOutcomes,
} from '../../src/rules/infinity/infinity.js';
import { resolveParams } from '../../src/rules/params.js';
import type { Tallied } from '../../src/stats/estimate.js';
import { DigitReplay } from '../support/digit-replay.js';
import { initiativeRoll } from './infinity-brute-force.js';

const CODE = { again: ROLL_AGAIN, A: A_WINS, B: B_WINS } as const;
const CRITICAL_CODE = { A: A_CRITICAL, B: B_CRITICAL } as const;

describe("stream 5's outcome table: each of the 400 face pairs as the Face to Face rules decide it", () => {
  it('every WIP 1–30 against every WIP 1–30, with and without criticals', () => {
    const wrong: string[] = [];
    for (const crits of [true, false]) {
      for (let wipA = 1; wipA <= 30; wipA++) {
        for (let wipB = 1; wipB <= 30; wipB++) {
          const table = rollOutcomes(
            resolveParams(infinity, [`wipA=${wipA}`, `wipB=${wipB}`, `crits=${crits}`]) as InitiativeRoll,
          );
          expect(table.length).toBe(400);
          for (let dieA = 1; dieA <= 20; dieA++) {
            for (let dieB = 1; dieB <= 20; dieB++) {
              const { outcome, critical } = initiativeRoll(wipA, dieA, wipB, dieB, crits);
              const expected = outcome !== 'again' && critical ? CRITICAL_CODE[outcome] : CODE[outcome];
              const found = table[(dieA - 1) * 20 + (dieB - 1)];
              if (found !== expected) wrong.push(`${wipA}/${wipB}/${crits} dice ${dieA},${dieB}: ${found}`);
            }
          }
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});

/** The tally the trials give, played from the replayed digits, one call of `trials` after another. */
function replayed(settings: InitiativeRoll, replay: DigitReplay, calls: number[]) {
  const n = { aWins: 0, bWins: 0, aCrit: 0, bCrit: 0, rolls: 0, squares: 0, first: 0, trials: 0 };
  for (const trials of calls) {
    for (let trial = 0; trial < trials; trial++) {
      for (let rolls = 1; ; rolls++) {
        const pair = replay.next();
        const dieA = 1 + Math.floor(pair / 20);
        const dieB = 1 + (pair % 20);
        const { outcome, critical } = initiativeRoll(settings.wipA, dieA, settings.wipB, dieB, settings.crits);
        if (outcome === 'again') continue;
        if (outcome === 'A') n.aWins++;
        else n.bWins++;
        if (critical && outcome === 'A') n.aCrit++;
        if (critical && outcome === 'B') n.bCrit++;
        n.rolls += rolls;
        n.squares += rolls * rolls;
        n.first += +(rolls === 1);
        break;
      }
    }
    n.trials += trials;
    replay.dropRest();
  }
  const proportion = (successes: number): Tallied => ({ kind: 'proportion', successes, trials: n.trials });
  const expected: Record<string, Tallied> = {
    'a.wins': proportion(n.aWins),
    'b.wins': proportion(n.bWins),
    'a.crit': proportion(n.aCrit),
    'b.crit': proportion(n.bCrit),
    'rolls.mean': { kind: 'mean', sum: n.rolls, sumOfSquares: n.squares, count: n.trials },
    'rolls.1': proportion(n.first),
  };
  if (!settings.crits) {
    delete expected['a.crit'];
    delete expected['b.crit'];
  }
  return expected;
}

// Calls of a few thousand trials each, back to back on one generator: a call that ends inside an output leaves the
// rest of it, and the next call starts on a fresh output. 10,000 odd trials meet a redraw (chance 0.16% an output).
const CALLS = [4001, 1, 2999, 3000];

describe("stream 5's fast path counts exactly what the same outputs, read as documented, give", () => {
  const settingsList = [
    [],
    ['wipA=1', 'wipB=1'],
    ['wipA=30', 'wipB=13'],
    ['wipA=22', 'wipB=27'],
    ['wipA=11', 'wipB=15', 'crits=false'],
    ['wipA=24', 'wipB=11', 'crits=false'],
  ];
  for (const settings of settingsList) {
    const seed = `stream5-${settings.join('&') || 'defaults'}`;
    it(`${settings.join(' ') || '(defaults)'}, seed "${seed}"`, () => {
      const params = resolveParams(infinity, settings);
      const rng = chunkStream(seed, 'infinity', 0, 5);
      const replay = new DigitReplay(xoshiroState(rng)!, 400, 3);
      const tally = new Float64Array(infinity.tally.length(params));
      for (const trials of CALLS) infinity.tally.simulate(params, rng, trials, tally);
      const trials = CALLS.reduce((sum, count) => sum + count, 0);
      const expected = replayed(params as InitiativeRoll, replay, CALLS);
      expect(infinity.tally.summarize(params, tally, trials)).toEqual(expected);
      expect(replay.outputs).toBeGreaterThan(trials / 3);
      if (settings.length === 0) expect(replay.redrawn).toBeGreaterThan(0);
    });
  }
});
