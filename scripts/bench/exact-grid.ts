/**
 * `npm run bench:exact-grid [-- --repeats N]`: an exact grid's hand-over to the pool's threads (issue 38), measured
 * as whole commands, turn about:
 *
 *   muster sweep examples/rules/reserves-2d6-rounds.mjs --exact --vary squads=150..200           (the hand-over)
 *   the same with --timeout 86400                                     (a watched rule file stays on one thread)
 *
 * --timeout is the switch because it is the documented one: the CLI's supervisor watches a rule file's calls on
 * the command's thread, so under it the points are never handed over (analysis/exact-grid.ts). The figure is the
 * median wall time of each and their ratio, one thread ÷ handed over (above 1: the threads paid); the CPU time of
 * each beside it (read from /proc/self/stat once the child is waited for), which the threads' start and their
 * contention raise. Each command's table is compared with the other's, and must be the same bytes.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { childrenCpuSeconds, median } from './sweep-cost.js';

/** The grid: 51 points of a step-form rule file, about 5 s of exact solving on one thread here. */
export const EXACT_GRID = [
  'sweep',
  'examples/rules/reserves-2d6-rounds.mjs',
  '--exact',
  '--vary',
  'squads=150..200',
  '--quiet',
];
export const EXACT_GRID_ONE_THREAD = [...EXACT_GRID, '--timeout', '86400'];

/** One whole command: its wall seconds, its CPU seconds (null where /proc is missing) and its table. */
function timed(root: string, args: readonly string[]) {
  const cpuBefore = childrenCpuSeconds();
  const started = performance.now();
  const table = execFileSync(process.execPath, [join(root, 'dist/cli.js'), ...args], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const wall = (performance.now() - started) / 1000;
  const cpuAfter = childrenCpuSeconds();
  return { wall, cpu: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore, table };
}

export interface ExactGridCost {
  handedOver: { wall: number; cpu: number | null };
  oneThread: { wall: number; cpu: number | null };
  /** The median of each turn's one-thread wall ÷ handed-over wall. */
  ratio: number;
}

/** `repeats` turns, each the two commands one after the other (which goes first alternates). */
export function exactGridCost(root: string, repeats: number): ExactGridCost {
  const handed = { wall: [] as number[], cpu: [] as number[] };
  const one = { wall: [] as number[], cpu: [] as number[] };
  const ratios: number[] = [];
  for (let turn = 0; turn < repeats; turn++) {
    const first = turn % 2 === 0;
    const a = first ? timed(root, EXACT_GRID) : undefined;
    const b = timed(root, EXACT_GRID_ONE_THREAD);
    const c = a ?? timed(root, EXACT_GRID);
    if (c.table !== b.table)
      throw new Error('the grid handed over and the grid on one thread printed different tables');
    handed.wall.push(c.wall);
    one.wall.push(b.wall);
    if (c.cpu !== null) handed.cpu.push(c.cpu);
    if (b.cpu !== null) one.cpu.push(b.cpu);
    ratios.push(b.wall / c.wall);
  }
  const cpuOf = (values: number[]) => (values.length === repeats ? median(values) : null);
  return {
    handedOver: { wall: median(handed.wall), cpu: cpuOf(handed.cpu) },
    oneThread: { wall: median(one.wall), cpu: cpuOf(one.cpu) },
    ratio: median(ratios),
  };
}

export function exactGridReport(cost: ExactGridCost, repeats: number): string[] {
  const cpu = (value: number | null) => (value === null ? '' : `, ${value.toFixed(2)} s CPU`);
  return [
    `An exact grid's hand-over: \`muster ${EXACT_GRID.join(' ')}\`, whole commands, ${repeats} turns, medians`,
    `  handed over to the pool: ${cost.handedOver.wall.toFixed(2)} s wall${cpu(cost.handedOver.cpu)}`,
    `  on one thread (--timeout): ${cost.oneThread.wall.toFixed(2)} s wall${cpu(cost.oneThread.cpu)}`,
    `  one thread ÷ handed over, wall: ${cost.ratio.toFixed(2)}× (the same table, byte for byte, every turn)`,
  ];
}

function main(argv: readonly string[]): void {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(
      'usage: npm run bench:exact-grid [-- --repeats N]\n' +
        "an exact sweep handed over to the pool's threads against the same sweep kept on one thread (--timeout),\n" +
        'whole commands turn about (N turns, default 3): wall and CPU seconds, and their ratio\n',
    );
    return;
  }
  const at = argv.indexOf('--repeats');
  const repeats = at >= 0 ? Number(argv[at + 1]) : 3;
  if (!Number.isInteger(repeats) || repeats < 1)
    throw new Error(`--repeats: got ${at >= 0 ? argv[at + 1] : ''}; allowed: 1 or more`);
  const root = fileURLToPath(new URL('../../..', import.meta.url));
  process.stdout.write(`${exactGridReport(exactGridCost(root, repeats), repeats).join('\n')}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main(process.argv.slice(2));
