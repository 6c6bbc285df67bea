/**
 * What the supervisor (supervisor.ts) and the thread that runs a command over a rule file
 * (command-thread.ts) say to each other: apart, so that neither imports the other.
 */
import type { CallMarker } from '../guard/rule-calls.js';

/** What the supervisor hands the thread. */
export interface RuleThreadData {
  argv: string[];
  errIsTTY: boolean;
  columns: number | undefined;
  marker: CallMarker;
}

/** What the thread tells the supervisor, in order: output, then how it ended. */
export type RuleThreadMessage =
  | { out: string }
  | { err: string }
  | { timeout: number | undefined }
  | { done: number }
  | { internal: string }
  | { uncaught: string; blamed: boolean };
