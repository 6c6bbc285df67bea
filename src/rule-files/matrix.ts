/** A rule file's `matrix` field, checked: the two-way table `muster matrix` draws (docs/custom-rules.md). */

import type { MatrixSpec, ParamSpec, Params, ParamValue } from '../contract/types.js';
import { UsageError } from '../errors.js';
import { ruleCall } from '../guard/rule-calls.js';
import { describeError, describeValue, isA } from '../guard/rule-text.js';
import { allowedText, parseParam } from '../rules/params.js';
import { plainData } from './read.js';

type Spec = Record<string, unknown>;

/** `where` names the file and rule in a fault of the rule's own `matrix.values` (rule-calls.ts). */
export function checkMatrix(
  value: unknown,
  params: readonly ParamSpec[],
  fail: (what: string) => never,
  where: string,
): MatrixSpec {
  if (value === null || typeof value !== 'object')
    fail(`matrix: got ${describeValue(value)}; allowed: { row, col, metrics, values }`);
  const m = value as Spec;
  const specOf = (field: 'row' | 'col'): ParamSpec => {
    const spec = params.find((p) => p.name === m[field]);
    if (!spec)
      fail(
        `matrix.${field}: got ${describeValue(m[field])}; allowed: one of the parameters ` +
          `${params.map((p) => p.name).join(', ')}`,
      );
    return spec as ParamSpec;
  };
  const row = specOf('row');
  const col = specOf('col');
  if (row.name === col.name) fail(`matrix: row and col are both ${row.name}; allowed: two different parameters`);
  if (!Array.isArray(m.metrics) || m.metrics.length === 0 || m.metrics.some((name) => typeof name !== 'string'))
    fail(`matrix.metrics: got ${describeValue(m.metrics)}; allowed: a non-empty array of metric names`);
  const axisValue = (_option: string, raw: unknown): ParamValue => {
    for (const spec of [row, col]) parseParam(spec, String(raw)); // both axes take every value
    return parseParam(row, String(raw));
  };
  const values = m.values;
  if (typeof values !== 'function' && !Array.isArray(values))
    fail(
      `matrix.values: got ${describeValue(values)}; allowed: an array of values both axes take, or a function of ` +
        `params returning one`,
    );
  // What values() returns is copied as data while its call is still marked; what it throws is one line.
  const valuesAt = (p: Params): unknown => {
    try {
      return ruleCall(where, 'matrix.values(params)', () =>
        plainData((values as Function)(Object.freeze({ ...p })), 'matrix.values(params) returned', fail),
      );
    } catch (error) {
      if (isA(error, UsageError)) throw error;
      return fail(`matrix.values(params) threw ${describeError(error)}`);
    }
  };
  const checkValues = (list: unknown): ParamValue[] => {
    if (!Array.isArray(list) || list.length === 0 || list.length > 60)
      fail(`matrix.values: got ${describeValue(list)}; allowed: 1 to 60 values`);
    try {
      return (list as unknown[]).map((raw) => axisValue('matrix.values', raw));
    } catch (error) {
      return fail(`matrix.values: ${(error as Error).message}`);
    }
  };
  return {
    row: row.name,
    col: col.name,
    metrics: [...(m.metrics as string[])],
    defaultValues: (p) => checkValues(typeof values === 'function' ? valuesAt(p) : values),
    parseRange(textValue) {
      const range = /^\s*(-?[\d.]+)\s*\.\.\s*(-?[\d.]+)\s*$/.exec(textValue);
      const raw: string[] = [];
      if (range && (row.type === 'integer' || row.type === 'number')) {
        const [from, to] = [Number(range[1]), Number(range[2])];
        if (!(Number.isInteger(from) && Number.isInteger(to) && from <= to && to - from < 60))
          throw new UsageError(
            `--range: got ${JSON.stringify(textValue)}; allowed: a..b with whole numbers, a ≤ b, at most 60 ` +
              `values, or v1,v2,…`,
          );
        for (let x = from; x <= to; x++) raw.push(String(x));
      } else {
        raw.push(...textValue.split(','));
      }
      return raw.map((piece) => {
        try {
          for (const spec of [row, col]) parseParam(spec, piece);
        } catch {
          throw new UsageError(
            `--range: got ${JSON.stringify(textValue)}; allowed: values both ${row.name} (${allowedText(row)}) ` +
              `and ${col.name} (${allowedText(col)}) take, as a..b or v1,v2,…`,
          );
        }
        return parseParam(row, piece);
      });
    },
  };
}
