/**
 * `muster merge --verify K` for the shards of a sweep or a comparison. The
 * field checks catch a shard inconsistent in itself; a consistent forgery
 * passes them: counts moved between outcomes, or every shard's options
 * relabelled (a sweep of command=2 recorded as command=3, its counts those
 * of command 2). A re-run catches both, because it runs what the shards
 * claim: each piece is re-run from the point merge planned from the
 * shard's own --set, --vary or --variant text, with that point's seed, and
 * must give its tally to the last count.
 *
 * The unit is a piece (one point's chunks in one shard): the pieces to
 * re-run are drawn with the operating system's randomness, as for a run's
 * shards, so a forger cannot know which; they are drawn before any shard is
 * read, so only their tallies are kept. A forged share f of N pieces
 * escapes with probability C(N − f, K) / C(N, K).
 */

import { randomInt } from 'node:crypto';
import type { GridCommand } from '../analysis/grid.js';
import type { Params, Rule, StreamVersion } from '../contract/types.js';
import { SimulationPool } from '../engine/pool.js';
import { parseIntegerOption, parseThreads } from '../engine/settings.js';
import { simulateMany } from '../engine/simulate-many.js';
import { UsageError } from '../errors.js';
import { withInterrupt } from '../output/interrupt.js';
import type { Io } from '../output/io.js';
import { terminalLine } from '../output/terminal.js';
import { type GridPiece, gridShardPieces } from './grid-shards.js';

/** What a re-run needs of the merged command, as merge planned it from the shards. */
export interface GridToVerify {
  command: GridCommand;
  ruleAt: (point: number) => Rule;
  points: readonly Params[];
  seeds: readonly string[];
  stream: StreamVersion;
  trials: number;
  shards: number;
}

/** The pieces chosen to re-run, found by shard index and piece; each keeps the file and tally read for it. */
export class PiecesToVerify {
  readonly #chosen = new Map<string, { shard: number; piece: GridPiece; file?: string; tally?: number[] }>();

  /** Chooses `--verify` pieces of the grid at random; none without --verify. */
  constructor(grid: GridToVerify, verify: string | undefined) {
    if (verify === undefined) return;
    const all: Array<{ shard: number; piece: GridPiece }> = [];
    for (let shard = 0; shard < grid.shards; shard++) {
      const pieces = gridShardPieces(grid.points.length, grid.trials, shard, grid.shards);
      for (const piece of pieces) all.push({ shard, piece });
    }
    const count = parseIntegerOption('--verify', verify, 0, all.length);
    // A partial Fisher–Yates shuffle: the first `count` places hold a uniform choice.
    for (let i = 0; i < count; i++) {
      const j = i + randomInt(all.length - i);
      [all[i], all[j]] = [all[j], all[i]];
      this.#chosen.set(`${all[i].shard}/${all[i].piece.point}`, { ...all[i] });
    }
  }

  /** Keeps a piece's tally, if it is one chosen (pieces are checked against the plan before this). */
  keep(shard: number, piece: GridPiece & { tally: number[] }, file: string): void {
    const chosen = this.#chosen.get(`${shard}/${piece.point}`);
    if (chosen) Object.assign(chosen, { file, tally: piece.tally });
  }

  /** Re-runs every chosen piece and refuses the merge at the first count that differs from its file. */
  async check(grid: GridToVerify, threadsOption: string | undefined, quiet: boolean, io: Io): Promise<void> {
    if (this.#chosen.size === 0) return;
    const threads = parseThreads(threadsOption);
    const chosen = [...this.#chosen.values()];
    const noun = grid.command === 'compare' ? 'variant' : grid.command === 'balance' ? 'setting' : 'point';
    const pool = SimulationPool.take(threads);
    try {
      const outcomes = await withInterrupt((signal) =>
        simulateMany(
          pool,
          chosen.map(({ piece }) => ({
            rule: grid.ruleAt(piece.point),
            params: grid.points[piece.point],
            seed: grid.seeds[piece.point],
            stream: grid.stream,
            trials: grid.trials,
            chunks: piece,
          })),
          { signal },
        ),
      );
      if (outcomes.some((outcome) => outcome.partial)) {
        throw new UsageError('--verify: interrupted before the shards were checked; nothing was written');
      }
      for (const [index, { piece, file, tally }] of chosen.entries()) {
        if (file === undefined || tally === undefined) throw new Error('merge --verify: a chosen piece was not read');
        const rerun = outcomes[index].tally;
        const differs = rerun.findIndex((value, i) => value !== tally[i]);
        const span = `${noun} ${piece.point + 1}, chunks ${piece.first}–${piece.end - 1}`;
        if (differs >= 0) {
          const got =
            `tally[${differs}]: got ${tally[differs]}, a re-run of the ${noun} its options describe ` +
            `gives ${rerun[differs]}`;
          const allowed =
            `the tally muster ${grid.command} --shard computes (the file was edited, relabelled, or ` +
            `written by another build)`;
          throw new UsageError(`files: ${JSON.stringify(file)}: ${span}: ${got}; allowed: ${allowed}`);
        }
        if (!quiet) io.err(`verified ${terminalLine(file)}: a re-run of ${span} gives the same tally\n`);
      }
    } finally {
      await pool.close();
    }
  }
}
