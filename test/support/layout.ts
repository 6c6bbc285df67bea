/**
 * A layout check that runs inside a report or card in the browser (pass it to
 * playwright's page.evaluate; it must stay self-contained).
 */

/** What the page itself finds wrong with its layout. */
export interface LayoutProblems {
  charts: number;
  textMarks: number;
  overlaps: string[];
  escaped: string[];
  overflowing: string[];
}

/**
 * Runs in the page: every visible text of every chart's SVG, compared pairwise
 * by bounding box (0.5 px of slack for antialiasing); every text mark whose
 * centre sits in a bar or cell must lie within it; every table cell's text
 * must fit its cell.
 */
export function inspect(): LayoutProblems {
  const slack = 0.5;
  const boxes: Array<{ text: string; box: DOMRect }> = [];
  const overlaps: string[] = [];
  const escaped: string[] = [];
  const visible = (box: DOMRect) => box.width > 0 && box.height > 0;
  for (const vis of document.querySelectorAll('.vis')) {
    const texts = [...vis.querySelectorAll('svg text')].filter((node) => (node.textContent ?? '').trim() !== '');
    const rects = [...vis.querySelectorAll('svg .mark-rect path')]
      .map((node) => node.getBoundingClientRect())
      .filter(visible);
    for (const node of texts) {
      const box = node.getBoundingClientRect();
      if (!visible(box)) continue;
      boxes.push({ text: node.textContent ?? '', box });
      if (!node.closest('.mark-text')) continue;
      const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];
      const host = rects.find((rect) => cx >= rect.left && cx <= rect.right && cy >= rect.top && cy <= rect.bottom);
      if (
        host &&
        (box.left < host.left - slack ||
          box.right > host.right + slack ||
          box.top < host.top - slack ||
          box.bottom > host.bottom + slack)
      ) {
        escaped.push(`"${node.textContent}" leaves its mark`);
      }
    }
  }
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, b] = [boxes[i].box, boxes[j].box];
      const overlapX = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const overlapY = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (overlapX > slack && overlapY > slack) overlaps.push(`"${boxes[i].text}" overlaps "${boxes[j].text}"`);
    }
  }
  const overflowing = [...document.querySelectorAll('.card td, .card th')]
    .filter((cell) => (cell as HTMLElement).scrollWidth > (cell as HTMLElement).clientWidth + 1)
    .map((cell) => `cell "${cell.textContent}" overflows`);
  return {
    charts: document.querySelectorAll('.vis svg').length,
    textMarks: boxes.length,
    overlaps,
    escaped,
    overflowing,
  };
}
