/**
 * The 2d6 roll-off (src/rules/rolloff.ts), from its words: "each player
 * rolls 2d6, the higher total wins, equal totals roll again; bonusA is added
 * to player A's total". The oracle enumerates the four dice of one roll
 * (6^4 = 1,296 equally likely outcomes) without the module's tables: rolls
 * repeat independently until the totals differ, so with t the chance of a tie
 * and w the chance A wins one roll, P(A wins) = w + t·w + t²·w + … = w / (1 − t),
 * the rolls needed are geometric with mean 1 / (1 − t), and the first roll
 * decides with chance 1 − t.
 */

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHUNK_TRIALS } from '../../src/engine/chunks.js';
import { STREAM_VERSIONS } from '../../src/engine/random.js';
import { Fraction } from '../../src/exact/fraction.js';
import { resolveParams } from '../../src/rules/params.js';
import { rolloff } from '../../src/rules/rolloff.js';
import { estimate } from '../../src/stats/estimate.js';
import { meanTolerance, proportionTolerance } from '../support/bounds.js';
import { cli, scratchFolder } from '../support/cli.js';
import { wholeRunTally } from '../support/whole-run.js';

/** Every metric by enumerating one roll's four dice. */
function bruteForce(bonus: number): Record<string, Fraction> {
  let aWins = 0;
  let bWins = 0;
  let ties = 0;
  for (let a1 = 1; a1 <= 6; a1++)
    for (let a2 = 1; a2 <= 6; a2++)
      for (let b1 = 1; b1 <= 6; b1++)
        for (let b2 = 1; b2 <= 6; b2++) {
          const a = a1 + a2 + bonus;
          const b = b1 + b2;
          if (a > b) aWins++;
          else if (b > a) bWins++;
          else ties++;
        }
  const all = aWins + bWins + ties;
  const decides = Fraction.of(all - ties, all);
  return {
    'a.wins': Fraction.of(aWins, all).div(decides),
    'b.wins': Fraction.of(bWins, all).div(decides),
    'rolls.1': decides,
    'rolls.mean': Fraction.ONE.div(decides),
  };
}

describe('rolloff exact() against brute force over the dice', () => {
  it('every bonus from −6 to +6: every metric equal as a fraction', () => {
    for (let bonus = -6; bonus <= 6; bonus++) {
      const exact = rolloff.exact!.values(resolveParams(rolloff, [`bonusA=${bonus}`]));
      const oracle = bruteForce(bonus);
      expect(Object.keys(exact).sort()).toEqual(Object.keys(oracle).sort());
      for (const [name, value] of Object.entries(oracle))
        expect(exact[name].toString(), `bonusA=${bonus}: ${name}`).toBe(value.toString());
    }
  });

  it('by hand: even odds without a bonus, a tie 146 times in 1,296; +1 wins 721 of the 1,156 deciding rolls', () => {
    // Ties: Σ over totals of (ways to roll it)² = 1+4+9+16+25+36+25+16+9+4+1 = 146.
    const even = rolloff.exact!.values(resolveParams(rolloff));
    expect(even['a.wins'].toString()).toBe('1/2');
    expect(even['rolls.1'].toString()).toBe(Fraction.of(1296 - 146, 1296).toString());
    // +1: A wins when a ≥ b (575 + 146 = 721 of 1,296), B when b − a ≥ 2 (575 − 140 = 435; 140 pairs differ by 1).
    expect(rolloff.exact!.values(resolveParams(rolloff, ['bonusA=1']))['a.wins'].toString()).toBe('721/1156');
  });
});

describe('rolloff simulation against the exact solution', () => {
  const CHUNKS = 2;
  const TRIALS = CHUNKS * CHUNK_TRIALS - 500;
  /**
   * Each estimate within 5σ of the exact value: √(p(1−p)/n) for a proportion, √(1 − d)/d for the geometric count of
   * rolls with decide-chance d. 5σ fails by chance 5.7e-7 a comparison; 2 settings × 4 streams × 4 metrics keeps the
   * file below 1.9e-5 (Bonferroni). The seeds are fixed, so it never flakes.
   */
  for (const [seed, bonus] of [
    ['rolloff-plus-2', 2],
    ['rolloff-minus-1', -1],
  ] as const) {
    it(`seed "${seed}": bonusA=${bonus} on every stream`, () => {
      const params = resolveParams(rolloff, [`bonusA=${bonus}`]);
      const oracle = bruteForce(bonus);
      const decides = oracle['rolls.1'].toNumber();
      for (const stream of STREAM_VERSIONS) {
        const tally = wholeRunTally({ ruleId: 'rolloff', params, seed, stream, trials: TRIALS, chunks: CHUNKS });
        const tallied = rolloff.tally.summarize(params, tally, TRIALS);
        for (const metric of rolloff.metrics(params)) {
          const truth = oracle[metric.name].toNumber();
          const value = estimate(tallied[metric.name], 0.95).estimate as number;
          const tolerance = metric.probability
            ? proportionTolerance(truth, TRIALS)
            : meanTolerance(Math.sqrt(1 - decides) / decides, TRIALS);
          expect(Math.abs(value - truth), `stream ${stream} ${metric.name}: ${value} vs ${truth}`).toBeLessThanOrEqual(
            tolerance,
          );
        }
      }
    });
  }
});

describe('rolloff on the command line, as every built-in', () => {
  const folder = scratchFolder('rolloff');

  it('run --exact prints even odds; a bonus out of range is one line naming it, exit 2', async () => {
    const even = await cli('run', 'rolloff', '--exact');
    expect(even.status).toBe(0);
    expect(even.stdout).toMatch(/a\.wins\s+50\.000% = 1\/2/);
    const refused = await cli('run', 'rolloff', '--set', 'bonusA=7', '--exact');
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/^muster: bonusA: got "?7"?; allowed: an integer from -6 to 6\n$/);
  });

  it('card draws its declared card: the winner split and its four figures, exact', async () => {
    const out = `${folder}/card.html`;
    const { status } = await cli('card', 'rolloff', '--set', 'bonusA=1', '--out', out);
    expect(status).toBe(0);
    const card = readFileSync(out, 'utf8');
    expect(card).toContain('<h1>2d6 roll-off: who goes first</h1>');
    expect(card).toContain('id="rolloff-winner"');
    // 721/1156 = 62.37%, to the card's one decimal.
    expect(card).toContain('<td class="num">62.4%</td>');
    expect(card).toContain('muster card rolloff --set bonusA=1');
  });
});
