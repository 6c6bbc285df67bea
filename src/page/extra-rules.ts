import type { Rule } from '../contract/types.js';

/**
 * Rules bundled into the calculator besides the built-in ones. Empty here;
 * `muster app --rule FILE` replaces this module, in the bundle only, with one
 * that imports each rule file and adapts it (see ./build.ts).
 */
export const extraRules: readonly Rule[] = [];

/** Each extra rule's file as the user named it to `muster app --rule` (in extraRules' order), for the page's hints. */
export const extraRuleOrigins: readonly string[] = [];
