// The Hexxagon board: a hexagon of n cells a side, pointy-top cells in horizontal rows
// (docs/hexxagon.md): cell (x, y) has the neighbours (x ± 1, y), (x, y ± 1), (x + 1, y + 1) and
// (x − 1, y − 1). Pieces, marks and animations are those of every board of cells.

import { CellBoard } from './board.js';
import { parseSquare } from './position.js';

/** Centre distance of two cells of a row. */
const STEP = 100;
const ROW = STEP * Math.sqrt(3) / 2;
/** Circumradius of a cell, a hair under touching. */
const RADIUS = STEP / Math.sqrt(3) - 2;

export class HexBoard extends CellBoard {
  cells(pos) {
    return [...pos.cells];
  }

  layout(pos) {
    const { n } = pos;
    // Screen point of axial (x, y) before the margin: rows go up with y, each shifted half a cell.
    const at = (x, y) => [(x - y / 2 + (n - 1) / 2) * STEP, (2 * n - 2 - y) * ROW];
    const points = [];
    const labels = [];
    for (let y = 0; y <= 2 * n - 2; y++) {
      const x0 = Math.max(0, y - (n - 1));
      labels.push({ at: at(x0 - 1, y), text: String(y + 1) });
    }
    // A letter's cells run up and to the left; its label sits one step below its lowest cell.
    for (let x = 0; x <= 2 * n - 2; x++) labels.push({ at: at(x, Math.max(0, x - (n - 1)) - 1), text: String.fromCharCode(97 + x) });
    const names = [...pos.cells.keys()];
    for (const name of names) points.push(at(...parseSquare(name)));
    if (this.coordinates) points.push(...labels.map((l) => l.at));
    const pad = RADIUS + 4;
    const minX = Math.min(...points.map((p) => p[0])) - pad;
    const minY = Math.min(...points.map((p) => p[1])) - pad;
    const width = Math.max(...points.map((p) => p[0])) + pad - minX;
    const height = Math.max(...points.map((p) => p[1])) + pad - minY;
    const shapes = names.map((name) => {
      const [x, y] = parseSquare(name);
      const [cx, cy] = at(x, y).map((v, i) => v - [minX, minY][i]);
      const corners = [];
      for (let k = 0; k < 6; k++) {
        const angle = Math.PI / 6 + k * Math.PI / 3;
        corners.push(`${(cx + RADIUS * Math.cos(angle)).toFixed(1)},${(cy + RADIUS * Math.sin(angle)).toFixed(1)}`);
      }
      return { name, center: [cx, cy], tag: 'polygon', attrs: { points: corners.join(' '), class: `square hex ${['light', 'dark', 'mid'][(x + y) % 3]}` } };
    });
    return {
      key: `hex ${n}`, kind: 'hex', width, height, shapes,
      labels: labels.map(({ at: [x, y], text }) => ({ x: x - minX, y: y - minY + 8, text })),
    };
  }
}
