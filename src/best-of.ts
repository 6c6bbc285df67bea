/**
 * The figure to show: the exact value where there is one, else the estimate
 * (NaN if neither). In a module of its own, free of Node imports, so chart
 * and card code that browsers bundle can use it; it takes the two figures it
 * reads rather than importing result.ts, which re-exports it.
 */
export function bestOf(metric: { exact: number | null; estimate: number | null }): number {
  return metric.exact ?? metric.estimate ?? Number.NaN;
}
