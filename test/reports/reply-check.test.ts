/**
 * What the page accepts from a rule's sandbox (src/page/workbench/reply-check.ts): replies written here by hand,
 * as a harness taken over by the rule's code could post them. The true values are worked by hand (one die of six
 * faces: 1/6 for its highest face, the double nearest 1/6 printed beside it); every forged one is refused with a line
 * naming what was wrong, and none is left unanswered (null is only a reply to an older request).
 */
import { describe, expect, it } from 'vitest';
import { checkedReply, type Expected, MAX_FRACTION_DIGITS } from '../../src/page/workbench/reply-check.js';

const expected = (trials: number | null = null): Expected => ({ id: 2, trials, done: 0 });

/** An honest answer for one probability metric `high` (a d6 showing 6) and one count `pips` (its mean, 7/2). */
function answered(
  overrides: { high?: Record<string, unknown>; pips?: Record<string, unknown>; fractions?: unknown } = {},
) {
  return {
    kind: 'answered',
    id: 2,
    params: { sides: 6 },
    fieldErrors: [],
    formErrors: [],
    forced: false,
    answer: {
      result: {
        metrics: {
          high: { estimate: null, lo: null, hi: null, exact: 1 / 6, fraction: '1/6', ...overrides.high },
          pips: { estimate: null, lo: null, hi: null, exact: 3.5, fraction: '7/2', ...overrides.pips },
        },
      },
      fractions:
        'fractions' in overrides
          ? overrides.fractions
          : [
              ['high', 1n, 6n],
              ['pips', 7n, 2n],
            ],
      metrics: [
        { name: 'high', doc: 'a six', probability: true },
        { name: 'pips', doc: 'the face', probability: false },
      ],
      headline: null,
      readings: [],
    },
  };
}

const refusal = (data: unknown, expecting = expected()) => {
  const checked = checkedReply(data, expecting);
  return checked && 'refused' in checked ? checked.refused : null;
};

describe('replies the page can check', () => {
  it('an honest answer is accepted as it is', () => {
    const data = answered();
    expect(checkedReply(data, expected())).toEqual({ reply: data });
    // A probability on the edges of [0, 1] is one; an unreduced fraction is read reduced.
    const edges = answered({
      high: { exact: 1, fraction: '1' },
      fractions: [
        ['high', 6n, 6n],
        ['pips', 14n, 4n],
      ],
    });
    expect(refusal(edges)).toBeNull();
  });

  it('a probability outside [0, 1], as a fraction or as any decimal, is refused', () => {
    expect(refusal(answered({ high: { exact: 2.5, fraction: '5/2' }, fractions: [['high', 5n, 2n]] }))).toBe(
      'high: a probability of 2.5, outside [0, 1]',
    );
    expect(refusal(answered({ high: { exact: -0.5, fraction: '-1/2' } }))).toBe(
      'high: a probability of -0.5, outside [0, 1]',
    );
    expect(refusal(answered({ high: { estimate: 1.2 } }))).toBe('high: a probability of 1.2, outside [0, 1]');
    expect(refusal(answered({ high: { lo: -0.01 } }))).toBe('high: a probability of -0.01, outside [0, 1]');
    // 5/2 as a fraction beside an honest-looking decimal: refused by its fraction.
    expect(
      refusal(
        answered({
          fractions: [
            ['high', 5n, 2n],
            ['pips', 7n, 2n],
          ],
        }),
      ),
    ).toBe('high: a probability of 5/2, outside [0, 1]');
    // A count is not a probability: 7/2 stands; but no decimal may be infinite or not a number.
    expect(refusal(answered({ pips: { exact: Number.POSITIVE_INFINITY } }))).toBe('pips: exact is not a finite number');
    expect(refusal(answered({ pips: { estimate: '3.5' } }))).toBe('pips: estimate is not a finite number');
  });

  it('a fraction that disagrees with its decimal or its printed form is refused', () => {
    expect(refusal(answered({ high: { exact: 0.17 } }))).toBe('high: the fraction 1/6 printed as the decimal 0.17');
    expect(refusal(answered({ high: { fraction: '1/7' } }))).toBe('high: the fraction 1/6 printed as 1/7');
    // An exact value with no fraction to check it by, a fraction for no metric, a zero denominator.
    expect(refusal(answered({ fractions: [['high', 1n, 6n]] }))).toBe('pips: an exact value without its fraction');
    expect(refusal(answered({ fractions: null }))).toBe('high: an exact value without its fraction');
    expect(
      refusal(
        answered({
          fractions: [
            ['high', 1n, 6n],
            ['pips', 7n, 2n],
            ['ghost', 1n, 2n],
          ],
        }),
      ),
    ).toBe('ghost: an exact value for no metric');
    expect(refusal(answered({ fractions: [['high', 1n, 0n]] }))).toBe(
      'high: a fraction whose denominator is not positive',
    );
    expect(refusal(answered({ fractions: [['high', 1, 6]] }))).toBe(
      'an exact value that is not [name, numerator, denominator]',
    );
  });

  it('a fraction of 300,000 digits is refused at once, by its size', () => {
    const huge = 10n ** 300_000n;
    const started = performance.now();
    expect(refusal(answered({ fractions: [['high', huge, huge + 1n]] }))).toBe(
      `high: a fraction of more than ${MAX_FRACTION_DIGITS.toLocaleString('en-US')} digits`,
    );
    // Reducing it (what froze the page) takes seconds; comparing it with the limit, microseconds. 1 s is far above
    // the check on any machine and far below the reduction on this one.
    expect(performance.now() - started).toBeLessThan(1000);
    // The limit itself: MAX_FRACTION_DIGITS digits are allowed, one more are not.
    const largest = 10n ** BigInt(MAX_FRACTION_DIGITS) - 1n;
    const within = answered({
      high: { exact: 1, fraction: '1' },
      fractions: [
        ['high', largest, largest],
        ['pips', 7n, 2n],
      ],
    });
    expect(refusal(within)).toBeNull();
  });

  it('progress only forward, only up to the trials asked, and only where something is simulated', () => {
    const asked = expected(1000);
    const progress = (done: unknown, total: unknown = 1000) => ({ kind: 'progress', id: 2, done, total });
    expect(refusal(progress(400), asked)).toBeNull();
    expect(refusal(progress(400), asked)).toBe('progress to 400 after 400 of 1000 trials');
    expect(refusal(progress(100), asked)).toBe('progress to 100 after 400 of 1000 trials');
    expect(refusal(progress(1001), asked)).toBe('progress to 1001 after 400 of 1000 trials');
    expect(refusal(progress(500.5), asked)).toBe('progress to 500.5 after 400 of 1000 trials');
    expect(refusal(progress(500, 1e9), asked)).toBe('progress of 1000000000 trials where 1000 were asked');
    expect(refusal(progress(1000), asked)).toBeNull();
    expect(refusal(progress(1), expected(null))).toBe('progress where nothing is simulated');
    // Two million reports: only as many are taken as there are trials, each further than the last; the flood
    // itself is refused at its first repeat.
    const flood = expected(1000);
    let accepted = 0;
    let refused = 0;
    for (let index = 0; index < 2_000_000; index++) {
      if (refusal(progress((index % 1000) + 1), flood)) refused++;
      else accepted++;
    }
    expect(accepted).toBe(1000);
    expect(refused).toBe(2_000_000 - 1000);
  });

  it('malformed replies are refused with a line; only a reply to an older request is passed over', () => {
    const cases: Array<[unknown, string]> = [
      [null, 'a reply that is not one of the page’s'],
      [[1, 2], 'a reply that is not one of the page’s'],
      [{ kind: 'answered' }, 'a reply to no request'],
      [{ kind: 'forged', id: 2 }, 'a reply of a kind the page does not know'],
      [{ kind: 'fault', id: 2 }, 'a fault without its message'],
      [{ kind: 'loaded', id: 2, rule: { params: 'x' } }, 'a rule description that is not one'],
      [{ ...answered(), fieldErrors: [['a']] }, 'field errors that are not pairs of texts'],
      [{ ...answered(), formErrors: [1] }, 'form errors that are not texts'],
      [{ ...answered(), forced: 'no' }, 'an answer without its method'],
      [{ ...answered(), answer: [] }, 'an answer that is not one'],
      [{ ...answered(), answer: { ...answered().answer, result: {} } }, 'a result without its metrics'],
      [{ ...answered(), answer: { ...answered().answer, headline: [1] } }, 'a headline that is not texts'],
      [{ ...answered(), answer: { ...answered().answer, readings: [{}] } }, 'readings that are not texts'],
      [{ ...answered(), answer: { ...answered().answer, metrics: [{}] } }, 'metric descriptions that are not ones'],
    ];
    for (const [data, line] of cases)
      expect(
        refusal(data),
        JSON.stringify(data, (_, v) => String(v)),
      ).toBe(line);
    expect(checkedReply({ ...answered(), id: 1 }, expected())).toBeNull();
  });
});
