/**
 * No rule file's code runs on the CLI's main thread, the one that hears the
 * signals and keeps the clock. The entry (cli/entry.ts) decides once, from
 * argv, where a command runs: on the rule thread (cli/supervisor.ts) when
 * any of its arguments names a rule file, else here, inside
 * `withoutRuleFiles`. Should such a command still reach a rule file (one its
 * arguments did not name), the loader refuses it in one line instead of
 * importing it where nothing could stop it.
 *
 *   cli/entry.ts ─► withoutRuleFiles(main) ─► … ─► load-rule.ts refuseOnMainThread(file) ─► one line, exit 2
 *
 * The context follows the command's own calls and awaits (AsyncLocalStorage),
 * so a test, the library or the rule thread, calling the same code outside
 * it, loads rule files as always.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { UsageError } from '../errors.js';

const commandOnMainThread = new AsyncLocalStorage<true>();

/** Runs the CLI's command `run` on the main thread, where a rule file is refused (see the file's header). */
export function withoutRuleFiles<T>(run: () => Promise<T>): Promise<T> {
  return commandOnMainThread.run(true, run);
}

/** Throws, naming the file as messages do, when called within `withoutRuleFiles`: the loader asks before it reads. */
export function refuseOnMainThread(shown: string): void {
  if (commandOnMainThread.getStore() !== true) return;
  throw new UsageError(
    `rule: ${shown} is a rule file the command's arguments did not name, so it is not run; ` +
      'allowed: name the rule file in the command line itself (it then runs on the rule thread)',
  );
}
