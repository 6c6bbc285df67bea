import { cardSheetStyle } from '../../reports/card/layout.js';
import { WHICH_VALUE_STYLE } from './which-value-style.js';

/**
 * The calculator's look: one column on a phone (375 px and up), the form
 * beside the answer on a wide screen, visible focus for keyboard use, and
 * for paper the odds card (issue 13's layout, drawn off screen by the print
 * button, zoomed to one sheet, and on its own once an answer has stood for
 * a moment, so the browser's own print command prints it too). Printed
 * before the card is ready, the page falls back to a layout of its own:
 * the headline figures, the first chart, the readings.
 */
export const APP_STYLE =
  `
:root { color-scheme: light; --ink: #1d232b; --muted: #5b6470; --rule: #d9dde3; --accent: #1f4e79; --band: ` +
  `#f3f6fa; --bad: #8a1c1c; }
* { box-sizing: border-box; }
html { -webkit-print-color-adjust: exact; print-color-adjust: exact; -webkit-text-size-adjust: 100%; }
body { margin: 0; background: #eef1f5; color: var(--ink); font: 15px/1.45 Helvetica, Arial, sans-serif; }
.sheet { max-width: 1240px; margin: 0 auto; padding: 12px; }
header.top { padding: 4px 4px 10px; }
.kicker { margin: 0; color: var(--muted); font-size: 12px; letter-spacing: .06em; text-transform: uppercase; }
h1 { margin: 2px 0 4px; font-size: 22px; line-height: 1.2; }
.lead { margin: 0; color: var(--muted); font-size: 13px; max-width: 760px; }
.layout { display: grid; grid-template-columns: minmax(0, 1fr); gap: 12px; }
@media (min-width: 900px) { .layout { grid-template-columns: 340px minmax(0, 1fr); align-items: start; } #controls ` +
  `{ position: sticky; top: 8px; max-height: calc(100vh - 16px); overflow-y: auto; } }
.panel { background: white; border-radius: 6px; box-shadow: 0 1px 3px rgba(0,0,0,.12); padding: 14px 16px; ` +
  `min-width: 0; }
fieldset { border: 0; padding: 0; margin: 12px 0 0; min-width: 0; }
legend { font-weight: 600; font-size: 14px; padding: 0; margin-bottom: 4px; }
.field { padding: 8px 0; border-top: 1px solid var(--rule); }
.control { display: flex; flex-wrap: wrap; align-items: center; gap: 4px 10px; }
.control label { font-family: Menlo, Consolas, monospace; font-size: 13px; font-weight: 600; min-width: 7.5em; }
.field-boolean .control label { min-width: 0; }
.hint { color: var(--muted); font-size: 12px; flex-basis: 100%; }
.field-integer .hint, .field-number .hint { flex-basis: auto; }
input[type=number] { width: 7em; }
input[type=text], select { width: 100%; max-width: 100%; }
.field-choice select { width: auto; }
input, select, button { font: inherit; font-size: 16px; padding: 5px 7px; border: 1px solid #9aa3ad; ` +
  `border-radius: 4px; background: white; color: var(--ink); }
input[type=checkbox] { width: 20px; height: 20px; margin: 0; }
input[aria-invalid=true], select[aria-invalid=true] { border-color: var(--bad); box-shadow: 0 0 0 1px var(--bad); }
:focus-visible { outline: 3px solid #e69f00; outline-offset: 2px; }
button { background: var(--accent); color: white; border-color: var(--accent); cursor: pointer; }
.doc { margin: 4px 0 0; color: var(--muted); font-size: 12.5px; }
.error { margin: 4px 0 0; color: var(--bad); font-size: 13px; font-weight: 600; overflow-wrap: anywhere; }
#rule-picker { width: 100%; }
#rule-field label { font-weight: 600; display: block; margin-bottom: 4px; }
details { margin-top: 12px; border-top: 1px solid var(--rule); padding-top: 8px; }
summary { font-weight: 600; font-size: 14px; cursor: pointer; }
h2 { font-size: 19px; margin: 0 0 2px; }
h3 { font-size: 15px; margin: 16px 0 4px; }
.params-line { margin: 0; font-family: Menlo, Consolas, monospace; font-size: 12px; color: var(--muted); ` +
  `overflow-wrap: anywhere; }
.method { margin: 4px 0 0; font-size: 13px; color: var(--muted); }
.blocked { margin: 12px 0; padding: 10px 12px; background: #fdf0f0; border-left: 4px solid var(--bad); color: ` +
  `var(--bad); font-weight: 600; }
#status progress { width: 100%; height: 14px; }
.progress-label { display: block; font-size: 13px; margin: 10px 0 2px; }
#charts.pending { opacity: 0.35; }
.headline { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 10px; margin: 12px 0 ` +
  `4px; }
.figure { background: var(--band); border-radius: 6px; padding: 10px 12px; min-width: 0; }
.figure p { margin: 0; }
.figure-label { font-size: 13px; font-weight: 600; overflow-wrap: anywhere; }
.figure-value { font-size: 28px; font-weight: 700; color: var(--accent); font-variant-numeric: tabular-nums; ` +
  `line-height: 1.2; }
.figure-sub { font-size: 12px; color: var(--ink); font-variant-numeric: tabular-nums; overflow-wrap: anywhere; }
.figure-doc { font-size: 12px; color: var(--muted); margin-top: 4px !important; }
/* A rule that names many headline figures (a series, turn by turn) gets small cards; the table says what each means. */
.headline.many { grid-template-columns: repeat(auto-fill, minmax(118px, 1fr)); gap: 6px; }
.headline.many .figure { padding: 6px 8px; }
.headline.many .figure-value { font-size: 19px; }
.headline.many .figure-doc { display: none; }
.figure-more { grid-column: 1 / -1; margin: 0; font-size: 12.5px; color: var(--muted); }
section.chart { margin-top: 14px; }
.vis { margin-top: 6px; min-height: 40px; overflow-x: auto; }
.vis svg { max-width: 100%; height: auto; }
/* In the one-column layout (a phone) a chart is never shrunk below legible text (11 px, reports/card/legible.ts): ` +
  `a wide
   one scrolls in its box. Two columns wide, a chart fits its column, shrunk a little if it must. */
@media screen and (max-width: 899px) { .sheet .vis { display: block; max-width: 100%; } .sheet .vis svg { width: ` +
  `var(--legible-width, auto); max-width: none; } }
.bench-bar { display: flex; flex-wrap: wrap; gap: 6px 8px; align-items: center; margin: 10px 0 4px; }
.bench-bar select { width: auto; max-width: 100%; flex: 1 1 10em; }
.bench-bar label { font-weight: 600; }
#editor .code { display: flex; border: 1px solid var(--rule); border-radius: 4px; max-width: 100%; height: 18em; ` +
  `overflow: hidden; background: white; }
#gutter { margin: 0; padding: 6px 6px 6px 4px; min-width: 2.2em; text-align: right; color: var(--muted); ` +
  `background: var(--band); overflow: hidden; user-select: none; }
#gutter, #rule-source { font: 13px/1.45 Menlo, Consolas, monospace; }
#rule-source { flex: 1 1 auto; min-width: 0; margin: 0; padding: 6px; border: 0; resize: none; white-space: pre; ` +
  `overflow: auto; tab-size: 2; }
#gate { margin: 8px 0; padding: 8px 10px; background: #fff7e0; border-left: 4px solid #c08a00; font-size: 13px; }
#gate p { margin: 0 0 6px; }
#share-box input { width: 100%; display: block; font: 12px Menlo, Consolas, monospace; }
#open-file { position: absolute; width: 1px; height: 1px; opacity: 0; }
.file-button { display: inline-block; padding: 4px 10px; border: 1px solid var(--accent); border-radius: 4px; ` +
  `color: var(--accent); cursor: pointer; font-weight: 400 !important; }
.caption { margin: 4px 0 0; color: var(--muted); font-size: 12.5px; }
.chart-error { color: var(--bad); }
#readings ul { margin: 4px 0; padding-left: 20px; font-size: 13px; }
span.name, td.name { font-family: Menlo, Consolas, monospace; font-size: 12px; }
.table-scroll { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; font-size: 12.5px; }
th, td { padding: 4px 8px; border-bottom: 1px solid var(--rule); vertical-align: top; text-align: left; }
th { font-weight: 600; background: var(--band); }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.doc { color: var(--muted); min-width: 12em; }
.fraction { display: block; color: var(--muted); font-size: 11px; }
.actions { margin-top: 16px; display: flex; flex-wrap: wrap; gap: 10px; align-items: center; }
.print-only { display: none; overflow-wrap: anywhere; }
.sheet > footer { margin: 14px 4px; color: var(--muted); font-size: 12px; }
#quick { display: none; }
/* The printed card: laid out off screen at the sheet's width (so it can be measured and zoomed to fit), shown ` +
  `only on paper. */
#print-card { position: absolute; left: -10000px; top: 0; visibility: hidden; color: #1d232b; font: 13px/1.35 ` +
  `Helvetica, Arial, sans-serif; }
${cardSheetStyle()}#print-card .card-link { margin: 0; color: #4b5461; font-size: 9px; overflow-wrap: anywhere; }
@media (max-width: 899px) {
  /* On a phone the form comes first: the headline figures stay in view at the foot of the screen while a field ` +
  `changes. */
  #quick:not(:empty) { display: flex; flex-wrap: wrap; gap: 2px 14px; position: fixed; left: 0; right: 0; bottom: ` +
  `0; z-index: 5; padding: 6px 12px; background: var(--accent); color: white; font-size: 14px; box-shadow: 0 -1px ` +
  `4px rgba(0,0,0,.25); }
  #quick b { font-variant-numeric: tabular-nums; }
  body { padding-bottom: 64px; }
}
@media (max-width: 480px) {
  .sheet { padding: 6px; }
  .panel { padding: 12px 12px; }
  .figure-value { font-size: 24px; }
  table.metrics th:nth-child(2), td.doc { display: none; }
}
@page { size: auto; margin: 10mm; }
@media print {
  body { background: white; font-size: 10pt; }
  .sheet { max-width: none; padding: 0; }
  .layout { display: block; }
  .panel { box-shadow: none; padding: 0; }
  body.card-ready .sheet, body.card-ready #quick { display: none !important; }
  body.card-ready { background: white; }
  body.card-ready #print-card { position: static; visibility: visible; }
  body:not(.card-ready) #print-card { display: none; }
  #print-card .card { margin: 0; padding: 0; }
  #controls, #workbench, .actions button, #metrics:not(.fits-card), .sheet > footer, header.top .lead, #quick { ` +
  `display: none !important; }
  #metrics { break-inside: avoid; }
  #metrics h3 { margin-top: 8px; }
  table.metrics { font-size: 8pt; width: auto; }
  table.metrics th, table.metrics td { padding: 1px 8px; }
  table.metrics th:nth-child(2), table.metrics td.doc { display: none; }
  table.metrics .fraction { display: inline; margin-left: 8px; font-size: 7.5pt; }
  body { padding-bottom: 0; }
  .print-only { display: block; }
  .sheet section.chart ~ section.chart { display: none; }
  .headline { grid-template-columns: repeat(3, 1fr); }
  .headline.many { grid-template-columns: repeat(6, 1fr); }
  .headline.many .figure-value { font-size: 13pt; }
  .figure { break-inside: avoid; }
  .sheet .vis svg { max-height: 65mm; width: auto; }
  .figure-doc { display: none; }
  /* Metric labels in players' words run to several lines in a third of a page: smaller on paper, so the fallback ` +
  `stays one sheet. */
  .figure-label { font-size: 8pt; }
  .figure { padding: 6px 10px; }
  .params-line, .method, .sheet .caption { font-size: 7.5pt; }
  #readings h3 { margin-top: 8px; }
  #readings ul { font-size: 7.5pt; margin: 2px 0; }
  .sheet section.chart { margin-top: 8px; }
  .sheet section.chart, #readings { break-inside: avoid; }
}
${WHICH_VALUE_STYLE}`;
