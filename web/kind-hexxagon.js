// Hexxagon: a hexagon of cells (kinds.js pairs this with the server's description). A new game
// may take the classic blocked cells.

import { HexBoard } from './hexboard.js';
import { hexDistance, parseHexFen } from './position.js';

export default {
  Board: HexBoard,
  parse: parseHexFen,
  cells: (pos) => [...pos.cells],
  distance: hexDistance,
  example: 'e5 or a1c3',
  sizeLabel: (n) => `${n} cells a side`,
  fields: '<label><input type="checkbox" name="classic"> Classic blocks (e4, f6, d5; 5 cells a side)</label>',
  readOptions: (form) => (form.classic.checked ? { blocks: 'classic' } : {}),
};
