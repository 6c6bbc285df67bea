/**
 * The CLI's first step, before it loads the command line: where the command
 * runs, decided once from argv. A command any of whose arguments names a
 * rule file (`muster run ./my-rule.mjs …`, `--variant "b: rule=./b.mjs"`,
 * `merge … --rule ./my-rule.mjs`, `app --rule=./my-rule.mjs`) runs on the rule
 * thread (cli/supervisor.ts), which the main thread only watches; it need not
 * load commander, the built-in rules and the rest of the command line, which
 * the rule thread loads again. Every other command runs main() here, where a
 * rule file is refused in one line (guard/main-thread.ts): one named nowhere
 * in argv is never run where nothing could stop it.
 *
 *   argv ─► startsOnRuleThread? ─ yes ─► superviseCommand(argv) ─► rule thread: main(argv)
 *                               └ no ──► withoutRuleFiles(main(argv))
 *
 * Every file muster imports as a rule file ends in a script's extension and
 * is named by the command's arguments (a shard, a checkpoint or a book names
 * none that is imported: merge imports only the files given with --rule).
 */

import { withoutRuleFiles } from '../guard/main-thread.js';
import { interruption } from '../output/interrupt.js';
import { processIo } from '../output/io.js';
import { terminalIo } from '../output/terminal.js';
import { isRulePath } from '../rule-files/ref.js';

/** The commands whose first argument is <rule> (in cli.ts): a path there names a rule file even with no extension. */
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
 * A script's ending (rule-path.ts SCRIPT) anywhere in an argument: at its
 * end, or followed by what separates it from more text, as in
 * `--rule=./a.mjs`, `"b: rule=./b.mjs,n=2"` or `"rule=./c.js; n=3"`. A name
 * that merely contains one (`wip.json`, `mjsx`) is not a rule file.
 */
const NAMES_SCRIPT = /\.(mjs|js|cjs|ts|mts|cts)(?![\p{L}\p{N}_])/iu;

/**
 * Whether argv names a rule file anywhere: any operand or option value
 * (`--opt=value` included) with a script's ending in it, or a path as the
 * first argument of a command that takes <rule>. An argument that only looks
 * like one (an output called `x.js`) costs the rule thread's start-up, nothing
 * more.
 */
export function startsOnRuleThread(argv: readonly string[]): boolean {
  const [command, rule] = argv;
  if (argv.some((text) => NAMES_SCRIPT.test(text))) return true;
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
  if (!startsOnRuleThread(argv)) {
    const { main } = await import('../cli.js');
    return withoutRuleFiles(() => main(argv));
  }
  const { superviseCommand } = await import('./supervisor.js');
  // The rule thread parses argv and tells the supervisor the command's --timeout before any rule code runs.
  return superviseCommand(argv, {
    raw: processIo,
    io: terminalIo(processIo),
    signalled: interruption() ?? undefined,
  });
}
