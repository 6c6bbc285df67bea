/**
 * The seed systems ported to rule files in the step form, with no exact():
 * their values, found by enumerating their own dice (src/exact/), equal
 * the built-in rules' hand-derived exact() fraction for fraction, at the
 * defaults and at several other points. The built-ins' exact solvers are
 * independent of the enumerator (closed forms and their own recursions),
 * and the ports are written from the rule texts, not from the built-ins'
 * tables. The published figures are checked by name: 145/352 for WIP 13
 * against 15 in Infinity, 648/575 roll-offs in Noctvale.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Rule } from '../../src/contract/types.js';
import { CHUNK_TRIALS } from '../../src/engine/chunks.js';
import { runChunks } from '../../src/engine/run-chunks.js';
import { loadRule } from '../../src/rule-files/load.js';
import { deployment } from '../../src/rules/deployment/deployment.js';
import { fow } from '../../src/rules/fow/fow.js';
import { infinity } from '../../src/rules/infinity/infinity.js';
import { noctvale } from '../../src/rules/noctvale.js';
import { resolveParams } from '../../src/rules/params.js';
import { reserves } from '../../src/rules/reserves/reserves.js';
import { warbands } from '../../src/rules/warbands/warbands.js';
import { estimate } from '../../src/stats/estimate.js';

const example = (name: string) => fileURLToPath(new URL(`../../examples/rules/${name}.mjs`, import.meta.url));

/** Every metric of the port, as a fraction string, beside the built-in's value for the same name. */
function bothExact(
  port: Rule,
  builtIn: Rule,
  set: string[],
): { port: Record<string, string>; builtIn: Record<string, string> } {
  const ported = port.exact!.values(resolveParams(port, set));
  const solved = builtIn.exact!.values(resolveParams(builtIn, set));
  const names = Object.keys(ported);
  return {
    port: Object.fromEntries(names.map((name) => [name, ported[name].toString()])),
    builtIn: Object.fromEntries(
      names.map((name) => [name, solved[name]?.toString() ?? `(no ${name} in ${builtIn.id})`]),
    ),
  };
}

function expectSameAsBuiltIn(port: Rule, builtIn: Rule, settings: string[][]): void {
  expect(port.exact?.by).toBe('enumeration');
  for (const set of settings) {
    const { port: ported, builtIn: solved } = bothExact(port, builtIn, set);
    expect(ported, set.join(' ') || 'defaults').toEqual(solved);
  }
}

describe('Infinity Initiative Roll, step form (examples/rules/infinity-steps.mjs)', () => {
  it('WIP 13 against 15: A wins 145/352', async () => {
    const port = await loadRule(example('infinity-steps'));
    expect(port.exact!.values(resolveParams(port, ['wipB=15']))['a.wins'].toString()).toBe('145/352');
  });

  it("equals the built-in's exact() at every point tried, with and without criticals, above WIP 20", async () => {
    const port = await loadRule(example('infinity-steps'));
    expectSameAsBuiltIn(port, infinity, [
      [],
      ['wipB=15'],
      ['wipA=1', 'wipB=1'],
      ['wipA=20', 'wipB=7'],
      ['wipA=24', 'wipB=30'],
      ['wipA=11', 'wipB=16', 'crits=false'],
      ['wipA=25', 'wipB=22', 'crits=false'],
    ]);
  });
});

describe('Genesys reserves, step form (examples/rules/reserves-steps.mjs)', () => {
  const settings = [
    [],
    ['chosenRound=2', 'command=3', 'leaderLoss=0.25', 'fallbackCommand=1'],
    ['squads=3', 'rounds=5', 'target=8', 'chosenRound=1'],
    ['firstRound=2', 'chosenRound=3', 'leaderLoss=0.15', 'command=3', 'fallbackCommand=1'],
    ['squads=20', 'rounds=12', 'chosenRound=3', 'leaderLoss=0.15', 'command=3', 'fallbackCommand=1'],
    ['squads=7', 'target=12', 'chosenRound=4', 'leaderLoss=1', 'command=5', 'fallbackCommand=2'],
  ];

  it("equals the built-in's exact() for every metric it reports (the built-in adds atLeast.k.by.r)", async () => {
    const port = await loadRule(example('reserves-steps'));
    expectSameAsBuiltIn(port, reserves, settings);
  });

  it('simulates like the built-in: within 5σ of the exact values (seed "steps", stream 3)', async () => {
    const port = await loadRule(example('reserves-steps'));
    const params = resolveParams(port, settings[1]);
    const trials = 2 * CHUNK_TRIALS;
    const tally = runChunks(
      { ruleId: port.id, params, seed: 'steps', stream: 3, firstChunk: 0, endChunk: 2, totalTrials: trials },
      port,
    );
    const found = port.tally.summarize(params, tally, trials);
    const exact = port.exact!.values(params);
    for (const metric of port.metrics(params)) {
      const { estimate: value, lo, hi } = estimate(found[metric.name], 0.95);
      // σ from the interval's own width (Wilson or the sample sd); 5σ: a false alarm once in 1.7 million.
      const sigma = (hi - lo) / (2 * 1.959963984540054);
      expect(Math.abs(value - exact[metric.name].toNumber()), metric.name).toBeLessThanOrEqual(5 * sigma + 1e-12);
    }
  });
});

describe('Noctvale roll-offs, step form (examples/rules/noctvale-steps.mjs)', () => {
  it('equal counts: 648/575 roll-offs (a tie is 146/1296, so 1296/1150), A has initiative 1/2', async () => {
    const port = await loadRule(example('noctvale-steps'));
    const values = port.exact!.values(resolveParams(port, []));
    expect([values['rolloffs.mean'].toString(), values['a.initiative'].toString()]).toEqual(['648/575', '1/2']);
  });

  it("equals the built-in's exact() at every point tried", async () => {
    const port = await loadRule(example('noctvale-steps'));
    expectSameAsBuiltIn(port, noctvale, [
      [],
      ['fightersA=5', 'fightersB=9'],
      ['fightersA=12', 'fightersB=2', 'groups=4'],
      ['fightersA=2', 'fightersB=2', 'groups=5'],
      ['fightersA=7', 'fightersB=7', 'groups=10'],
    ]);
  });
});

describe('Mordheim setup, step form (examples/rules/warbands-steps.mjs)', () => {
  // The port takes each warband's rating and models as parameters; the built-in, one text.
  const points: Array<{ port: string[]; builtIn: string[] }> = [
    { port: [], builtIn: [] },
    { port: ['rating2=152', 'models2=9'], builtIn: ['warbands=152:9,152:9,120:8'] },
    { port: ['defender=false'], builtIn: ['defender=false'] },
    {
      port: ['count=4', 'rating2=152', 'models2=9', 'rating3=152', 'models3=9', 'rating4=90'],
      builtIn: ['warbands=152:9,152:9,152:9,90:8'],
    },
    {
      port: ['count=4', 'defender=false', 'rating4=30'],
      builtIn: ['warbands=152:9,148:11,120:8,30:8', 'defender=false'],
    },
    { port: ['count=2', 'rating2=152', 'models2=9'], builtIn: ['warbands=152:9,152:9'] },
  ];

  it(
    "equals the built-in's exact() at every point tried: defender ties, no defender, four warbands, an " + 'underdog',
    async () => {
      const port = await loadRule(example('warbands-steps'));
      expect(port.exact?.by).toBe('enumeration');
      for (const point of points) {
        const ported = port.exact!.values(resolveParams(port, point.port));
        const solved = warbands.exact!.values(resolveParams(warbands, point.builtIn));
        const names = Object.keys(solved);
        expect(Object.keys(ported).sort(), point.port.join(' ')).toEqual([...names].sort());
        expect(
          Object.fromEntries(names.map((name) => [name, ported[name].toString()])),
          point.port.join(' ') || 'defaults',
        ).toEqual(Object.fromEntries(names.map((name) => [name, solved[name].toString()])));
      }
    },
  );
});

describe('Genesys deployment, the forward gamble, step form (examples/rules/deployment-steps.mjs)', () => {
  it(
    "equals the built-in's exact() at every point tried: forward against standard and forward, both " + 'readings',
    async () => {
      const port = await loadRule(example('deployment-steps'));
      expectSameAsBuiltIn(port, deployment, [
        [],
        ['a=forward:4', 'b=forward:2'],
        ['a=forward:3', 'b=forward:3', 'compare=modified'],
        ['a=standard:1,3,5', 'b=forward:6', 'edges=long', 'squadsA=7', 'perTurn=3'],
        ['a=forward:5', 'b=standard:2,3,6', 'aocSides=false', 'squadsB=9'],
      ]);
    },
  );
});

describe('Flames of War reserves, step form (examples/rules/fow-steps.mjs)', () => {
  it(
    "equals the built-in's exact() at every point tried (the built-in also takes a scatter map; the port keeps " +
      'the default)',
    async () => {
      const port = await loadRule(example('fow-steps'));
      expectSameAsBuiltIn(port, fow, [
        [],
        ['attackerReserves=5', 'defenderStart=2', 'hit=4'],
        ['guarantee=0', 'turns=5', 'endTurn=8', 'ambush=false', 'defenderReserves=6'],
        ['attackerPlatoons=11', 'defenderPlatoons=3', 'attackerStart=3', 'guarantee=2'],
      ]);
    },
  );
});

describe("the trial form on the examples' own trials: enumeration equals their hand-written exact()", () => {
  it(
    'deployment-gamble.mjs (a re-roll spent by policy) and roll-off-reroll.mjs (defender wins ties: a finite ' +
      'trial)',
    async () => {
      const cases: Array<[string, string[][]]> = [
        [
          'deployment-gamble',
          [[], ['units=4', 'reroll=failures'], ['forwardOn=5', 'disasterOn=2', 'initiativeLoss=1', 'reroll=none']],
        ],
        [
          'roll-off-reroll',
          [
            ['ties=defender-wins'],
            ['ties=defender-wins', 'policy=behind-or-tied', 'bonusA=1'],
            ['ties=defender-wins', 'token=false', 'sides=10'],
          ],
        ],
      ];
      for (const [name, settings] of cases) {
        const file = await loadRule(example(name));
        for (const set of settings) {
          const params = resolveParams(file, set);
          const asText = (values: Record<string, { toString(): string }>) =>
            Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v.toString()]));
          expect(asText(file.exact!.enumerate!(params)), `${name} ${set.join(' ')}`).toEqual(
            asText(file.exact!.values(params)),
          );
        }
      }
    },
  );
});
