/**
 * Which metrics a command shows: `--metric NAME` (repeatable, with globs
 * such as `a.*`), the rule's headline metrics by default, or every metric
 * with `--all`.
 */

import type { MetricSpec, Params, Rule } from '../contract/types.js';
import { UsageError } from '../errors.js';
import { ruleName } from '../result.js';
import { didYouMean, ruleWord } from '../text/suggest.js';

/**
 * Whether `name` matches the glob `pattern`: `*` stands for any run of
 * characters, `?` for one; everything else is literal.
 *
 * Matched without a regular expression, whose backtracking made
 * `a*a*a*…*b` against a name without `b` take time exponential in the stars
 * (and a long glob overflow the regex compiler). Runs of stars collapse to
 * one; a pattern needing more characters than the name has fails at once;
 * the rest is the greedy two-pointer match, which on a star mismatch only
 * moves the last star's anchor forward, so at most name × (pattern after
 * collapsing) steps: linear in the pattern, quadratic only in the name
 * (a metric name has at most 100 characters).
 * @example globMatches('a.*', 'a.wins') // true
 */
export function globMatches(pattern: string, name: string): boolean {
  // /\*+/ cannot backtrack: one star class, no alternatives after it.
  const glob = pattern.replace(/\*+/g, '*');
  // `?` and literals take one UTF-16 unit each, as `.` did in the regular expression this replaces.
  let literal = 0;
  for (let at = 0; at < glob.length; at++) if (glob[at] !== '*') literal++;
  if (literal > name.length) return false;
  let p = 0;
  let n = 0;
  let star = -1;
  let anchor = 0;
  while (n < name.length) {
    if (p < glob.length && (glob[p] === '?' || (glob[p] !== '*' && glob[p] === name[n]))) {
      p++;
      n++;
    } else if (p < glob.length && glob[p] === '*') {
      star = p++;
      anchor = n;
    } else if (star >= 0) {
      p = star + 1;
      n = ++anchor;
    } else {
      return false;
    }
  }
  while (p < glob.length && glob[p] === '*') p++;
  return p === glob.length;
}

export interface MetricChoice {
  /** The metrics to show, in order. */
  shown: MetricSpec[];
  /** How they were chosen: asked for by --metric, the rule's headline, or --all. */
  how: 'asked' | 'headline' | 'all';
  /** Metrics left out of the terminal table (still in --json and --csv). */
  hidden: number;
}

/**
 * --metric patterns checked against `all` (a name no metric matches is
 * refused, with the nearest names), or the headline metrics, or every
 * metric. Patterns keep their order; a metric matched twice shows once.
 */
export function chooseMetrics(
  rule: Rule,
  all: readonly MetricSpec[],
  patterns: readonly string[] | undefined,
  options: { all?: boolean; params?: Params } = {},
): MetricChoice {
  if (patterns && patterns.length > 0) {
    if (options.all) throw new UsageError('--all: cannot be combined with --metric; allowed: one of the two');
    const chosen = new Map<string, MetricSpec>();
    for (const pattern of patterns) {
      const glob = pattern.trim();
      const matches = all.filter((metric) => globMatches(glob, metric.name));
      if (matches.length === 0) throw unknownMetric(rule, all, pattern);
      for (const metric of matches) chosen.set(metric.name, metric);
    }
    return { shown: [...chosen.values()], how: 'asked', hidden: all.length - chosen.size };
  }
  if (options.all || !rule.presentation?.headline) return { shown: [...all], how: 'all', hidden: 0 };
  const names = new Set(rule.presentation.headline(options.params ?? {}));
  const shown = all.filter((metric) => names.has(metric.name));
  if (shown.length === 0) return { shown: [...all], how: 'all', hidden: 0 };
  return { shown, how: 'headline', hidden: all.length - shown.length };
}

/** Longer patterns are not quoted whole, nor compared for "did you mean" (an edit distance costs their length). */
const QUOTED_PATTERN = 200;

function unknownMetric(rule: Rule, all: readonly MetricSpec[], pattern: string): UsageError {
  const names = all.map((metric) => metric.name);
  const allowed =
    names.length <= 12
      ? `one of ${names.join(', ')}, or a glob such as ${names[0].split('.')[0]}.*`
      : `one of the ${names.length} metrics \`muster describe ${ruleWord(rule)}\` lists ` +
        `(${names.slice(0, 4).join(', ')}, …), or a glob such as ${names[0].split('.')[0]}.*`;
  const given =
    pattern.length > QUOTED_PATTERN
      ? `a pattern of ${pattern.length} characters that matches no metric`
      : `${JSON.stringify(pattern)}${didYouMean(pattern, names)}`;
  return new UsageError(`--metric: got ${given}; allowed: ${allowed}`);
}

/**
 * Refuses, in one line naming the rule, a metric a matrix tabulates that is not one of the rule's at these
 * parameters (a rule file's `matrix.metrics` is checked when the file loads where its metrics are a fixed list; a
 * function of params gives them only here).
 */
export function checkMatrixMetrics(rule: Rule, everyMetric: readonly MetricSpec[], names: readonly string[]): void {
  const known = everyMetric.map((metric) => metric.name);
  const stray = names.find((name) => !known.includes(name));
  if (stray !== undefined)
    throw new UsageError(
      `${ruleName(rule)}: matrix.metrics: got ${JSON.stringify(stray)}, which is not a metric at these ` +
        `parameters${didYouMean(stray, known)}; allowed: ${known.join(', ')}`,
    );
}
