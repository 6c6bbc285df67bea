/**
 * A parameter value after parsing: numbers, booleans and canonical strings only, so params survive JSON and worker
 * messages.
 */
export type ParamValue = number | boolean | string;
export type Params = Record<string, ParamValue>;

/**
 * How many values a distribution metric without a max lists from its min before counting the rest as beyond
 * (a built-in's histogram and a rule file's alike).
 */
export const DISTRIBUTION_DEPTH = 1000;
