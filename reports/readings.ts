/**
 * The readings a page's figures rest on (src/contract/types.ts, Reading): where
 * the rule text is silent or ambiguous, the reading each parameter selects.
 * A page covering several parameter sets (a sweep's points, a comparison's
 * variants) lists each distinct reading once, with the values that select it.
 */

import type { Params, Rule } from '../src/contract/types.js';
import { own } from '../src/keyed.js';

/** One line of a page's Readings block. */
export interface ReadingRow {
  /** The parameter that switches the reading. */
  param: string;
  /** Its value(s) on this page: "geometric", or "geometric | long" where a sweep or comparison takes several. */
  value: string;
  /** The reading in force at that value, in players' words. */
  text: string;
  /** Which parameter sets take this reading, where the page has several and they differ ("a; b"); empty otherwise. */
  where: string;
}

/**
 * Every reading of `rule` over one or more labelled parameter sets, in the
 * rule's order, each distinct (parameter, text) pair once.
 * @example readingRows(deployment, [{ params }]) // [{ param: 'compare', value: 'raw', text: 'a forward die …', where:
 * '' }, …]
 */
export function readingRows(rule: Rule, sets: ReadonlyArray<{ label?: string; params: Params }>): ReadingRow[] {
  if (!rule.presentation?.readings || sets.length === 0) return [];
  const rows: Array<ReadingRow & { labels: string[]; values: string[] }> = [];
  for (const { label, params } of sets) {
    for (const reading of rule.presentation.readings(params)) {
      const value = String(own(params, reading.param));
      let row = rows.find((r) => r.param === reading.param && r.text === reading.text);
      if (!row) {
        row = { param: reading.param, value: '', text: reading.text, where: '', labels: [], values: [] };
        rows.push(row);
      }
      if (!row.values.includes(value)) row.values.push(value);
      if (label !== undefined && !row.labels.includes(label)) row.labels.push(label);
    }
  }
  const everyLabel = sets.map((set) => set.label).filter((label) => label !== undefined);
  return rows.map(({ labels, values, ...row }) => ({
    ...row,
    value: values.join(' | '),
    where: labels.length > 0 && labels.length < new Set(everyLabel).size ? listSome(labels) : '',
  }));
}

/** At most six labels, then how many there are in all: a sweep can have hundreds of points. */
function listSome(labels: readonly string[]): string {
  return labels.length <= 6 ? labels.join('; ') : `${labels.slice(0, 6).join('; ')}; … (${labels.length} in all)`;
}

/** The readings as plain lines, `param=value: text`, for the terminal and for tests. */
export function readingLines(rows: readonly ReadingRow[]): string[] {
  return rows.map((row) => `${row.param}=${row.value}: ${row.text}${row.where ? ` (${row.where})` : ''}`);
}
