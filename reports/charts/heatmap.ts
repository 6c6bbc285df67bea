/** A two-way table as a heatmap, the value printed in every cell (the matrix, sweep and card tables). */

import { CHART_CONFIG } from '../theme.js';
import type { VegaLiteSpec } from './chart.js';
import { SCHEMA, safeTitle } from './vega-title.js';

export interface HeatCell {
  row: string;
  col: string;
  rowOrder: number;
  colOrder: number;
  value: number;
  text: string;
  facet?: string;
  lo?: number | null;
  hi?: number | null;
}

interface HeatmapOptions {
  rowTitle: string;
  colTitle: string;
  valueTitle: string;
  percent: boolean;
  /** Colour domain; probabilities use [0, 1] so that equal ink means equal odds across charts. */
  domain?: [number, number];
  cellWidth?: number;
  cellHeight?: number;
  facet?: { title: string; order: string[] };
  fontSize?: number;
  /** Column labels turned to read upwards (long labels). */
  slantColumns?: boolean;
  /**
   * An advantage table: a diverging palette centred on this value (0.5 for
   * "player A wins"), light at even odds and dark at either extreme, so a
   * grey printout still shows how lopsided a cell is (its value is printed too).
   */
  centre?: number;
}

/**
 * A two-way table in a single sequential hue (lightness orders the values,
 * so it prints in grey) or, for an advantage table, a diverging palette
 * centred on even odds, with the value printed in every cell: white on the
 * dark part of the scale and black on the light part.
 */
export function heatmap(cells: readonly HeatCell[], options: HeatmapOptions): VegaLiteSpec {
  const values = cells.map((cell) => cell.value).filter(Number.isFinite);
  const domain = options.domain ?? (options.percent ? [0, 1] : [Math.min(...values), Math.max(...values)]);
  const span = domain[1] - domain[0] || 1;
  const facetOrder = options.facet?.order ?? [];
  const centre = options.centre;
  const reach = centre === undefined ? span : Math.max(centre - domain[0], domain[1] - centre) || 1;
  const data = cells.map((cell) => ({
    ...cell,
    dark: centre === undefined ? (cell.value - domain[0]) / span > 0.55 : Math.abs(cell.value - centre) / reach > 0.62,
    facetOrder: cell.facet === undefined ? 0 : facetOrder.indexOf(cell.facet),
  }));
  const colourScale =
    centre === undefined
      ? { scheme: 'blues', domain, clamp: true }
      : { scheme: 'redblue', domain, domainMid: centre, clamp: true };
  const rowCount = new Set(cells.map((cell) => cell.row)).size;
  const colCount = new Set(cells.map((cell) => cell.col)).size;
  const cellWidth = options.cellWidth ?? Math.max(30, Math.min(64, Math.floor(480 / colCount)));
  const cellHeight = options.cellHeight ?? Math.max(22, Math.min(40, cellWidth * 0.7));
  const format = options.percent ? '.3%' : '.4f';
  const inner = {
    width: { step: cellWidth },
    height: { step: cellHeight },
    encoding: {
      x: {
        field: 'col',
        type: 'ordinal',
        title: safeTitle(options.colTitle),
        sort: { field: 'colOrder', op: 'min' },
        // titleLimit: a column title never runs past its own table into the next panel's.
        axis: {
          orient: 'top',
          labelAngle: options.slantColumns ? -50 : 0,
          labelAlign: options.slantColumns ? 'left' : 'center',
          domain: false,
          ticks: false,
          labelPadding: 4,
          titleLimit: Math.max(60, cellWidth * colCount),
        },
      },
      y: {
        field: 'row',
        type: 'ordinal',
        title: safeTitle(options.rowTitle),
        sort: { field: 'rowOrder', op: 'min' },
        axis: { domain: false, ticks: false },
      },
    },
    layer: [
      {
        mark: { type: 'rect', stroke: 'white', strokeWidth: 1 },
        encoding: {
          color: {
            field: 'value',
            type: 'quantitative',
            title: safeTitle(options.valueTitle),
            scale: colourScale,
            legend: {
              orient: 'right',
              direction: 'vertical',
              format: options.percent ? '.0%' : undefined,
              gradientLength: Math.min(200, rowCount * cellHeight),
            },
          },
          tooltip: [
            { field: 'row', type: 'ordinal', title: safeTitle(options.rowTitle) },
            { field: 'col', type: 'ordinal', title: safeTitle(options.colTitle) },
            { field: 'value', type: 'quantitative', title: safeTitle(options.valueTitle), format },
            { field: 'lo', type: 'quantitative', title: 'interval low', format },
            { field: 'hi', type: 'quantitative', title: 'interval high', format },
          ],
        },
      },
      {
        mark: { type: 'text', baseline: 'middle', fontSize: options.fontSize ?? (cellWidth < 40 ? 9 : 11) },
        encoding: {
          text: { field: 'text' },
          color: { condition: { test: 'datum.dark', value: 'white' }, value: 'black' },
        },
      },
    ],
  };
  const common = { $schema: SCHEMA, config: CHART_CONFIG, data: { values: data } };
  if (!options.facet) return { ...common, ...inner };
  return {
    ...common,
    facet: {
      column: {
        field: 'facet',
        type: 'nominal',
        title: safeTitle(options.facet.title),
        sort: { field: 'facetOrder', op: 'min' },
        header: { labelOrient: 'top', titleOrient: 'top' },
      },
    },
    spacing: 16,
    spec: inner,
  };
}
