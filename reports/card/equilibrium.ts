/**
 * A card's block for `muster card <rule> --equilibrium`: each side's optimal mix over the matrix (the options it
 * plays, with their chances as fractions), the value of the game and the answer in words, printed beside the
 * card's charts.
 */
import type { MatrixEquilibrium } from '../../src/analysis/matrix.js';
import { type CardBlock, table } from '../present/cards.js';

export function equilibriumBlock(equilibrium: MatrixEquilibrium, row: string, col: string): CardBlock {
  const played = (side: string, options: MatrixEquilibrium['rows']) =>
    options
      .filter((option) => option.fraction !== '0')
      .map((option) => [side, option.label, `${(option.chance * 100).toFixed(1)}%`, option.fraction]);
  return {
    kind: 'table',
    id: 'equilibrium',
    title: `Both choose at once: the best mix on ${equilibrium.objective}`,
    html: table(
      ['side', 'plays', 'chance', 'exact'],
      [...played(`${row} (raises it)`, equilibrium.rows), ...played(`${col} (lowers it)`, equilibrium.cols)],
      (column) => column >= 2,
    ),
    caption: `Value of the game ${equilibrium.value.exact.toFixed(4)} = ${equilibrium.value.fraction}. ${equilibrium.summary.join(' ')}`,
  };
}
