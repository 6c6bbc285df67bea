/**
 * Which metrics a command shows: `--metric NAME` (repeatable, with globs
 * such as `a.*`), the rule's headline metrics by default, or every metric
 * with `--all`.
 */
import { UsageError } from '../errors.js';
import type { MetricSpec, Params, Rule } from '../rules/types.js';
import { didYouMean, ruleWord } from './suggest.js';

/** `*` stands for any run of characters, `?` for one; everything else is literal. */
export function globToRegExp(pattern: string): RegExp {
  const escaped = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*').replaceAll('?', '.');
  return new RegExp(`^${escaped}$`);
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
export function chooseMetrics(rule: Rule, all: readonly MetricSpec[], patterns: readonly string[] | undefined, options: { all?: boolean; params?: Params } = {}): MetricChoice {
  if (patterns && patterns.length > 0) {
    if (options.all) throw new UsageError('--all: cannot be combined with --metric; allowed: one of the two');
    const chosen = new Map<string, MetricSpec>();
    for (const pattern of patterns) {
      const matcher = globToRegExp(pattern.trim());
      const matches = all.filter((metric) => matcher.test(metric.name));
      if (matches.length === 0) throw unknownMetric(rule, all, pattern);
      for (const metric of matches) chosen.set(metric.name, metric);
    }
    return { shown: [...chosen.values()], how: 'asked', hidden: all.length - chosen.size };
  }
  if (options.all || !rule.headline) return { shown: [...all], how: 'all', hidden: 0 };
  const names = new Set(rule.headline(options.params ?? {}));
  const shown = all.filter((metric) => names.has(metric.name));
  if (shown.length === 0) return { shown: [...all], how: 'all', hidden: 0 };
  return { shown, how: 'headline', hidden: all.length - shown.length };
}

export function unknownMetric(rule: Rule, all: readonly MetricSpec[], pattern: string): UsageError {
  const names = all.map((metric) => metric.name);
  const allowed =
    names.length <= 12
      ? `one of ${names.join(', ')}, or a glob such as ${names[0].split('.')[0]}.*`
      : `one of the ${names.length} metrics \`muster describe ${ruleWord(rule)}\` lists (${names.slice(0, 4).join(', ')}, …), or a glob such as ${names[0].split('.')[0]}.*`;
  return new UsageError(`--metric: got ${JSON.stringify(pattern)}${didYouMean(pattern, names)}; allowed: ${allowed}`);
}

/** One line telling what the table leaves out and how to see it. */
export function hiddenNote(choice: MetricChoice): string {
  if (choice.hidden === 0 || choice.how !== 'headline') return '';
  return `(headline metrics; ${choice.hidden} more with --all or --metric NAME; --json has all)\n`;
}
