/**
 * A rule file's `presentation` field, checked and copied: plain data only
 * (the file's functions never run on the main thread), every field known,
 * every parameter it names one of the rule's, every chart id safe as a file
 * name. A mistake is one line naming the field (docs/custom-rules.md,
 * "Presentation"). The vocabulary is src/contract/presentation.ts.
 */

import type { AxisDecl, CardDecl, ChartDecl, Presentation } from '../contract/presentation.js';
import type { MatrixSpec, ParamSpec } from '../contract/types.js';
import type { Data, Fail } from '../input/schema.js';
import { PresentationFields } from './fields.js';

/** Checks `presentation` against the rule's parameters (and its matrix, for a card over it). */
export function checkPresentation(
  value: unknown,
  params: readonly ParamSpec[],
  matrix: MatrixSpec | undefined,
  fail: Fail,
): Presentation {
  return new PresentationSchema(params, matrix, fail).presentation(value);
}

/** The whole declaration: charts, the card and the matrix's words. */
class PresentationSchema extends PresentationFields {
  presentation(value: unknown): Presentation {
    const data = this.object('presentation', value, [], ['charts', 'card', 'matrix']);
    const charts =
      data.charts === undefined
        ? []
        : this.list('presentation.charts', data.charts, 12, (item, at) => this.chart(at, item));
    const seen = new Set<string>();
    charts.forEach((c, i) => {
      if (c.kind === 'every') return;
      if (seen.has(c.id)) this.bad(`presentation.charts[${i}].id`, c.id, 'an id no other chart of the rule has');
      seen.add(c.id);
    });
    const presentation: Presentation = {
      ...(data.charts === undefined ? {} : { charts }),
      ...this.optional(data, 'card', (item, at) => this.card(at, item, charts), 'presentation'),
      ...this.optional(
        data,
        'matrix',
        (item, at) => {
          const axes = this.object(at, item, [], ['row', 'col', 'advantage']);
          return {
            ...this.optional(axes, 'row', (v, p) => this.text(p, v), at),
            ...this.optional(axes, 'col', (v, p) => this.text(p, v), at),
            ...this.optional(axes, 'advantage', (v, p) => this.list(p, v, 24, (m, mAt) => this.text(mAt, m)), at),
          };
        },
        'presentation',
      ),
    };
    return presentation;
  }

  axis(path: string, got: unknown): AxisDecl {
    const from = this.oneOf(`${path}.from`, (got as Data | null)?.from, ['matrix', 'integers'] as const);
    if (from === 'matrix') {
      this.object(path, got, ['from'], []);
      if (!this.matrix) this.fail(`${path}.from: got "matrix", but the rule declares no matrix; allowed: "integers"`);
      return { from };
    }
    const data = this.object(path, got, ['from', 'param', 'most'], ['values', 'around']);
    return {
      from,
      param: this.param(`${path}.param`, data.param, 'integer'),
      most: this.integer(`${path}.most`, data.most, 1, 60),
      ...this.optional(
        data,
        'values',
        (item, at) => this.list(at, item, 60, (v, vAt) => this.integer(vAt, v, -1e9, 1e9)),
        path,
      ),
      ...this.optional(
        data,
        'around',
        (item, at) => {
          const around = this.object(at, item, ['count', 'before'], []);
          return {
            count: this.integer(`${at}.count`, around.count, 1, 60),
            before: this.integer(`${at}.before`, around.before, 0, 60),
          };
        },
        path,
      ),
    };
  }

  card(path: string, got: unknown, charts: readonly ChartDecl[]): CardDecl {
    const kind = this.oneOf(`${path}.kind`, (got as Data | null)?.kind, ['matrix', 'charts', 'panels'] as const);
    if (kind === 'panels') return this.panels(path, got);
    if (kind === 'charts') {
      const data = this.object(path, got, ['kind', 'title', 'subtitle', 'charts'], ['tables']);
      const ids = charts.flatMap((c) => (c.kind === 'every' ? [] : [c.id]));
      return {
        kind,
        title: this.words(`${path}.title`, data.title),
        subtitle: this.words(`${path}.subtitle`, data.subtitle),
        charts: this.list(`${path}.charts`, data.charts, 4, (item, at) => {
          const entry = this.object(at, item, ['id'], ['caption', 'height', 'labels']);
          if (!ids.includes(entry.id as string))
            this.bad(
              `${at}.id`,
              entry.id,
              `the id of one of presentation.charts: ${ids.join(', ') || '(none declared)'}`,
            );
          return {
            id: entry.id as string,
            ...this.optional(entry, 'caption', (v, p) => this.words(p, v), at),
            ...this.optional(entry, 'height', (v, p) => this.integer(p, v, 60, 900), at),
            ...this.optional(entry, 'labels', (v, p) => this.flag(p, v), at),
          };
        }),
        ...this.optional(
          data,
          'tables',
          (item, at) => this.list(at, item, 3, (t, tAt) => this.tableDecl(tAt, t)),
          path,
        ),
      };
    }
    const data = this.object(
      path,
      got,
      ['kind', 'title', 'subtitle', 'row', 'col', 'axis', 'heatmaps'],
      ['fit', 'tables', 'against'],
    );
    const row = this.param(`${path}.row`, data.row);
    const col = this.param(`${path}.col`, data.col);
    if (row === col) this.fail(`${path}: row and col are both ${row}; allowed: two different parameters`);
    return {
      kind,
      title: this.words(`${path}.title`, data.title),
      subtitle: this.words(`${path}.subtitle`, data.subtitle),
      row,
      col,
      axis: this.axis(`${path}.axis`, data.axis),
      heatmaps: this.list(`${path}.heatmaps`, data.heatmaps, 3, (item, at) => {
        const heat = this.object(at, item, ['metric', 'id', 'title', 'caption'], []);
        return {
          metric: this.text(`${at}.metric`, heat.metric),
          id: this.id(`${at}.id`, heat.id),
          title: this.words(`${at}.title`, heat.title),
          caption: this.words(`${at}.caption`, heat.caption),
        };
      }),
      ...this.optional(
        data,
        'fit',
        (item, at) => {
          const fit = this.object(at, item, [], ['width', 'height']);
          return {
            ...this.optional(fit, 'width', (v, p) => this.integer(p, v, 100, 560), at),
            ...this.optional(fit, 'height', (v, p) => this.integer(p, v, 100, 640), at),
          };
        },
        path,
      ),
      ...this.optional(data, 'tables', (item, at) => this.list(at, item, 3, (t, tAt) => this.tableDecl(tAt, t)), path),
      ...this.optional(data, 'against', (item, at) => this.against(at, item), path),
    };
  }

  against(path: string, got: unknown) {
    const data = this.object(path, got, ['metric', 'title', 'subtitle', 'chart', 'table'], []);
    const chartData = this.object(
      `${path}.chart`,
      data.chart,
      ['id', 'title', 'caption', 'categoryTitle', 'valueTitle'],
      [],
    );
    return {
      metric: this.text(`${path}.metric`, data.metric),
      title: this.words(`${path}.title`, data.title),
      subtitle: this.words(`${path}.subtitle`, data.subtitle),
      chart: {
        id: this.id(`${path}.chart.id`, chartData.id),
        title: this.words(`${path}.chart.title`, chartData.title),
        caption: this.words(`${path}.chart.caption`, chartData.caption),
        categoryTitle: this.text(`${path}.chart.categoryTitle`, chartData.categoryTitle),
        valueTitle: this.text(`${path}.chart.valueTitle`, chartData.valueTitle),
      },
      table: this.tableDecl(`${path}.table`, data.table),
    };
  }

  panels(path: string, got: unknown): CardDecl {
    const data = this.object(
      path,
      got,
      ['kind', 'title', 'subtitle', 'axis', 'facet', 'series', 'index', 'metric', 'valueTitle', 'lines', 'grid'],
      ['per'],
    );
    const checkedAxis = this.axis(`${path}.axis`, data.axis);
    if (checkedAxis.from !== 'integers') this.bad(`${path}.axis.from`, 'matrix', '"integers" (a panel per value)');
    const facet = this.object(`${path}.facet`, data.facet, ['label', 'title'], []);
    const series = this.object(`${path}.series`, data.series, ['param', 'from', 'to', 'label', 'title'], []);
    const index = this.object(`${path}.index`, data.index, ['param', 'title'], []);
    const chartOf = (at: string, item: unknown) => {
      const entry = this.object(at, item, ['id', 'title', 'caption'], []);
      return {
        id: this.id(`${at}.id`, entry.id),
        title: this.words(`${at}.title`, entry.title),
        caption: this.words(`${at}.caption`, entry.caption),
      };
    };
    return {
      kind: 'panels',
      title: this.words(`${path}.title`, data.title),
      subtitle: this.words(`${path}.subtitle`, data.subtitle),
      axis: checkedAxis as AxisDecl & { from: 'integers' },
      facet: {
        label: this.words(`${path}.facet.label`, facet.label),
        title: this.text(`${path}.facet.title`, facet.title),
      },
      series: {
        param: this.param(`${path}.series.param`, series.param, 'integer'),
        from: this.integer(`${path}.series.from`, series.from, -1e6, 1e6),
        to: this.param(`${path}.series.to`, series.to, 'integer'),
        label: this.words(`${path}.series.label`, series.label),
        title: this.text(`${path}.series.title`, series.title),
      },
      index: {
        param: this.param(`${path}.index.param`, index.param, 'integer'),
        title: this.text(`${path}.index.title`, index.title),
      },
      metric: this.text(`${path}.metric`, data.metric),
      ...this.optional(data, 'per', (item, at) => this.param(at, item), path),
      valueTitle: this.text(`${path}.valueTitle`, data.valueTitle),
      lines: chartOf(`${path}.lines`, data.lines),
      grid: chartOf(`${path}.grid`, data.grid),
    };
  }
}
