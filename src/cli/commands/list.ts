import { rules } from '../../rules/index.js';
import { renderTable } from '../format.js';
import type { Io } from '../io.js';

/** `muster list`: every rule with its one-line summary. */
export async function listCommand(io: Io): Promise<void> {
  io.out(renderTable(['rule', 'what it answers'], rules.map((rule) => [rule.id, rule.summary]), 'left'));
}
