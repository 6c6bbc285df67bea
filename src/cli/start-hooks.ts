/**
 * What main() does for a command before the command itself runs: tell the supervisor its --timeout, and start
 * the worker threads early for a command that will surely need them.
 */
import type { Command } from 'commander';
import { CHUNK_TRIALS } from '../engine/chunks.js';
import { IN_PROCESS_CHUNKS, SimulationPool } from '../engine/pool.js';
import { DEFAULT_TRIALS, parseCount, parseThreads } from './options.js';

/** The command's --timeout for the supervisor's watch, if valid (the command itself reports one that is not). */
export async function givenTimeout(program: Command): Promise<number | undefined> {
  const raw = program.commands.map((command) => command.opts().timeout).find((value) => typeof value === 'string');
  if (raw === undefined) return undefined;
  const { parseTimeout } = await import('./commands/run.js');
  try {
    return parseTimeout(raw);
  } catch {
    return undefined;
  }
}

/**
 * Starts the worker threads as soon as a command is known to simulate
 * enough to need them (SimulationPool.prestart), so they boot while the
 * command's modules load and its work is planned: a player's `muster run`
 * answers sooner. Options the command will refuse start nothing; the
 * command reports them as always.
 */
export function prestartPool(
  options: { threads?: string; trials?: string; precision?: string },
  simulates: boolean,
): void {
  if (!simulates) return;
  let threads: number;
  let trials: number;
  try {
    threads = parseThreads(options.threads);
    trials =
      options.precision !== undefined
        ? Number.POSITIVE_INFINITY
        : options.trials === undefined
          ? DEFAULT_TRIALS
          : parseCount('--trials', options.trials);
  } catch {
    return;
  }
  // A run this small is computed on this thread, with no pool at all.
  if (trials > IN_PROCESS_CHUNKS * CHUNK_TRIALS) SimulationPool.prestart(threads);
}
