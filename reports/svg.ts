/**
 * Charts as standalone SVG files, drawn in Node by vega itself: compile the
 * Vega-Lite spec, run a headless View (renderer 'none') and ask it for SVG.
 * Without a canvas package vega estimates text widths, which is close enough
 * for labels in the fonts the theme names.
 */
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import type { VegaLiteSpec } from './charts/chart.js';

/** A vega logger that keeps warnings (Vega-Lite reports recoverable problems as warnings) and throws errors. */
class CollectingLogger {
  readonly warnings: string[] = [];
  #level = 2;
  level(): number;
  level(value: number): this;
  level(value?: number): number | this {
    if (value === undefined) return this.#level;
    this.#level = value;
    return this;
  }
  error(...message: unknown[]): this {
    throw new Error(message.map(String).join(' '));
  }
  warn(...message: unknown[]): this {
    this.warnings.push(message.map(String).join(' '));
    return this;
  }
  info(): this {
    return this;
  }
  debug(): this {
    return this;
  }
}

/** The Vega spec a Vega-Lite spec compiles to, with Vega-Lite's warnings. */
export function compileSpec(spec: VegaLiteSpec): { vega: vega.Spec; warnings: string[] } {
  const logger = new CollectingLogger();
  const compiled = compile(spec as unknown as TopLevelSpec, { logger: logger as never }).spec;
  return { vega: compiled as vega.Spec, warnings: logger.warnings };
}

/** The chart as a standalone SVG document. */
export async function renderSvg(spec: VegaLiteSpec): Promise<string> {
  const view = new vega.View(vega.parse(compileSpec(spec).vega), { renderer: 'none' });
  try {
    const svg = await view.toSVG();
    return `<?xml version="1.0" encoding="UTF-8"?>\n${svg}\n`;
  } finally {
    view.finalize();
  }
}
