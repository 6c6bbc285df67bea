import type { MetricSpec, Rule } from '../../src/contract/types.js';
import type { RunResult } from '../../src/result.js';

/** A Vega-Lite specification as plain JSON (validated by compiling it; see test/reports/reports.test.ts). */
export type VegaLiteSpec = Record<string, unknown>;

/** One chart of a report: the HTML page shows the title and caption around it; an SVG export carries them inside. */
export interface Chart {
  /** Unique within a page and safe as a file name: the --svg file is `<id>.svg`. */
  id: string;
  title: string;
  /** What the chart shows and how to read it, in a sentence or two. */
  caption: string;
  /** The spec without a title; `withTitle` adds it for a standalone SVG. */
  spec: VegaLiteSpec;
}

/** What a run's charts are drawn from. */
export interface RunView {
  rule: Rule;
  result: RunResult;
  metrics: MetricSpec[];
}

/** The spec with the chart's title and caption inside it, for a file that stands alone. */
export function withTitle(chart: Chart): VegaLiteSpec {
  return { ...chart.spec, title: { text: chart.title, subtitle: wrap(chart.caption, 95) } };
}

/** Splits a caption into lines of at most `width` characters, for a Vega subtitle. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}
