/**
 * `npm run bench:memory`: a sweep's peak memory against one run of the same
 * trials. Each case is the built CLI (dist/cli.js) in a fresh process, whose
 * peak resident set (getrusage's ru_maxrss: the whole process, every worker
 * thread included, as `/usr/bin/time -f %M` reports it) a preloaded module
 * writes out as the process exits. The cases take turns, several turns, and
 * each is its median; the ratios are between medians of the same invocation.
 *
 *   sweep     reserves --vary squads=1..20 --vary command=0..4, 65,536 trials a point (100 points, 6,553,600 trials)
 *   heaviest  the sweep's heaviest point alone (squads=11, command=4: 248,832 outcome codes) for the same 6,553,600
 *   default   reserves at its defaults for the same 6,553,600 (a tally of 3,125 entries)
 *   1,000     reserves at 11 squads, 1,000 points (command × leaderLoss) of 4,096 trials
 *
 * Issue 25 asks the sweep for at most 1.2× the heaviest run, and the 1,000
 * points for under 300 MB.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../cli.js', import.meta.url));
const TURNS = Number(process.env.MEMORY_TURNS ?? 5);

const CASES = {
  sweep: ['sweep', 'reserves', '--vary', 'squads=1..20', '--vary', 'command=0..4', '--trials', '65536'],
  heaviest: ['run', 'reserves', '--set', 'squads=11', '--set', 'command=4', '--trials', '6553600'],
  default: ['run', 'reserves', '--trials', '6553600'],
  '1,000': [
    'sweep',
    'reserves',
    ...['--set', 'squads=11', '--set', 'chosenRound=3'],
    ...['--vary', 'command=0..9', '--vary', 'leaderLoss=0..0.99:0.01', '--trials', '4096'],
  ],
} as const;
type Case = keyof typeof CASES;

/** Writes the process's peak resident set, in KiB, to $MUSTER_BENCH_RSS as it exits (the main thread only). */
const PRELOAD = `import { isMainThread } from 'node:worker_threads';
import { writeFileSync } from 'node:fs';
if (isMainThread) process.on('exit', () => writeFileSync(process.env.MUSTER_BENCH_RSS, String(process.resourceUsage().maxRSS)));
`;

function peakMiB(args: readonly string[], preload: string, out: string): number {
  const run = spawnSync(process.execPath, ['--import', preload, CLI, ...args, '--quiet'], {
    env: { ...process.env, MUSTER_BENCH_RSS: out },
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`muster ${args.join(' ')}: exit ${run.status}: ${run.stderr}`);
  return Number(readFileSync(out, 'utf8')) / 1024;
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

function main(): void {
  const folder = mkdtempSync(join(tmpdir(), 'muster-bench-memory-'));
  try {
    const preload = join(folder, 'peak.mjs');
    writeFileSync(preload, PRELOAD);
    const peaks = Object.fromEntries(Object.keys(CASES).map((name) => [name, [] as number[]])) as Record<
      Case,
      number[]
    >;
    for (let turn = 0; turn < TURNS; turn++) {
      for (const name of Object.keys(CASES) as Case[])
        peaks[name].push(peakMiB(CASES[name], preload, join(folder, 'peak.txt')));
    }
    const of = (name: Case) => median(peaks[name]);
    console.log(`peak resident set, whole process, median of ${TURNS} turns (MiB)`);
    for (const name of Object.keys(CASES) as Case[]) {
      const runs = peaks[name].map((value) => value.toFixed(0)).join(' ');
      console.log(
        `  ${name.padEnd(9)} ${of(name).toFixed(1).padStart(7)}   (${runs})   muster ${CASES[name].join(' ')}`,
      );
    }
    console.log('ratios');
    console.log(`  sweep / heaviest   ${(of('sweep') / of('heaviest')).toFixed(2)}   (issue 25: at most 1.2)`);
    console.log(`  sweep / default    ${(of('sweep') / of('default')).toFixed(2)}`);
    console.log(`  heaviest / default ${(of('heaviest') / of('default')).toFixed(2)}`);
    console.log(`  1,000 points       ${((of('1,000') * 1024 * 1024) / 1e6).toFixed(0)} MB   (issue 25: under 300 MB)`);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

main();
