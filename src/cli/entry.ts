/**
 * The CLI's first step, before it loads the command line: a command whose
 * rule is a rule file (`muster run ./my-rule.mjs …`) goes straight to the
 * rule thread (cli/supervisor.ts). The main thread only watches that
 * thread, so it need not load commander, the built-in rules and the rest of
 * the command line, which the rule thread loads again: a third of such a
 * command's start-up. Every other command, and an argv this cannot read at
 * a glance, runs main() as before, where the parser's hook moves a rule
 * file's command just the same: what runs, and what it prints, is the same.
 */

import { interruption } from '../output/interrupt.js';
import { processIo } from '../output/io.js';
import { terminalIo } from '../output/terminal.js';
import { isRulePath } from '../rule-files/ref.js';

/** The commands whose first argument is <rule> (in cli.ts): those the parser's hook moves when it names a file. */
export const RULE_COMMANDS: readonly string[] = [
  'describe',
  'run',
  'matrix',
  'sweep',
  'balance',
  'compare',
  'card',
  'shard',
];

/**
 * Whether argv is such a command with its rule file right after the
 * command's name, where the parser can read nothing else: an option there
 * (`run --help x.mjs`, `run -- x.mjs`) leaves it to main().
 */
export function startsOnRuleThread(argv: readonly string[]): boolean {
  const [command, rule] = argv;
  return (
    command !== undefined &&
    RULE_COMMANDS.includes(command) &&
    rule !== undefined &&
    !rule.startsWith('-') &&
    isRulePath(rule)
  );
}

/** Runs the CLI on the real process and returns the exit status. */
export async function cliEntry(argv: readonly string[]): Promise<number> {
  if (!startsOnRuleThread(argv)) return (await import('../cli.js')).main(argv);
  const { superviseCommand } = await import('./supervisor.js');
  // The rule thread parses argv and tells the supervisor the command's --timeout before any rule code runs.
  return superviseCommand(argv, {
    raw: processIo,
    io: terminalIo(processIo),
    signalled: interruption() ?? undefined,
  });
}
