/// <reference lib="dom" />
/**
 * The calculator's charts, kept fast across changes. Compiling a Vega-Lite
 * spec and parsing the Vega it gives costs most of a redraw, and a change of
 * one parameter usually changes only the numbers: so each chart's spec is
 * split into its data and the rest (the skeleton), and where the skeleton is
 * the same as the chart already shown in that place, only the data is
 * swapped into the live view. Anything else is drawn afresh.
 *
 *   chart spec ─► { skeleton, values } ─► same skeleton as shown? ─► view.data(values)
 *                                                           else ─► vegaEmbed (named dataset)
 */

import { LEAST_TEXT_PX, legibleSvg } from '../../reports/card/legible.js';
import type { Chart, VegaLiteSpec } from '../../reports/charts/chart.js';
import { narrowSpec, squeezed } from '../../reports/charts/narrow.js';

/** Below this width the page is one column (./style.ts): its charts are laid out for the column (../../reports/charts/narrow.ts). */
const ONE_COLUMN = '(max-width: 899px)';

interface VegaView {
  data(name: string, values: unknown[]): VegaView;
  runAsync(): Promise<VegaView>;
  finalize(): void;
}

/** vega-embed, inlined before the page's script. */
declare const vegaEmbed: (
  element: HTMLElement,
  spec: unknown,
  options: Record<string, unknown>,
) => Promise<{ view: VegaView }>;

const DATASET = 'muster';

interface Shown {
  id: string;
  /** The spec without its data, as JSON; '' when the spec could not be split (always drawn afresh). */
  skeleton: string;
  view: VegaView | null;
  section: HTMLElement;
}

/** A spec whose only data is its top-level `data.values` (every chart builder's) splits; any other is drawn whole. */
function split(spec: VegaLiteSpec): { skeleton: string; values: unknown[] | null; named: VegaLiteSpec } {
  const data = spec.data as { values?: unknown } | undefined;
  if (!data || !Array.isArray(data.values) || Object.keys(data).length !== 1)
    return { skeleton: '', values: null, named: spec };
  const { data: _data, ...rest } = spec;
  return {
    skeleton: JSON.stringify(rest),
    values: data.values,
    named: { ...rest, data: { name: DATASET }, datasets: { [DATASET]: data.values } },
  };
}

function text(section: HTMLElement, chart: Chart): void {
  const [heading, target, caption] = [...section.children] as HTMLElement[];
  heading.textContent = chart.title;
  target.setAttribute('aria-label', chart.title);
  caption.textContent = chart.caption;
}

export class ChartBoard {
  readonly #box: HTMLElement;
  #shown: Shown[] = [];

  constructor(box: HTMLElement) {
    this.#box = box;
  }

  /**
   * Shows `charts` in order, each replacing the one in its place once ready,
   * so the first — the rule's main chart — appears soonest and nothing
   * flickers away. `stale()` says a newer change took over: then it stops,
   * returning false. `onFirst` is called when the first chart is on screen.
   */
  async show(charts: readonly Chart[], stale: () => boolean, onFirst: () => void): Promise<boolean> {
    const column = window.matchMedia(ONE_COLUMN).matches ? this.#box.clientWidth : 0;
    for (const [index, chart] of charts.entries()) {
      const { skeleton, values, named } = split(column > 0 ? narrowSpec(chart.spec, column) : chart.spec);
      const current = this.#shown[index];
      if (current?.view && skeleton !== '' && current.id === chart.id && current.skeleton === skeleton) {
        await current.view.data(DATASET, values as unknown[]).runAsync();
        if (stale()) return false;
        text(current.section, chart);
      } else {
        const drawn = await this.#fitted(chart, named, column);
        if (stale()) {
          drawn.view?.finalize();
          return false;
        }
        const entry: Shown = { id: chart.id, skeleton, ...drawn };
        // Whatever now holds this place (possibly a newer draw's) is replaced as a whole.
        const holder = this.#shown[index];
        if (holder) {
          holder.view?.finalize();
          holder.section.replaceWith(entry.section);
        } else {
          this.#box.append(entry.section);
        }
        this.#shown[index] = entry;
      }
      const svg = this.#shown[index].section.querySelector('svg');
      if (svg) legibleSvg(svg, LEAST_TEXT_PX);
      if (index === 0) onFirst();
    }
    this.#truncate(charts.length);
    return true;
  }

  /** Removes every chart (the form has an error). */
  clear(): void {
    this.#truncate(0);
  }

  #truncate(length: number): void {
    for (const gone of this.#shown.splice(length)) {
      gone.view?.finalize();
      gone.section.remove();
    }
  }

  /**
   * Draws the chart; in one column (`column` > 0) a chart still wider than the column is drawn again, its widths
   * narrowed by the overflow (twice at most: axis labels take a little more of a narrower plot).
   */
  async #fitted(
    chart: Chart,
    spec: VegaLiteSpec,
    column: number,
  ): Promise<{ view: VegaView | null; section: HTMLElement }> {
    let drawn = await this.#draw(chart, spec);
    for (let pass = 0; column > 0 && pass < 2; pass++) {
      const width = parseFloat(drawn.section.querySelector('svg')?.getAttribute('width') ?? '');
      if (!(width > column)) break;
      drawn.view?.finalize();
      drawn = await this.#draw(chart, squeezed(spec, (column / width) * 0.98));
    }
    return drawn;
  }

  async #draw(chart: Chart, spec: VegaLiteSpec): Promise<{ view: VegaView | null; section: HTMLElement }> {
    const section = document.createElement('section');
    section.className = 'chart';
    section.dataset.chart = chart.id;
    const heading = document.createElement('h3');
    const target = document.createElement('div');
    target.className = 'vis';
    target.setAttribute('role', 'img');
    const caption = document.createElement('p');
    caption.className = 'caption';
    section.append(heading, target, caption);
    text(section, chart);
    try {
      return { view: (await vegaEmbed(target, spec, { renderer: 'svg', actions: false })).view, section };
    } catch (error) {
      target.textContent = `This chart could not be drawn: ${(error as Error).message}`;
      target.classList.add('chart-error');
      console.error(error);
      return { view: null, section };
    }
  }
}
