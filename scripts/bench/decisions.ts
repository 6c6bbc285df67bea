/**
 * `npm run bench:decisions`: best play solved exactly (src/exact/decisions.ts) on a looping decision chain of
 * about 300 states — a race of `length` squares where each turn the player moves one square safely, or rolls a
 * d6 and moves that far, a 1 sending them back to the start; they play to finish in the fewest turns (3 states
 * a square: the decision, and a step of each option). Every
 * state can return to the start, so the whole chain is one loop, solved by policy iteration with exact linear
 * solves. Printed: the time to explore and solve best play, and beside it the time to solve the chain once with
 * every decision fixed (the rule's "always roll" play written without choices), measured in the same run; the
 * ratio is what deciding costs over one exact solve. Then the Genesys reserves call (§6.5: the chosen reserve round
 * called at the start of a round, seeing squads out and the commander) at 20 squads over 12 rounds, leader loss 0.1:
 * the built-in `chosenRound=call` (src/rules/reserves/call.ts, a backward recursion, every fixed round beside it)
 * and its step-form port examples/rules/reserves-call-steps.mjs (states explored, best play solved by
 * src/exact/decisions.ts, every metric under it), each with the same objective, whose values must agree. Times are
 * CPU seconds of this process (a busy machine's wall clock says little). The targets: best play of the 300-state
 * chain (100 squares) and the reserves call at 20 squads, 12 rounds, each under a second.
 *
 * Not a test: timings on a shared machine vary, so nothing here fails.
 */
import { solveCall } from '../../src/analysis/reserves-call.js';
import { renderTable } from '../../src/cli/format.js';
import type { Rule } from '../../src/contract/types.js';
import { adaptRuleFile } from '../../src/rule-files/rule.js';
import { resolveParams } from '../../src/rules/params.js';
import { reserves } from '../../src/rules/reserves/reserves.js';

const RUNS = 1;

type Square = { at: number; phase?: string; home?: boolean };

function race(length: number, decide: boolean): Rule {
  const move = (at: number) => (at >= length ? { at: length, home: true } : { at });
  return adaptRuleFile(
    {
      id: 'race',
      title: 'race',
      metrics: [
        { name: 'turns', probability: false, doc: 'turns to finish' },
        { name: 'home', probability: true, doc: 'finished' },
      ],
      objective: decide ? 'turns' : undefined,
      start: () => ({ at: 0 }),
      ...(decide
        ? {
            choices: (s: Square) => (s.phase === undefined ? { side: 'b', options: ['step', 'roll'] } : null),
            choose: (s: Square, option: string) => ({ at: s.at, phase: option }),
          }
        : {}),
      step(s: Square, dice: { d(n: number): number }, _p: unknown, out: Record<string, unknown>) {
        out.turns = 1;
        if (decide && s.phase === 'step') return move(s.at + 1);
        const face = dice.d(6);
        return face === 1 ? { at: 0 } : move(s.at + face);
      },
      done: (s: Square) => s.home === true,
      report: (s: Square, _p: unknown, out: Record<string, unknown>) => {
        out.home = s.home === true;
      },
    },
    'race.mjs',
  );
}

function timed(fn: () => void): number {
  const started = process.cpuUsage();
  fn();
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1e6;
}

const rows: string[][] = [];
for (const length of [25, 50, 100]) {
  let best = Number.POSITIVE_INFINITY;
  let fixed = Number.POSITIVE_INFINITY;
  let states = 0;
  let value = '';
  for (let run = 0; run < RUNS; run++) {
    // A fresh rule each run: rules keep what they enumerated.
    const deciding = race(length, true);
    const once = race(length, false);
    best = Math.min(
      best,
      timed(() => {
        const decisions = (deciding.exact!.decisions as Function)(resolveParams(deciding, []));
        states = decisions.policy.length * 3;
        value = decisions.value.toNumber().toFixed(4);
      }),
    );
    fixed = Math.min(
      fixed,
      timed(() => (once.exact!.values as Function)(resolveParams(once, []))),
    );
  }
  rows.push([
    `race of ${length} squares`,
    `${states}`,
    value,
    `${best.toFixed(3)} s`,
    `${fixed.toFixed(3)} s`,
    `${(best / fixed).toFixed(1)}×`,
  ]);
}
process.stdout.write(renderTable(['chain', 'states', 'best turns', 'best play', 'one fixed play', 'ratio'], rows, 100));

// The reserves call, 20 squads over 12 rounds: the built-in and the port, the same objective.
const CALL_SET = ['squads=20', 'rounds=12', 'leaderLoss=0.1', 'command=3'];
const CALL_OBJECTIVE = 'arrived.by.3.mean';
const portPath = new URL('../../../examples/rules/reserves-call-steps.mjs', import.meta.url);
const portSpec = ((await import(portPath.href)) as { default: object }).default;
let builtInValue = '';
let builtInStates = 0;
const builtInTime = timed(() => {
  const solved = solveCall(reserves as unknown as Rule, [...CALL_SET, 'chosenRound=call'], CALL_OBJECTIVE);
  builtInValue = solved.decision.best.fraction;
  builtInStates = solved.decision.policy.length;
});
let portValue = '';
let portStates = 0;
const portTime = timed(() => {
  const port = adaptRuleFile(portSpec, 'reserves-call-steps.mjs');
  const params = resolveParams(port, [...CALL_SET, `objective=${CALL_OBJECTIVE}`]);
  const decisions = (port.exact!.decisions as Function)(params);
  (port.exact!.values as Function)(params); // every metric under best play, as `run --exact` shows them
  portValue = decisions.value.toString();
  portStates = decisions.policy.length;
});
const shown = (fraction: string) => {
  const [n, d = '1'] = fraction.split('/');
  return (Number((BigInt(n) * 1_000_000n) / BigInt(d)) / 1_000_000).toFixed(4);
};
process.stdout.write(
  `\nthe reserves call, ${CALL_SET.join(' ')}, playing for ${CALL_OBJECTIVE}` +
    `${builtInValue === portValue ? ' (the two agree to the fraction)' : ' — THE TWO DISAGREE'}:\n`,
);
process.stdout.write(
  renderTable(
    ['solver', 'decisions reached', `best ${CALL_OBJECTIVE}`, 'time'],
    [
      ['built-in chosenRound=call', `${builtInStates}`, shown(builtInValue), `${builtInTime.toFixed(3)} s`],
      ['reserves-call-steps.mjs', `${portStates}`, shown(portValue), `${portTime.toFixed(3)} s`],
    ],
    100,
  ),
);
