/**
 * The look of "Which value?" (./which-value.ts): below the form and the answer, its fields two to a row on a wide
 * screen and one on a phone, its map table scrolling inside its own box (never the page), and left off paper (the
 * printed card is the answer's).
 */
export const WHICH_VALUE_STYLE =
  `
.which-value { margin-top: 12px; }
.which-value h2 { margin: 0 0 4px; font-size: 18px; }
.which-fields { display: grid; grid-template-columns: minmax(0, 1fr); column-gap: 18px; }
@media (min-width: 700px) { .which-fields { grid-template-columns: repeat(2, minmax(0, 1fr)); } }
.which-fields .control { display: flex; flex-wrap: wrap; gap: 4px 8px; align-items: center; }
.which-fields .control label { min-width: 7em; font-weight: 600; }
.which-fields .control input, .which-fields .control select { flex: 1 1 9em; min-width: 0; max-width: 100%; }
.which-words p { margin: 8px 0; }
.which-words ul { margin: 4px 0; padding-left: 20px; font-size: 13px; }
.which-words, .which-command { overflow-wrap: anywhere; }
.which-status progress { width: 100%; }
table.which-map { width: auto; min-width: 50%; }
table.which-map td { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
table.which-map caption { caption-side: bottom; text-align: left; color: var(--muted); font-size: 12px; padding-top: ` +
  `4px; }
@media print { .which-value { display: none !important; } }
`;
