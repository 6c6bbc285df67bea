import type { Command } from 'commander';
import { UsageError } from '../errors.js';

export {
  DEFAULT_TRIALS,
  MAX_CONFIDENCE,
  MAX_TRIALS,
  parseConfidence,
  parseCount,
  parseIntegerOption,
  parseOpenInterval,
  parseStream,
  parseThreads,
} from '../engine/settings.js';
export { parseSeed } from '../input/seed.js';
export { checkOutputFile } from '../output/files.js';

/** Commander's collector for repeatable and variadic options. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/**
 * One rule for every single-valued option: giving it twice is an error
 * (`--trials 1e6 --trials 2e6` would otherwise keep the last silently).
 * Repeatable options (--set, --vary, --variant, --metric) and flags are
 * left alone.
 */
export function rejectRepeats(program: Command): void {
  const visit = (command: Command) => {
    for (const option of command.options) {
      if (option.variadic || option.parseArg || !(option.required || option.optional)) continue;
      option.argParser((value: string, previous: unknown) => {
        if (previous !== undefined)
          throw new UsageError(
            `${option.long}: given twice (${JSON.stringify(previous)} and ${JSON.stringify(value)}); allowed: once`,
          );
        return value;
      });
    }
    for (const sub of command.commands) visit(sub);
  };
  visit(program);
}
