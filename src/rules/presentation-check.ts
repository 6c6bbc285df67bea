/**
 * A rule file's `presentation` field, checked and copied: plain data only
 * (the file's functions never run on the main thread), every field known,
 * every parameter it names one of the rule's, every chart id safe as a file
 * name. A mistake is one line naming the field (docs/custom-rules.md,
 * "Presentation"). The vocabulary is ./presentation.ts.
 */
import { describeValue } from '../guard/rule-text.js';
import type {
  AxisDecl,
  CardDecl,
  ChartDecl,
  ColumnDecl,
  Condition,
  PointSource,
  Presentation,
  SplitRow,
  TableDecl,
  Words,
} from './presentation.js';
import type { MatrixSpec, ParamSpec, ParamValue } from './types.js';

type Fail = (what: string) => never;
type Data = Record<string, unknown>;

const ID = /^[A-Za-z0-9][A-Za-z0-9.-]{0,63}$/;
const SPECIALS = /^(i|ordinal|value|markers|percent:.+|entry:[^:]+(:\d+)?)$/;

/** Checks `presentation` against the rule's parameters (and its matrix, for a card over it). */
export function checkPresentation(
  value: unknown,
  params: readonly ParamSpec[],
  matrix: MatrixSpec | undefined,
  fail: Fail,
): Presentation {
  const names = params.map((p) => p.name);
  const bad = (path: string, got: unknown, allowed: string): never =>
    fail(`${path}: got ${describeValue(got)}; allowed: ${allowed}`);

  const object = (path: string, got: unknown, required: readonly string[], optional: readonly string[]): Data => {
    if (got === null || typeof got !== 'object' || Array.isArray(got))
      bad(path, got, `an object with ${[...required, ...optional].join(', ')}`);
    const allowed = [...required, ...optional];
    for (const key of Object.keys(got as Data))
      if (!allowed.includes(key)) fail(`${path}: unknown field ${JSON.stringify(key)}; allowed: ${allowed.join(', ')}`);
    for (const key of required)
      if ((got as Data)[key] === undefined)
        fail(`${path}.${key}: missing; allowed: ${required.join(', ')} are required`);
    return got as Data;
  };
  const list = <T>(path: string, got: unknown, most: number, each: (item: unknown, at: string) => T): T[] => {
    if (!Array.isArray(got) || got.length === 0 || got.length > most)
      bad(path, got, `an array of 1 to ${most} entries`);
    return (got as unknown[]).map((item, i) => each(item, `${path}[${i}]`));
  };
  const text = (path: string, got: unknown, most = 200): string => {
    if (typeof got !== 'string' || got.length > most) bad(path, got, `text of at most ${most} characters`);
    return got as string;
  };
  const id = (path: string, got: unknown): string => {
    if (typeof got !== 'string' || !ID.test(got))
      bad(path, got, "letters, digits, '.' and '-' (at most 64, not starting with '.' or '-')");
    return got as string;
  };
  const integer = (path: string, got: unknown, min: number, max: number): number => {
    if (typeof got !== 'number' || !Number.isInteger(got) || got < min || got > max)
      bad(path, got, `an integer from ${min} to ${max}`);
    return got as number;
  };
  const flag = (path: string, got: unknown): boolean => {
    if (typeof got !== 'boolean') bad(path, got, 'true or false');
    return got as boolean;
  };
  const oneOf = <T extends string>(path: string, got: unknown, choices: readonly T[]): T => {
    if (!choices.includes(got as T)) bad(path, got, `one of ${choices.join(', ')}`);
    return got as T;
  };
  const param = (path: string, got: unknown, type?: ParamSpec['type']): string => {
    const spec = params.find((p) => p.name === got && (type === undefined || p.type === type));
    if (!spec) bad(path, got, `one of the ${type ?? ''}${type ? ' ' : ''}parameters ${names.join(', ') || '(none)'}`);
    return got as string;
  };
  const optional = <T>(data: Data, key: string, check: (got: unknown, at: string) => T, path: string) =>
    data[key] === undefined ? {} : { [key]: check(data[key], `${path}.${key}`) };

  const template = (path: string, got: unknown): string => {
    const raw = text(path, got, 500);
    for (const match of raw.replaceAll('{{', '').matchAll(/\{(#?)([^{}]*)\}/g)) {
      const [whole, hash, name] = match;
      if (hash ? !SPECIALS.test(name) : !names.includes(name))
        fail(
          `${path}: ${whole} is no placeholder; allowed: {parameter} (${names.join(', ') || 'none'}), {#i}, ` +
            '{#ordinal}, {#value}, {#markers}, {#percent:metric}, {#entry:parameter[:field]}, {{ for a brace',
        );
    }
    return raw;
  };
  const condition = (path: string, got: unknown): Condition => {
    const data = object(path, got, [], ['param', 'equals', 'above', 'truthy', 'metric', 'index']);
    const keys = Object.keys(data).sort().join(',');
    if (keys === 'equals,param') {
      const equals = data.equals;
      if (!['string', 'number', 'boolean'].includes(typeof equals)) bad(`${path}.equals`, equals, 'a parameter value');
      return { param: param(`${path}.param`, data.param), equals: equals as ParamValue };
    }
    if (keys === 'above,param') {
      if (typeof data.above !== 'number' || !Number.isFinite(data.above)) bad(`${path}.above`, data.above, 'a number');
      return { param: param(`${path}.param`, data.param), above: data.above as number };
    }
    if (keys === 'param,truthy' && data.truthy === true)
      return { param: param(`${path}.param`, data.param), truthy: true };
    if (keys === 'metric') return { metric: text(`${path}.metric`, data.metric) };
    if (keys === 'index') return { index: integer(`${path}.index`, data.index, 0, 1e6) };
    return bad(path, got, '{ param, equals }, { param, above }, { param, truthy: true }, { metric } or { index }');
  };
  const words = (path: string, got: unknown, depth = 0): Words => {
    if (typeof got === 'string') return template(path, got);
    if (depth > 4) bad(path, got, 'words nested at most 4 deep');
    if (Array.isArray(got)) return list(path, got, 20, (item, at) => words(at, item, depth + 1));
    const data = object(path, got, ['if', 'show'], ['else']);
    return {
      if: condition(`${path}.if`, data.if),
      show: words(`${path}.show`, data.show, depth + 1),
      ...optional(data, 'else', (item, at) => words(at, item, depth + 1), path),
    };
  };
  const wordsList = (path: string, got: unknown) => list(path, got, 60, (item, at) => words(at, item));

  const source = (path: string, got: unknown): PointSource => {
    const data = object(path, got, [], ['metric', 'prefix', 'label', 'series', 'probability', 'per']);
    if ((data.metric === undefined) === (data.prefix === undefined))
      fail(`${path}: needs one of metric and prefix; allowed: { metric } or { prefix }, with label, series, …`);
    const rest = {
      ...optional(data, 'label', (item, at) => words(at, item), path),
      ...optional(data, 'series', (item, at) => words(at, item), path),
      ...optional(data, 'probability', (item, at) => flag(at, item), path),
      ...optional(data, 'per', (item, at) => param(at, item), path),
    };
    return data.metric !== undefined
      ? { metric: text(`${path}.metric`, data.metric), ...rest }
      : { prefix: text(`${path}.prefix`, data.prefix), ...rest };
  };
  const splitRow = (path: string, got: unknown, depth = 0): SplitRow => {
    const data = got as Data;
    if (data !== null && typeof data === 'object' && 'oneOf' in data) {
      object(path, got, ['oneOf'], []);
      if (depth > 2) bad(path, got, 'oneOf nested at most 2 deep');
      return { oneOf: list(`${path}.oneOf`, data.oneOf, 8, (item, at) => splitRow(at, item, depth + 1)) };
    }
    if (data !== null && typeof data === 'object' && 'metric' in data) {
      object(path, got, ['label', 'metric'], ['sides']);
      const sides = data.sides === undefined ? {} : { sides: wordsList(`${path}.sides`, data.sides) };
      if (sides.sides && sides.sides.length !== 2) bad(`${path}.sides`, data.sides, 'two words, one for each side');
      return {
        label: words(`${path}.label`, data.label),
        metric: text(`${path}.metric`, data.metric),
        ...(sides.sides ? { sides: [sides.sides[0], sides.sides[1]] as const } : {}),
      };
    }
    object(path, got, ['label', 'shares'], ['remainder', 'each']);
    return {
      label: words(`${path}.label`, data.label),
      shares: list(`${path}.shares`, data.shares, 24, (item, at) => {
        const share = object(at, item, ['segment', 'metric'], []);
        return { segment: words(`${at}.segment`, share.segment), metric: text(`${at}.metric`, share.metric) };
      }),
      ...optional(data, 'remainder', (item, at) => words(at, item), path),
      ...optional(data, 'each', (item, at) => text(at, item), path),
    };
  };

  const common = ['id', 'title', 'caption'];
  const chart = (path: string, got: unknown): ChartDecl => {
    const kind = oneOf(`${path}.kind`, (got as Data | null)?.kind, [
      'split',
      'bars',
      'dots',
      'lines',
      'every',
    ] as const);
    const head = (data: Data) => ({
      id: id(`${path}.id`, data.id),
      title: words(`${path}.title`, data.title),
      caption: words(`${path}.caption`, data.caption),
    });
    if (kind === 'every') {
      const data = object(path, got, ['kind'], ['whenMissing']);
      return { kind, ...optional(data, 'whenMissing', (item, at) => flag(at, item), path) };
    }
    if (kind === 'split') {
      const data = object(path, got, ['kind', ...common, 'rows', 'segmentTitle'], ['each', 'segmentOrder']);
      return {
        kind,
        ...head(data),
        rows: list(`${path}.rows`, data.rows, 24, (item, at) => splitRow(at, item)),
        segmentTitle: text(`${path}.segmentTitle`, data.segmentTitle),
        ...optional(data, 'each', (item, at) => text(at, item), path),
        ...optional(data, 'segmentOrder', (item, at) => wordsList(at, item), path),
      };
    }
    const points = (data: Data) => list(`${path}.points`, data.points, 24, (item, at) => source(at, item));
    if (kind === 'lines') {
      const data = object(
        path,
        got,
        ['kind', ...common, 'points', 'xTitle', 'yTitle', 'percent', 'seriesTitle', 'seriesOrder'],
        ['labels', 'height', 'byIndex'],
      );
      return {
        kind,
        ...head(data),
        points: points(data),
        xTitle: text(`${path}.xTitle`, data.xTitle),
        yTitle: text(`${path}.yTitle`, data.yTitle),
        percent: flag(`${path}.percent`, data.percent),
        seriesTitle: text(`${path}.seriesTitle`, data.seriesTitle),
        seriesOrder: wordsList(`${path}.seriesOrder`, data.seriesOrder),
        ...optional(data, 'labels', (item, at) => flag(at, item), path),
        ...optional(data, 'height', (item, at) => integer(at, item, 60, 900), path),
        ...optional(data, 'byIndex', (item, at) => flag(at, item), path),
      };
    }
    const data = object(
      path,
      got,
      ['kind', ...common, 'points', 'orientation', 'categoryTitle', 'valueTitle', 'percent'],
      ['series', 'step'],
    );
    return {
      kind,
      ...head(data),
      points: points(data),
      orientation: oneOf(`${path}.orientation`, data.orientation, ['horizontal', 'vertical'] as const),
      categoryTitle: text(`${path}.categoryTitle`, data.categoryTitle),
      valueTitle: text(`${path}.valueTitle`, data.valueTitle),
      percent: flag(`${path}.percent`, data.percent),
      ...optional(
        data,
        'series',
        (item, at) => {
          const series = object(at, item, ['title', 'order'], []);
          return { title: text(`${at}.title`, series.title), order: wordsList(`${at}.order`, series.order) };
        },
        path,
      ),
      ...optional(data, 'step', (item, at) => integer(at, item, 8, 200), path),
    };
  };

  const axis = (path: string, got: unknown): AxisDecl => {
    const from = oneOf(`${path}.from`, (got as Data | null)?.from, ['matrix', 'integers'] as const);
    if (from === 'matrix') {
      object(path, got, ['from'], []);
      if (!matrix) fail(`${path}.from: got "matrix", but the rule declares no matrix; allowed: "integers"`);
      return { from };
    }
    const data = object(path, got, ['from', 'param', 'most'], ['values', 'around']);
    return {
      from,
      param: param(`${path}.param`, data.param, 'integer'),
      most: integer(`${path}.most`, data.most, 1, 60),
      ...optional(data, 'values', (item, at) => list(at, item, 60, (v, vAt) => integer(vAt, v, -1e9, 1e9)), path),
      ...optional(
        data,
        'around',
        (item, at) => {
          const around = object(at, item, ['count', 'before'], []);
          return {
            count: integer(`${at}.count`, around.count, 1, 60),
            before: integer(`${at}.before`, around.before, 0, 60),
          };
        },
        path,
      ),
    };
  };
  const column = (path: string, got: unknown): ColumnDecl => {
    const data = object(path, got, ['head', 'cell'], ['numeric']);
    const cell = object(`${path}.cell`, data.cell, [], ['figure', 'probability', 'axis', 'rank', 'expected', 'words']);
    const at = `${path}.cell`;
    const shape = Object.keys(cell).sort().join(',');
    const checked: ColumnDecl['cell'] =
      shape === 'figure' || shape === 'figure,probability'
        ? { figure: text(`${at}.figure`, cell.figure), ...optional(cell, 'probability', (v, p) => flag(p, v), at) }
        : shape === 'axis'
          ? { axis: oneOf(`${at}.axis`, cell.axis, ['label', 'withValue'] as const) }
          : shape === 'rank' && cell.rank === true
            ? { rank: true }
            : shape === 'expected'
              ? { expected: text(`${at}.expected`, cell.expected) }
              : shape === 'words'
                ? { words: words(`${at}.words`, cell.words) }
                : bad(at, cell, '{ figure }, { axis }, { rank: true }, { expected } or { words }');
    return {
      head: words(`${path}.head`, data.head),
      cell: checked,
      ...optional(data, 'numeric', (item, p) => flag(p, item), path),
    };
  };
  const tableDecl = (path: string, got: unknown): TableDecl => {
    const data = object(path, got, ['id', 'title', 'columns'], ['caption', 'each', 'byIndex']);
    return {
      id: id(`${path}.id`, data.id),
      title: words(`${path}.title`, data.title),
      columns: list(`${path}.columns`, data.columns, 12, (item, at) => column(at, item)),
      ...optional(data, 'caption', (item, at) => words(at, item), path),
      ...optional(data, 'each', (item, at) => text(at, item), path),
      ...optional(data, 'byIndex', (item, at) => byIndex(at, item), path),
    };
  };
  const byIndex = (path: string, got: unknown) => {
    const data = object(path, got, ['param', 'head', 'lines'], []);
    return {
      param: param(`${path}.param`, data.param, 'integer'),
      head: words(`${path}.head`, data.head),
      lines: list(`${path}.lines`, data.lines, 12, (item, at) => {
        const line = object(at, item, ['label', 'metric', 'probability'], []);
        return {
          label: words(`${at}.label`, line.label),
          metric: text(`${at}.metric`, line.metric),
          probability: flag(`${at}.probability`, line.probability),
        };
      }),
    };
  };

  const card = (path: string, got: unknown, charts: readonly ChartDecl[]): CardDecl => {
    const kind = oneOf(`${path}.kind`, (got as Data | null)?.kind, ['matrix', 'charts', 'panels'] as const);
    if (kind === 'panels') return panels(path, got);
    if (kind === 'charts') {
      const data = object(path, got, ['kind', 'title', 'subtitle', 'charts'], ['tables']);
      const ids = charts.flatMap((c) => (c.kind === 'every' ? [] : [c.id]));
      return {
        kind,
        title: words(`${path}.title`, data.title),
        subtitle: words(`${path}.subtitle`, data.subtitle),
        charts: list(`${path}.charts`, data.charts, 4, (item, at) => {
          const entry = object(at, item, ['id'], ['caption', 'height', 'labels']);
          if (!ids.includes(entry.id as string))
            bad(`${at}.id`, entry.id, `the id of one of presentation.charts: ${ids.join(', ') || '(none declared)'}`);
          return {
            id: entry.id as string,
            ...optional(entry, 'caption', (v, p) => words(p, v), at),
            ...optional(entry, 'height', (v, p) => integer(p, v, 60, 900), at),
            ...optional(entry, 'labels', (v, p) => flag(p, v), at),
          };
        }),
        ...optional(data, 'tables', (item, at) => list(at, item, 3, (t, tAt) => tableDecl(tAt, t)), path),
      };
    }
    const data = object(
      path,
      got,
      ['kind', 'title', 'subtitle', 'row', 'col', 'axis', 'heatmaps'],
      ['fit', 'tables', 'against'],
    );
    const row = param(`${path}.row`, data.row);
    const col = param(`${path}.col`, data.col);
    if (row === col) fail(`${path}: row and col are both ${row}; allowed: two different parameters`);
    return {
      kind,
      title: words(`${path}.title`, data.title),
      subtitle: words(`${path}.subtitle`, data.subtitle),
      row,
      col,
      axis: axis(`${path}.axis`, data.axis),
      heatmaps: list(`${path}.heatmaps`, data.heatmaps, 3, (item, at) => {
        const heat = object(at, item, ['metric', 'id', 'title', 'caption'], []);
        return {
          metric: text(`${at}.metric`, heat.metric),
          id: id(`${at}.id`, heat.id),
          title: words(`${at}.title`, heat.title),
          caption: words(`${at}.caption`, heat.caption),
        };
      }),
      ...optional(
        data,
        'fit',
        (item, at) => {
          const fit = object(at, item, [], ['width', 'height']);
          return {
            ...optional(fit, 'width', (v, p) => integer(p, v, 100, 560), at),
            ...optional(fit, 'height', (v, p) => integer(p, v, 100, 640), at),
          };
        },
        path,
      ),
      ...optional(data, 'tables', (item, at) => list(at, item, 3, (t, tAt) => tableDecl(tAt, t)), path),
      ...optional(data, 'against', (item, at) => against(at, item), path),
    };
  };
  const against = (path: string, got: unknown) => {
    const data = object(path, got, ['metric', 'title', 'subtitle', 'chart', 'table'], []);
    const chartData = object(
      `${path}.chart`,
      data.chart,
      ['id', 'title', 'caption', 'categoryTitle', 'valueTitle'],
      [],
    );
    return {
      metric: text(`${path}.metric`, data.metric),
      title: words(`${path}.title`, data.title),
      subtitle: words(`${path}.subtitle`, data.subtitle),
      chart: {
        id: id(`${path}.chart.id`, chartData.id),
        title: words(`${path}.chart.title`, chartData.title),
        caption: words(`${path}.chart.caption`, chartData.caption),
        categoryTitle: text(`${path}.chart.categoryTitle`, chartData.categoryTitle),
        valueTitle: text(`${path}.chart.valueTitle`, chartData.valueTitle),
      },
      table: tableDecl(`${path}.table`, data.table),
    };
  };
  const panels = (path: string, got: unknown): CardDecl => {
    const data = object(
      path,
      got,
      ['kind', 'title', 'subtitle', 'axis', 'facet', 'series', 'index', 'metric', 'valueTitle', 'lines', 'grid'],
      ['per'],
    );
    const checkedAxis = axis(`${path}.axis`, data.axis);
    if (checkedAxis.from !== 'integers') bad(`${path}.axis.from`, 'matrix', '"integers" (a panel per value)');
    const facet = object(`${path}.facet`, data.facet, ['label', 'title'], []);
    const series = object(`${path}.series`, data.series, ['param', 'from', 'to', 'label', 'title'], []);
    const index = object(`${path}.index`, data.index, ['param', 'title'], []);
    const chartOf = (at: string, item: unknown) => {
      const entry = object(at, item, ['id', 'title', 'caption'], []);
      return {
        id: id(`${at}.id`, entry.id),
        title: words(`${at}.title`, entry.title),
        caption: words(`${at}.caption`, entry.caption),
      };
    };
    return {
      kind: 'panels',
      title: words(`${path}.title`, data.title),
      subtitle: words(`${path}.subtitle`, data.subtitle),
      axis: checkedAxis as AxisDecl & { from: 'integers' },
      facet: { label: words(`${path}.facet.label`, facet.label), title: text(`${path}.facet.title`, facet.title) },
      series: {
        param: param(`${path}.series.param`, series.param, 'integer'),
        from: integer(`${path}.series.from`, series.from, -1e6, 1e6),
        to: param(`${path}.series.to`, series.to, 'integer'),
        label: words(`${path}.series.label`, series.label),
        title: text(`${path}.series.title`, series.title),
      },
      index: {
        param: param(`${path}.index.param`, index.param, 'integer'),
        title: text(`${path}.index.title`, index.title),
      },
      metric: text(`${path}.metric`, data.metric),
      ...optional(data, 'per', (item, at) => param(at, item), path),
      valueTitle: text(`${path}.valueTitle`, data.valueTitle),
      lines: chartOf(`${path}.lines`, data.lines),
      grid: chartOf(`${path}.grid`, data.grid),
    };
  };

  const data = object('presentation', value, [], ['charts', 'card', 'matrix']);
  const charts =
    data.charts === undefined ? [] : list('presentation.charts', data.charts, 12, (item, at) => chart(at, item));
  const seen = new Set<string>();
  charts.forEach((c, i) => {
    if (c.kind === 'every') return;
    if (seen.has(c.id)) bad(`presentation.charts[${i}].id`, c.id, 'an id no other chart of the rule has');
    seen.add(c.id);
  });
  const presentation: Presentation = {
    ...(data.charts === undefined ? {} : { charts }),
    ...optional(data, 'card', (item, at) => card(at, item, charts), 'presentation'),
    ...optional(
      data,
      'matrix',
      (item, at) => {
        const axes = object(at, item, [], ['row', 'col', 'advantage']);
        return {
          ...optional(axes, 'row', (v, p) => text(p, v), at),
          ...optional(axes, 'col', (v, p) => text(p, v), at),
          ...optional(axes, 'advantage', (v, p) => list(p, v, 24, (m, mAt) => text(mAt, m)), at),
        };
      },
      'presentation',
    ),
  };
  return presentation;
}
