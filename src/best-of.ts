import type { MetricResult } from './result.js';

/**
 * The figure to show: the exact value where there is one, else the estimate
 * (NaN if neither). In a module of its own, free of Node imports, so chart
 * and card code that browsers bundle can use it.
 */
export function bestOf(metric: MetricResult): number {
  return metric.exact ?? metric.estimate ?? Number.NaN;
}
