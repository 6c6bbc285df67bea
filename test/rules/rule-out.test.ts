/**
 * What a rule file's trial writes into `out`, read one way (readOut,
 * src/rule-files/tally.ts) by simulation and by enumeration: the same
 * bad `out` is refused by both, in the same words but for where it was seen
 * ("in trial 1 of a chunk" or "from trial (while enumerating)"), and a value
 * written by name and by position is one value of the trial
 * (docs/custom-rules.md: "out[k] = value writes the k-th metric — the same
 * thing"), so a probability can never pass 100%.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Rule } from '../../src/contract/types.js';
import { TycheStream } from '../../src/engine/random.js';
import { UsageError } from '../../src/errors.js';
import { adaptRuleFile } from '../../src/rule-files/rule.js';
import { cli, scratchFolder } from '../support/cli.js';

const ORIGIN = './out.mjs';
const WHERE = `${ORIGIN} (rule out)`;

type Out = Record<string, unknown>;
const metrics = [
  { name: 'p', probability: true },
  { name: 'm', probability: false },
];

/** A trial-form rule that rolls one d2 and then writes what `write` says. */
const trialRule = (write: (out: Out, face: number) => void, list = metrics): Rule =>
  adaptRuleFile(
    {
      id: 'out',
      title: 'out',
      metrics: list,
      trial(dice: { d(sides: number): number }, _params: unknown, out: Out) {
        write(out, dice.d(2));
      },
    },
    ORIGIN,
  );

/** A step-form rule of one step (a d2), whose report writes what `write` says. */
const stepRule = (write: (out: Out, face: number) => void): Rule =>
  adaptRuleFile(
    {
      id: 'out',
      title: 'out',
      metrics,
      start: () => 0,
      step: (_state: number, dice: { d(sides: number): number }) => dice.d(2),
      done: (state: number) => state !== 0,
      report: (state: number, _params: unknown, out: Out) => write(out, state),
    },
    ORIGIN,
  );

/** The one line each way of answering throws, or null where it answers. */
function errors(rule: Rule): { simulated: string | null; enumerated: string | null } {
  const message = (run: () => unknown): string | null => {
    try {
      run();
      return null;
    } catch (error) {
      expect(error).toBeInstanceOf(UsageError);
      return (error as Error).message;
    }
  };
  return {
    simulated: message(() => rule.tally.simulate({}, new TycheStream('out').random, 64, new Float64Array(5))),
    enumerated: message(() => rule.exact?.values({})),
  };
}

// Each case: what the trial (or report) writes, the one line after the file and rule without where it was seen.
const cases: Array<[string, (out: Out, face: number) => void, string]> = [
  [
    'a probability of 0.5',
    (out) => {
      out.p = 0.5;
    },
    'metric "p": got 0.5 @; allowed: 0, 1, false or true (a probability)',
  ],
  [
    'a probability as text',
    (out) => {
      out[0] = 'yes';
    },
    'metric "p": got "yes" @; allowed: 0, 1, false or true (a probability)',
  ],
  [
    'a probability of 1 by name and 1 by position: 2 in one trial',
    (out, face) => {
      out.p = 1;
      out[0] = face >= 1;
    },
    'metric "p": got 2 (out["p"] and out[0] together) @; allowed: 0, 1, false or true (a probability)',
  ],
  [
    'a mean of NaN',
    (out) => {
      out.m = Number.NaN;
    },
    'metric "m": got NaN @; allowed: a finite number (a mean)',
  ],
  [
    'a mean as a boolean',
    (out) => {
      out[1] = true;
    },
    'metric "m": got true @; allowed: a finite number (a mean)',
  ],
];

describe('one reader of out: simulation and enumeration refuse the same bad value in the same words', () => {
  for (const [title, write, text] of cases) {
    it(`trial form: ${title}`, () => {
      const { simulated, enumerated } = errors(trialRule(write));
      expect(simulated).toBe(`${WHERE}: ${text.replace('@', 'in trial 1 of a chunk')}`);
      expect(enumerated).toBe(`${WHERE}: ${text.replace('@', 'from trial (while enumerating)')}`);
    });
    it(`step form, in report: ${title}`, () => {
      const { simulated, enumerated } = errors(stepRule(write));
      expect(simulated).toBe(`${WHERE}: ${text.replace('@', 'in trial 1 of a chunk')}`);
      expect(enumerated).toBe(`${WHERE}: ${text.replace('@', 'from report (while enumerating)')}`);
    });
  }

  it('where code generation is forbidden, the interpreted loop refuses each in the same line', () => {
    // A third metric gives these rules their own loop: loops are compiled once per list of metric names.
    const list = [...metrics, { name: 'unused', probability: false }];
    const realFunction = globalThis.Function;
    globalThis.Function = function forbidden() {
      throw new EvalError('Refused to evaluate a string as JavaScript');
    } as unknown as FunctionConstructor;
    try {
      for (const [, write, text] of cases) {
        const rule = trialRule(write, list);
        expect(() => rule.tally.simulate({}, new TycheStream('out').random, 64, new Float64Array(9))).toThrow(
          new UsageError(`${WHERE}: ${text.replace('@', 'in trial 1 of a chunk')}`),
        );
      }
    } finally {
      globalThis.Function = realFunction;
    }
  });

  it('a rule that counts outcomes, its read writing a bad value: named with the outcome both ways', () => {
    const rule = adaptRuleFile(
      {
        id: 'out',
        title: 'out',
        metrics,
        outcomes: () => 2,
        read: (outcome: number, _params: unknown, out: Out) => {
          out.p = outcome === 1 ? 0.5 : 0;
        },
        trial: (dice: { d(sides: number): number }) => dice.d(2) - 1,
      },
      ORIGIN,
    );
    const { simulated, enumerated } = errors(rule);
    const text = 'metric "p": got 0.5 from read(outcome 1)@; allowed: 0, 1, false or true (a probability)';
    expect(simulated).toBe(`${WHERE}: ${text.replace('@', '')}`);
    expect(enumerated).toBe(`${WHERE}: ${text.replace('@', ' (while enumerating)')}`);
  });

  it('a step that writes a probability, or a mean that is not a number: the same line both ways', () => {
    const stepWrites = (write: (out: Out) => void) =>
      adaptRuleFile(
        {
          id: 'out',
          title: 'out',
          metrics,
          start: () => 0,
          step: (_state: number, dice: { d(sides: number): number }, _params: unknown, out: Out) => {
            write(out);
            return dice.d(2);
          },
          done: (state: number) => state !== 0,
          report: () => {},
        },
        ORIGIN,
      );
    const probability = errors(
      stepWrites((out) => {
        out[0] = false;
      }),
    );
    const refused =
      `${WHERE}: step wrote the probability "p"; allowed: in a step, means only (what steps write adds up); ` +
      'write probabilities in report(state, params, out)';
    expect(probability).toEqual({ simulated: refused, enumerated: refused });
    const notNumber = errors(
      stepWrites((out) => {
        out.m = '1';
      }),
    );
    const line = `${WHERE}: metric "m": got "1" from step; allowed: a finite number (a mean)`;
    expect(notNumber).toEqual({ simulated: line, enumerated: line });
  });

  it('a step that writes a name that is not a metric: the same line both ways, from any trial of a chunk', () => {
    // Steps are looked at once a chunk in simulation (rule-files/steps.ts): a write in the chunk's last trial counts.
    const stepStray = (writeOnStep: (step: number) => boolean) => {
      let steps = 0;
      return adaptRuleFile(
        {
          id: 'out',
          title: 'out',
          metrics,
          start: () => 0,
          step: (_state: number, dice: { d(sides: number): number }, _params: unknown, out: Out) => {
            if (writeOnStep(++steps)) out.q = 1;
            return dice.d(2);
          },
          done: (state: number) => state !== 0,
          report: () => {},
        },
        ORIGIN,
      );
    };
    const line = `${WHERE}: step wrote out["q"], which is not a metric; allowed: p, m (or their positions 0 to 1)`;
    expect(errors(stepStray(() => true))).toEqual({ simulated: line, enumerated: line });
    // errors() simulates 64 trials of one step each: the 64th step is the chunk's last trial.
    expect(errors(stepStray((step) => step === 64)).simulated).toBe(line);
    expect(errors(stepStray((step) => step === 65)).simulated).toBe(null);
  });

  it('a name that is not a metric, or out treated as something else: the same line both ways', () => {
    const stray = (field: string) =>
      `${WHERE}: trial wrote out[${JSON.stringify(field)}], which is not a metric; allowed: p, m (or their ` +
      'positions 0 to 1)';
    const writes: Array<[(out: Out) => void, string]> = [
      [(out) => (out.q = 1), 'q'],
      [(out) => (out[2] = 1), '2'],
      // out is one kind of object in both: cutting its length, or pushing onto it, does the same to each.
      [(out) => (out.length = 0), 'length'],
      [(out) => (out as unknown as unknown[]).push(1), '2'],
    ];
    for (const [write, field] of writes) {
      const { simulated, enumerated } = errors(trialRule(write));
      expect(simulated).toBe(stray(field));
      expect(enumerated).toBe(stray(field));
    }
  });

  it('a rule that counts outcomes and also writes out: the same line both ways, naming the field', () => {
    const rule = adaptRuleFile(
      {
        id: 'out',
        title: 'out',
        metrics,
        outcomes: () => 2,
        read: (outcome: number, _params: unknown, out: Out) => {
          out.p = outcome;
        },
        trial(dice: { d(sides: number): number }, _params: unknown, out: Out) {
          out[1] = 3;
          return dice.d(2) - 1;
        },
      },
      ORIGIN,
    );
    const { simulated, enumerated } = errors(rule);
    const line =
      `${WHERE}: trial wrote out[1] while the rule counts outcomes; allowed: return the outcome, and write its ` +
      'metrics in read(outcome, params, out)';
    expect(simulated).toBe(line);
    expect(enumerated).toBe(line);
  });
});

describe('a value written by name and by position is one value of the trial', () => {
  it('a probability written as 1 and false (or true and 0) is 1, and its share is exact', () => {
    const rule = trialRule((out, face) => {
      out.p = face === 1;
      out[0] = 0;
      if (face === 2) out[0] = 1;
      out.m = 0;
    });
    expect(rule.exact?.values({}).p.toString()).toBe('1');
    const tally = new Float64Array(5);
    rule.tally.simulate({}, new TycheStream('out').random, 1000, tally);
    expect(tally[0]).toBe(1000);
  });

  it('seed "twice": a mean written as x by name and x by position counts as 2x, squared as (2x)²', () => {
    // The oracle: the same dice, the value written once. Both simulate on one key, so every tally entry,
    // and with them the mean and its interval, must agree bit for bit.
    const twice = trialRule((out, face) => {
      out.m = face;
      out[1] = face;
    });
    const once = trialRule((out, face) => {
      out.m = 2 * face;
    });
    const tallies = [twice, once].map((rule) => {
      const tally = new Float64Array(rule.tally.length({}));
      rule.tally.simulate({}, new TycheStream('twice').random, 65_536, tally);
      return rule.tally.summarize({}, tally, 65_536);
    });
    expect(tallies[0]).toEqual(tallies[1]);
    // 2·d2 is 2 (a trials) or 4 (b trials): Σ v = 2a + 4b and Σ v² = 4a + 16b = 6·Σ v − 8·(a + b), by hand.
    const m = tallies[0].m as { kind: 'mean'; sum: number; sumOfSquares: number; count: number };
    expect(m.sumOfSquares).toBe(6 * m.sum - 8 * 65_536);
    expect(twice.exact?.values({}).m.toString()).toBe('3');
  });
});

describe('from the command line', () => {
  const folder = scratchFolder('rule-out');
  const path = join(folder, 'twice.mjs');
  writeFileSync(
    path,
    `export default { id: 'twice', title: 'twice', metrics: [{ name: 'p', probability: true }],
  trial(dice, params, out) { out.p = 1; out[0] = dice.d(2) === 1; } };\n`,
  );
  for (const [flags, at] of [
    [['--trials', '1000'], 'in trial 1 of a chunk'],
    [['--exact'], 'from trial (while enumerating)'],
  ] as const) {
    it(`run ${flags.join(' ')}: one line, exit 2`, async () => {
      const result = await cli('run', path, ...flags);
      expect(result.status).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        `muster: ${path} (rule twice): metric "p": got 2 (out["p"] and out[0] together) ${at}; allowed: 0, 1, ` +
          'false or true (a probability)\n',
      );
    });
  }
});
