/**
 * How a rule's results are shown: its run charts, its one-page card and the
 * words of its matrix axes, as plain data. A built-in declares it in
 * `src/rules/<id>.present.ts` beside the rule; a rule file in its default
 * export's `presentation` field (docs/custom-rules.md), checked by
 * src/presentation/check.ts. reports/ draws from it (reports/present/), so
 * nothing here knows about Vega or HTML and src/ never imports reports/.
 *
 * Words are templates: `{name}` is the value of parameter `name`; `{#i}` the
 * index a metric pattern matched (`a.zone.{#i}`), `{#ordinal}` it as 1st,
 * 2nd …, `{#value}` an axis value's label; `{#markers}` the key to a chart's
 * marks (simulated or exact); `{#percent:metric}` a metric as a percentage;
 * `{#entry:name:field}` field `field` (0-based, split at ':') of the `{#i}`th
 * comma-separated entry of parameter `name`. `{{` is a literal brace.
 */
import type { ParamValue } from './values.js';

/** When a piece of words applies: on a parameter's value, or on whether a metric was reported. */
export type Condition =
  | { param: string; equals: ParamValue }
  | { param: string; above: number }
  | { param: string; truthy: true }
  | { metric: string }
  /** The index a pattern matched (`{#i}`) is this number. */
  | { index: number };

/** A template, a choice by a condition (`show` where it holds, else `else`), or pieces joined without a separator. */
export type Words = string | { if: Condition; show: Words; else?: Words } | readonly Words[];

/**
 * Where a chart's values come from. `metric` names one metric, or with `{#i}`
 * every reported metric it matches, in numeric order of `{#i}`; `prefix`
 * every metric whose name starts so (labelled by the rest of the name).
 */
export type PointSource = {
  /** Words for the category (default `{#i}`, or the metric's label). */
  label?: Words;
  /** The series (side, player) the points belong to. */
  series?: Words;
  /** Whether the figures print as percentages (default: the chart's `percent`). */
  probability?: boolean;
  /** Divide every figure by this parameter's value (a mean over squads read as one squad's chance). */
  per?: string;
} & ({ metric: string } | { prefix: string });

/** One row of a split (shares of 100%). */
export type SplitRow =
  /** Each share is a metric; what they leave of 100% is `remainder` (default "neither"). */
  | {
      label: Words;
      shares: ReadonlyArray<{ segment: Words; metric: string }>;
      remainder?: Words;
      /** Shares for every `{#i}` the pattern matches (`w{#i}.defender`); `{#i}` in `shares` is that index. */
      each?: string;
    }
  /** A two-sided share: the metric is the first side's, the other side gets the rest. */
  | { label: Words; metric: string; sides?: readonly [Words, Words] }
  /** The first of these rows that has all its metrics. */
  | { oneOf: readonly SplitRow[] };

interface ChartCommon {
  /** Unique within the rule and safe as a file name (the --svg file is `<id>.svg`). */
  id: string;
  title: Words;
  caption: Words;
}

/** A chart of one run. */
export type ChartDecl =
  | (ChartCommon & {
      kind: 'split';
      rows: readonly SplitRow[];
      /** For every `{#i}` this pattern matches, one row per `rows` entry (`{#i}` inside is that index). */
      each?: string;
      segmentTitle: string;
      /** The legend's order: these words, or (`segmentOrder` absent) the segments in the order drawn. */
      segmentOrder?: readonly Words[];
    })
  | (ChartCommon & {
      kind: 'bars' | 'dots';
      points: readonly PointSource[];
      orientation: 'horizontal' | 'vertical';
      categoryTitle: string;
      valueTitle: string;
      percent: boolean;
      series?: { title: string; order: readonly Words[] };
      step?: number;
    })
  | (ChartCommon & {
      kind: 'lines';
      points: readonly PointSource[];
      xTitle: string;
      yTitle: string;
      percent: boolean;
      seriesTitle: string;
      seriesOrder: readonly Words[];
      /** Print each value beside its point (default true). */
      labels?: boolean;
      height?: number;
      /** Points ordered by `{#i}` across sources, rather than source by source. */
      byIndex?: boolean;
    })
  /** Every probability (or every mean) as a dot plot; `whenMissing`: only when another chart drew nothing. */
  | { kind: 'every'; whenMissing?: boolean };

/** The axis a card's table runs over. */
export type AxisDecl =
  /** The values of the rule's declared matrix (its `--range` parser, else its defaults). */
  | { from: 'matrix' }
  /**
   * Integers of a parameter's range, at most `most` of them (`--range a..b` or `a,b,c`); by default `values`, or
   * `count` consecutive values starting `before` below the parameter's value (kept inside its range).
   */
  | {
      from: 'integers';
      param: string;
      most: number;
      values?: readonly number[];
      around?: { count: number; before: number };
    };

/** A card column: its head and what each row's cell shows. */
export interface ColumnDecl {
  head: Words;
  cell:
    | { figure: string; probability?: boolean }
    /** The row's axis value, in the matrix's short form; `withValue` adds the value itself in brackets. */
    | { axis: 'label' | 'withValue' }
    /** The row's position, 1 first. */
    | { rank: true }
    /** Σ i × P(metric i) over the `{#i}` a pattern such as `a.zones.{#i}` matches: an expected count. */
    | { expected: string }
    | { words: Words };
  numeric?: boolean;
}

/** A table on a card: one row per axis value, or per `{#i}` of a pattern, or one per entry of `rows`. */
export interface TableDecl {
  id: string;
  title: Words;
  caption?: Words;
  columns: readonly ColumnDecl[];
  /** Rows per index: `{#i}` from this pattern; without it (on a matrix card) one row per axis value. */
  each?: string;
  /**
   * Columns per index 1 … the value of this parameter, after the first column: a turn-by-turn table whose rows
   * are `lines` (each a label and a metric template with `{#i}`).
   */
  byIndex?: {
    param: string;
    head: Words;
    lines: ReadonlyArray<{ label: Words; metric: string; probability: boolean }>;
  };
}

/** A matrix card's heatmaps: one per metric, over the card's axis down the side and across the top. */
interface HeatmapDecl {
  metric: string;
  id: string;
  title: Words;
  caption: Words;
}

/** A card: its title and subtitle, and either tables over an axis, or the rule's own run charts and tables. */
export type CardDecl =
  | {
      kind: 'matrix';
      title: Words;
      subtitle: Words;
      /** The two parameters varied, rows then columns. */
      row: string;
      col: string;
      axis: AxisDecl;
      heatmaps: readonly HeatmapDecl[];
      /** The largest a heatmap may be, in CSS pixels (default: the sheet's plot area). */
      fit?: { width?: number; height?: number };
      /** Tables whose rows are the axis values, the column parameter at its first value. */
      tables?: readonly TableDecl[];
      /**
       * `--against VALUE`: the column parameter fixed at VALUE, rows ranked by `metric`, best first, as bars and a
       * table.
       */
      against?: {
        metric: string;
        title: Words;
        subtitle: Words;
        chart: { id: string; title: Words; caption: Words; categoryTitle: string; valueTitle: string };
        table: TableDecl;
      };
    }
  | {
      kind: 'charts';
      title: Words;
      subtitle: Words;
      /** Run charts by id, with what the card changes in them. */
      charts: ReadonlyArray<{ id: string; caption?: Words; height?: number; labels?: boolean }>;
      tables?: readonly TableDecl[];
    }
  | {
      /**
       * One line per value of `series` and one panel per axis value, over index 1 … the value of `index.param`:
       * `metric` (a template with `{#i}` the index) at every combination, and the same odds as a table of panels.
       */
      kind: 'panels';
      title: Words;
      subtitle: Words;
      /** The panels' parameter and its values. */
      axis: AxisDecl & { from: 'integers' };
      facet: { label: Words; title: string };
      /** The lines' parameter, from `from` to the value of parameter `to`; `label` with `{#i}` its value. */
      series: { param: string; from: number; to: string; label: Words; title: string };
      index: { param: string; title: string };
      metric: string;
      per?: string;
      valueTitle: string;
      lines: { id: string; title: Words; caption: Words };
      grid: { id: string; title: Words; caption: Words };
    };

/** A rule's presentation: all optional; what is left out is drawn generically. */
export interface Presentation {
  charts?: readonly ChartDecl[];
  card?: CardDecl;
  /** Words for the matrix axes, and the metrics that read as the row player's edge (coloured around 50%). */
  matrix?: { row?: string; col?: string; advantage?: readonly string[] };
}
