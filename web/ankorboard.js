// The Ankor board (docs/ankor.md): the pyramid of cubes seen from straight above its apex, each
// cube as its three upper faces (light, middle, dark; O blue, X red), lower cubes darker,
// empty holes as labelled hexagons. The projection is the one of the server's board image
// (crates/games/src/ankor/svg.rs), so the page and the shared picture look alike.
//
// Cells are named by their labels (`d3`, `f4'`). Marks: selected (a cube), places (holes a
// cube may be placed on), moves (cells the selected cube may go to), lastFrom, lastTo, path
// (the winning group's cells), arrow (the engine's move: {from, to}).

import { drawArrow, el } from './board.js';

const EDGE = 60;
const MARGIN = 16;

/** Face fills toward P − e_a, P − e_b, P − e_c, and the edge stroke, per colour. */
const PALETTE = {
  o: [['#8fb8f5', '#2f6fd6', '#1d4d9c'], '#0f2a57'],
  x: [['#f29aa0', '#d1343e', '#8e1f27'], '#4d0d12'],
};

/** A colour darkened for depth: the board's level at 72 %, the apex at full brightness. */
function atLevel(hex, level, top) {
  const f = 0.72 + 0.28 * level / Math.max(1, top);
  const channel = (k) => Math.round(parseInt(hex.slice(1 + 2 * k, 3 + 2 * k), 16) * f).toString(16).padStart(2, '0');
  return `#${channel(0)}${channel(1)}${channel(2)}`;
}

/** Screen point of the lattice vertex (x, y, z). */
const project = (x, y, z) => [EDGE * (y - (x + z) / 2), EDGE * (Math.sqrt(3) / 2) * (x - z)];

export class AnkorBoard {
  /** onSquare(label) is called with the cell (hole, cube or target) a user clicks. */
  constructor(container, { onSquare }) {
    this.container = container;
    this.onSquare = onSquare;
    this.key = null;
  }

  build(pos) {
    this.key = pos.n;
    let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
    for (const { a, b, c } of pos.cells) {
      for (let corner = 0; corner < 8; corner++) {
        const [sx, sy] = project(a + (corner & 1), b + (corner >> 1 & 1), c + (corner >> 2 & 1));
        [x0, y0, x1, y1] = [Math.min(x0, sx), Math.min(y0, sy), Math.max(x1, sx), Math.max(y1, sy)];
      }
    }
    this.offset = [MARGIN - x0, MARGIN - y0];
    this.container.innerHTML = '';
    const svg = el('svg', { viewBox: `0 0 ${(x1 - x0 + 2 * MARGIN).toFixed(0)} ${(y1 - y0 + 2 * MARGIN).toFixed(0)}`, class: 'board ankor', role: 'img', 'aria-label': 'board' }, this.container);
    this.layer = el('g', {}, svg);
    svg.addEventListener('click', (event) => {
      const cell = event.target.closest('[data-cell]');
      if (cell) this.onSquare(cell.dataset.cell);
    });
  }

  point(x, y, z) {
    const [sx, sy] = project(x, y, z);
    return `${(sx + this.offset[0]).toFixed(1)},${(sy + this.offset[1]).toFixed(1)}`;
  }

  /** The outline of the cube at (a, b, c) seen from above: a hexagon. */
  silhouette({ a, b, c }) {
    return [[a + 1, b, c], [a + 1, b, c + 1], [a, b, c + 1], [a, b + 1, c + 1], [a, b + 1, c], [a + 1, b + 1, c]]
      .map((p) => this.point(...p)).join(' ');
  }

  render(pos, marks = {}, animation = null) {
    if (pos.n !== this.key) this.build(pos);
    this.layer.innerHTML = '';
    const byPoint = new Map(pos.cells.map((cell) => [`${cell.a},${cell.b},${cell.c}`, cell]));
    const covered = (cell, k) => {
      const p = [cell.a, cell.b, cell.c];
      p[k] -= 1;
      return byPoint.get(p.join(','))?.cube;
    };
    const places = new Set(marks.places ?? []);
    const moves = new Set(marks.moves ?? []);
    const path = new Set(marks.path ?? []);
    for (const cell of pos.cells) {
      if (cell.level > 0 || cell.cube) continue;
      const g = el('g', { class: `hole${places.has(cell.label) ? ' place' : ''}`, 'data-cell': cell.label }, this.layer);
      el('polygon', { points: this.silhouette(cell) }, g);
      const [cx, cy] = this.point(cell.a + 0.5, cell.b + 0.5, cell.c + 0.5).split(',').map(Number);
      el('text', { x: cx, y: cy + 5 }, g).textContent = cell.label;
    }
    let arrived = null;
    for (const cell of pos.cells) {
      if (!cell.cube) continue;
      const { a, b, c } = cell;
      const [fills, stroke] = PALETTE[cell.cube];
      const classes = ['cube', cell.cube];
      if (marks.selected === cell.label) classes.push('selected');
      if (marks.lastTo === cell.label) classes.push('last-to');
      if (path.has(cell.label)) classes.push('win');
      const g = el('g', { class: classes.join(' '), 'data-cell': cell.label, 'data-color': cell.cube }, this.layer);
      el('title', {}, g).textContent = `${cell.label} ${cell.cube.toUpperCase()}`;
      const faces = [
        [[a, b, c], [a, b + 1, c], [a, b + 1, c + 1], [a, b, c + 1]],
        [[a, b, c], [a + 1, b, c], [a + 1, b, c + 1], [a, b, c + 1]],
        [[a, b, c], [a + 1, b, c], [a + 1, b + 1, c], [a, b + 1, c]],
      ];
      faces.forEach((face, k) => {
        if (covered(cell, k)) return;
        el('polygon', {
          points: face.map((p) => this.point(...p)).join(' '),
          fill: atLevel(fills[k], cell.level, pos.n - 1), stroke, class: 'face',
        }, g);
      });
      if (animation && animation.to === cell.label) arrived = g;
    }
    // Where the selected cube may go, and the cube's origin of the last move, drawn on top.
    for (const cell of pos.cells) {
      if (moves.has(cell.label)) {
        el('polygon', { points: this.silhouette(cell), class: 'target move', 'data-cell': cell.label, 'data-target': cell.label }, this.layer);
      } else if (marks.lastFrom === cell.label && !cell.cube) {
        el('polygon', { points: this.silhouette(cell), class: 'last-from' }, this.layer);
      }
    }
    if (marks.arrow) {
      const centre = (label) => {
        const cell = pos.cells.find((c) => c.label === label);
        return cell && this.point(cell.a + 0.5, cell.b + 0.5, cell.c + 0.5).split(',').map(Number);
      };
      const to = centre(marks.arrow.to);
      if (to) drawArrow(this.layer, marks.arrow.from && centre(marks.arrow.from), to);
    }
    if (arrived && !matchMedia('(prefers-reduced-motion: reduce)').matches) {
      arrived.animate([{ opacity: 0.2 }, { opacity: 1 }], { duration: 260, easing: 'ease-out' });
    }
  }
}
