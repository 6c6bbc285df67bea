/**
 * One-page odds cards (`muster card`): the sheet a player takes to a
 * tournament or a designer puts in a rules review — the rule's headline
 * chart or table sized to the paper, a title in players' words, and one
 * footer line with the parameters, readings and method behind it.
 *
 *   planCard(rule, params, options)            ─► the parameter sets to compute
 *   (the CLI: exactly, or simulated where a rule has no exact solution;
 *    the calculator page: exactly, in the browser)
 *   layoutCard(rule, params, options, results) ─► Card: title, blocks, footer
 *   renderCardSheet(card) + cardStyle(paper)   ─► the sheet's HTML and CSS
 *
 * No node: imports here or below, so the calculator page can bundle it.
 */
import { own } from '../../src/keyed.js';
import { formatCount } from '../../src/output/format.js';
import { badValue, UsageError } from '../../src/errors.js';
import { bestOf } from '../../src/best-of.js';
import type { RunResult } from '../../src/result.js';
import { findParam, resolveParams } from '../../src/rules/params.js';
import { ruleWord, shellWord, withRangeHint } from '../../src/text/suggest.js';
import type { Params, ParamValue, Rule } from '../../src/rules/types.js';
import { intervalChart, metricPoint, type IntervalPoint } from '../charts/blocks.js';
import type { Chart, RunView } from '../charts/chart.js';
import { allInChart, onTableChart } from '../charts/fow.js';
import { MATRIX_AXIS_TITLES, matrixChart } from '../charts/generic.js';
import { arrivalCharts, arrivalGrid, COMMAND_LEVELS } from '../charts/reserves.js';
import { setupOrderChart, warbandLabel, warbands, whoChart } from '../charts/warbands.js';
import { escapeHtml } from '../escape.js';
import { chartLabel, percent } from '../numbers.js';

export type Paper = 'a4' | 'letter';
export const PAPERS: readonly Paper[] = ['a4', 'letter'];

/** What a card is asked for beyond the rule's parameters. */
export interface CardOptions {
  /**
   * `--range`: the table's axis values (Infinity WIP, Noctvale fighters, deployment strategies) or the command levels
   * (reserves).
   */
  range?: string;
  /** `--against`: one opponent strategy, for a ranked list instead of the matrix (deployment). */
  against?: string;
}

/** A block of the sheet: a chart, or a table whose HTML is already escaped. */
export type CardBlock =
  | { kind: 'chart'; chart: Chart }
  | { kind: 'table'; id: string; title: string; html: string; caption?: string };

export interface Card {
  rule: string;
  /** A short title in players' words. */
  title: string;
  /** One sentence: what the chart answers. */
  subtitle: string;
  blocks: CardBlock[];
  /** The one footer line: parameters, readings, method, source. */
  footer: string;
}

/**
 * Usable sheet in CSS pixels: the narrower of A4 and Letter (Letter is 6 mm wider, A4 18 mm taller) less 10 mm margins.
 */
export const SHEET = { width: 700, height: 960 } as const;
/** Room for a chart's plot: the sheet less axis labels and a legend beside it. */
const PLOT = { width: 560, height: 640 } as const;

interface CardDesign {
  /** Which options this card takes (others are refused with a one-line error). */
  accepts: { range: boolean; against: boolean };
  plan(rule: Rule, params: Params, options: CardOptions): Params[];
  layout(
    rule: Rule,
    params: Params,
    options: CardOptions,
    results: readonly RunResult[],
  ): Omit<Card, 'rule' | 'footer'> & { varied?: string[] };
}

const evaluated = (results: readonly RunResult[]) => results.map((result) => ({ result, tallied: null }));

/** An integer range a..b or a list a,b,c, each within [min, max], at most `most` values. */
function integerList(option: string, text: string, min: number, max: number, most: number): number[] {
  const allowed = `a..b or a,b,c: integers from ${min} to ${max}, at most ${most} of them (such as ${min}..${Math.min(max, min + most - 1)})`;
  const range = /^\s*(\d+)\s*\.\.\s*(\d+)\s*$/.exec(text);
  let values: number[];
  if (range) {
    const [from, to] = [Number(range[1]), Number(range[2])];
    values = from <= to ? Array.from({ length: to - from + 1 }, (_, i) => from + i) : [];
  } else if (/^\s*\d+(\s*,\s*\d+)*\s*$/.test(text)) {
    values = [...new Set(text.split(',').map((part) => Number(part.trim())))].sort((a, b) => a - b);
  } else {
    values = [];
  }
  if (values.length === 0 || values.length > most || values.some((value) => value < min || value > max))
    throw badValue(option, text, allowed);
  return values;
}

/** The axis values of a rule's declared matrix: --range through the rule's own parser, else its defaults. */
function matrixValues(rule: Rule, params: Params, options: CardOptions): ParamValue[] {
  const spec = rule.matrix;
  if (!spec) throw new Error(`${rule.id} declares no matrix`);
  if (options.range === undefined) return spec.defaultValues(params);
  if (!spec.parseRange) throw new UsageError(`--range: ${rule.id}'s table has a fixed axis; allowed: no --range`);
  return withRangeHint(options.range, () => spec.parseRange!(options.range!));
}

function grid(rule: Rule, params: Params, row: string, col: string, values: readonly ParamValue[]): Params[] {
  return values.flatMap((rowValue) =>
    values.map((colValue) => resolveParams(rule, [], { ...params, [row]: rowValue, [col]: colValue })),
  );
}

const view = (rule: Rule, result: RunResult): RunView => ({ rule, result, metrics: rule.metrics(result.params) });
const present = <T>(items: Array<T | null>): T[] => items.filter((item): item is T => item !== null);
const chartBlocks = (charts: Chart[]): CardBlock[] => charts.map((chart) => ({ kind: 'chart' as const, chart }));

/** An HTML table (every cell escaped); `numeric` columns align right. */
function table(head: string[], rows: string[][], numeric: (column: number) => boolean): string {
  const cell = (tag: string, text: string, column: number) =>
    `<${tag}${numeric(column) ? ' class="num"' : ''}>${escapeHtml(text)}</${tag}>`;
  return `<table><thead><tr>${head.map((text, i) => cell('th', text, i)).join('')}</tr></thead><tbody>${rows
    .map((row) => `<tr>${row.map((text, i) => cell('td', text, i)).join('')}</tr>`)
    .join('')}</tbody></table>`;
}

/** A figure as the card prints it: exact where known, else the estimate ± its interval's half-width. */
function figure(result: RunResult, metric: string, probability = true): string {
  const value = own(result.metrics, metric);
  if (!value) return '—';
  if (value.exact !== null) return chartLabel(value.exact, probability);
  if (value.estimate === null) return '—';
  if (value.lo === null || value.hi === null) return chartLabel(value.estimate, probability);
  const half = Math.max(value.estimate - value.lo, value.hi - value.estimate);
  return `${chartLabel(value.estimate, probability)} ±${probability ? `${(half * 100).toFixed(1)}` : half.toFixed(2)}`;
}

const infinityCard: CardDesign = {
  accepts: { range: true, against: false },
  plan: (rule, params, options) => grid(rule, params, 'wipA', 'wipB', matrixValues(rule, params, options)),
  layout(rule, params, options, results) {
    const values = matrixValues(rule, params, options);
    const chart = matrixChart(
      rule,
      'wipA',
      'wipB',
      values,
      values,
      'a.wins',
      evaluated(results),
      '',
      MATRIX_AXIS_TITLES.infinity,
      PLOT,
    );
    const crits = params.crits === true;
    return {
      title: 'Infinity: who wins the Initiative Roll',
      subtitle: `Player A’s chance to win the Initiative Roll, with player A’s Lieutenant’s WIP down the side and player B’s across the top (criticals ${crits ? 'on' : 'off'}). Player B’s chance is 100% less the cell.`,
      blocks: [
        {
          kind: 'chart',
          chart: {
            ...chart,
            id: 'infinity-wip-matrix',
            title: 'Player A wins the Initiative Roll',
            caption: `Read your WIP down the side and your opponent’s across the top: the cell is your chance to win. 50% on the diagonal, where the WIPs are equal.`,
          },
        },
      ],
      varied: ['wipA', 'wipB'],
    };
  },
};

/** The deployment a player names with --against, in the rule's own words. */
function parseAgainst(rule: Rule, text: string): string {
  const spec = findParam(rule, 'b');
  if (spec.type !== 'text') throw new Error('deployment: b is not a text parameter');
  try {
    return spec.parse(text);
  } catch (error) {
    if (error instanceof UsageError) throw badValue('--against', text, spec.allowed);
    throw error;
  }
}

const strategyLabel = (rule: Rule, value: ParamValue) => rule.matrix?.label?.(value) ?? String(value);

const deploymentCard: CardDesign = {
  accepts: { range: true, against: true },
  plan(rule, params, options) {
    const values = matrixValues(rule, params, options);
    if (options.against === undefined) return grid(rule, params, 'a', 'b', values);
    const against = parseAgainst(rule, options.against);
    return values.map((a) => resolveParams(rule, [], { ...params, a, b: against }));
  },
  layout(rule, params, options, results) {
    const values = matrixValues(rule, params, options);
    const key =
      'S123 is a standard deployment in zones 1, 2 and 3; F4 is a forward gamble from zone 4 with 2d6 for two more zones.';
    if (options.against === undefined) {
      const chart = matrixChart(
        rule,
        'a',
        'b',
        values,
        values,
        'a.initiative',
        evaluated(results),
        '',
        MATRIX_AXIS_TITLES.deployment,
        { width: PLOT.width, height: 360 },
      );
      const mine = values.map((_, i) => results[i * values.length]);
      const html = table(
        ['your deployment', 'reaches the Area of Conflict', 'no board-edge zone', 'zones held (expected)'],
        mine.map((result) => [
          strategyLabel(rule, result.params.a),
          figure(result, 'a.aoc'),
          figure(result, 'a.noEdge'),
          expectedZones(result),
        ]),
        (column) => column > 0,
      );
      return {
        title: 'Genesys deployment: who takes the first turn',
        subtitle:
          'Player A’s chance of the first-round initiative, with A’s deployment down the side and B’s across the top; and what each deployment risks, whatever the opponent does.',
        blocks: [
          {
            kind: 'chart',
            chart: {
              ...chart,
              id: 'deployment-strategy-matrix',
              title: 'Player A has the initiative in the first round',
              caption: `Lower zone total takes the initiative; equal totals roll off. ${key}`,
            },
          },
          {
            kind: 'table',
            id: 'deployment-risks',
            title: 'What each deployment risks',
            html,
            caption:
              'The same for either player: the chance of a zone in the Area of Conflict (7 or 8), of no zone with a board edge to bring reserves on by (which zones have one: the edges reading below), and the zones a forward gamble keeps.',
          },
        ],
        varied: ['a', 'b'],
      };
    }
    const against = parseAgainst(rule, options.against);
    const ranked = [...results].sort((x, y) => best(y, 'a.initiative') - best(x, 'a.initiative'));
    const points: IntervalPoint[] = present(
      ranked.map((result, rank) =>
        metricPoint(result, 'a.initiative', strategyLabel(rule, result.params.a), rank, true),
      ),
    );
    const html = table(
      ['rank', 'your deployment', 'initiative', 'roll-off', 'reaches the Area of Conflict', 'no board-edge zone'],
      ranked.map((result, rank) => [
        String(rank + 1),
        `${strategyLabel(rule, result.params.a)} (${String(result.params.a)})`,
        figure(result, 'a.initiative'),
        figure(result, 'rolloff'),
        figure(result, 'a.aoc'),
        figure(result, 'a.noEdge'),
      ]),
      (column) => column !== 1,
    );
    return {
      title: `Genesys deployment: your best answer to ${strategyLabel(rule, against)}`,
      subtitle: `Every deployment for player A against player B’s ${against}, best first: the chance of the first-round initiative, and what each risks.`,
      blocks: [
        {
          kind: 'chart',
          chart: {
            id: 'deployment-against',
            title: `Player A has the initiative against ${strategyLabel(rule, against)}`,
            caption: key,
            spec: intervalChart(points, {
              orientation: 'horizontal',
              categoryTitle: 'player A’s deployment',
              valueTitle: 'player A has the initiative',
              percent: true,
              bars: true,
              width: 480,
              step: 22,
            }),
          },
        },
        { kind: 'table', id: 'deployment-ranked', title: 'Ranked', html },
      ],
      varied: ['a', 'b'],
    };
  },
};

function best(result: RunResult, metric: string): number {
  const value = own(result.metrics, metric);
  return value ? bestOf(value) : Number.NaN;
}

function expectedZones(result: RunResult): string {
  const total = [1, 2, 3].reduce((sum, count) => sum + count * best(result, `a.zones.${count}`), 0);
  return Number.isFinite(total) ? total.toFixed(2) : '—';
}

function commandLevels(rule: Rule, options: CardOptions): number[] {
  if (options.range === undefined) return [...COMMAND_LEVELS];
  const spec = findParam(rule, 'command');
  const [min, max] = spec.type === 'integer' ? [spec.min, spec.max] : [0, 10];
  return withRangeHint(options.range, () => integerList('--range', options.range!, min, max, 4));
}

const reservesCard: CardDesign = {
  accepts: { range: true, against: false },
  plan: (rule, params, options) => arrivalGrid(rule, params, commandLevels(rule, options)),
  layout(rule, params, options, results) {
    const commands = commandLevels(rule, options);
    const [lines, tableChart] = arrivalCharts(params, results, commands, {
      width: SHEET.width - 60,
      lineHeight: 250,
      cellWidth: commands.length > 3 ? 30 : 42,
    });
    return {
      title: 'Genesys reserves: when will my squad arrive?',
      subtitle: `A given squad’s chance to be on the table by the end of each round, for each choice of reserve round, at each command level (${params.squads} squads, ${params.target}+ to arrive).`,
      blocks: [
        {
          kind: 'chart',
          chart: {
            ...lines,
            title: 'A squad on the table, by chosen reserve round',
            caption:
              'One line per chosen reserve round (the command bonus is added to every reserve roll in that round); one panel per command level.',
          },
        },
        {
          kind: 'chart',
          chart: {
            ...tableChart,
            title: 'The same odds as a table',
            caption: 'Rows: the chosen reserve round; columns: on the table by the end of that round.',
          },
        },
      ],
      varied: ['command', 'chosenRound'],
    };
  },
};

const fowCard: CardDesign = {
  accepts: { range: false, against: false },
  plan: (rule, params) => [resolveParams(rule, [], params)],
  layout(rule, _params, _options, [result]) {
    const onTable = onTableChart(view(rule, result), false);
    const allIn = allInChart(view(rule, result), false);
    const turns = Number(result.params.turns);
    const columns = Array.from({ length: turns }, (_, i) => i + 1);
    const row = (side: string, what: string, metric: (t: number) => string, probability: boolean) => [
      `${side}: ${what}`,
      ...columns.map((t) => figure(result, metric(t), probability)),
    ];
    const html = table(
      ['turn', ...columns.map(String)],
      ['attacker', 'defender'].flatMap((side) => [
        row(side, 'platoons on the table', (t) => `${side}.onTable.${t}.mean`, false),
        row(side, 'every reserve in', (t) => `${side}.allIn.by.${t}`, true),
      ]),
      (column) => column > 0,
    );
    return {
      title: 'Flames of War: reserves, turn by turn',
      subtitle: `Platoons on the table each turn for the attacker (${result.params.attackerReserves} of ${result.params.attackerPlatoons} in Reserves, rolling from turn ${result.params.attackerStart}) and the defender (${result.params.defenderReserves} of ${result.params.defenderPlatoons} in Delayed Reserves from turn ${result.params.defenderStart}${result.params.ambush ? ', one platoon in ambush' : ''}), and the chance all are in.`,
      blocks: chartBlocks(
        present([
          onTable && {
            ...onTable,
            spec: { ...onTable.spec, height: 165 },
            caption: `Expected platoons on the table after each side’s reserve roll; ${result.params.hit}+ brings a platoon.`,
          },
          allIn && {
            ...allIn,
            spec: { ...allIn.spec, height: 165 },
            caption: 'The chance that every one of a side’s reserves is on the table by each turn.',
          },
        ]),
      ).concat([
        {
          kind: 'table',
          id: 'fow-table',
          title: 'Turn by turn',
          html,
          caption: 'Platoons on the table: expected, after the side’s reserve roll that turn.',
        },
      ]),
    };
  },
};

const warbandsCard: CardDesign = {
  accepts: { range: false, against: false },
  plan: (rule, params) => [resolveParams(rule, [], params)],
  layout(rule, _params, _options, [result]) {
    const runView = view(rule, result);
    const bands = warbands(runView);
    const html = table(
      ['warband', 'rating:models', 'defends', 'underdog', 'sets up first', 'moves first'],
      bands.map((i) => [
        warbandLabel(runView, i).replace(/ \(rating \d+\)$/, ''),
        String(result.params.warbands).split(',')[i - 1] ?? '',
        figure(result, `w${i}.defender`),
        figure(result, `w${i}.underdog`),
        figure(result, `w${i}.setup.1`),
        figure(result, `w${i}.first`),
      ]),
      (column) => column > 1,
    );
    return {
      title: 'Mordheim: who defends, who is the underdog, who goes first',
      subtitle: `For the warbands ${String(result.params.warbands)} (rating:models, in seating order)${result.params.allies ? `, allies ${String(result.params.allies)}` : ''}: the defender, the underdog, the setup order and the first turn.`,
      blocks: [
        ...chartBlocks(present([whoChart(runView), setupOrderChart(runView)])),
        { kind: 'table', id: 'warbands-table', title: 'Every warband', html },
      ],
    };
  },
};

/** Noctvale's table axis: --range, else nine fighter counts around player A's. */
function fighterValues(rule: Rule, params: Params, options: CardOptions): number[] {
  const spec = findParam(rule, 'fightersA');
  const [min, max] = spec.type === 'integer' ? [spec.min, spec.max] : [1, 60];
  if (options.range !== undefined) return integerList('--range', options.range, min, max, 12);
  const from = Math.max(min, Math.min(max - 8, Number(params.fightersA) - 4));
  return Array.from({ length: 9 }, (_, i) => from + i);
}

const noctvaleCard: CardDesign = {
  accepts: { range: true, against: false },
  plan: (rule, params, options) => grid(rule, params, 'fightersA', 'fightersB', fighterValues(rule, params, options)),
  layout(rule, params, options, results) {
    const values = fighterValues(rule, params, options);
    const fit = { width: PLOT.width - 80, height: 300 };
    const initiative = matrixChart(
      rule,
      'fightersA',
      'fightersB',
      values,
      values,
      'a.initiative',
      evaluated(results),
      '',
      MATRIX_AXIS_TITLES.noctvale,
      fit,
    );
    const last = matrixChart(
      rule,
      'fightersA',
      'fightersB',
      values,
      values,
      'a.placesLast',
      evaluated(results),
      '',
      MATRIX_AXIS_TITLES.noctvale,
      fit,
    );
    return {
      title: 'Noctvale: initiative and who places last',
      subtitle: `Player A’s chances by fighter count, player A’s fighters down the side and player B’s across the top (${params.groups} deployment groups a side).`,
      blocks: [
        {
          kind: 'chart',
          chart: {
            ...initiative,
            id: 'noctvale-initiative',
            title: 'Player A has the initiative',
            caption: 'Fewer activations take the initiative; equal counts roll off on 2d6.',
          },
        },
        {
          kind: 'chart',
          chart: {
            ...last,
            id: 'noctvale-places-last',
            title: 'Player A places the last deployment group',
            caption:
              'Groups are placed alternately, the initiative player first, so the last group goes to whichever side still has one left.',
          },
        },
      ],
      varied: ['fightersA', 'fightersB'],
    };
  },
};

/** Any other rule (a user's rule file): its headline metrics at these parameters. */
const genericCard: CardDesign = {
  accepts: { range: false, against: false },
  plan: (rule, params) => [resolveParams(rule, [], params)],
  layout(rule, _params, _options, [result]) {
    const metrics = rule.metrics(result.params);
    const named = rule.headline?.(result.params) ?? [];
    const chosen =
      named.length > 0
        ? metrics.filter((metric) => named.includes(metric.name))
        : metrics.filter((metric) => metric.probability);
    const list = (chosen.length > 0 ? chosen : metrics).slice(0, 24);
    const probability = list.every((metric) => metric.probability);
    const points = present(
      list.map((metric, index) =>
        metricPoint(result, metric.name, metric.label ?? metric.name, index, metric.probability),
      ),
    );
    return {
      title: rule.title,
      subtitle: rule.summary,
      blocks: [
        {
          kind: 'chart',
          chart: {
            id: `${rule.id}-headline`.replace(/[^A-Za-z0-9.-]+/g, '-'),
            title: probability ? 'The odds' : 'The figures',
            caption:
              result.method === 'exact'
                ? 'Exact values.'
                : `● estimate with its ${percent(result.confidence, 0)} interval${points.some((p) => p.exact !== null) ? '; ◇ exact value' : ''}.`,
            spec: intervalChart(points, {
              orientation: 'horizontal',
              categoryTitle: '',
              valueTitle: probability ? 'probability' : 'value',
              percent: probability,
              bars: true,
              width: 420,
            }),
          },
        },
      ],
    };
  },
};

const DESIGNS: Readonly<Record<string, CardDesign>> = {
  infinity: infinityCard,
  deployment: deploymentCard,
  reserves: reservesCard,
  fow: fowCard,
  warbands: warbandsCard,
  noctvale: noctvaleCard,
};

const design = (rule: Rule): CardDesign => DESIGNS[rule.id] ?? genericCard;

/**
 * The parameter sets a card needs, in the order layoutCard expects their
 * results; checks --range and --against first (a UsageError naming them).
 */
export function planCard(rule: Rule, params: Params, options: CardOptions = {}): Params[] {
  const chosen = design(rule);
  if (options.range !== undefined && !chosen.accepts.range)
    throw new UsageError(
      `--range: the ${rule.id} card has no table axis to set; allowed: leave out --range (set parameters with --set)`,
    );
  if (options.against !== undefined && !chosen.accepts.against)
    throw new UsageError(
      `--against: the ${rule.id} card has no opponent strategy to fix; allowed: --against with the deployment card only`,
    );
  return chosen.plan(rule, params, options);
}

/** The card, from the results of planCard's parameter sets (exact or simulated). */
export function layoutCard(rule: Rule, params: Params, options: CardOptions, results: readonly RunResult[]): Card {
  const { varied = [], ...card } = design(rule).layout(rule, params, options, results);
  return { ...card, rule: rule.id, footer: footerLine(rule, params, varied, results, options) };
}

/** The rule text cited by game, edition and section, without the file name it is kept under. */
export function citation(rule: Rule): string {
  return rule.source.replace(/^\d{3}_[0-9a-f]+\.txt\s*/, '').replace(/^\((.*)\)$/, '$1') || rule.source;
}

/** "exact values" or "estimates with 95% intervals: 100,000 trials a point, seed "muster" (stream 3)". */
export function methodText(results: readonly RunResult[]): string {
  if (results.every((result) => result.method === 'exact')) return 'exact values (rational arithmetic, no simulation)';
  const first = results.find((result) => result.method === 'simulation') as RunResult;
  return `estimates with ${percent(first.confidence, 0)} intervals: ${formatCount(first.trials)} trials${results.length > 1 ? ' a point' : ''}, seed ${JSON.stringify(first.seed)} (stream ${first.stream})`;
}

function footerLine(
  rule: Rule,
  params: Params,
  varied: readonly string[],
  results: readonly RunResult[],
  options: CardOptions,
): string {
  const fixed = rule.params
    .filter((spec) => !varied.includes(spec.name))
    .map((spec) => `${spec.name}=${String(own(params, spec.name))}`);
  const readings = (rule.readings?.(params) ?? []).map((reading) => `${reading.param}: ${reading.text}`);
  const parts = [
    `${rule.title} — ${citation(rule)}`,
    fixed.length > 0 ? `parameters ${fixed.join(' ')}` : '',
    options.against !== undefined ? `against ${options.against}` : '',
    readings.length > 0 ? `readings: ${readings.join('; ')}` : '',
    methodText(results),
    commandLine(rule, params, varied, options),
  ];
  return parts.filter((part) => part !== '').join(' · ');
}

/** The command that makes this card again: only what differs from the defaults. */
function commandLine(rule: Rule, params: Params, varied: readonly string[], options: CardOptions): string {
  // Quoted as a shell reads them back, so the line can be pasted.
  const quote = shellWord;
  let defaults: Params = {};
  try {
    defaults = resolveParams(rule);
  } catch {
    // a rule whose defaults do not validate on their own: list every parameter
  }
  const sets = rule.params
    .filter((spec) => !varied.includes(spec.name) && own(params, spec.name) !== own(defaults, spec.name))
    .map((spec) => `--set ${quote(`${spec.name}=${String(own(params, spec.name))}`)}`);
  const extra = [
    options.range === undefined ? '' : `--range ${quote(options.range)}`,
    options.against === undefined ? '' : `--against ${quote(options.against)}`,
  ];
  return ['muster card', ruleWord(rule), ...sets, ...extra].filter((part) => part !== '').join(' ');
}

/**
 * The card's sheet: title, blocks (charts as .vis placeholders for vega-embed, in card.blocks order), footer. Every
 * text escaped.
 */
export function renderCardSheet(card: Card): string {
  const blocks = card.blocks.map((block) =>
    block.kind === 'chart'
      ? `<section class="block chart" id="${escapeHtml(block.chart.id)}"><h2>${escapeHtml(block.chart.title)}</h2><div class="vis" data-chart="${escapeHtml(block.chart.id)}" role="img" aria-label="${escapeHtml(block.chart.title)}"></div>${block.chart.caption ? `<p class="caption">${escapeHtml(block.chart.caption)}</p>` : ''}</section>`
      : `<section class="block table" id="${escapeHtml(block.id)}"><h2>${escapeHtml(block.title)}</h2>${block.html}${block.caption ? `<p class="caption">${escapeHtml(block.caption)}</p>` : ''}</section>`,
  );
  return `<article class="card" data-rule="${escapeHtml(card.rule)}"><header><h1>${escapeHtml(card.title)}</h1><p class="subtitle">${escapeHtml(card.subtitle)}</p></header>${blocks.join('')}<footer class="card-footer">${escapeHtml(card.footer)}</footer></article>`;
}

/** The charts of a card, in the order their placeholders appear. */
export function cardCharts(card: Card): Chart[] {
  return card.blocks.flatMap((block) => (block.kind === 'chart' ? [block.chart] : []));
}

/**
 * The rules for the sheet itself (.card and below), shared by the card's own page and the calculator's printed card.
 */
export function cardSheetStyle(): string {
  return `
.card { width: ${SHEET.width}px; margin: 16px auto; background: white; padding: 14px 16px; display: flex; flex-direction: column; gap: 8px; }
.card header h1 { margin: 0; font-size: 21px; line-height: 1.2; }
.card .subtitle { margin: 3px 0 0; color: #3d4652; font-size: 12.5px; }
.card h2 { margin: 0 0 2px; font-size: 14px; }
.card .block { break-inside: avoid; }
.card .vis { overflow: hidden; }
.card .vis svg { max-width: 100%; height: auto; display: block; }
.card .caption { margin: 2px 0 0; color: #4b5461; font-size: 11px; }
.card table { border-collapse: collapse; width: 100%; font-size: 11px; table-layout: auto; }
.card th, .card td { padding: 2px 6px; border-bottom: 1px solid #d9dde3; text-align: left; vertical-align: top; }
.card th { background: #f3f6fa; font-weight: 600; }
.card .num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.card-footer { margin-top: 4px; padding-top: 5px; border-top: 1px solid #d9dde3; color: #4b5461; font-size: 9px; line-height: 1.3; overflow-wrap: anywhere; }
`;
}

/** The card's CSS: one sheet of the paper chosen, on screen as on paper. */
export function cardStyle(paper: Paper): string {
  const size = paper === 'letter' ? 'letter' : 'A4';
  return `
@page { size: ${size} portrait; margin: 10mm; }
:root { color-scheme: light; }
* { box-sizing: border-box; }
html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
body { margin: 0; background: #eef1f5; color: #1d232b; font: 13px/1.35 Helvetica, Arial, sans-serif; }
${cardSheetStyle()}.chart-error { color: #8a1c1c; }
.card { zoom: var(--fit-zoom, 1); }
/* A phone shows the card a column wide: blocks scroll inside themselves, chart text stays legible (./legible.ts). */
@media screen and (max-width: ${SHEET.width + 31}px) {
  html:not(.sheet-measure) .card { width: auto; margin: 0; zoom: 1; }
  html:not(.sheet-measure) .card .block { overflow-x: auto; }
  html:not(.sheet-measure) .card .vis { overflow: visible; }
  html:not(.sheet-measure) .card .vis svg { width: var(--legible-width, auto); max-width: none; }
  html:not(.sheet-measure) .card-footer { font-size: 11px; }
}
@media print {
  body { background: white; }
  .card { margin: 0; padding: 0; }
}
`;
}
