import { Fraction } from '../../src/exact/fraction.js';
import type { Rule } from '../../src/rules/types.js';
import { proportion } from '../../src/stats/estimate.js';

/** Text a user could type into a label, built to break out of every context a report puts text in. */
export const HOSTILE = `</script><img src=x onerror="window.__pwned=1"><style>body{display:none}</style>'"&\u2028`;

/** A rule whose one text parameter is taken as typed, to carry hostile text into a report. */
export const echoRule: Rule = {
  id: 'echo',
  title: `Echo ${HOSTILE}`,
  summary: 'echoes its label',
  source: 'none',
  params: [{ name: 'label', type: 'text', default: HOSTILE, allowed: 'any text', parse: (raw) => raw, doc: `the label ${HOSTILE}` }],
  metrics: () => [{ name: 'p', doc: `a third ${HOSTILE}`, probability: true }],
  tallyLength: () => 1,
  simulate: () => undefined,
  summarize: (_params, tally, trials) => ({ p: proportion(tally[0], trials) }),
  exact: () => ({ p: Fraction.of(1, 3) }),
};
