import { parseTimeout } from '../../engine/settings.js';
import type { Io } from '../../output/io.js';
import { isRulePath, loadRule } from '../../rule-files/load.js';
import { getRule } from '../../rules/index.js';
import { allowedText, resolveParams } from '../../rules/params.js';
import { ruleWord } from '../../text/suggest.js';
import { wrapText } from '../format.js';

const WIDTH = 100;

/**
 * `muster describe <rule>`: every parameter (type, default, allowed values,
 * meaning) and every metric at the defaults, as indented blocks that wrap
 * at 100 columns however long a rule's explanations are.
 */
export async function describeCommand(ruleId: string, io: Io, options: { timeout?: string } = {}): Promise<void> {
  // Checked here; the supervisor stops a rule file's call that runs past it (cli/supervisor.ts).
  if (options.timeout !== undefined) parseTimeout(options.timeout);
  // A built-in rule is found without an await, so nothing (such as a Ctrl-C listener) waits on a tick.
  const rule = isRulePath(ruleId) ? await loadRule(ruleId) : getRule(ruleId);
  const defaults = resolveParams(rule);
  const nameWidth = Math.max(0, ...rule.params.map((spec) => spec.name.length)) + 2;
  const parameters = rule.params.map((spec) => {
    const head = `${spec.name.padEnd(nameWidth)}${spec.type}, default ${JSON.stringify(spec.default)}`;
    const indent = ' '.repeat(nameWidth + 2);
    return [
      `  ${head}`,
      wrapText(`allowed: ${allowedText(spec)}`, WIDTH, indent),
      wrapText(spec.doc, WIDTH, indent),
    ].join('\n');
  });
  const metrics = rule.metrics(defaults);
  const metricWidth = Math.max(...metrics.map((metric) => metric.name.length)) + 2;
  const metricLines = metrics.map((metric) => {
    const range = metric.distribution;
    const kind = range
      ? `distribution from ${range.min}${range.max === null ? ' up' : ` to ${range.max}`}`
      : metric.probability
        ? 'probability'
        : 'mean';
    const text = `${kind}: ${metric.doc}`;
    return `  ${metric.name.padEnd(metricWidth)}${wrapText(text, WIDTH, ' '.repeat(metricWidth + 2)).trimStart()}`;
  });
  // Each reading the rule takes where its text is silent or ambiguous, at the defaults, with the parameter that
  // switches it.
  const readings = rule.presentation?.readings?.(defaults) ?? [];
  const readingLines = readings.map((reading) =>
    wrapText(`${reading.param}=${String(defaults[reading.param])}: ${reading.text}`, WIDTH, '    ').replace(
      /^ {4}/,
      '  ',
    ),
  );
  const extras = [
    `exact solution: ${
      rule.exact?.by === 'enumeration'
        ? `by enumerating its dice, within a budget (muster run ${ruleWord(rule)} --exact prints it)`
        : rule.exact
          ? (`yes, for every metric (muster run ${ruleWord(rule)} --exact prints it)`)
          : 'no'
    }`,
    ...(rule.presentation?.matrix
      ? [
          `matrix: muster matrix ${ruleWord(rule)} tabulates ${rule.presentation.matrix.metrics.join(', ')} over ` +
            `${rule.presentation.matrix.row} × ${rule.presentation.matrix.col}`,
        ]
      : []),
    ...(rule.presentation?.headline
      ? [
          wrapText(
            `headline (shown first by run, sweep and compare; --all for every metric): ` +
              `${rule.presentation.headline(defaults).join(', ')}`,
            WIDTH,
            '',
          ),
        ]
      : []),
  ];
  io.out(
    [
      `${rule.id} — ${rule.title}`,
      wrapText(`source: ${rule.source}`, WIDTH, ''),
      ...(rule.file
        ? [wrapText(`rule file: ${rule.file.path} (sha256 ${rule.file.sha256.slice(0, 16)}…)`, WIDTH, '')]
        : []),
      wrapText(rule.summary, WIDTH, ''),
      '',
      'Parameters (set with --set name=value)',
      parameters.length > 0 ? parameters.join('\n\n') : '  (none)',
      '',
      'Metrics (at the defaults)',
      ...metricLines,
      '',
      ...(readingLines.length > 0
        ? [
            'Readings (where the rule text is silent or ambiguous; --set the parameter named to change one)',
            ...readingLines,
            '',
          ]
        : []),
      ...extras,
      '',
    ].join('\n'),
  );
}
