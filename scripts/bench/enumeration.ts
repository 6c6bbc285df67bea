/**
 * `npm run bench:enumeration`: muster's enumeration of a rule file without
 * exact() (examples/rules/*-steps.mjs), beside icepool's pure-Python source
 * solving the same question, each timed as a whole process, as a user runs
 * it. Both answers are printed and must agree fraction for fraction.
 *
 * icepool is not a dependency: give the path of its source folder (the
 * `src` of a copy of HighDiceRoller/icepool) in MUSTER_ICEPOOL; without it
 * the muster column alone is measured, with a note. The runs alternate,
 * muster then icepool, five counted after one warm-up, and the ratio is the
 * median of the pairs' ratios, so a machine whose speed drifts slows both
 * alike. icepool 2.2.2 is the version the speed target names.
 *
 * Not a test: timings on a shared machine vary, so nothing here fails.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { renderTable } from '../../src/cli/format.js';

const RUNS = 5;
const root = fileURLToPath(new URL('../../..', import.meta.url));
const muster = fileURLToPath(new URL('../../cli.js', import.meta.url));

interface Problem {
  label: string;
  /** The rule file and its --set assignments. */
  file: string;
  set: string[];
  metric: string;
  /** A Python program printing the same figure as a fraction, with icepool importable. */
  icepool: string;
}

const reserves = (squads: number, rounds: number): Problem => ({
  label: `Genesys reserves: squads lost, ${squads} squads, ${rounds} rounds`,
  file: 'examples/rules/reserves-steps.mjs',
  set: [`squads=${squads}`, `rounds=${rounds}`],
  metric: 'lost.mean',
  icepool: `from icepool import d6, Die
out = Die([${squads}])
for r in range(1, ${rounds} + 1):
    out = out.map(lambda n, r=r: n - (n @ (d6 + r >= 7)))
print(out.mean())
`,
});

const PROBLEMS: Problem[] = [
  reserves(4, 4),
  reserves(20, 4),
  {
    label: 'Infinity Initiative Roll, WIP 13 against 15, criticals, ties re-rolled',
    file: 'examples/rules/infinity-steps.mjs',
    set: ['wipA=13', 'wipB=15'],
    metric: 'a.wins',
    icepool: `import icepool
from icepool import d20, Reroll
def roll(a, b):
    if a == 13 and b == 15: return Reroll
    if a == 13: return 'A'
    if b == 15: return 'B'
    if a <= 13 and b <= 15: return 'A' if a > b else ('B' if b > a else Reroll)
    if a <= 13: return 'A'
    if b <= 15: return 'B'
    return Reroll
print(icepool.map(roll, d20, d20).probability('A'))
`,
  },
  {
    // Mordheim, Order of Play: each player rolls a D6, the highest goes first, and those tied for highest roll
    // again until one is. The port plays the whole setup (defender, setup order, first turn) in one enumeration.
    label: 'Mordheim first-turn roll-off, 3 warbands: D6 thrown until one is highest',
    file: 'examples/rules/warbands-steps.mjs',
    set: ['count=3'],
    metric: 'dice.first.mean',
    // A state is (warbands tied, dice of their throw still to roll): one die a step, so the mean time to
    // absorption is the mean number of dice thrown.
    icepool: `import icepool
from icepool import d6
def step(tied, left):
    if tied == 1: return (tied, left)
    if left > 1: return (tied, left - 1)
    top = icepool.map(lambda *rolls: rolls.count(max(rolls)), *[d6] * tied)
    return top.map(lambda n: (n, n))
print(icepool.mean_time_to_absorb(step, (3, 3)))
`,
  },
];

interface Timed {
  seconds: number[];
  answer: string;
}

interface Command {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  read: (stdout: string) => string;
}

/** One run of a command as a whole process: its wall-clock seconds and the answer it printed. */
function once(run: Command): { seconds: number; answer: string } {
  const started = process.hrtime.bigint();
  const done = spawnSync(run.command, run.args, { cwd: root, env: run.env, encoding: 'utf8' });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (done.status !== 0) throw new Error(`${run.command} ${run.args.join(' ')} failed: ${done.stderr}`);
  return { seconds, answer: run.read(done.stdout) };
}

/** The commands in turn, A B A B …, a warm-up of each first: a drift in the machine's speed slows both alike. */
function inTurn(commands: Command[]): Timed[] {
  const timed = commands.map(() => ({ seconds: [] as number[], answer: '' }));
  for (let run = 0; run <= RUNS; run++) {
    commands.forEach((command, i) => {
      const { seconds, answer } = once(command);
      timed[i].answer = answer;
      if (run > 0) timed[i].seconds.push(seconds);
    });
  }
  return timed;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const icepoolSource = process.env.MUSTER_ICEPOOL;
const rows: string[][] = [];
const ratios: number[] = [];
for (const problem of PROBLEMS) {
  const args = [muster, 'run', problem.file, '--exact', '--json', '-', ...problem.set.flatMap((s) => ['--set', s])];
  const commands: Command[] = [
    {
      command: process.execPath,
      args,
      env: process.env,
      read: (stdout) => JSON.parse(stdout).metrics[problem.metric].fraction,
    },
  ];
  if (icepoolSource)
    commands.push({
      command: 'python3',
      args: ['-c', problem.icepool],
      env: { ...process.env, PYTHONPATH: icepoolSource },
      read: (stdout) => stdout.trim(),
    });
  const [ours, theirs] = inTurn(commands);
  const agree = theirs === undefined ? '—' : theirs.answer === ours.answer ? 'yes' : `NO: ${theirs.answer}`;
  // Pair by pair, each icepool run against the muster run just before it, then the median of those ratios.
  const ratio = theirs ? median(theirs.seconds.map((s, i) => s / ours.seconds[i])) : undefined;
  if (ratio !== undefined) ratios.push(ratio);
  rows.push([
    problem.label,
    ours.answer,
    `${(median(ours.seconds) * 1000).toFixed(0)} ms`,
    theirs ? `${(median(theirs.seconds) * 1000).toFixed(0)} ms` : '—',
    ratio === undefined ? '—' : `${ratio.toFixed(2)}×`,
    agree,
  ]);
}
process.stdout.write(
  `Enumeration, whole process, median of ${RUNS} in turn after a warm-up; icepool ÷ muster is the median of the ` +
    'pairs (above 1: muster faster)\n\n',
);
process.stdout.write(
  `${renderTable(['problem', 'muster', 'muster time', 'icepool time', 'icepool ÷ muster', 'agree'], rows, 200)}\n`,
);
if (ratios.length > 0)
  process.stdout.write(
    `icepool ÷ muster: ${ratios.map((r) => `${r.toFixed(2)}×`).join(', ')}; ` +
      `muster at least as fast on ${ratios.filter((r) => r >= 1).length} of ${ratios.length} (target: all)\n`,
  );
if (!icepoolSource)
  process.stdout.write(
    '\nicepool not measured: set MUSTER_ICEPOOL to the src folder of a copy of HighDiceRoller/icepool.\n',
  );
