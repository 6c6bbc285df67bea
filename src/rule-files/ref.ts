import type { Rule } from '../contract/types.js';

export { isRulePath, SCRIPT } from './path.js';

/**
 * The rule a rule file defines, the loader imported for it then: a
 * command checks isRulePath and takes a built-in rule with getRule, with no
 * await (nothing, such as a Ctrl-C listener, then waits on a tick).
 */
export async function loadRuleFileRef(ref: string): Promise<Rule> {
  return (await import('./load.js')).loadRule(ref);
}
