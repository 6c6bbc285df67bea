/**
 * `node dist/scripts/bench/sweep-cost.js [--baseline DIR] [--repeats N]` (and a section of `npm run bench`):
 * issue 38's measure of a simulated sweep's own cost, the CPU time of two whole commands on one thread,
 *
 *   muster sweep reserves --vary squads=1..20 --vary command=0..4 --trials 65536 --threads 1
 *   muster run reserves --set squads=10 --trials 6553600 --threads 1
 *
 * the same 6,553,600 trials as 100 points or as one run (10 squads is the middle of the sweep's 1 to 20), their
 * ratio the figure (goal: at most 1.2×). CPU time, user and system, of the child process and its threads (read from
 * this process's /proc/self/stat once the child is waited for: what a busy machine disturbs least), wall time where
 * /proc is missing; the two commands turn about, the median of each. With --baseline DIR, that build's commands
 * turn about with these.
 *
 * Beside the ratio, what the sweep costs beyond its trials: the same two commands at 64 trials a point and 64 in
 * all, so that the simulation is next to nothing; the sweep's extra 99 points cost the difference, a point's own
 * cost (its tally handed between threads, its exact values, its result) that no faster simulation removes.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const SWEEP_COST_SWEEP = [
  'sweep',
  'reserves',
  '--vary',
  'squads=1..20',
  '--vary',
  'command=0..4',
  '--trials',
  '65536',
  '--threads',
  '1',
  '--quiet',
];
export const SWEEP_COST_RUN = [
  'run',
  'reserves',
  '--set',
  'squads=10',
  '--trials',
  '6553600',
  '--threads',
  '1',
  '--quiet',
];
/** The two commands with (next to) nothing to simulate: 64 trials a point, 64 in all. */
export const SWEEP_COST_EMPTY_SWEEP = SWEEP_COST_SWEEP.map((arg) => (arg === '65536' ? '64' : arg));
export const SWEEP_COST_EMPTY_RUN = SWEEP_COST_RUN.map((arg) => (arg === '6553600' ? '64' : arg));
/** Points beyond the run's one. */
const EXTRA_POINTS = 99;

/** Issue 38's goal for the ratio. */
export const SWEEP_COST_GOAL = 1.2;

/** Clock ticks a second of /proc's times (getconf CLK_TCK; 100 on Linux where getconf is missing). */
let ticks: number | undefined;
function clockTicks(): number {
  if (ticks === undefined) {
    try {
      ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticks = 100;
    }
  }
  return ticks;
}

/** CPU seconds of this process's waited-for children so far (cutime + cstime, fields 16 and 17), or null. */
export function childrenCpuSeconds(): number | null {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces: the first is field 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) / clockTicks();
  } catch {
    return null;
  }
}

/** Seconds one command of `root`'s build costs: its CPU (every thread), or its wall time where /proc is missing. */
export function commandSeconds(root: string, args: readonly string[]): { seconds: number; cpu: boolean } {
  const cpuBefore = childrenCpuSeconds();
  const started = performance.now();
  execFileSync(process.execPath, [join(root, 'dist/cli.js'), ...args], { stdio: 'ignore' });
  const wall = (performance.now() - started) / 1000;
  const cpuAfter = childrenCpuSeconds();
  return cpuBefore === null || cpuAfter === null
    ? { seconds: wall, cpu: false }
    : { seconds: cpuAfter - cpuBefore, cpu: true };
}

export interface SweepCost {
  sweep: number;
  run: number;
  /** The median of each turn's sweep ÷ run. */
  ratio: number;
  /** The median of each turn's (empty sweep − empty run) ÷ 99: seconds a point costs beyond its trials. */
  perPoint: number;
  cpu: boolean;
}

export const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1];

/** `repeats` turns on each build (the builds alternating within a turn, sweep then run): each build's medians. */
export function sweepCosts(roots: readonly string[], repeats: number): SweepCost[] {
  const samples = roots.map(() => ({
    sweep: [] as number[],
    run: [] as number[],
    ratio: [] as number[],
    perPoint: [] as number[],
    cpu: true,
  }));
  for (let repeat = 0; repeat < repeats; repeat++) {
    roots.forEach((root, b) => {
      const sweep = commandSeconds(root, SWEEP_COST_SWEEP);
      const run = commandSeconds(root, SWEEP_COST_RUN);
      const emptySweep = commandSeconds(root, SWEEP_COST_EMPTY_SWEEP);
      const emptyRun = commandSeconds(root, SWEEP_COST_EMPTY_RUN);
      samples[b].sweep.push(sweep.seconds);
      samples[b].run.push(run.seconds);
      samples[b].ratio.push(sweep.seconds / run.seconds);
      samples[b].perPoint.push((emptySweep.seconds - emptyRun.seconds) / EXTRA_POINTS);
      samples[b].cpu &&= sweep.cpu && run.cpu && emptySweep.cpu && emptyRun.cpu;
    });
  }
  return samples.map((s) => ({
    sweep: median(s.sweep),
    run: median(s.run),
    ratio: median(s.ratio),
    perPoint: median(s.perPoint),
    cpu: s.cpu,
  }));
}

/** The section's lines: each build's sweep, run and ratio, against the goal. */
export function sweepCostReport(roots: readonly string[], costs: readonly SweepCost[]): string[] {
  const unit = costs.every((cost) => cost.cpu) ? 'CPU s' : 'wall s';
  return [
    `Issue 38's sweep cost: \`muster sweep reserves --vary squads=1..20 --vary command=0..4 --trials 65536\` ÷ ` +
      '`muster run reserves --set squads=10 --trials 6553600`,',
    `one thread, whole commands, ${unit}, turn about (goal: at most ${SWEEP_COST_GOAL}×)`,
    ...costs.map(
      (cost, b) =>
        `  ${b === 0 ? 'this build' : `baseline ${roots[b]}`}: sweep ${cost.sweep.toFixed(2)}, run ` +
        `${cost.run.toFixed(2)}, ratio ${cost.ratio.toFixed(2)}× (${cost.ratio <= SWEEP_COST_GOAL ? 'met' : 'not met'}); ` +
        `a point beyond its trials ${(cost.perPoint * 1000).toFixed(1)} ms`,
    ),
  ];
}

function main(argv: readonly string[]): void {
  const option = (name: string) => {
    const at = argv.indexOf(name);
    return at >= 0 ? argv[at + 1] : undefined;
  };
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(
      'usage: node dist/scripts/bench/sweep-cost.js [--baseline DIR] [--repeats N]\n' +
        "issue 38's sweep cost: the 100-point reserves sweep against one run of its trials, one thread, CPU of\n" +
        'whole commands, turn about (N turns, default 5); DIR: another build (its dist/cli.js) to turn about with.\n',
    );
    return;
  }
  const current = fileURLToPath(new URL('../../..', import.meta.url));
  const baseline = option('--baseline');
  const roots = baseline ? [current, resolve(baseline)] : [current];
  const repeats = Number(option('--repeats') ?? 5);
  if (!Number.isInteger(repeats) || repeats < 1)
    throw new Error(`--repeats: got ${option('--repeats')}; allowed: 1 or more`);
  process.stdout.write(`${sweepCostReport(roots, sweepCosts(roots, repeats)).join('\n')}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main(process.argv.slice(2));
