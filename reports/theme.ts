/**
 * The look every chart shares, chosen to survive a black-and-white printer:
 * series differ by dash and point shape as well as colour (Okabe & Ito's
 * colour-blind-safe palette, darkest first), heatmaps use one sequential hue
 * whose lightness alone orders the values, and every heatmap cell prints its
 * value, so no reading depends on telling colours apart.
 */

/** Ink for simulated estimates and their intervals. */
export const ESTIMATE_INK = '#1f4e79';
/** Ink for exact values: black open diamonds, visible on any fill. */
export const EXACT_INK = '#000000';
/** Light fill behind bars, so the interval and the markers stay readable on top. */
export const BAR_FILL = '#c6d5e6';

/** Okabe–Ito, reordered so that the first few series are the most distinct in grey. */
export const SERIES_COLOURS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#000000', '#E69F00', '#56B4E9', '#F0E442'];
export const SERIES_DASHES: number[][] = [
  [1, 0],
  [7, 3],
  [2, 2],
  [9, 3, 2, 3],
  [4, 4],
  [12, 4],
  [1, 4],
  [6, 2, 2, 2, 2, 2],
];
export const SERIES_SHAPES = [
  'circle',
  'square',
  'triangle-up',
  'diamond',
  'cross',
  'triangle-down',
  'triangle-right',
  'triangle-left',
];

/** Plot widths in CSS pixels: the printable width of A4 and of Letter, less 15 mm margins, is about 680 px. */
export const FULL_WIDTH = 620;
/** Vega-Lite config shared by every chart. */
export const CHART_CONFIG = {
  font: 'Helvetica, Arial, sans-serif',
  background: 'white',
  padding: 6,
  view: { stroke: null },
  axis: {
    labelFontSize: 11,
    titleFontSize: 11,
    titleFontWeight: 600,
    titleColor: '#222222',
    labelColor: '#333333',
    gridColor: '#e4e4e4',
    domainColor: '#777777',
    tickColor: '#777777',
    labelLimit: 220,
  },
  header: { labelFontSize: 12, labelFontWeight: 600, titleFontSize: 12, titleFontWeight: 600 },
  legend: {
    labelFontSize: 11,
    titleFontSize: 11,
    titleFontWeight: 600,
    orient: 'bottom',
    direction: 'horizontal',
    symbolStrokeWidth: 1.6,
    symbolSize: 90,
    labelLimit: 260,
  },
  title: { fontSize: 14, fontWeight: 600, anchor: 'start', subtitleFontSize: 11, subtitleColor: '#555555', offset: 10 },
  text: { fontSize: 11 },
  range: { category: SERIES_COLOURS },
} as const;
