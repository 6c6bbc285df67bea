/**
 * A parameter value after parsing: numbers, booleans and canonical strings only, so params survive JSON and worker
 * messages.
 */
export type ParamValue = number | boolean | string;
export type Params = Record<string, ParamValue>;
