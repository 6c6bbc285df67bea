/** Options several commands share: those of every simulation, and --timeout where a rule file's code runs. */
import { type Command, Option } from 'commander';
import { STREAM_HELP } from '../../engine/random.js';
import { collect } from '../options.js';

/** --timeout on a command that runs a rule file's code but simulates nothing of its own. */
export const RULE_CODE_TIMEOUT =
  "stop (exit 2, nothing written) if a call of a rule file's code does not return this soon";

export function simulationOptions(command: Command): Command {
  return command
    .addOption(
      new Option('--set <name=value...>', 'set a rule parameter (repeatable; see muster describe <rule>)').argParser(
        collect,
      ),
    )
    .option('--trials <n>', 'trials to simulate: 1000000, 1e6, 10M (default 1M)')
    .option('--seed <text>', 'random seed; the same seed gives the same numbers on any thread count (default "muster")')
    .option('--stream <n>', STREAM_HELP)
    .option('--threads <n>', 'worker threads (default: available cores)')
    .option('--confidence <level>', 'confidence level of every interval (default 0.95)')
    .option('--json <file>', 'also write the result as JSON (- for standard output)')
    .option(
      '--timeout <seconds>',
      'fail (nothing written) if no block of trials, or call of a rule file, ends this soon',
    )
    .option('--quiet', 'no progress bar or notes on stderr');
}
