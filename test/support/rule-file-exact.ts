/**
 * What the tests of a rule file's dice share: a rule file made from a spec, its exact values as text, every
 * sequence of faces (the brute-force oracle), the faces a stream's below() draws give as documented, and the check
 * that simulation lands within 5σ of the exact values.
 */
import { expect } from 'vitest';
import type { Rng, Rule } from '../../src/contract/types.js';
import { CHUNK_TRIALS } from '../../src/engine/chunks.js';
import { chunkStream } from '../../src/engine/random.js';
import { runChunks } from '../../src/engine/run-chunks.js';
import { Fraction } from '../../src/exact/fraction.js';
import { ChunkDice } from '../../src/rule-files/dice.js';
import { adaptRuleFile } from '../../src/rule-files/rule.js';
import { resolveParams } from '../../src/rules/params.js';
import { estimateWithTolerance } from './bounds.js';

/** A rule file's rule from the spec a test writes (id and title given). */
export const fileRule = (id: string, title: string, spec: Record<string, unknown>): Rule =>
  adaptRuleFile({ id, title, ...spec }, 'test.mjs');

/** The rule's exact values at the `--set` settings, each as its fraction's text. */
export const exactTexts = (rule: Rule, set: string[] = []): Record<string, string> =>
  Object.fromEntries(
    Object.entries(rule.exact!.values(resolveParams(rule, set))).map(([name, value]) => [name, value.toString()]),
  );

/** n/d reduced, as text. */
export const fractionText = (n: number | bigint, d: number | bigint = 1): string => Fraction.of(n, d).toString();

/** Every sequence of `dice` faces of `sides`, as arrays of faces (a brute-force walk, odometer style). */
export function* faceSequences(dice: number, sides: number): Generator<number[]> {
  const faces = new Array<number>(dice).fill(1);
  for (;;) {
    yield faces;
    let k = 0;
    while (k < dice && faces[k] === sides) faces[k++] = 1;
    if (k === dice) return;
    faces[k]++;
  }
}

/** n dice of `sides` from `rng`'s below() draws, g a draw (sides^g ≤ 4096), least significant digit first. */
export function digitFaces(rng: Rng, n: number, sides: number, group: number): number[] {
  const found: number[] = [];
  for (let left = n; left > 0; left -= group) {
    const size = Math.min(left, group);
    let v = rng.below(sides ** size);
    for (let die = 0; die < size; die++, v = Math.floor(v / sides)) found.push(1 + (v % sides));
  }
  return found;
}

/**
 * On streams 1, 2 and 5: a rule file's dice (ChunkDice) on the stream at (seed, 'rule', chunk 3), and `faces`, the
 * dice a second stream at the same key gives read by the documented digits (digitFaces). `check` calls both in
 * step; after it both streams must stand at the same output, so the dice drew nothing more or less than documented.
 */
export function expectDocumentedDraws(
  seed: string,
  check: (dice: ChunkDice, faces: (n: number, sides: number, group: number) => number[]) => void,
): void {
  for (const stream of [1, 2, 5] as const) {
    const rng = chunkStream(seed, 'rule', 3, stream);
    const reference = chunkStream(seed, 'rule', 3, stream);
    check(new ChunkDice(rng), (n, sides, group) => digitFaces(reference, n, sides, group));
    expect(rng(), `stream ${stream}`).toBe(reference());
  }
}

/** Two chunks of the rule at `set`, seed `seed`, on each stream: every metric within 5σ of its exact value. */
export function expectSimulationNearExact(rule: Rule, seed: string, set: string[], streams: readonly (1 | 5)[]): void {
  const params = resolveParams(rule, set);
  const exact = rule.exact!.values(params);
  const trials = 2 * CHUNK_TRIALS;
  for (const stream of streams) {
    const tally = runChunks(
      { ruleId: rule.id, params, seed, stream, firstChunk: 0, endChunk: 2, totalTrials: trials },
      rule,
    );
    const found = rule.tally.summarize(params, tally, trials);
    for (const metric of rule.metrics(params)) {
      const truth = exact[metric.name].toNumber();
      // 5σ each (bounds.ts): a proportion's σ from its exact p; a mean's from the sample sd the interval carries.
      const { value: seen, tolerance } = estimateWithTolerance(found[metric.name], truth);
      expect(Math.abs(seen - truth), `${metric.name} on stream ${stream}`).toBeLessThanOrEqual(tolerance);
    }
  }
}
