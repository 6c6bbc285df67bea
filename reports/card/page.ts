/**
 * A card as one self-contained HTML file: the sheet (./layout.ts), vega
 * inlined, and the same Content-Security-Policy as every report (scripts by
 * hash, no network), so it opens offline and prints as one page.
 */
import { jsonForScript } from '../escape.js';
import { BOOT_SCRIPT, chartPageHead } from '../page.js';
import { cardCharts, cardStyle, renderCardSheet, SHEET, type Card, type Paper } from './layout.js';

/**
 * Once the charts are drawn, a card taller than the sheet (a long footer of
 * readings, many warbands) is zoomed to fit it, so it always prints on one
 * page; `window.musterCharts` settles after this, so printing waits for it.
 */
const FIT_SCRIPT = `(function () {
  window.musterCharts = window.musterCharts.then(function (views) {
    var card = document.querySelector('.card');
    var padding = 28;
    var height = card.getBoundingClientRect().height - padding;
    if (height > ${SHEET.height}) card.style.zoom = String(Math.floor((${SHEET.height} / height) * 1000) / 1000);
    return views;
  });
})();`;

export function renderCardPage(card: Card, paper: Paper): string {
  const charts = cardCharts(card);
  return `${chartPageHead(card.title, cardStyle(paper), charts.length > 0, [BOOT_SCRIPT, FIT_SCRIPT])}
<body>
${renderCardSheet(card)}
<script type="application/json" id="muster-charts">${jsonForScript(charts.map((chart) => ({ id: chart.id, spec: chart.spec })))}</script>
<script>${BOOT_SCRIPT}</script>
<script>${FIT_SCRIPT}</script>
</body>
</html>
`;
}
