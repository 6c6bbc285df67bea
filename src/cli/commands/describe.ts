import { allowedText } from '../../rules/params.js';
import { getRule } from '../../rules/index.js';
import { resolveParams } from '../../rules/params.js';
import { renderTable } from '../format.js';
import type { Io } from '../io.js';

/** `muster describe <rule>`: every parameter (type, default, allowed values, meaning) and every metric at the defaults. */
export async function describeCommand(ruleId: string, io: Io): Promise<void> {
  const rule = getRule(ruleId);
  const defaults = resolveParams(rule);
  const parameters = renderTable(
    ['parameter', 'type', 'default', 'allowed', 'meaning'],
    rule.params.map((spec) => [spec.name, spec.type, String(spec.default), allowedText(spec), spec.doc]),
    'left',
  );
  const metrics = renderTable(
    ['metric', 'kind', 'meaning'],
    rule.metrics(defaults).map((metric) => [metric.name, metric.probability ? 'probability' : 'mean', metric.doc]),
    'left',
  );
  const extras = [
    `exact solution: ${rule.exact ? 'yes (every metric; muster run --exact prints it)' : 'no'}`,
    ...(rule.matrix ? [`matrix: muster matrix ${rule.id} tabulates ${rule.matrix.metrics.join(', ')} over ${rule.matrix.row} × ${rule.matrix.col}`] : []),
  ];
  io.out(`${rule.id} — ${rule.title}\nsource: ../shared/rules/${rule.source}\n${rule.summary}\n\nParameters (set with --set name=value)\n${parameters}\nMetrics (at the defaults)\n${metrics}\n${extras.join('\n')}\n`);
}
