/**
 * The fields a rule file's `presentation` is made of, checked: words and
 * their placeholders, conditions, chart and table declarations, each naming
 * its field by path in one line. The whole declaration, with cards, is
 * checked by ./check.ts.
 */

import type {
  ChartDecl,
  ColumnDecl,
  Condition,
  PointSource,
  SplitRow,
  TableDecl,
  Words,
} from '../contract/presentation.js';
import type { MatrixSpec, ParamSpec, ParamValue } from '../contract/types.js';
import { type Data, type Fail, Schema } from '../input/schema.js';

const ID = /^[A-Za-z0-9][A-Za-z0-9.-]{0,63}$/;
const SPECIALS = /^(i|ordinal|value|markers|percent:.+|entry:[^:]+(:\d+)?)$/;
const COMMON = ['id', 'title', 'caption'];

/** The vocabulary of src/contract/presentation.ts as checks, short of the card. */
export class PresentationFields extends Schema {
  protected readonly names: string[];

  constructor(
    protected readonly params: readonly ParamSpec[],
    protected readonly matrix: MatrixSpec | undefined,
    fail: Fail,
  ) {
    super(fail);
    this.names = params.map((p) => p.name);
  }

  /** Safe as a file name: a chart's or a table's id. */
  id(path: string, got: unknown): string {
    if (typeof got !== 'string' || !ID.test(got))
      this.bad(path, got, "letters, digits, '.' and '-' (at most 64, not starting with '.' or '-')");
    return got as string;
  }

  /** One of the rule's parameters (of `type`, when given). */
  param(path: string, got: unknown, type?: ParamSpec['type']): string {
    const spec = this.params.find((p) => p.name === got && (type === undefined || p.type === type));
    if (!spec)
      this.bad(path, got, `one of the ${type ?? ''}${type ? ' ' : ''}parameters ${this.names.join(', ') || '(none)'}`);
    return got as string;
  }

  template(path: string, got: unknown): string {
    const raw = this.text(path, got, 500);
    for (const match of raw.replaceAll('{{', '').matchAll(/\{(#?)([^{}]*)\}/g)) {
      const [whole, hash, name] = match;
      if (hash ? !SPECIALS.test(name) : !this.names.includes(name))
        this.fail(
          `${path}: ${whole} is no placeholder; allowed: {parameter} (${this.names.join(', ') || 'none'}), {#i}, ` +
            '{#ordinal}, {#value}, {#markers}, {#percent:metric}, {#entry:parameter[:field]}, {{ for a brace',
        );
    }
    return raw;
  }

  condition(path: string, got: unknown): Condition {
    const data = this.object(path, got, [], ['param', 'equals', 'above', 'truthy', 'metric', 'index']);
    const keys = Object.keys(data).sort().join(',');
    if (keys === 'equals,param') {
      const equals = data.equals;
      if (!['string', 'number', 'boolean'].includes(typeof equals))
        this.bad(`${path}.equals`, equals, 'a parameter value');
      return { param: this.param(`${path}.param`, data.param), equals: equals as ParamValue };
    }
    if (keys === 'above,param') {
      if (typeof data.above !== 'number' || !Number.isFinite(data.above))
        this.bad(`${path}.above`, data.above, 'a number');
      return { param: this.param(`${path}.param`, data.param), above: data.above as number };
    }
    if (keys === 'param,truthy' && data.truthy === true)
      return { param: this.param(`${path}.param`, data.param), truthy: true };
    if (keys === 'metric') return { metric: this.text(`${path}.metric`, data.metric) };
    if (keys === 'index') return { index: this.integer(`${path}.index`, data.index, 0, 1e6) };
    return this.bad(path, got, '{ param, equals }, { param, above }, { param, truthy: true }, { metric } or { index }');
  }

  words(path: string, got: unknown, depth = 0): Words {
    if (typeof got === 'string') return this.template(path, got);
    if (depth > 4) this.bad(path, got, 'words nested at most 4 deep');
    if (Array.isArray(got)) return this.list(path, got, 20, (item, at) => this.words(at, item, depth + 1));
    const data = this.object(path, got, ['if', 'show'], ['else']);
    return {
      if: this.condition(`${path}.if`, data.if),
      show: this.words(`${path}.show`, data.show, depth + 1),
      ...this.optional(data, 'else', (item, at) => this.words(at, item, depth + 1), path),
    };
  }

  wordsList(path: string, got: unknown): Words[] {
    return this.list(path, got, 60, (item, at) => this.words(at, item));
  }

  source(path: string, got: unknown): PointSource {
    const data = this.object(path, got, [], ['metric', 'prefix', 'label', 'series', 'probability', 'per']);
    if ((data.metric === undefined) === (data.prefix === undefined))
      this.fail(`${path}: needs one of metric and prefix; allowed: { metric } or { prefix }, with label, series, …`);
    const rest = {
      ...this.optional(data, 'label', (item, at) => this.words(at, item), path),
      ...this.optional(data, 'series', (item, at) => this.words(at, item), path),
      ...this.optional(data, 'probability', (item, at) => this.flag(at, item), path),
      ...this.optional(data, 'per', (item, at) => this.param(at, item), path),
    };
    return data.metric !== undefined
      ? { metric: this.text(`${path}.metric`, data.metric), ...rest }
      : { prefix: this.text(`${path}.prefix`, data.prefix), ...rest };
  }

  splitRow(path: string, got: unknown, depth = 0): SplitRow {
    const data = got as Data;
    if (data !== null && typeof data === 'object' && 'oneOf' in data) {
      this.object(path, got, ['oneOf'], []);
      if (depth > 2) this.bad(path, got, 'oneOf nested at most 2 deep');
      return { oneOf: this.list(`${path}.oneOf`, data.oneOf, 8, (item, at) => this.splitRow(at, item, depth + 1)) };
    }
    if (data !== null && typeof data === 'object' && 'metric' in data) {
      this.object(path, got, ['label', 'metric'], ['sides']);
      const sides = data.sides === undefined ? {} : { sides: this.wordsList(`${path}.sides`, data.sides) };
      if (sides.sides && sides.sides.length !== 2)
        this.bad(`${path}.sides`, data.sides, 'two words, one for each side');
      return {
        label: this.words(`${path}.label`, data.label),
        metric: this.text(`${path}.metric`, data.metric),
        ...(sides.sides ? { sides: [sides.sides[0], sides.sides[1]] as const } : {}),
      };
    }
    this.object(path, got, ['label', 'shares'], ['remainder', 'each']);
    return {
      label: this.words(`${path}.label`, data.label),
      shares: this.list(`${path}.shares`, data.shares, 24, (item, at) => {
        const share = this.object(at, item, ['segment', 'metric'], []);
        return { segment: this.words(`${at}.segment`, share.segment), metric: this.text(`${at}.metric`, share.metric) };
      }),
      ...this.optional(data, 'remainder', (item, at) => this.words(at, item), path),
      ...this.optional(data, 'each', (item, at) => this.text(at, item), path),
    };
  }

  chart(path: string, got: unknown): ChartDecl {
    const kind = this.oneOf(`${path}.kind`, (got as Data | null)?.kind, [
      'split',
      'bars',
      'dots',
      'lines',
      'every',
    ] as const);
    const head = (data: Data) => ({
      id: this.id(`${path}.id`, data.id),
      title: this.words(`${path}.title`, data.title),
      caption: this.words(`${path}.caption`, data.caption),
    });
    if (kind === 'every') {
      const data = this.object(path, got, ['kind'], ['whenMissing']);
      return { kind, ...this.optional(data, 'whenMissing', (item, at) => this.flag(at, item), path) };
    }
    if (kind === 'split') {
      const data = this.object(path, got, ['kind', ...COMMON, 'rows', 'segmentTitle'], ['each', 'segmentOrder']);
      return {
        kind,
        ...head(data),
        rows: this.list(`${path}.rows`, data.rows, 24, (item, at) => this.splitRow(at, item)),
        segmentTitle: this.text(`${path}.segmentTitle`, data.segmentTitle),
        ...this.optional(data, 'each', (item, at) => this.text(at, item), path),
        ...this.optional(data, 'segmentOrder', (item, at) => this.wordsList(at, item), path),
      };
    }
    const points = (data: Data) => this.list(`${path}.points`, data.points, 24, (item, at) => this.source(at, item));
    if (kind === 'lines') {
      const data = this.object(
        path,
        got,
        ['kind', ...COMMON, 'points', 'xTitle', 'yTitle', 'percent', 'seriesTitle', 'seriesOrder'],
        ['labels', 'height', 'byIndex'],
      );
      return {
        kind,
        ...head(data),
        points: points(data),
        xTitle: this.text(`${path}.xTitle`, data.xTitle),
        yTitle: this.text(`${path}.yTitle`, data.yTitle),
        percent: this.flag(`${path}.percent`, data.percent),
        seriesTitle: this.text(`${path}.seriesTitle`, data.seriesTitle),
        seriesOrder: this.wordsList(`${path}.seriesOrder`, data.seriesOrder),
        ...this.optional(data, 'labels', (item, at) => this.flag(at, item), path),
        ...this.optional(data, 'height', (item, at) => this.integer(at, item, 60, 900), path),
        ...this.optional(data, 'byIndex', (item, at) => this.flag(at, item), path),
      };
    }
    const data = this.object(
      path,
      got,
      ['kind', ...COMMON, 'points', 'orientation', 'categoryTitle', 'valueTitle', 'percent'],
      ['series', 'step'],
    );
    return {
      kind,
      ...head(data),
      points: points(data),
      orientation: this.oneOf(`${path}.orientation`, data.orientation, ['horizontal', 'vertical'] as const),
      categoryTitle: this.text(`${path}.categoryTitle`, data.categoryTitle),
      valueTitle: this.text(`${path}.valueTitle`, data.valueTitle),
      percent: this.flag(`${path}.percent`, data.percent),
      ...this.optional(
        data,
        'series',
        (item, at) => {
          const series = this.object(at, item, ['title', 'order'], []);
          return { title: this.text(`${at}.title`, series.title), order: this.wordsList(`${at}.order`, series.order) };
        },
        path,
      ),
      ...this.optional(data, 'step', (item, at) => this.integer(at, item, 8, 200), path),
    };
  }

  column(path: string, got: unknown): ColumnDecl {
    const data = this.object(path, got, ['head', 'cell'], ['numeric']);
    const cell = this.object(
      `${path}.cell`,
      data.cell,
      [],
      ['figure', 'probability', 'axis', 'rank', 'expected', 'words'],
    );
    const at = `${path}.cell`;
    const shape = Object.keys(cell).sort().join(',');
    const checked: ColumnDecl['cell'] =
      shape === 'figure' || shape === 'figure,probability'
        ? {
            figure: this.text(`${at}.figure`, cell.figure),
            ...this.optional(cell, 'probability', (v, p) => this.flag(p, v), at),
          }
        : shape === 'axis'
          ? { axis: this.oneOf(`${at}.axis`, cell.axis, ['label', 'withValue'] as const) }
          : shape === 'rank' && cell.rank === true
            ? { rank: true }
            : shape === 'expected'
              ? { expected: this.text(`${at}.expected`, cell.expected) }
              : shape === 'words'
                ? { words: this.words(`${at}.words`, cell.words) }
                : this.bad(at, cell, '{ figure }, { axis }, { rank: true }, { expected } or { words }');
    return {
      head: this.words(`${path}.head`, data.head),
      cell: checked,
      ...this.optional(data, 'numeric', (item, p) => this.flag(p, item), path),
    };
  }

  tableDecl(path: string, got: unknown): TableDecl {
    const data = this.object(path, got, ['id', 'title', 'columns'], ['caption', 'each', 'byIndex']);
    return {
      id: this.id(`${path}.id`, data.id),
      title: this.words(`${path}.title`, data.title),
      columns: this.list(`${path}.columns`, data.columns, 12, (item, at) => this.column(at, item)),
      ...this.optional(data, 'caption', (item, at) => this.words(at, item), path),
      ...this.optional(data, 'each', (item, at) => this.text(at, item), path),
      ...this.optional(data, 'byIndex', (item, at) => this.byIndex(at, item), path),
    };
  }

  byIndex(path: string, got: unknown) {
    const data = this.object(path, got, ['param', 'head', 'lines'], []);
    return {
      param: this.param(`${path}.param`, data.param, 'integer'),
      head: this.words(`${path}.head`, data.head),
      lines: this.list(`${path}.lines`, data.lines, 12, (item, at) => {
        const line = this.object(at, item, ['label', 'metric', 'probability'], []);
        return {
          label: this.words(`${at}.label`, line.label),
          metric: this.text(`${at}.metric`, line.metric),
          probability: this.flag(`${at}.probability`, line.probability),
        };
      }),
    };
  }
}
