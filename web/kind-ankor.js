// Ankor: cubes on a pyramid (kinds.js pairs this with the server's description). Its moves place
// or move cubes, it has no single steps or jumps, and a new game may set its win height.

import { AnkorBoard } from './ankorboard.js';
import { parseAnkor } from './position.js';

export default {
  Board: AnkorBoard,
  parse: parseAnkor,
  cells: (pos) => pos.cells.map((c) => [c.label, c.cube]),
  cubes: true,
  example: "d3 or d3-f4'",
  sizeLabel: (n) => `${n} holes a side`,
  fields: `<label>Win height <select name="win_height">
    <option value="1">1: a tip of each side (default)</option><option value="0">0: the board's edges only</option><option value="-1">−1: any level</option>
  </select></label>`,
  readOptions: (form) => (form.win_height.value !== '1' ? { win_height: form.win_height.value } : {}),
};
