/**
 * The moment a command run by the CLI is about to import a rule file, it is
 * stopped and run again on a thread of its own, which the main thread can
 * stop (cli/supervisor.ts). Built-in rules never get here: their commands
 * stay on the main thread and start as fast as before.
 */
import { setRuleFileGate } from '../guard/rule-calls.js';

/**
 * Thrown through the command by the gate: nothing has been imported, nor
 * written (a command loads its rules before it writes anything), so the
 * command can start again on the rule thread.
 */
export class HandOff extends Error {
  override readonly name = 'HandOff';
}

/** Arms the gate for one command; the returned function disarms it. */
export function armHandOff(): () => void {
  setRuleFileGate(() => {
    throw new HandOff('a rule file is run on the rule thread');
  });
  return () => setRuleFileGate(null);
}
