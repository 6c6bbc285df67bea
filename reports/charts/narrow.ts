/**
 * A chart laid out again for a narrow column (a 375-px phone leaves about
 * 340 px): the chart builders draw for a sheet about 620 px wide, and a
 * chart shrunk to the column prints its text at 6–8 px, while one kept
 * legible runs past the column. Here the same spec is laid out to fit:
 * panels side by side are stacked, legends go under the plot, a continuous
 * plot takes the column's width (its axes pick fewer ticks), long axis
 * labels are cut to a share of it, and the labels printed inside stacked
 * bars are chosen again for the narrower bars. Text keeps its size.
 *
 *   spec ─► facet column → row, hconcat → vconcat, legends below, labels cut ─► a numeric width: the column's
 *   drawn, still wider than the column ─► squeezed: every width and band step narrowed by the overflow
 */

import { LEAST_TEXT_PX } from '../card/legible.js';
import type { VegaLiteSpec } from './chart.js';
import { fitsIn, SPLIT_FONT_SIZE } from './split.js';

/** The share of the column an axis's labels may take. */
const LABEL_SHARE = 0.34;

type Json = Record<string, unknown>;

/** A legend under the plot, one entry a line: entries in a row (long warband names, many series) outrun a column. */
const BELOW = { orient: 'bottom', direction: 'horizontal', columns: 1 } as const;

const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `spec` laid out for a column `width` CSS pixels wide; the spec itself is not changed. */
export function narrowSpec(spec: VegaLiteSpec, width: number): VegaLiteSpec {
  const labelLimit = Math.floor(width * LABEL_SHARE);
  const config = isRecord(spec.config) ? spec.config : {};
  const narrowed: Json = {
    ...spec,
    config: {
      ...config,
      legend: { ...(isRecord(config.legend) ? config.legend : {}), ...BELOW, labelLimit: width - 40 },
      axis: { ...(isRecord(config.axis) ? config.axis : {}), labelLimit },
    },
  };
  const facet = spec.facet;
  if (isRecord(facet) && facet.column !== undefined && facet.row === undefined) {
    const { column, ...rest } = facet;
    narrowed.facet = { ...rest, row: column };
  }
  if (Array.isArray(spec.hconcat)) {
    delete narrowed.hconcat;
    narrowed.vconcat = spec.hconcat;
  }
  const inner = isRecord(narrowed.spec) ? narrowed.spec : narrowed;
  // Bars side by side per series are laid out by a band step, as many pixels each: in a column they share its width.
  const stepped = isRecord(inner.width) && typeof inner.width.step === 'number';
  if (typeof inner.width === 'number' || stepped) {
    // The plot takes what the column leaves beside its axis labels.
    const plot = Math.max(120, width - labelLimit - 30);
    if (inner === narrowed) narrowed.width = plot;
    else narrowed.spec = { ...inner, width: plot };
    relabelSplit(narrowed, plot);
  }
  return cutLabels(narrowed, labelLimit) as VegaLiteSpec;
}

/**
 * Every axis's own labelLimit cut to `limit`, every legend of its own put below (an encoding's overrides the
 * config's), and no text under LEAST_TEXT_PX (a sheet's 9.5-px value labels would be scaled up past the column).
 */
function cutLabels(node: unknown, limit: number): unknown {
  if (Array.isArray(node)) return node.map((item) => cutLabels(item, limit));
  if (!isRecord(node)) return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'data' || key === 'datasets') out[key] = value;
    else if (key === 'axis' && isRecord(value) && typeof value.labelLimit === 'number')
      out[key] = { ...value, labelLimit: Math.min(value.labelLimit, limit) };
    else if (/^(?:fontSize|labelFontSize|titleFontSize)$/.test(key) && typeof value === 'number')
      out[key] = Math.max(LEAST_TEXT_PX, value);
    else if (key === 'legend' && isRecord(value) && value.orient !== undefined) out[key] = { ...value, ...BELOW };
    else out[key] = cutLabels(value, limit);
  }
  return out;
}

/**
 * A stacked bar's labels (./split.ts) were chosen for its own width: at `plot` pixels each is chosen again, the name
 * and the value, else the value alone, else none (the legend and the table say it).
 */
function relabelSplit(spec: Json, plot: number): void {
  const data = spec.data;
  if (!isRecord(data) || !Array.isArray(data.values)) return;
  const rows = data.values as Json[];
  const isSplit = rows.every(
    (row) =>
      isRecord(row) &&
      typeof row.label === 'string' &&
      typeof row.segment === 'string' &&
      typeof row.text === 'string' &&
      typeof row.value === 'number',
  );
  if (!isSplit || rows.length === 0) return;
  spec.data = {
    ...data,
    values: rows.map((row) => {
      const room = (row.value as number) * plot;
      const full = `${row.segment} ${row.text}`;
      const label = fitsIn(full, SPLIT_FONT_SIZE, room)
        ? full
        : fitsIn(row.text as string, SPLIT_FONT_SIZE, room)
          ? row.text
          : '';
      return { ...row, label };
    }),
  };
}

/**
 * The spec with every width (a number, or a band's step) times `factor`, for a chart drawn once and found still wider
 * than its column by that much: its text keeps its size, its plot narrows.
 */
export function squeezed(spec: VegaLiteSpec, factor: number): VegaLiteSpec {
  const squeeze = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(squeeze);
    if (!isRecord(node)) return node;
    const out: Json = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === 'data' || key === 'datasets') out[key] = value;
      else if (key === 'width' && typeof value === 'number') out[key] = Math.max(60, Math.floor(value * factor));
      else if (key === 'width' && isRecord(value) && typeof value.step === 'number')
        out[key] = { ...value, step: Math.max(8, Math.floor(value.step * factor)) };
      else out[key] = squeeze(value);
    }
    return out;
  };
  return squeeze(spec) as VegaLiteSpec;
}
