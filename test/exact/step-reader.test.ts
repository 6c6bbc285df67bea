/**
 * A step's out is read (src/rule-files/steps.ts, stepReader) after every run of every path of a step-form walk.
 * Most steps write nothing, which a compiled check of each metric's two fields tells at once; what a step wrote
 * is still read, checked and reset by readOut (tally.ts). Expected values written by hand.
 */
import { describe, expect, it } from 'vitest';
import type { MetricSpec } from '../../src/contract/types.js';
import { stepOut, stepReader } from '../../src/rule-files/steps.js';

const metrics = [
  { name: 'lost.mean', doc: '', probability: false },
  { name: 'all "out"', doc: '', probability: false },
  { name: 'won', doc: '', probability: true },
] as MetricSpec[];

function reader() {
  const added: Array<[number, number]> = [];
  const failed: string[] = [];
  const read = stepReader(
    metrics,
    (index, value) => added.push([index, value]),
    (what) => {
      failed.push(what);
      throw new Error(what);
    },
    false,
  );
  return { read, added, failed, out: stepOut(metrics) };
}

describe('stepReader', () => {
  it('nothing written, or -0: nothing added', () => {
    const { read, added, out } = reader();
    read(out);
    out['lost.mean'] = -0;
    out[1] = -0;
    read(out);
    expect(added).toEqual([]);
  });

  it('a mean by name, by position, a name with quotes in it: added, and out reset to 0', () => {
    const { read, added, out } = reader();
    out['lost.mean'] = 0.5;
    out[0] = 2;
    out['all "out"'] = 3;
    read(out);
    expect(added).toEqual([
      [0, 0.5],
      [0, 2],
      [1, 3],
    ]);
    expect([out['lost.mean'], out[0], out['all "out"'], out[1]]).toEqual([0, 0, 0, 0]);
    read(out);
    expect(added.length).toBe(3);
  });

  it('a probability, or a mean that is not a number: refused in one line', () => {
    const { read, failed, out } = reader();
    out.won = 1;
    expect(() => read(out)).toThrow();
    out[1] = 'x';
    expect(() => read(out)).toThrow();
    expect(failed).toEqual([
      'step wrote the probability "won"; allowed: in a step, means only (what steps write adds up); write ' +
        'probabilities in report(state, params, out)',
      'metric "all \\"out\\"": got "x" from step; allowed: a finite number (a mean)',
    ]);
  });
});
