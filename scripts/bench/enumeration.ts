/**
 * `npm run bench:enumeration`: muster's enumeration of a rule file without
 * exact() (examples/rules/*-steps.mjs, *-rounds.mjs), beside icepool's
 * pure-Python source solving the same question, and issue 38's targets as
 * lines that say met or not met. Both answers are printed and must agree
 * fraction for fraction.
 *
 * Start-up is left out on both sides: each side is timed in its own
 * process, around the solving alone — muster here, on a rule adapted
 * afresh for every run (so nothing enumerated before is reused), icepool in
 * one Python process that stays up and is asked for one problem at a time.
 * Each side is warmed up first, then the timed runs alternate, muster then
 * icepool, RUNS of them, and each ratio is the median of the pairs' ratios,
 * so a machine whose speed drifts slows both alike. A timed run is a batch:
 * as many solves as fill BATCH_SECONDS on that side (one, for a problem that
 * takes longer), timed together and divided, since one solve of a tenth of a
 * millisecond timed alone reads whatever the garbage collector or a
 * neighbour did in it (Infinity at 30 against 30 read 0.53 ms on one run,
 * 0.1–0.3 ms on the others). The warm-up is WARMUP
 * solves on each side, and on muster's side as many more as it takes to
 * spend WARMUP_SECONDS of CPU solving (at most MAX_WARMUP solves): V8
 * compiles a hot function only after it has run a while, on threads of its
 * own whose CPU time is the process's, so node's first dozens of solves of
 * a small problem measure its compiler (2d6 reserves at 20 squads: 25, 16,
 * 16, 22, 7, 9, 16, 5 ms for the first eight, 1.4 ms from the hundredth);
 * CPython has no such stage. Each side's first solve is printed too, as
 * what one command costs. Time is CPU time (the process's user and
 * system seconds; node's include its garbage collector's threads), since a
 * shared machine's wall clock measures the neighbours; wall-clock ratios
 * are printed beside them.
 *
 * icepool is not a dependency: give the path of its source folder (the
 * `src` of a copy of HighDiceRoller/icepool) in MUSTER_ICEPOOL. Python is
 * run as its real interpreter (sys.executable, asked once), never through a
 * version manager's shim, which adds a tenth of a second a process. Without
 * MUSTER_ICEPOOL the muster column and the targets that need no icepool are
 * measured, with a note. icepool 2.2.2 is the version the targets name.
 * The balance map's target is `npm run bench:balance`'s measurement
 * (./balance-map.ts), run in a process of its own.
 *
 * Not a test: timings on a shared machine vary, so nothing here fails.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { renderTable } from '../../src/cli/format.js';
import type { Rule, RuleExact } from '../../src/contract/types.js';
import { adaptRuleFile } from '../../src/rule-files/rule.js';
import { resolveParams } from '../../src/rules/params.js';
import { BALANCE_LABEL, BALANCE_TARGET_SECONDS, type BalanceMeasure } from './balance-map.js';

const RUNS = Number(process.env.MUSTER_BENCH_RUNS ?? 5);
/** Solves on each side before the timed ones; the first (cold) muster solve is printed beside the timed ones. */
const WARMUP = Number(process.env.MUSTER_BENCH_WARMUP ?? 5);
/** muster's warm-up goes on until its solves have taken this much CPU (V8's compiler done with the problem's code). */
const WARMUP_SECONDS = Number(process.env.MUSTER_BENCH_WARMUP_SECONDS ?? 1);
/**
 * A bound on the warm-up solves, there only so that a problem whose solve costs nothing measurable still ends: at
 * 200 (before), a solve of a tenth of a millisecond stopped warming after 20 ms of CPU, V8 still compiling it
 * (Infinity 13 against 15, two fresh processes: 0.23–0.27 ms a solve at the 200th, 0.10–0.19 ms past the 5,000th).
 */
const MAX_WARMUP = 20_000;
/** A timed run's solves fill this much CPU time on each side (at most MAX_BATCH solves, at least one). */
const BATCH_SECONDS = 0.02;
const MAX_BATCH = 1000;
/** How many solves of `perSolve` seconds fill a batch. */
const batchOf = (perSolve: number) => Math.max(1, Math.min(MAX_BATCH, Math.ceil(BATCH_SECONDS / perSolve)));
/** icepool's slowest problems (minutes a run on this machine) are left out unless this is set. */
const SLOW = process.env.MUSTER_BENCH_SLOW === '1';
/** The issue's goal: muster at least this many times as fast as icepool on each problem. */
const TARGET_RATIO = 5;
const root = fileURLToPath(new URL('../../..', import.meta.url));

interface Problem {
  label: string;
  /** The rule file, its --set assignments, and its `squads` limit raised to this for the bench (undefined: as is). */
  file: string;
  set: string[];
  squads?: number;
  metric: string;
  /** Run once each, no warm-up; icepool only with MUSTER_BENCH_SLOW=1 (its solve takes minutes). */
  slow?: 'once' | 'skip';
  /** Python defining solve(), which returns the same figure as a fraction, with icepool importable. */
  icepool: string;
  /**
   * A user's example file that computes more than the icepool program (more metrics, more states): timed beside the
   * problem's own row, but no target is judged on it.
   */
  beside?: boolean;
}

const reserves2d6 = (squads: number): Problem => ({
  label: `2d6 reserves, ${squads} squads, 4 rounds (a round a step)`,
  file: 'examples/rules/reserves-2d6-rounds.mjs',
  set: [`squads=${squads}`, 'rounds=4', 'target=10'],
  metric: 'lost.mean',
  icepool: `from icepool import d6, Die
def solve():
    out = Die([${squads}])
    for r in range(1, 5):
        out = out.map(lambda n, r=r: n - (n @ (2 @ d6 + r >= 10)))
    return out.mean()
`,
});

const reserves1d6 = (squads: number, slow?: 'once' | 'skip'): Problem => ({
  label: `1d6 reserves (Genesys), ${squads} squads, 4 rounds`,
  file: 'examples/rules/reserves-steps.mjs',
  set: [`squads=${squads}`, 'rounds=4'],
  squads,
  slow,
  metric: 'lost.mean',
  icepool: `from icepool import d6, Die
def solve():
    out = Die([${squads}])
    for r in range(1, 5):
        out = out.map(lambda n, r=r: n - (n @ (d6 + r >= 7)))
    return out.mean()
`,
});

// The Face to Face roll: above WIP 20 the excess is added, 20 or more (or the WIP) a critical. The target's row
// is ./problems/infinity-face-to-face.mjs, the icepool program's own procedure (who wins, 400 pairs of faces); the
// row beside it is examples/rules/infinity-steps.mjs, which also counts the rolls, whether the first decides and
// who wins with a critical (its first and later rolls are states of their own: 800 paths, six metrics).
const infinity = (wipA: number, wipB: number, file = 'scripts/bench/problems/infinity-face-to-face.mjs'): Problem => ({
  label:
    `Infinity Initiative Roll, WIP ${wipA} against ${wipB}, ties re-rolled` +
    (file.includes('examples/') ? ' (infinity-steps.mjs: six metrics)' : ''),
  file,
  beside: file.includes('examples/'),
  set: [`wipA=${wipA}`, `wipB=${wipB}`],
  metric: 'a.wins',
  icepool: `import icepool
from icepool import d20, Reroll
def score(face, wip):
    result = face + max(0, wip - 20)
    if result > wip: return 0
    return 100 if result == wip or result >= 20 else result
def roll(a, b):
    sa, sb = score(a, ${wipA}), score(b, ${wipB})
    if sa == sb: return Reroll
    return 'A' if sa > sb else 'B'
def solve():
    return icepool.map(roll, d20, d20).probability('A')
`,
});

// Mordheim, Order of Play: each player rolls a D6, the highest goes first, and those tied for highest roll again
// until one is. A state is (warbands tied, dice of their throw still to roll): one die a step, so the mean time
// to absorption is the mean number of dice thrown.
const MORDHEIM_ICEPOOL = `import icepool
from icepool import d6
def step(tied, left):
    if tied == 1: return (tied, left)
    if left > 1: return (tied, left - 1)
    top = icepool.map(lambda *rolls: rolls.count(max(rolls)), *[d6] * tied)
    return top.map(lambda n: (n, n))
def solve():
    return icepool.mean_time_to_absorb(step, (3, 3))
`;

const PROBLEMS: Problem[] = [
  reserves2d6(20),
  reserves2d6(80),
  reserves2d6(110),
  reserves1d6(100),
  // icepool's Die.map over 301 and 601 counts: 75 s a run at 300 squads on this machine, minutes at 600.
  reserves1d6(300, 'once'),
  reserves1d6(600, 'skip'),
  infinity(13, 15),
  infinity(13, 15, 'examples/rules/infinity-steps.mjs'),
  infinity(30, 30),
  infinity(30, 30, 'examples/rules/infinity-steps.mjs'),
  {
    // The first-turn roll-off alone, the icepool program's procedure (./problems/mordheim-first-turn.mjs).
    label: 'Mordheim first-turn roll-off, 3 warbands: D6 thrown until one is highest',
    file: 'scripts/bench/problems/mordheim-first-turn.mjs',
    set: ['count=3'],
    metric: 'dice.first.mean',
    icepool: MORDHEIM_ICEPOOL,
  },
  {
    // The user's example plays the whole setup (defender, setup order, first turn: three roll-offs) in one
    // enumeration; the icepool program, the first turn alone.
    label: 'Mordheim whole setup, 3 warbands (warbands-steps.mjs; icepool: the first turn alone)',
    file: 'examples/rules/warbands-steps.mjs',
    beside: true,
    set: ['count=3'],
    metric: 'dice.first.mean',
    icepool: MORDHEIM_ICEPOOL,
  },
];

/** A rule file's module, adapted afresh (nothing kept from an earlier enumeration), `squads` raised if asked. */
async function freshRule(problem: Problem): Promise<() => Rule> {
  const module = (await import(pathToFileURL(`${root}${problem.file}`).href)) as { default: Record<string, unknown> };
  const spec = module.default;
  const params = (spec.params as Array<Record<string, unknown>>).map((param) =>
    param.name === 'squads' && problem.squads !== undefined
      ? { ...param, max: Math.max(problem.squads, param.max as number) }
      : param,
  );
  return () => adaptRuleFile({ ...spec, params }, problem.file);
}

interface Timing {
  cpu: number;
  wall: number;
  answer: string;
}

/** `count` solves, each of a rule adapted afresh (adapted before the clock starts): the time of one, their mean. */
function timeMuster(make: () => Rule, problem: Problem, count = 1): Timing {
  const rules = Array.from({ length: count }, () => {
    const rule = make();
    return { rule, params: resolveParams(rule, problem.set) };
  });
  let values: Record<string, { toString(): string }> = {};
  const cpu = process.cpuUsage();
  const wall = performance.now();
  for (const { rule, params } of rules) values = (rule.exact as RuleExact).values(params);
  const used = process.cpuUsage(cpu);
  return {
    wall: (performance.now() - wall) / 1000 / count,
    cpu: (used.user + used.system) / 1e6 / count,
    answer: values[problem.metric].toString(),
  };
}

// The Python side: one process, every problem's solve() defined up front, then one timed batch a request
// ("index count": count solves, the time of one their mean).
const DRIVER = `import json, sys, time
programs = json.loads(sys.stdin.readline())
solvers = []
for source in programs:
    space = {}
    exec(source, space)
    solvers.append(space['solve'])
print('ready', flush=True)
for line in sys.stdin:
    index, count = map(int, line.split())
    cpu, wall = time.process_time(), time.perf_counter()
    for _ in range(count):
        answer = solvers[index]()
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    print(json.dumps({'cpu': cpu / count, 'wall': wall / count, 'answer': str(answer)}), flush=True)
`;

interface Python {
  ask(index: number, count?: number): Promise<Timing>;
  close(): void;
}

/** Python's real interpreter: the shim of a version manager (pyenv, asdf) re-execs it, at a cost a process. */
function realPython(): string {
  const asked = spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' });
  if (asked.status !== 0) throw new Error(`python3 could not be run: ${asked.stderr}`);
  return asked.stdout.trim();
}

async function startPython(source: string, interpreter: string): Promise<Python> {
  const child = spawn(interpreter, ['-c', DRIVER], {
    env: { ...process.env, PYTHONPATH: source },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async (): Promise<string> => {
    const { value, done } = await lines.next();
    if (done) throw new Error('the icepool process ended early');
    return value as string;
  };
  child.stdin.write(`${JSON.stringify(PROBLEMS.map((problem) => problem.icepool))}\n`);
  if ((await next()) !== 'ready') throw new Error('the icepool process did not start');
  return {
    async ask(index, count = 1) {
      child.stdin.write(`${index} ${count}\n`);
      return JSON.parse(await next()) as Timing;
    },
    close: () => child.stdin.end(),
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
// Below 10 ms, two decimals: the small problems take a fraction of a millisecond a solve.
const seconds = (value: number) =>
  value < 0.01
    ? `${(value * 1000).toFixed(2)} ms`
    : value < 1
      ? `${(value * 1000).toFixed(0)} ms`
      : `${value.toFixed(2)} s`;

const icepoolSource = process.env.MUSTER_ICEPOOL;
const interpreter = icepoolSource ? realPython() : '';
const python = icepoolSource ? await startPython(icepoolSource, interpreter) : undefined;
const rows: string[][] = [];
const verdicts: string[] = [];
for (const [index, problem] of PROBLEMS.entries()) {
  const make = await freshRule(problem);
  const ours: Timing[] = [];
  const theirs: Timing[] = [];
  const withIcepool = python && (problem.slow !== 'skip' || SLOW) ? python : undefined;
  const once = problem.slow !== undefined;
  let cold: Timing | undefined;
  let coldOther: Timing | undefined;
  let ourBatch = 1;
  let theirBatch = 1;
  if (!once) {
    // The warm-up: each side's code compiled, its caches as a long session has them.
    cold = timeMuster(make, problem);
    coldOther = withIcepool ? await withIcepool.ask(index) : undefined;
    let spent = 0;
    let solves = 0;
    let theirLast = coldOther?.cpu ?? 0;
    for (let run = 1; run < MAX_WARMUP && (run < WARMUP || spent < WARMUP_SECONDS); run++) {
      spent += timeMuster(make, problem).cpu;
      solves++;
      if (withIcepool && run < WARMUP) theirLast = (await withIcepool.ask(index)).cpu;
    }
    // Each side's batch from its warm solves: muster's mean, icepool's last.
    ourBatch = batchOf(spent / Math.max(1, solves));
    theirBatch = batchOf(theirLast);
  }
  for (let run = 0; run < (once ? 1 : RUNS); run++) {
    const mine = timeMuster(make, problem, ourBatch);
    const other = withIcepool ? await withIcepool.ask(index, theirBatch) : undefined;
    cold ??= mine;
    coldOther ??= other;
    ours.push(mine);
    if (other) theirs.push(other);
  }
  const answer = ours[0].answer;
  const agree = theirs.length === 0 ? '—' : theirs[0].answer === answer ? 'yes' : `NO: ${theirs[0].answer}`;
  // Pair by pair, each icepool run against the muster run just before it, then the median of those ratios.
  const cpuRatio = theirs.length ? median(theirs.map((t, i) => t.cpu / ours[i].cpu)) : undefined;
  const wallRatio = theirs.length ? median(theirs.map((t, i) => t.wall / ours[i].wall)) : undefined;
  // Each side's first solve of the problem in this process, before any warm-up: what one command costs.
  const coldRatio = coldOther && cold ? coldOther.cpu / cold.cpu : undefined;
  rows.push([
    problem.label,
    answer.length > 24 ? `${answer.slice(0, 21)}...` : answer,
    seconds(median(ours.map((t) => t.cpu))),
    theirs.length ? seconds(median(theirs.map((t) => t.cpu))) : '—',
    cpuRatio === undefined ? '—' : `${cpuRatio.toFixed(2)}×`,
    wallRatio === undefined ? '—' : `${wallRatio.toFixed(2)}×`,
    seconds((cold as Timing).cpu),
    coldRatio === undefined ? '—' : `${coldRatio.toFixed(2)}×`,
    agree,
  ]);
  if (python && !withIcepool)
    verdicts.push(`not measured  ${TARGET_RATIO}× icepool: ${problem.label} (icepool left out; MUSTER_BENCH_SLOW=1)`);
  if (cpuRatio !== undefined && !problem.beside)
    verdicts.push(
      `${cpuRatio >= TARGET_RATIO && agree === 'yes' ? 'met    ' : 'NOT met'}  ${TARGET_RATIO}× icepool: ` +
        `${problem.label} (${cpuRatio.toFixed(2)}×${coldRatio === undefined ? '' : `; first solves ${coldRatio.toFixed(2)}×`}` +
        `${agree === 'yes' ? '' : ', answers differ'})`,
    );
}
python?.close();

/**
 * Runs `script` (an ES module that writes one JSON line) in a process of its own, stopped at three times `limit`
 * seconds (at least 30 s): its JSON, or the target's NOT met line where it was stopped or failed.
 */
function alone<T>(label: string, limit: number, script: string): T | string {
  const stop = Math.max(limit * 3, 30);
  const done = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: root,
    encoding: 'utf8',
    timeout: stop * 1000,
  });
  if (done.signal) return `NOT met  ${label} under ${limit} s: stopped after ${stop} s`;
  if (done.status !== 0) return `NOT met  ${label} under ${limit} s: failed: ${done.stderr.trim()}`;
  return JSON.parse(done.stdout) as T;
}

/** How many processes of its own each absolute target is timed in; its verdict is on their median. */
const ALONE_RUNS = 3;

/**
 * A target muster must reach on its own: the rule solved (or refused) in a process of its own, timed around the
 * solving as above, and stopped if it runs three times the limit (at least 30 s). Timed in ALONE_RUNS processes,
 * one after another: one cold process on this shared machine read anything from 0.68 to 1.06 s for the same
 * refusal, so the verdict is on the median, and every run is printed.
 */
function within(label: string, file: string, set: string[], squads: number, limit: number, refusal = false): string {
  const url = (path: string) => JSON.stringify(pathToFileURL(fileURLToPath(new URL(path, import.meta.url))).href);
  const script = `
    const { adaptRuleFile } = await import(${url('../../src/rule-files/rule.js')});
    const { resolveParams } = await import(${url('../../src/rules/params.js')});
    const spec = (await import(${JSON.stringify(pathToFileURL(`${root}${file}`).href)})).default;
    const params = spec.params.map((p) => (p.name === 'squads' ? { ...p, max: Math.max(p.max, ${squads}) } : p));
    const rule = adaptRuleFile({ ...spec, params }, ${JSON.stringify(file)});
    const set = resolveParams(rule, ${JSON.stringify(set)});
    const cpu = process.cpuUsage();
    let ended = 'solved';
    try { rule.exact.values(set); } catch (error) { ended = error.constructor.name === 'NotEnumerable' ? 'refused' : String(error); }
    const used = process.cpuUsage(cpu);
    process.stdout.write(JSON.stringify({ ended, cpu: (used.user + used.system) / 1e6 }));
  `;
  const runs: Array<{ ended: string; cpu: number }> = [];
  for (let run = 0; run < ALONE_RUNS; run++) {
    const solved = alone<{ ended: string; cpu: number }>(label, limit, script);
    if (typeof solved === 'string') return solved;
    runs.push(solved);
  }
  const wanted = refusal ? 'refused' : 'solved';
  const other = runs.find((run) => run.ended !== wanted);
  const cpu = median(runs.map((run) => run.cpu));
  const met = cpu < limit && other === undefined;
  const each = runs.map((run) => seconds(run.cpu)).join(', ');
  return (
    `${met ? 'met    ' : 'NOT met'}  ${label} under ${limit} s: ${other?.ended ?? wanted} in ${seconds(cpu)} CPU ` +
    `(median of ${ALONE_RUNS} processes: ${each})`
  );
}

verdicts.push(
  within('2d6 reserves at 1,000 squads', 'examples/rules/reserves-2d6-rounds.mjs', ['squads=1000'], 1000, 10),
  within('1d6 reserves at 10,000 squads', 'examples/rules/reserves-steps.mjs', ['squads=10000'], 10000, 10),
  within(
    'a refusal (2d6 reserves one squad a step, 120 squads: past 1,000,000 paths)',
    'examples/rules/reserves-2d6-steps.mjs',
    ['squads=120'],
    120,
    1,
    true,
  ),
);

/**
 * The balance map's target, by ./balance-map.ts (the measurement `npm run bench:balance` prints), run like the
 * targets above in a process of its own, so nothing this bench enumerated or compiled before is kept.
 */
function balanceMap(): string {
  const label = `a 400-point exact balance map of a step-form file (${BALANCE_LABEL})`;
  const url = JSON.stringify(pathToFileURL(fileURLToPath(new URL('./balance-map.js', import.meta.url))).href);
  const script = `
    const { measureBalanceMap } = await import(${url});
    process.stdout.write(JSON.stringify(await measureBalanceMap()));
  `;
  const measured = alone<BalanceMeasure>(label, BALANCE_TARGET_SECONDS, script);
  if (typeof measured === 'string') return measured;
  const met = measured.map < BALANCE_TARGET_SECONDS;
  return (
    `${met ? 'met    ' : 'NOT met'}  ${label} under ${BALANCE_TARGET_SECONDS} s: ${seconds(measured.map)} CPU ` +
    `(one point ${seconds(measured.one)})`
  );
}
verdicts.push(balanceMap());

process.stdout.write(
  `Enumeration, in-process CPU time (start-up left out on both sides), median of ${RUNS} in turn after ${WARMUP} ` +
    `warm-up solves each, muster's until they took ${WARMUP_SECONDS} s of CPU, each run as many solves as fill ` +
    `${BATCH_SECONDS * 1000} ms on its side, the time of one their mean (the slow problems: one solve each, cold); ` +
    'first: the first solve of the problem in this process, before its warm-up (its ratio, icepool first ÷ muster first); ' +
    `icepool ÷ muster is the median of the pairs (above 1: muster faster)${
      icepoolSource ? `; Python: ${interpreter}` : ''
    }\n\n`,
);
process.stdout.write(
  `${renderTable(['problem', 'muster', 'muster CPU', 'icepool CPU', 'icepool ÷ muster', 'wall ratio', 'muster first', 'first ratio', 'agree'], rows, 260)}\n\n`,
);
process.stdout.write(`Targets (issue 38):\n${verdicts.map((line) => `  ${line}`).join('\n')}\n`);
if (!icepoolSource)
  process.stdout.write(
    '\nicepool not measured: set MUSTER_ICEPOOL to the src folder of a copy of HighDiceRoller/icepool.\n',
  );
