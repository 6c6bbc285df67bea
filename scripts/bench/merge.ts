/**
 * `npm run bench:merge`: how `muster merge` scales with the number of
 * shards. One run of 10,000 chunks (655,360,000 trials of reserves at its
 * defaults), and one sweep of 100 points × 100 chunks (squads = 1 … 100),
 * are each written as 1, 100 and 10,000 synthetic shard files, and each set
 * is merged in a fresh process that reports its wall time and peak memory.
 * Ratios are against the 1-shard merge of the same invocation.
 *
 * Synthetic: every chunk's tally is one real chunk's tally (chunk 0 of each
 * point, run once), so the files have the sizes and the validation work of
 * real shards without simulating 655 million trials; the merged numbers
 * themselves mean nothing.
 */

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GRID_SHARD_FORMAT, type GridShardFile } from '../../src/cli/commands/grid-shard.js';
import { mergeAnyCommand, type ShardFile } from '../../src/cli/commands/shard.js';
import { CHUNK_TRIALS, shardChunks } from '../../src/engine/chunks.js';
import { DEFAULT_STREAM } from '../../src/engine/random.js';
import { envelope } from '../../src/result.js';
import { runBuiltinChunks } from '../../src/rules/index.js';
import { resolveParams } from '../../src/rules/params.js';
import { reserves } from '../../src/rules/reserves/reserves.js';
import { gridShardPieces } from '../../src/shards/grid-shards.js';
import { packageVersion } from '../../src/version.js';

const CHUNKS = 10_000;
const TRIALS = CHUNKS * CHUNK_TRIALS;
const SHARD_COUNTS = [1, 100, 10_000];
const SWEEP_POINTS = 100;
const SWEEP_TRIALS = (CHUNKS / SWEEP_POINTS) * CHUNK_TRIALS;

interface Measured {
  shards: number;
  seconds: number;
  maxRssMiB: number;
  bytes: number;
}

/** In the child: merge every file in `folder` and report time and peak memory. */
async function child(folder: string): Promise<void> {
  const files = readdirSync(folder).map((name) => join(folder, name));
  const quiet = { out: () => {}, err: () => {}, errIsTTY: false };
  const started = performance.now();
  await mergeAnyCommand(files, {}, quiet);
  const seconds = (performance.now() - started) / 1000;
  process.stdout.write(JSON.stringify({ seconds, maxRssMiB: process.resourceUsage().maxRSS / 1024 }));
}

function writeShards(
  folder: string,
  shards: number,
  chunkTally: Float64Array,
  params: ReturnType<typeof resolveParams>,
): number {
  let bytes = 0;
  for (let index = 0; index < shards; index++) {
    const chunks = shardChunks(TRIALS, index, shards);
    const width = chunks.end - chunks.first;
    const file: ShardFile = {
      ...envelope('shard', reserves),
      params,
      seed: 'bench',
      stream: DEFAULT_STREAM,
      trials: TRIALS,
      chunks,
      threads: 1,
      tally: Array.from(chunkTally, (count) => count * width),
    };
    const text = `${JSON.stringify(file)}\n`;
    writeFileSync(join(folder, `shard-${String(index).padStart(5, '0')}.json`), text);
    bytes += text.length;
  }
  return bytes;
}

/**
 * Shards of `muster sweep reserves --vary squads=1..100 --trials 6553600`, point p's chunks all holding
 * `pointTallies[p]`.
 */
function writeSweepShards(folder: string, shards: number, pointTallies: Float64Array[]): number {
  let bytes = 0;
  for (let index = 0; index < shards; index++) {
    const pieces = gridShardPieces(SWEEP_POINTS, SWEEP_TRIALS, index, shards).map((piece) => ({
      ...piece,
      tally: Array.from(pointTallies[piece.point], (count) => count * (piece.end - piece.first)),
    }));
    const file: GridShardFile = {
      format: GRID_SHARD_FORMAT,
      version: packageVersion(),
      command: 'sweep',
      rule: reserves.id,
      args: { set: [], vary: [`squads=1..${SWEEP_POINTS}`] },
      seed: 'bench',
      stream: DEFAULT_STREAM,
      trials: SWEEP_TRIALS,
      confidence: 0.95,
      shard: { index, count: shards },
      threads: 1,
      pieces,
    };
    const text = `${JSON.stringify(file)}\n`;
    writeFileSync(join(folder, `shard-${String(index).padStart(5, '0')}.json`), text);
    bytes += text.length;
  }
  return bytes;
}

function measure(write: (folder: string, shards: number) => number): Measured[] {
  const measured: Measured[] = [];
  for (const shards of SHARD_COUNTS) {
    const folder = mkdtempSync(join(tmpdir(), `muster-bench-merge-${shards}-`));
    try {
      const bytes = write(folder, shards);
      const output = execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--child', folder], {
        encoding: 'utf8',
      });
      measured.push({ shards, bytes, ...(JSON.parse(output) as { seconds: number; maxRssMiB: number }) });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }
  return measured;
}

function report(title: string, measured: Measured[]): void {
  const [base] = measured;
  process.stdout.write(`${title}; each merge in a fresh process\n`);
  process.stdout.write('shards  files (KiB)  merge (s)  × 1 shard  per shard (ms)  peak RSS (MiB)  × 1 shard\n');
  for (const m of measured) {
    process.stdout.write(
      `${String(m.shards).padStart(6)}  ${(m.bytes / 1024).toFixed(0).padStart(11)}  ` +
        `${m.seconds.toFixed(3).padStart(9)}  ${(m.seconds / base.seconds).toFixed(2).padStart(8)}×  ` +
        `${((m.seconds * 1000) / m.shards).toFixed(3).padStart(14)}  ${m.maxRssMiB.toFixed(0).padStart(14)}  ` +
        `${(m.maxRssMiB / base.maxRssMiB).toFixed(2).padStart(8)}×\n`,
    );
  }
}

async function parent(): Promise<void> {
  const params = resolveParams(reserves);
  const chunkTally = runBuiltinChunks({
    ruleId: reserves.id,
    params,
    seed: 'bench',
    stream: DEFAULT_STREAM,
    firstChunk: 0,
    endChunk: 1,
    totalTrials: TRIALS,
  });
  report(
    `muster merge of one ${TRIALS.toExponential(3)}-trial run (${CHUNKS} chunks), reserves at defaults`,
    measure((folder, shards) => writeShards(folder, shards, chunkTally, params)),
  );
  const pointTallies = Array.from({ length: SWEEP_POINTS }, (_, point) => {
    const pointParams = resolveParams(reserves, [`squads=${point + 1}`]);
    return runBuiltinChunks({
      ruleId: reserves.id,
      params: pointParams,
      seed: 'bench',
      stream: DEFAULT_STREAM,
      firstChunk: 0,
      endChunk: 1,
      totalTrials: SWEEP_TRIALS,
    });
  });
  report(
    `\nmuster merge of one sweep of ${SWEEP_POINTS} points × ${CHUNKS / SWEEP_POINTS} chunks (reserves, squads = 1 ` +
      `… ${SWEEP_POINTS})`,
    measure((folder, shards) => writeSweepShards(folder, shards, pointTallies)),
  );
}

if (process.argv[2] === '--child') await child(process.argv[3]);
else await parent();
