import type { Rule } from '../../src/rules/types.js';

/**
 * Rules bundled into the calculator besides the built-in ones. Empty here;
 * `muster app --rule FILE` replaces this module, in the bundle only, with one
 * that imports each rule file and adapts it (see ./build.ts).
 */
export const extraRules: readonly Rule[] = [];
