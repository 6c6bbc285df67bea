import type { Rule } from '../contract/types.js';
import { rules } from '../rules/index.js';
import { extraRules } from './extra-rules.js';

/**
 * Every rule the calculator offers: the built-in ones, then any bundled with --rule. The page and its workers share
 * this list.
 */
export const appRules: readonly Rule[] = [...rules, ...extraRules];
