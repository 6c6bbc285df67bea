/**
 * `muster sweep reserves --set chosenRound=call --vary … --csv F --html F`: the call sweep's table as CSV (one row a
 * point, RFC 4180 through ./csv.ts, user text safe) and as a page (./page.ts: offline, printable) with one chart, the
 * objective under best play (called in play) and with the best round declared before the game, over the first varied
 * parameter (the others, if any, one line each).
 */
import type { CallSweepResult } from '../src/analysis/reserves-call-sweep.js';
import type { Rule } from '../src/contract/types.js';
import { own } from '../src/keyed.js';
import type { Chart, VegaLiteSpec } from './charts/chart.js';
import { csvLine } from './csv.js';
import { escapeHtml } from './escape.js';
import { type ParamRow, renderPage } from './page.js';
import { htmlSection } from './tables.js';

/** The sweep's table, a row a point: the varied values, then the objective in play and declared, and the worth. */
export function callSweepCsv(sweep: CallSweepResult): string {
  const names = sweep.vary.map((vary) => vary.name);
  let text = csvLine([
    ...names,
    'objective',
    'in_play',
    'in_play_fraction',
    'best_round',
    'declared',
    'declared_fraction',
    'worth',
    'worth_fraction',
  ]);
  for (const point of sweep.points) {
    const { call } = point;
    text += csvLine([
      ...names.map((name) => own(point.params, name) ?? null),
      call.objective,
      call.best.exact,
      call.best.fraction,
      call.bestFixed.chosenRound,
      call.bestFixed.value.exact,
      call.bestFixed.value.fraction,
      call.worth.exact,
      call.worth.fraction,
    ]);
  }
  return text;
}

/** What the chart and table show of a point: each varied value as text. */
function valueText(point: CallSweepResult['points'][number], name: string): string {
  return String(own(point.params, name));
}

/** The objective in play and declared over the first varied parameter; the other varied ones as separate lines. */
function callSweepChart(sweep: CallSweepResult): Chart {
  const [first, ...rest] = sweep.vary.map((vary) => vary.name);
  const numeric = sweep.vary[0].values.every((value) => typeof value === 'number');
  const lineOf = (point: CallSweepResult['points'][number]) =>
    rest.map((name) => `${name}=${valueText(point, name)}`).join(' ');
  const values = sweep.points.flatMap((point) => [
    { x: own(point.params, first), line: lineOf(point), play: 'called in play', value: point.call.best.exact },
    {
      x: own(point.params, first),
      line: lineOf(point),
      play: 'best round declared',
      value: point.call.bestFixed.value.exact,
    },
  ]);
  const spec: VegaLiteSpec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    width: 560,
    height: 260,
    data: { values },
    mark: { type: 'line', point: true },
    encoding: {
      x: { field: 'x', type: numeric ? 'quantitative' : 'ordinal', title: first },
      y: { field: 'value', type: 'quantitative', title: sweep.objective, scale: { zero: false } },
      color: { field: 'play', type: 'nominal', title: null, legend: { orient: 'bottom' } },
      strokeDash: { field: 'play', type: 'nominal', title: null, legend: { orient: 'bottom' } },
      ...(rest.length > 0 ? { detail: { field: 'line', type: 'nominal' } } : {}),
      tooltip: [
        { field: 'x', title: first },
        ...(rest.length > 0 ? [{ field: 'line', title: rest.join(', ') }] : []),
        { field: 'play', title: 'play' },
        { field: 'value', title: sweep.objective, format: '.6f' },
      ],
    },
  };
  return {
    id: 'call-sweep',
    title: `${sweep.objective}: called in play against the best round declared`,
    caption:
      `At each point, ${sweep.objective} under best play when the chosen round is called in play (solid), and with ` +
      'the best round declared before the game (dashed); the gap is what calling in play is worth.' +
      (rest.length > 0 ? ` One pair of lines for each value of ${rest.join(', ')}.` : ''),
    spec,
  };
}

/** Every point: the varied values, the objective in play, the best round declared and its value, the worth. */
function callSweepTable(sweep: CallSweepResult): string {
  const names = sweep.vary.map((vary) => vary.name);
  const head = [...names, 'in play', 'best round', 'declared', 'worth'].map(
    (name, index) => `<th${index < names.length ? '' : ' class="num"'}>${escapeHtml(name)}</th>`,
  );
  const rows = sweep.points.map((point) => {
    const { call } = point;
    const cells = [
      ...names.map((name) => `<td class="name">${escapeHtml(valueText(point, name))}</td>`),
      `<td class="num" title="${escapeHtml(call.best.fraction)}">${call.best.exact.toFixed(6)}</td>`,
      `<td class="num">${call.bestFixed.chosenRound === 0 ? 'none' : call.bestFixed.chosenRound}</td>`,
      `<td class="num" title="${escapeHtml(call.bestFixed.value.fraction)}">${call.bestFixed.value.exact.toFixed(6)}</td>`,
      `<td class="num" title="${escapeHtml(call.worth.fraction)}">${call.worth.exact >= 0 ? '+' : ''}${call.worth.exact.toFixed(6)}</td>`,
    ];
    return `<tr>${cells.join('')}</tr>`;
  });
  return `<table><thead><tr>${head.join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** The call sweep's page: the chart, then every point. */
export function callSweepPage(rule: Rule, sweep: CallSweepResult): { html: string; charts: Chart[] } {
  const chart = callSweepChart(sweep);
  const varied = new Set(sweep.vary.map((vary) => vary.name));
  const params: ParamRow[] = rule.params.map((spec) => {
    const vary = sweep.vary.find((v) => v.name === spec.name);
    return {
      name: spec.name,
      value: vary ? vary.values.map(String).join(' | ') : String(own(sweep.params, spec.name)),
      doc: spec.doc,
      varied: varied.has(spec.name),
    };
  });
  const html = renderPage({
    exactOnly: true,
    title: `${rule.title}: when to call the chosen round, swept`,
    kicker: 'muster · parameter sweep · best play',
    summary:
      `The chosen reserve round called in play, solved exactly at each of ${sweep.points.length} points for ` +
      `${sweep.objective}, against the best round declared before the game.`,
    facts: [
      ['rule', `${rule.id} — ${rule.title}`],
      ['rule text', rule.source],
      ['method', 'exact values under best play (no simulation)'],
      ['objective', sweep.objective],
      ['points', String(sweep.points.length)],
    ],
    params,
    printHeader:
      `muster sweep · ${rule.id} · chosenRound=call · ` +
      `${sweep.vary.map((v) => `${v.name}=${v.values.map(String).join('|')}`).join(' ')} · exact`,
    sections: [
      { kind: 'chart', chart },
      {
        kind: 'html',
        html: htmlSection(
          'points',
          'Every point',
          callSweepTable(sweep),
          'Hover a figure for its exact fraction; the JSON and CSV outputs hold them, and the JSON every metric ' +
            'under best play at every point.',
        ),
      },
    ],
  });
  return { html, charts: [chart] };
}
