import type { Rule } from '../../src/contract/types.js';
import { Fraction } from '../../src/exact/fraction.js';
import { proportion } from '../../src/stats/estimate.js';

/** Text a user could type into a label, built to break out of every context a report puts text in. */
export const HOSTILE = `</script><img src=x onerror="window.__pwned=1"><style>body{display:none}</style>'"&\u2028`;

/** A rule whose one text parameter is taken as typed, to carry hostile text into a report. */
export const echoRule: Rule = {
  id: 'echo',
  title: `Echo ${HOSTILE}`,
  summary: 'echoes its label',
  source: 'none',
  params: [
    {
      name: 'label',
      type: 'text',
      default: HOSTILE,
      allowed: 'any text',
      parse: (raw) => raw,
      doc: `the label ${HOSTILE}`,
    },
  ],
  metrics: () => [{ name: 'p', doc: `a third ${HOSTILE}`, probability: true }],
  tally: {
    length: () => 1,
    simulate: () => undefined,
    summarize: (_params, tally, trials) => ({ p: proportion(tally[0], trials) }),
  },
  exact: { values: () => ({ p: Fraction.of(1, 3) }) },
};

/**
 * Names a rule file may give its parameters and metrics that are JavaScript's own or that other languages
 * read as code: every name on Object.prototype and Function.prototype a plain object would answer for, a
 * thenable's `then`, and text that means something to Vega (a dot or brackets are nested access, quotes
 * and `+` build an expression), to HTML (`<`, quotes) or to a CSV reader (quote, comma).
 */
export const HOSTILE_NAMES: readonly string[] = [
  'constructor',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__proto__',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  '__defineGetter__',
  '__lookupSetter__',
  'then',
  'prototype',
  'apply',
  'call',
  'name',
  'length',
  'a.b',
  'a[0]',
  `q"u'o<x>,y`,
  'datum.x',
  "'+alert(1)+'",
  `<script>window.__pwned=1</script>`,
  'line\u2028separator',
  'new\nline',
  '\u001b[31mred',
  `${'long_'.repeat(19)}12345`,
  `p${'x'.repeat(63)}`,
];

/**
 * Whether a rule file may give a parameter this name, as docs/custom-rules.md says: letters, digits, `_`, not
 * `__proto__`.
 */
export const isParamName = (name: string): boolean =>
  /^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(name) && name !== '__proto__';

/** Whether a rule file may give a metric this name, as docs/custom-rules.md says: one line of up to 100 characters. */
export const isMetricName = (name: string): boolean =>
  name.length <= 100 && !/[\u0000-\u001f\u007f\u2028\u2029]/.test(name) && name !== '__proto__' && !/^\d+$/.test(name);

/**
 * A rule file whose threshold parameter and headline metric are both named `name` (the parameter `t` where
 * `name` cannot name one): one die of `sides` faces (default 6) scores when it shows the threshold
 * (default 4) or more, so the metric is (sides − threshold + 1) / sides — 1/2 at the defaults, a value
 * worked by hand — and `face`, the mean face, is (sides + 1)/2. It has exact values and a matrix of the
 * threshold against the sides, so every command runs on it.
 */
export function namedRuleSource(id: string, name: string, param: string = isParamName(name) ? name : 't'): string {
  const [metric, threshold] = [JSON.stringify(name), JSON.stringify(param)];
  return `export default {
  id: ${JSON.stringify(id)},
  title: ${JSON.stringify(`Named ${name}`)},
  params: [
    { name: ${threshold}, type: 'integer', default: 4, min: 1, max: 7, doc: 'the die scores on this or more' },
    { name: 'sides', type: 'integer', default: 6, min: 2, max: 8, doc: 'faces of the die' },
  ],
  metrics: [
    { name: ${metric}, probability: true, doc: 'the die scores' },
    { name: 'face', probability: false, doc: 'the face it shows' },
  ],
  headline: [${metric}, 'face'],
  trial(dice, p, out) {
    const face = dice.d(p.sides);
    out[${metric}] = face >= p[${threshold}];
    out.face = face;
  },
  exact(p) {
    const scoring = Math.max(0, p.sides - p[${threshold}] + 1);
    return { [${metric}]: scoring + '/' + p.sides, face: (p.sides + 1) + '/2' };
  },
  matrix: { row: ${threshold}, col: 'sides', metrics: [${metric}], values: [2, 3, 4, 5, 6] },
};
`;
}
