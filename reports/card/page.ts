/**
 * A card as one self-contained HTML file: the sheet (./layout.ts), vega
 * inlined, and the same Content-Security-Policy as every report (scripts by
 * hash, no network), so it opens offline and prints as one page.
 */
import { narrowSpec } from '../charts/narrow.js';
import { jsonForScript } from '../escape.js';
import { BOOT_SCRIPT, chartPageHead } from '../page.js';
import { type Card, cardCharts, cardStyle, type Paper, renderCardSheet, SHEET } from './layout.js';
import { LEAST_TEXT_PX, legibleSvg } from './legible.js';

/**
 * Once the charts are drawn, a card taller than the sheet (a long footer of
 * readings, many warbands) is zoomed to fit it, so it always prints on one
 * page; `window.musterCharts` settles after this, so printing waits for it.
 * It is measured as the sheet lays it out (html.sheet-measure), even on a
 * phone, whose screen shows the card a column wide instead (cardStyle), each
 * chart at a width where its text is legible (./legible.ts).
 */
const FIT_SCRIPT =
  `(function () {
  var legibleSvg = ${legibleSvg.toString()};
  window.musterCharts = window.musterCharts.then(function (views) {
    var svgs = document.querySelectorAll('.card .vis svg');
    for (var index = 0; index < svgs.length; index++) legibleSvg(svgs[index], ${LEAST_TEXT_PX});
    var card = document.querySelector('.card');
    var padding = 28;
    document.documentElement.classList.add('sheet-measure');
    var height = card.getBoundingClientRect().height - padding;
    document.documentElement.classList.remove('sheet-measure');
    if (height > ${SHEET.height}) card.style.setProperty('--fit-zoom', String(Math.floor((${SHEET.height} / ` +
  `height) * 1000) / 1000));
    return views;
  });
})();`;

/**
 * A phone's screen: the card is a column about 340 px wide (375 less the sheet's padding), and each chart is drawn
 * laid out for it (../charts/narrow.ts), as the calculator does; wider screens and paper keep the sheet's charts.
 */
const PHONE = { media: 'screen and (max-width: 400px)', column: 340 } as const;

export function renderCardPage(card: Card, paper: Paper): string {
  const charts = cardCharts(card);
  return (
    `${chartPageHead(card.title, cardStyle(paper), charts.length > 0, [BOOT_SCRIPT, FIT_SCRIPT])}
<body>
${renderCardSheet(card)}
<script type="application/json" ` +
    `id="muster-charts">${jsonForScript(
      charts.map((chart) => ({
        id: chart.id,
        spec: chart.spec,
        narrow: { media: PHONE.media, spec: narrowSpec(chart.spec, PHONE.column) },
      })),
    )}</script>
<script>${BOOT_SCRIPT}</script>
<script>${FIT_SCRIPT}</script>
</body>
</html>
`
  );
}
