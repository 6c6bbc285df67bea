/** The endings a rule file may have. */
export const SCRIPT = /\.(mjs|js|cjs|ts|mts|cts)$/i;

/**
 * Whether a rule reference names a file rather than a built-in rule: in a
 * module of its own, so that a command naming a built-in rule never loads
 * the rule-file loader (esbuild's caller, the adapter, node:child_process).
 */
export function isRulePath(ref: string): boolean {
  return ref.includes('/') || ref.includes('\\') || SCRIPT.test(ref);
}
