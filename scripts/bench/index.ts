/**
 * `npm run bench [-- --baseline DIR]`: how fast muster is on this machine,
 * as ratios measured in one invocation, each figure the median of five.
 *
 *   limit        the tightest d6 loop: xoshiro128** in locals, four d6 a Lemire
 *                draw (limit.ts), with the older, looser yardsticks beside it
 *   every rule   trials/s at its defaults on 1 and on all threads, through the pool
 *                (workers warm), on the default stream, stream 3 and stream 1; dice
 *                per trial; its cost a die on one thread against the limit's, the
 *                limit probed again in rotation with that rule's own turns
 *   sizes        every rule's cost a die at its defaults, at the largest parameters it
 *                allows and at the sizes between where its code changes path, on the
 *                default stream, against its defaults' (sizes.ts; alone: npm run bench:sizes)
 *   rule files   the examples that draw with dice.d, trials per CPU-second on one thread (against the
 *                baseline's build running the same files); reserves-2d6.mjs against its floor, its trial
 *                written by hand with the dice in locals and the same counts checked (floor.ts)
 *   numpy        `muster run reserves` on one thread, 5e7 trials, whole process,
 *                on the default stream and stream 1, against the
 *                rule vectorised in numpy (reserves_numpy.py)
 *   start-up     commands that draw no chart, whole process, against `node -e 0`
 *   sweep        100 points of 65,536 trials against one run of 6,553,600: in one
 *                process on a warm pool (seven of each, turn about, the median of
 *                each), and as whole commands, `muster sweep` against `muster run`;
 *                and issue 38's grid (squads 1..20 × command 0..4) against one run
 *                at 10 squads, one thread, CPU of whole commands (sweep-cost.ts)
 *
 * With --baseline DIR (another built checkout, such as one of main), every
 * rule, the numpy run, start-up and sweep are measured for it too, each
 * repeat alternating between the two builds so that a change in the
 * machine's load falls on both, and the ratio current ÷ baseline is shown
 * (for the rules, each stream against the same stream of the baseline, the
 * same dice; a baseline from before streams runs stream 1's whatever it is
 * asked, so there only the stream 1 row compares like with like).
 *
 * Every measurement runs in a process of its own (probe.ts). The machine's
 * load average is printed before and after: on a shared machine, read the
 * ratios, not the rates.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHUNK_TRIALS } from '../../src/engine/chunks.js';
import { DEFAULT_STREAM } from '../../src/engine/random.js';
import { rules } from '../../src/rules/index.js';
import { LIMIT, LIMIT_GENERATORS, LIMIT_LABELS } from './limit.js';
import { dicePerTrial, sizesReport } from './sizes.js';
import { sweepCostReport, sweepCosts } from './sweep-cost.js';

const REPEATS = Number(process.env.BENCH_REPEATS ?? 5);
const NUMPY_RUN_TRIALS = 5e7;
const here = fileURLToPath(new URL('.', import.meta.url));
const probe = join(here, 'probe.js');
const current = resolve(here, '../../..');
const baselineAt = process.argv.indexOf('--baseline');
const baseline = baselineAt > 0 ? resolve(process.argv[baselineAt + 1] ?? '') : null;
if (baseline && !existsSync(join(baseline, 'dist/cli.js')))
  throw new Error(`--baseline: ${baseline} has no dist/cli.js (run npm run build there)`);
const builds = baseline ? [current, baseline] : [current];
const threads = availableParallelism();

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

function probeJson<T>(...args: string[]): T {
  return JSON.parse(execFileSync(process.execPath, [probe, ...args], { encoding: 'utf8' })) as T;
}

/**
 * probeJson on `root`'s build: this build's failure stops the bench; a baseline may not have what is measured (one
 * from before a rule or the step form), and its failure is null, its error unshown.
 */
function probeBuild<T>(root: string, args: string[]): T | null {
  if (root === current) return probeJson<T>(...args);
  try {
    return JSON.parse(
      execFileSync(process.execPath, [probe, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }),
    ) as T;
  } catch {
    return null;
  }
}

/** Seconds a whole process takes, from spawn to exit. */
function wallSeconds(command: string, args: string[], options: { cwd?: string } = {}): number {
  const started = performance.now();
  execFileSync(command, args, { stdio: 'ignore', ...options });
  return (performance.now() - started) / 1000;
}

/** For each build, the median of REPEATS measurements, the builds alternating within each repeat. */
function medianPerBuild(measure: (root: string, repeat: number) => number): number[] {
  const samples: number[][] = builds.map(() => []);
  for (let repeat = 0; repeat < REPEATS; repeat++) builds.forEach((root, b) => samples[b].push(measure(root, repeat)));
  return samples.map(median);
}

// A figure a baseline could not measure (a rule it does not have) is NaN, shown as a dash.
const mega = (x: number) => (Number.isFinite(x) ? `${(x / 1e6).toFixed(1)}M` : '—');
const ratio = (x: number) => (Number.isFinite(x) ? `${x.toFixed(2)}×` : '—');
/** Nanoseconds a die at `rate` dice per CPU-second. */
const nsPerDie = (rate: number) => `${(1e9 / rate).toFixed(2)} ns`;
const ms = (seconds: number) => `${(seconds * 1000).toFixed(0)} ms`;
const out: string[] = [];
const table = (rows: string[][]) => {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => row[c].length)));
  for (const row of rows)
    out.push(
      row
        .map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c])))
        .join('  ')
        .trimEnd(),
    );
};
const loadBefore = loadavg()[0];

// The limit, per CPU-second: a single-threaded loop's CPU time is what a busy machine disturbs least.
const limits = LIMIT_GENERATORS.map((generator) => {
  const runs = Array.from({ length: REPEATS }, () =>
    probeJson<{ dicePerSecond: number; dicePerCpuSecond: number }>('limit', generator),
  );
  return {
    generator,
    wall: median(runs.map((run) => run.dicePerSecond)),
    rate: median(runs.map((run) => run.dicePerCpuSecond)),
  };
});
const limit = limits.find((entry) => entry.generator === LIMIT)!;

// Every rule, on each stream of this build and of the baseline: each row's "vs base" is the same stream on both, the
// same dice (a baseline from before streams ignores the stream asked and runs its own, stream 1's dice).
type RuleRate = { trialsPerSecond: number; trialsPerCpuSecond: number };
/**
 * The default stream, stream 3 (the default before it, what the speed issue measured against) and stream 1. Streams 2
 * and 4 each differ from a neighbour in one rule's reading only, so they are left out to keep the bench short.
 */
const STREAMS = [...new Set([String(DEFAULT_STREAM), '3', '1'])];
/** Where stream 3 is in STREAMS: each rule's rate on the others is shown against it. */
const THIRD = STREAMS.indexOf('3');
const RESERVES_STREAMS = [...new Set([String(DEFAULT_STREAM), '1'])];
const ruleConfigs = [
  ...STREAMS.map((stream) => ({ root: current, stream })),
  ...(baseline ? STREAMS.map((stream) => ({ root: baseline, stream })) : []),
];
/** A rule's rates on one build; none (NaN, shown as —) on a baseline from before the rule. */
const ruleRate = (root: string, id: string, threads: string, seed: string, stream: string): RuleRate =>
  probeBuild<RuleRate>(root, ['rule', root, id, threads, seed, stream]) ?? {
    trialsPerSecond: Number.NaN,
    trialsPerCpuSecond: Number.NaN,
  };
/** The limit's d6 per CPU-second, probed in its own process like a rule's turn (probe.ts). */
const limitRate = () => probeJson<{ dicePerCpuSecond: number }>('limit', LIMIT).dicePerCpuSecond;
const ruleRows = rules.map((rule) => {
  const samples = [1, threads].map(() => ruleConfigs.map(() => [] as RuleRate[]));
  // The limit in rotation with the rule's own turns, so that both meet the same load (measured once at the start,
  // it read 2.69 ns a die where the same loop in rotation took 1.08): the rule's "× limit" is against these.
  const limitTurns: number[] = [];
  for (let repeat = 0; repeat < REPEATS; repeat++) {
    limitTurns.push(limitRate());
    [1, threads].forEach((t, i) =>
      ruleConfigs.forEach(({ root, stream }, c) =>
        samples[i][c].push(ruleRate(root, rule.id, String(t), `bench-${repeat}`, stream)),
      ),
    );
  }
  const pick = (i: number, field: keyof RuleRate) => samples[i].map((runs) => median(runs.map((run) => run[field])));
  return {
    id: rule.id,
    draws: dicePerTrial(rule.id),
    single: pick(0, 'trialsPerSecond'),
    singleCpu: pick(0, 'trialsPerCpuSecond'),
    all: pick(1, 'trialsPerSecond'),
    limit: median(limitTurns),
  };
});

// The reserves rule written as a rule file, on one thread, measured turn about with the built-in (this build only, each
// stream).
const RULE_FILE = 'examples/rules/reserves.mjs';
const filePairs = RESERVES_STREAMS.map((stream) => {
  const pair = [[], []] as number[][];
  for (let repeat = 0; repeat < REPEATS; repeat++) {
    pair[0].push(
      probeJson<RuleRate>('rule', current, 'reserves', '1', `bench-file-${repeat}`, stream).trialsPerCpuSecond,
    );
    pair[1].push(
      probeJson<RuleRate>('rule', current, join(current, RULE_FILE), '1', `bench-file-${repeat}`, stream)
        .trialsPerCpuSecond,
    );
  }
  return { stream, builtIn: median(pair[0]), file: median(pair[1]) };
});

// The example rule files that draw with dice.d, on one thread, per CPU-second, this build and the baseline turn about
// (each build running this checkout's file: the same file, so the ratio is the build's). A baseline that cannot run a
// file (one from before the step form) shows none for it.
const DICE_FILES = [
  'examples/rules/reserves-2d6.mjs',
  'examples/rules/roll-off-reroll.mjs',
  'examples/rules/deployment-gamble.mjs',
  'examples/rules/reserves-2d6-steps.mjs',
  'examples/rules/infinity-steps.mjs',
];
const fileRate = (root: string, file: string, repeat: number): number | null =>
  probeBuild<RuleRate>(root, ['rule', root, join(current, file), '1', `bench-dice-${repeat}`, String(DEFAULT_STREAM)])
    ?.trialsPerCpuSecond ?? null;
const diceFiles = DICE_FILES.map((file) => {
  const samples = builds.map(() => [] as number[]);
  for (let repeat = 0; repeat < REPEATS; repeat++)
    builds.forEach((root, b) => {
      const rate = fileRate(root, file, repeat);
      if (rate !== null) samples[b].push(rate);
    });
  return { file, rates: samples.map((list) => (list.length === REPEATS ? median(list) : null)) };
});
// reserves-2d6.mjs through muster's loop against its trial written by hand with the dice in locals (floor.ts).
const floors = Array.from({ length: REPEATS }, (_, repeat) =>
  probeJson<{ fileNsPerTrial: number; floorNsPerTrial: number; agree: boolean }>('floor', current, `floor-${repeat}`),
);

// Every rule by size, on the default stream.
const sizeLines = sizesReport({ stream: DEFAULT_STREAM, repeats: REPEATS });

// numpy.
const numpyScript = join(current, 'scripts/bench/reserves_numpy.py');
let numpy: { trialsPerSecond: number; numpy: string } | null = null;
try {
  const runs = Array.from(
    { length: REPEATS },
    () =>
      JSON.parse(execFileSync('python3', [numpyScript, '1e7'], { encoding: 'utf8' })) as {
        trialsPerSecond: number;
        numpy: string;
      },
  );
  numpy = { trialsPerSecond: median(runs.map((run) => run.trialsPerSecond)), numpy: runs[0].numpy };
} catch (error) {
  process.stderr.write(`numpy baseline skipped: ${(error as Error).message.split('\n')[0]}\n`);
}
// This build on its default stream and on stream 1, and the baseline on its own, alternating.
const runConfigs = [
  ...RESERVES_STREAMS.map((stream) => ({ root: current, args: ['--stream', stream] })),
  ...(baseline ? [{ root: baseline, args: [] }] : []),
];
const runSamples = runConfigs.map(() => [] as number[]);
for (let repeat = 0; repeat < REPEATS; repeat++) {
  runConfigs.forEach(({ root, args }, c) =>
    runSamples[c].push(
      NUMPY_RUN_TRIALS /
        wallSeconds(process.execPath, [
          join(root, 'dist/cli.js'),
          'run',
          'reserves',
          '--threads',
          '1',
          '--trials',
          String(NUMPY_RUN_TRIALS),
          '--quiet',
          ...args,
        ]),
    ),
  );
}
const wholeRun = runSamples.map(median);

// Start-up.
const scratch = mkdtempSync(join(tmpdir(), 'muster-bench-'));
const startupCommands: Array<[string, string[]]> = [
  ['muster list', ['list']],
  ['muster describe fow', ['describe', 'fow']],
  ['muster run reserves --exact', ['run', 'reserves', '--exact']],
  ['muster run infinity --trials 1e5', ['run', 'infinity', '--trials', '1e5']],
];
const bareNode = median(Array.from({ length: REPEATS }, () => wallSeconds(process.execPath, ['-e', '0'])));
const startups = startupCommands.map(([label, args]) => ({
  label,
  seconds: medianPerBuild((root) =>
    wallSeconds(process.execPath, [join(root, 'dist/cli.js'), ...args], { cwd: scratch }),
  ),
}));
rmSync(scratch, { recursive: true, force: true });

// Sweep overhead.
const sweeps = builds.map(() => [] as number[]);
for (let repeat = 0; repeat < REPEATS; repeat++) {
  builds.forEach((root, b) => {
    const { sweepSeconds, runSeconds } = probeJson<{ sweepSeconds: number; runSeconds: number }>(
      'sweep',
      root,
      String(threads),
    );
    sweeps[b].push(sweepSeconds / runSeconds);
  });
}

// The same sweep and run as whole commands, turn about: what a user waits for, start-up, planning and the table
// included.
const SWEEP_ARGS = [
  'sweep',
  'reserves',
  '--vary',
  'leaderLoss=0..0.99:0.01',
  '--trials',
  String(CHUNK_TRIALS),
  '--threads',
  String(threads),
  '--quiet',
];
const RUN_ARGS = ['run', 'reserves', '--trials', String(100 * CHUNK_TRIALS), '--threads', String(threads), '--quiet'];
const wholeSweeps = builds.map(() => [] as number[]);
for (let repeat = 0; repeat < REPEATS; repeat++) {
  builds.forEach((root, b) => {
    const sweepSeconds = wallSeconds(process.execPath, [join(root, 'dist/cli.js'), ...SWEEP_ARGS]);
    wholeSweeps[b].push(sweepSeconds / wallSeconds(process.execPath, [join(root, 'dist/cli.js'), ...RUN_ARGS]));
  });
}

// Issue 38's measure: the grid sweep against one run of its trials, one thread, CPU of whole commands (sweep-cost.ts).
const sweepCost = sweepCosts(builds, REPEATS);

// Report.
/** The limit as measured in rotation with the built-in reserves, for the rule files' "× limit" (against reserves). */
const reservesLimit = ruleRows.find((row) => row.id === 'reserves')?.limit ?? limit.rate;
const loadAfter = loadavg()[0];
out.push(
  `muster bench · node ${process.version} · ${threads} cores · median of ${REPEATS} · load average ` +
    `${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after`,
);
if (baseline) out.push(`baseline: ${baseline} (ratios are this build ÷ baseline, measured alternately)`);
out.push(
  '',
  "The limit: bare d6 loops, one thread, per CPU-second (and per second), measured in this run; each one's cost a die",
  "against the limit's (the old yardsticks, the limit of earlier reports, for comparison)",
);
table(
  limits.map(({ generator, rate, wall }) => [
    LIMIT_LABELS[generator],
    `${mega(rate)} d6/CPU-s`,
    `${mega(wall)} d6/s`,
    `${nsPerDie(rate)}/d6`,
    generator === LIMIT ? 'limit' : ratio(limit.rate / rate),
  ]),
);

out.push(
  '',
  `Every rule at its defaults through the pool, on streams ${STREAMS.join(', ')} (${DEFAULT_STREAM} the default): ` +
    'trials/s on 1 and on all',
  'threads, and per CPU-second on one thread (every thread of the process counted), also as a multiple of stream 3’s;',
  'd6/CPU-s = dice a trial needs (counted on stream 1, one uniform a die) × trials/CPU-s; cost a die (CPU) and that',
  "cost ÷ the limit's",
);
const ruleHeader = [
  'rule',
  'stream',
  'dice/trial',
  '1 thread',
  `${threads} threads`,
  'speed-up',
  '/CPU-s',
  '÷ stream 3',
  'd6/CPU-s',
  'cost/d6',
  '× limit',
  'limit',
];
if (baseline) ruleHeader.push('vs base: 1 thread', `${threads} threads`, '/CPU-s');
table([
  ruleHeader,
  ...ruleRows.flatMap((row) =>
    STREAMS.map((stream, c) => {
      const cells = [
        row.id,
        stream,
        row.draws.toFixed(2),
        mega(row.single[c]),
        mega(row.all[c]),
        ratio(row.all[c] / row.single[c]),
        mega(row.singleCpu[c]),
        ratio(row.singleCpu[c] / row.singleCpu[THIRD]),
        mega(row.draws * row.singleCpu[c]),
        nsPerDie(row.draws * row.singleCpu[c]),
        ratio(row.limit / (row.draws * row.singleCpu[c])),
        nsPerDie(row.limit),
      ];
      if (baseline)
        cells.push(
          ratio(row.single[c] / row.single[STREAMS.length + c]),
          ratio(row.all[c] / row.all[STREAMS.length + c]),
          ratio(row.singleCpu[c] / row.singleCpu[STREAMS.length + c]),
        );
      return cells;
    }),
  ),
]);
const diceRate = (id: string, c: number) => {
  const row = ruleRows.find((r) => r.id === id)!;
  return row.draws * row.singleCpu[c];
};
for (const [c, stream] of STREAMS.entries())
  out.push(
    `stream ${stream}: fow draws dice at ${ratio(diceRate('fow', c) / diceRate('reserves', c))} the rate reserves ` +
      `does (per CPU-second, one thread)`,
  );

out.push(
  '',
  `reserves as a rule file (${RULE_FILE}) against the built-in, one thread, per CPU-second, measured turn about;`,
  "the file's cost a die (the dice the built-in counts) ÷ the limit's",
);
const reservesDice = ruleRows.find((row) => row.id === 'reserves')!.draws;
table([
  ['stream', 'rule file', 'built-in', 'rule file ÷ built-in', 'file × limit'],
  ...filePairs.map(({ stream, builtIn, file }) => [
    stream,
    `${mega(file)} trials/CPU-s`,
    `${mega(builtIn)} trials/CPU-s`,
    `${ratio(file / builtIn)} (target ≥ 0.5)`,
    ratio(reservesLimit / (reservesDice * file)),
  ]),
]);

out.push(
  '',
  `The example rule files that draw with dice.d, at their defaults, one thread, trials per CPU-second (stream ${DEFAULT_STREAM})` +
    (baseline ? ', this build and the baseline turn about, each running this checkout’s file' : ''),
);
table([
  ['rule file', 'trials/CPU-s', ...(baseline ? ['baseline', 'this ÷ baseline'] : [])],
  ...diceFiles.map(({ file, rates: [mine, theirs] }) => [
    file.replace('examples/rules/', ''),
    mine === null ? '—' : mega(mine),
    ...(baseline
      ? [theirs == null ? '— (cannot run it)' : mega(theirs), mine && theirs ? ratio(mine / theirs) : '—']
      : []),
  ]),
]);
const fileNs = median(floors.map((f) => f.fileNsPerTrial));
const floorNs = median(floors.map((f) => f.floorNsPerTrial));
out.push(
  `reserves-2d6.mjs through muster ${fileNs.toFixed(1)} ns a trial, its trial by hand with the dice in local ` +
    `variables ${floorNs.toFixed(1)} ns (the same dice: ${floors.every((f) => f.agree) ? 'the same counts' : 'COUNTS DIFFER'}); ` +
    `muster ÷ that floor ${ratio(fileNs / floorNs)}`,
);

out.push('', ...sizeLines);

out.push('', `muster run reserves --threads 1 --trials 5e7, whole process`);
const numpyRows = RESERVES_STREAMS.map((stream, c) => [
  `muster --stream ${stream}${stream === String(DEFAULT_STREAM) ? ' (the default)' : ''}`,
  `${mega(wholeRun[c])} trials/s`,
  numpy ? `${ratio(wholeRun[c] / numpy.trialsPerSecond)} numpy` : '',
]);
if (baseline)
  numpyRows.push([
    `baseline`,
    `${mega(wholeRun[RESERVES_STREAMS.length])} trials/s`,
    numpy ? `${ratio(wholeRun[RESERVES_STREAMS.length] / numpy.trialsPerSecond)} numpy` : '',
  ]);
if (numpy)
  numpyRows.push([`numpy ${numpy.numpy}, vectorised, 1 process`, `${mega(numpy.trialsPerSecond)} trials/s`, '']);
table(numpyRows);

out.push('', `Start-up, whole process, against node -e 0 (${ms(bareNode)})`);
table(
  startups.map(({ label, seconds }) => [
    label,
    ms(seconds[0]),
    ratio(seconds[0] / bareNode),
    ...(baseline ? [`baseline ${ms(seconds[1])}`, ratio(seconds[1] / bareNode)] : []),
  ]),
);

out.push('', `Sweep: 100 reserves points of 65,536 trials against one run of 6,553,600, ${threads} threads`);
table([
  [
    'in one process, warm pool: time ÷ one run',
    ratio(median(sweeps[0])),
    ...(baseline ? ['baseline', ratio(median(sweeps[1]))] : []),
  ],
  [
    'whole commands (muster sweep ÷ muster run)',
    ratio(median(wholeSweeps[0])),
    ...(baseline ? ['baseline', ratio(median(wholeSweeps[1]))] : []),
  ],
]);
out.push('', ...sweepCostReport(builds, sweepCost));
process.stdout.write(`${out.join('\n')}\n`);
