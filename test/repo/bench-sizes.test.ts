/**
 * The "no cliffs" table of `npm run bench` (scripts/bench/sizes.ts) claims to measure every built-in rule at the
 * largest parameters it allows. These checks read its settings only (no timing): every rule has its rows, every
 * row is a legal setting, and the rows marked largest put each integer parameter at the end of its range the
 * table names, for every integer parameter the rule declares, so a parameter added later must be placed too.
 */
import { describe, expect, it } from 'vitest';
import { checkSizeCoverage, SIZES } from '../../scripts/bench/sizes.js';
import { rules } from '../../src/rules/index.js';
import { resolveParams } from '../../src/rules/params.js';

describe('bench sizes table', () => {
  it('has the defaults and a largest row for every built-in rule, and names no other rule', () => {
    expect(() => checkSizeCoverage()).not.toThrow();
    const { fow: _left, ...withoutFow } = SIZES;
    expect(() => checkSizeCoverage(withoutFow)).toThrow(/no defaults and largest rows for fow/);
    expect(() => checkSizeCoverage(SIZES, [...rules, { id: 'newrule' }])).toThrow(/for newrule/);
    expect(() => checkSizeCoverage({ ...SIZES, gone: SIZES.fow })).toThrow(/no built-in rule gone/);
    const noLargest = { ...SIZES, rolloff: { ...SIZES.rolloff, rows: SIZES.rolloff.rows.filter((r) => !r.largest) } };
    expect(() => checkSizeCoverage(noLargest)).toThrow(/for rolloff/);
  });

  for (const rule of rules) {
    const sizes = SIZES[rule.id];
    it(`${rule.id}: every row is a legal setting; the largest rows put every integer parameter at its end`, () => {
      for (const row of sizes.rows) expect(() => resolveParams(rule, row.set), row.set.join(' ')).not.toThrow();
      const integers = rule.params.filter((spec) => spec.type === 'integer');
      expect(Object.keys(sizes.extent).sort()).toEqual(integers.map((spec) => spec.name).sort());
      for (const row of sizes.rows.filter((r) => r.largest)) {
        const params = resolveParams(rule, row.set);
        for (const spec of integers) {
          if (spec.type !== 'integer') continue;
          const end = sizes.extent[spec.name];
          if (typeof end === 'object') continue;
          expect(params[spec.name], `${rule.id} ${spec.name} in ${row.set.join(' ')}`).toBe(spec[end]);
        }
      }
    });
  }

  it('warbands: the largest rows seat the most warbands its parameter allows (8)', () => {
    const warbands = rules.find((rule) => rule.id === 'warbands')!;
    const spec = warbands.params.find((p) => p.name === 'warbands')!;
    expect(spec.type === 'text' && spec.allowed).toMatch(/^2–8 comma-separated/);
    for (const row of SIZES.warbands.rows.filter((r) => r.largest))
      expect(String(resolveParams(warbands, row.set).warbands).split(',')).toHaveLength(8);
  });
});
