import type { Io } from '../../output/io.js';
import { rules } from '../../rules/index.js';
import { wrapText } from '../format.js';

/** `muster list`: every rule with its one-line summary, wrapped within 100 columns. */
export async function listCommand(io: Io): Promise<void> {
  const width = Math.max(...rules.map((rule) => rule.id.length)) + 2;
  const lines = rules.map(
    (rule) => `${rule.id.padEnd(width)}${wrapText(rule.summary, 100, ' '.repeat(width)).trimStart()}`,
  );
  io.out(
    `${lines.join('\n')}\n\nmuster describe <rule> for its parameters and metrics; muster run <rule> for the ` +
      `odds.\nYour own rule: muster new-rule NAME, then muster run ./NAME.mjs (docs/custom-rules.md).\n`,
  );
}
