/**
 * `npm run bench:enumeration`: muster's enumeration of a rule file without
 * exact() (examples/rules/*-steps.mjs), beside icepool's pure-Python source
 * solving the same question, each timed as a whole process, as a user runs
 * it. Both answers are printed and must agree fraction for fraction.
 *
 * icepool is not a dependency: give the path of its source folder (the
 * `src` of a copy of HighDiceRoller/icepool) in MUSTER_ICEPOOL; without it
 * the muster column alone is measured, with a note. The runs alternate,
 * muster then icepool, five counted after one warm-up, and the ratio is of
 * the medians, so a machine whose speed drifts slows both alike.
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
];

interface Timed {
  seconds: number[];
  answer: string;
}

function time(command: string, args: string[], env: NodeJS.ProcessEnv, read: (stdout: string) => string): Timed {
  const seconds: number[] = [];
  let answer = '';
  for (let run = 0; run <= RUNS; run++) {
    const started = process.hrtime.bigint();
    const done = spawnSync(command, args, { cwd: root, env, encoding: 'utf8' });
    const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
    if (done.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${done.stderr}`);
    answer = read(done.stdout);
    if (run > 0) seconds.push(elapsed);
  }
  return { seconds, answer };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const icepoolSource = process.env.MUSTER_ICEPOOL;
const rows: string[][] = [];
for (const problem of PROBLEMS) {
  const args = [muster, 'run', problem.file, '--exact', '--json', '-', ...problem.set.flatMap((s) => ['--set', s])];
  const ours = time(
    process.execPath,
    args,
    process.env,
    (stdout) => JSON.parse(stdout).metrics[problem.metric].fraction,
  );
  const theirs = icepoolSource
    ? time('python3', ['-c', problem.icepool], { ...process.env, PYTHONPATH: icepoolSource }, (stdout) => stdout.trim())
    : null;
  const agree = theirs === null ? '—' : theirs.answer === ours.answer ? 'yes' : `NO: ${theirs.answer}`;
  rows.push([
    problem.label,
    ours.answer,
    `${(median(ours.seconds) * 1000).toFixed(0)} ms`,
    theirs ? `${(median(theirs.seconds) * 1000).toFixed(0)} ms` : '—',
    theirs ? `${(median(theirs.seconds) / median(ours.seconds)).toFixed(2)}×` : '—',
    agree,
  ]);
}
process.stdout.write(
  `Enumeration, whole process, median of ${RUNS} after a warm-up (icepool ÷ muster above 1: muster faster)\n\n`,
);
process.stdout.write(
  `${renderTable(['problem', 'muster', 'muster time', 'icepool time', 'icepool ÷ muster', 'agree'], rows, 200)}\n`,
);
if (!icepoolSource)
  process.stdout.write(
    '\nicepool not measured: set MUSTER_ICEPOOL to the src folder of a copy of HighDiceRoller/icepool.\n',
  );
