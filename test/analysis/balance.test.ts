/**
 * `muster balance`'s solver against brute force over the grid. The oracle
 * never reads muster's rules: each metric is computed here from the rule
 * text, in BigInt fractions, and the nearest setting is found by scanning
 * every point.
 *
 * - rolloff (Noctvale, Standard Battle Set-Up, step 3, with a bonus for A):
 *   both sides roll 2d6, A adds the bonus, the higher total wins and ties roll
 *   again, so P(A wins) = #(A + bonus > B) / #(A + bonus ≠ B) over the 36 × 36
 *   outcomes.
 * - reserves (Genesys Project preview §6.5, no chosen round, rounds 1–4): a
 *   squad arrives in round r when 1d6 + r reaches the target, squads roll
 *   independently, so P(all in by round R) = (1 − Π_{r≤R} P(1d6 < target − r))^squads.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type BalanceResult, planBalance } from '../../src/analysis/balance.js';
import { solveBalance } from '../../src/analysis/balance-solve.js';
import { evaluateBalance } from '../../src/analysis/sweep-evaluate.js';
import { Fraction } from '../../src/exact/fraction.js';
import { loadRuleFile } from '../../src/rule-files/load.js';
import { getRule } from '../../src/rules/index.js';
import { countedExact } from '../support/counted-exact.js';

/** P(A wins) of the 2d6 roll-off with `bonus` added to A, by enumerating 36 × 36 outcomes. */
function rolloffWins(bonus: number): Fraction {
  let wins = 0;
  let decided = 0;
  for (let a1 = 1; a1 <= 6; a1++)
    for (let a2 = 1; a2 <= 6; a2++)
      for (let b1 = 1; b1 <= 6; b1++)
        for (let b2 = 1; b2 <= 6; b2++) {
          const a = a1 + a2 + bonus;
          const b = b1 + b2;
          if (a !== b) decided++;
          if (a > b) wins++;
        }
  return Fraction.of(wins, decided);
}

/** P(every one of `squads` squads is in by the end of round `by`), arriving on 1d6 + round ≥ target. */
function reservesAllBy(squads: number, target: number, by: number): Fraction {
  let stillOut = Fraction.ONE;
  for (let round = 1; round <= by; round++) {
    const misses = Math.min(6, Math.max(0, target - round - 1)); // faces f with f + round < target
    stillOut = stillOut.mul(Fraction.of(misses, 6));
  }
  return stillOut.complement().pow(squads);
}

const abs = (x: Fraction) => (x.compare(Fraction.ZERO) < 0 ? Fraction.ZERO.sub(x) : x);

/** Every point's exact value in the result, read back as a fraction, by its varied values. */
function nearestByScan(values: ReadonlyArray<{ key: string; value: Fraction }>, target: Fraction): string[] {
  let best: Fraction | undefined;
  let keys: string[] = [];
  for (const { key, value } of values) {
    const gap = abs(value.sub(target));
    if (best === undefined || gap.compare(best) < 0) {
      best = gap;
      keys = [key];
    } else if (gap.equals(best)) keys.push(key);
  }
  return keys;
}

const keyOf = (params: Record<string, unknown>) =>
  Object.entries(params)
    .map(([name, value]) => `${name}=${value}`)
    .join(' ');

async function balance(rule: string, options: Parameters<typeof planBalance>[1]): Promise<BalanceResult> {
  return evaluateBalance(planBalance(getRule(rule), options));
}

describe('balance of the 2d6 roll-off against 36 × 36 enumeration', () => {
  const bonuses = Array.from({ length: 13 }, (_, i) => i - 6);
  const exact = bonuses.map((bonus) => ({ key: `bonusA=${bonus}`, value: rolloffWins(bonus) }));

  it('finds the nearest bonus for every target, ties as ties, and the pair either side', async () => {
    for (const target of ['50%', '60%', '1/3', '99%', '0%', '3/4', '0.9', '62.37%']) {
      const result = await balance('rolloff', { vary: ['bonusA=-6..6'], metric: 'a.wins', target });
      const t = targetFraction(target);
      expect(result.method).toBe('exact');
      expect(result.balance.exact).toBe(true);
      expect(
        result.balance.nearest.map((p) => keyOf(p.params)),
        target,
      ).toEqual(nearestByScan(exact, t));
      for (const point of result.balance.nearest) {
        const value = exact.find((e) => e.key === keyOf(point.params))!.value;
        expect(point.value.fraction).toBe(value.toString());
        expect(point.miss.fraction).toBe(value.sub(t).toString());
      }
      const below = exact.filter((e) => e.value.compare(t) < 0).length;
      const above = exact.filter((e) => e.value.compare(t) > 0).length;
      const hit = exact.length - below - above > 0;
      expect(result.balance.reach, target).toBe(
        hit ? 'hit' : below > 0 && above > 0 ? 'between' : above > 0 ? 'above' : 'below',
      );
      // a.wins rises with the bonus, so exactly one neighbouring pair straddles a target strictly inside the range.
      if (!hit && below > 0 && above > 0) {
        expect(result.balance.straddles).toHaveLength(1);
        expect(keyOf(result.balance.straddles[0].below.params)).toBe(exact[below - 1].key);
        expect(keyOf(result.balance.straddles[0].above.params)).toBe(exact[below].key);
      } else {
        expect(result.balance.straddles).toEqual([]);
      }
    }
  });

  it('a target no bonus reaches names the nearest and the side', async () => {
    const result = await balance('rolloff', { vary: ['bonusA=0..3'], metric: 'a.wins', target: '90%' });
    expect(result.balance.reach).toBe('below');
    expect(result.balance.nearest.map((p) => keyOf(p.params))).toEqual(['bonusA=3']);
    expect(result.balance.nearest[0].miss.fraction).toBe(rolloffWins(3).sub(Fraction.of(9, 10)).toString());
  });

  it('two bonuses equally far from the target tie exactly', async () => {
    // 1/2 is the midpoint of a.wins at bonus −1 and +1 (435/1156 + 721/1156 = 1): both miss by the same amount.
    const result = await balance('rolloff', { vary: ['bonusA=-1,1'], metric: 'a.wins', target: '1/2' });
    expect(rolloffWins(-1).add(rolloffWins(1)).equals(Fraction.ONE)).toBe(true);
    expect(result.balance.nearest.map((p) => keyOf(p.params))).toEqual(['bonusA=-1', 'bonusA=1']);
  });

  it('sensitivity is the difference of neighbouring exact values, and cliffs are every jump above the threshold', async () => {
    const result = await balance('rolloff', {
      vary: ['bonusA=-6..6'],
      metric: 'a.wins',
      target: '70%',
      cliff: '11pp',
    });
    const fair = bonuses.indexOf(Number(result.balance.nearest[0].params.bonusA));
    expect(result.balance.sensitivity.map((s) => [s.to, s.change.fraction])).toEqual([
      [bonuses[fair - 1], exact[fair - 1].value.sub(exact[fair].value).toString()],
      [bonuses[fair + 1], exact[fair + 1].value.sub(exact[fair].value).toString()],
    ]);
    const jumps = bonuses
      .slice(0, -1)
      .map((bonus, i) => ({ bonus, change: exact[i + 1].value.sub(exact[i].value) }))
      .filter(({ change }) => abs(change).compare(Fraction.of(11, 100)) > 0)
      .sort((x, y) => abs(y.change).compare(abs(x.change)));
    expect(jumps.length).toBeGreaterThan(0);
    expect(result.balance.cliffs.map((c) => [c.from.bonusA, c.change.fraction])).toEqual(
      jumps.map(({ bonus, change }) => [bonus, change.toString()]),
    );
  });
});

describe('balance of reserve arrivals over squads × target against the binomial product', () => {
  const squadsList = [4, 5, 6, 7, 8];
  const targets = [5, 6, 7, 8, 9];
  const grid = squadsList.flatMap((squads) => targets.map((target) => ({ squads, target })));

  it('nearest over the 2-D grid, per row, within a distance, and with a --keep', async () => {
    const result = await balance('reserves', {
      vary: ['squads=4..8', 'target=5..9'],
      metric: 'all.by.4',
      target: '80%',
      within: '15pp',
      keep: ['all.by.3<95%'],
    });
    const t = Fraction.of(4, 5);
    const kept = grid.filter(
      ({ squads, target }) => reservesAllBy(squads, target, 3).compare(Fraction.of(95, 100)) < 0,
    );
    const values = kept.map(({ squads, target }) => ({
      key: `squads=${squads} target=${target}`,
      value: reservesAllBy(squads, target, 4),
    }));
    expect(result.balance.exact).toBe(true);
    expect(result.balance.candidates).toBe(kept.length);
    expect(result.balance.excluded).toBe(grid.length - kept.length);
    expect(result.balance.nearest.map((p) => keyOf(p.params))).toEqual(nearestByScan(values, t));
    expect(result.balance.within?.points.map((p) => keyOf(p.params))).toEqual(
      values.filter(({ value }) => abs(value.sub(t)).compare(Fraction.of(15, 100)) <= 0).map(({ key }) => key),
    );
    expect(result.balance.rows?.map((row) => [row.value, row.nearest.map((p) => keyOf(p.params))])).toEqual(
      squadsList.map((squads) => [
        squads,
        nearestByScan(
          values.filter(({ key }) => key.startsWith(`squads=${squads} `)),
          t,
        ),
      ]),
    );
    // Every neighbouring pair of kept settings on either side of 80%, found by scanning the grid.
    const value = (squads: number, target: number) =>
      values.find(({ key }) => key === `squads=${squads} target=${target}`)?.value;
    let pairs = 0;
    for (const { squads, target } of kept)
      for (const [ds, dt] of [
        [1, 0],
        [0, 1],
      ]) {
        const here = value(squads, target);
        const there = value(squads + ds, target + dt);
        if (here && there && here.compare(t) * there.compare(t) === -1) pairs++;
      }
    expect(result.balance.straddles).toHaveLength(pairs);
    for (const pair of result.balance.straddles) {
      expect(pair.below.value.value).toBeLessThan(0.8);
      expect(pair.above.value.value).toBeGreaterThan(0.8);
    }
  });
});

/** A --target as the test reads it, independently of the module's parser. */
function targetFraction(text: string): Fraction {
  if (text.endsWith('%')) return Fraction.fromDecimal(text.slice(0, -1)).div(Fraction.of(100));
  if (text.includes('/')) {
    const [n, d] = text.split('/');
    return Fraction.of(BigInt(n), BigInt(d));
  }
  return Fraction.fromDecimal(text);
}

describe('sensitivity and cliffs over a 2-D grid against the binomial product', () => {
  it('one step of each parameter from the nearest setting, and every jump above 20 pp', async () => {
    const result = await balance('reserves', {
      vary: ['squads=2..6', 'target=5..9'],
      metric: 'all.by.4',
      target: '3/4',
      cliff: '20pp',
    });
    const value = (squads: number, target: number) => reservesAllBy(squads, target, 4);
    const [fair] = result.balance.nearest;
    const squads = Number(fair.params.squads);
    const target = Number(fair.params.target);
    const steps: Array<[string, number, string]> = [];
    for (const [param, ds, dt, lo, hi] of [
      ['squads', 1, 0, 2, 6],
      ['target', 0, 1, 5, 9],
    ] as const) {
      for (const step of [-1, 1]) {
        const s2 = squads + ds * step;
        const t2 = target + dt * step;
        const moved = param === 'squads' ? s2 : t2;
        if (moved < lo || moved > hi) continue;
        steps.push([param, moved, value(s2, t2).sub(value(squads, target)).toString()]);
      }
    }
    expect(steps.length).toBeGreaterThanOrEqual(2);
    expect(result.balance.sensitivity.map((s) => [s.param, s.to, s.change.fraction])).toEqual(steps);

    const jumps: Array<{ text: string; size: Fraction }> = [];
    for (let s1 = 2; s1 <= 6; s1++)
      for (let t1 = 5; t1 <= 9; t1++)
        for (const [ds, dt, param] of [
          [1, 0, 'squads'],
          [0, 1, 'target'],
        ] as const) {
          if (s1 + ds > 6 || t1 + dt > 9) continue;
          const change = value(s1 + ds, t1 + dt).sub(value(s1, t1));
          if (abs(change).compare(Fraction.of(1, 5)) > 0)
            jumps.push({ text: `${param} ${s1},${t1} ${change}`, size: abs(change) });
        }
    jumps.sort((x, y) => y.size.compare(x.size));
    expect(jumps.length).toBeGreaterThan(3);
    expect(
      result.balance.cliffs.map((c) => `${c.param} ${c.from.squads},${c.from.target} ${c.change.fraction}`),
    ).toEqual(jumps.map((jump) => jump.text));
  });
});

describe('balance of simulated estimates (no exact values)', () => {
  const simulated = (estimate: number) => ({
    estimate,
    lo: estimate - 0.01,
    hi: estimate + 0.01,
    exact: null,
    fraction: null,
  });
  const sweep = {
    vary: [{ name: 'x', values: [1, 2, 3] }],
    points: [
      { params: { x: 1 }, metrics: { p: simulated(0.3) } },
      { params: { x: 2 }, metrics: { p: simulated(0.45) } },
      { params: { x: 3 }, metrics: { p: simulated(0.6) } },
    ],
  };
  const metric = { name: 'p', doc: 'p', probability: true };

  it('compares the estimates, says so, and gives no fractions', () => {
    const block = solveBalance(sweep, {
      metric,
      target: { text: '50%', value: Fraction.of(1, 2) },
      keep: [],
      cliff: { text: '10pp', value: Fraction.of(1, 10) },
      within: null,
    });
    expect(block.exact).toBe(false);
    // |0.45 − 0.5| = 0.05 < |0.6 − 0.5| = 0.1 (as doubles, 0.45 and 0.6 are read exactly: the order holds).
    expect(block.nearest.map((point) => point.params)).toEqual([{ x: 2 }]);
    expect(block.nearest[0].value).toEqual({ value: 0.45, fraction: null });
    expect(block.reach).toBe('between');
    expect(block.straddles.map((pair) => [pair.below.params.x, pair.above.params.x])).toEqual([[2, 3]]);
    // 0.45 − 0.3 and 0.6 − 0.45 are both 15 pp, above the 10 pp cliff.
    expect(block.cliffs.map((cliff) => [cliff.from.x, cliff.to.x])).toEqual([
      [1, 2],
      [2, 3],
    ]);
    expect(block.sensitivity.map((step) => step.to)).toEqual([1, 3]);
  });
});

describe('a balance exact by default solves each point once', () => {
  it('a rule with its own exact(): nothing solved while planning; as --exact answers', async () => {
    const reserves = getRule('reserves');
    const counted = countedExact(reserves);
    const options = { vary: ['squads=1..4', 'command=0..2'], metric: 'all.by.4', target: '0.5' };
    const plan = planBalance(counted.rule, options);
    expect(plan.sweep.settings.method).toBe('exact');
    expect(counted.calls()).toBe(0);
    const byDefault = await evaluateBalance(plan);
    expect(counted.calls()).toBe(12);
    const asked = await evaluateBalance(planBalance(reserves, { ...options, exact: true }));
    expect(byDefault).toEqual(asked);
  });

  it('a rule file enumerated: each point enumerated while planning, its values kept; as --exact answers', async () => {
    const file = await loadRuleFile(join(process.cwd(), 'examples/rules/infinity-steps.mjs'));
    const counted = countedExact(file);
    const options = { vary: ['wipA=10..12', 'wipB=11..13'], metric: 'a.wins', target: '50%' };
    const plan = planBalance(counted.rule, options);
    expect(plan.sweep.settings.method).toBe('exact');
    // Nine points: each enumerated once to learn that all can be, and not solved again.
    expect(counted.calls()).toBe(9);
    const byDefault = await evaluateBalance(plan);
    expect(counted.calls()).toBe(9);
    const asked = await evaluateBalance(planBalance(file, { ...options, exact: true }));
    expect(byDefault).toEqual(asked);
  });
});
