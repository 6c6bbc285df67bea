import type { MetricChoice } from '../analysis/metrics.js';

/** One line telling what the table leaves out and how to see it. */
export function hiddenNote(choice: MetricChoice): string {
  if (choice.hidden === 0 || choice.how !== 'headline') return '';
  return `(headline metrics; ${choice.hidden} more with --all or --metric NAME; --json has all)\n`;
}
