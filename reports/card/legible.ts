/// <reference lib="dom" />
/**
 * Chart text a phone can read. A Vega chart is drawn at its own size and
 * the page shrinks its SVG to the column, so on a 375-px phone its labels
 * fall to 6–8 px. Instead each chart gets, on screen, the width at which
 * its smallest text is LEAST_TEXT_PX, never less than its own: a chart
 * wider than the column scrolls inside its box, the page never sideways.
 * Paper keeps the sheet's own sizes (the width is a CSS variable that only
 * the screen rules read).
 */

/** The smallest chart text on screen, in CSS pixels. */
export const LEAST_TEXT_PX = 11;

/**
 * Sets `--legible-width` on a chart's SVG. Plain and self-contained, so the
 * card page inlines its source (`legibleSvg.toString()`) as well as the
 * calculator bundling it.
 */
export function legibleSvg(svg: SVGSVGElement, least: number): void {
  const width = parseFloat(svg.getAttribute('width') || '');
  if (!(width > 0)) return;
  let smallest = Infinity;
  const texts = svg.querySelectorAll('text');
  for (let index = 0; index < texts.length; index++) {
    const text = texts[index];
    if (!(text.textContent || '').trim()) continue;
    const size = parseFloat(text.getAttribute('font-size') || getComputedStyle(text).fontSize);
    if (size > 0 && size < smallest) smallest = size;
  }
  const scale = smallest < least ? least / smallest : 1;
  svg.style.setProperty('--legible-width', `${Math.ceil(width * scale)}px`);
}
