/** Who gets what: shares of 100% as stacked bars, every share printed inside (the "who wins" charts). */

import { CHART_CONFIG, FULL_WIDTH } from '../theme.js';
import type { VegaLiteSpec } from './chart.js';
import { SCHEMA, safeTitle } from './vega-title.js';

/** The labels inside the bars: legible on a phone's screen as on paper (11 px, reports/card/legible.ts). */
export const SPLIT_FONT_SIZE = 11;

/**
 * Whether text fits in `room` pixels: Helvetica's widest common glyphs
 * (digits, capitals, %) are at most 0.67 em, lower case about 0.5 em; the
 * estimate errs wide and keeps 8 px of margin, so a label that passes never
 * touches its segment's edges.
 */
export function fitsIn(text: string, fontSize: number, room: number): boolean {
  let ems = 0;
  for (const character of text)
    ems += /[A-Z%0-9<>]/.test(character) ? 0.67 : /[ .,:;il'’()|]/.test(character) ? 0.3 : 0.56;
  return ems * fontSize + 8 <= room;
}

/** One share of a split: e.g. "player A has the initiative, 52.3%". */
export interface SplitSegment {
  /** The row (the question) this share belongs to. */
  row: string;
  rowOrder: number;
  /** Who gets it. */
  segment: string;
  value: number;
  exact: number | null;
  text: string;
}

/**
 * Shares of 100% per row, as stacked bars with every share printed inside.
 * Segments are told apart by lightness (dark, light, lighter …), not hue.
 */
export function splitChart(
  segments: readonly SplitSegment[],
  options: { segmentTitle: string; segmentOrder: string[]; width?: number },
): VegaLiteSpec {
  // Eight fills for up to eight warbands; neighbours in the order differ most in lightness.
  const fills = ['#1f4e79', '#8fb2d6', '#dfe9f4', '#4f7fb0', '#bcd0e6', '#0b2239', '#7d8b99', '#c7c7c7'];
  const ink = ['white', 'black', 'black', 'white', 'black', 'white', 'white', 'black'];
  const rows: VegaLiteSpec[] = [];
  const byRow = new Map<string, SplitSegment[]>();
  for (const segment of segments) byRow.set(segment.row, [...(byRow.get(segment.row) ?? []), segment]);
  const width = options.width ?? FULL_WIDTH - 160;
  for (const list of byRow.values()) {
    let start = 0;
    for (const segment of [...list].sort(
      (a, b) => options.segmentOrder.indexOf(a.segment) - options.segmentOrder.indexOf(b.segment),
    )) {
      const index = Math.max(0, options.segmentOrder.indexOf(segment.segment)) % fills.length;
      const end = start + segment.value;
      const room = segment.value * width;
      const full = `${segment.segment} ${segment.text}`;
      // A label stays inside its segment: the name and value, else the value alone, else nothing (the legend and the
      // table say it).
      const label = fitsIn(full, SPLIT_FONT_SIZE, room)
        ? full
        : fitsIn(segment.text, SPLIT_FONT_SIZE, room)
          ? segment.text
          : '';
      rows.push({ ...segment, start, end, middle: (start + end) / 2, ink: ink[index], label });
      start = end;
    }
  }
  const y = {
    field: 'row',
    type: 'nominal',
    title: null,
    sort: { field: 'rowOrder', op: 'min' },
    axis: { labelLimit: 200 },
  };
  // The legend lists only who actually appears (an "undecided" share of zero is left out).
  const present = options.segmentOrder.filter((name) => rows.some((row) => row.segment === name));
  return {
    $schema: SCHEMA,
    config: CHART_CONFIG,
    data: { values: rows },
    width,
    height: { step: 34 },
    layer: [
      {
        mark: { type: 'bar', stroke: 'white', strokeWidth: 1 },
        encoding: {
          y,
          x: {
            field: 'start',
            type: 'quantitative',
            title: null,
            scale: { domain: [0, 1], nice: false },
            axis: { format: '.0%', tickCount: 4 },
          },
          x2: { field: 'end' },
          color: {
            field: 'segment',
            type: 'nominal',
            title: safeTitle(options.segmentTitle),
            sort: present,
            scale: {
              domain: present,
              range: present.map((name) => fills[options.segmentOrder.indexOf(name) % fills.length]),
            },
            // A long list of names wraps into rows rather than widening the chart past the page.
            legend: present.length > 3 ? { columns: 3 } : {},
          },
          tooltip: [
            { field: 'row', type: 'nominal', title: 'question' },
            { field: 'segment', type: 'nominal', title: safeTitle(options.segmentTitle) },
            { field: 'value', type: 'quantitative', title: 'share', format: '.3%' },
            { field: 'exact', type: 'quantitative', title: 'exact', format: '.3%' },
          ],
        },
      },
      {
        mark: { type: 'text', baseline: 'middle', fontSize: SPLIT_FONT_SIZE },
        encoding: {
          y,
          x: { field: 'middle', type: 'quantitative' },
          text: { field: 'label' },
          color: { field: 'ink', type: 'nominal', scale: null },
        },
      },
    ],
  };
}
