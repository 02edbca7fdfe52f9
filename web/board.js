// Boards of cells as SVG: cells, pieces, move marks and animations. A board draws what it is
// given and reports clicked cells; game-input.js decides what clicks mean. `CellBoard` does the work
// common to every board of cells and pieces; `Board` is the square board (Ataxx for two or
// four), hexboard.js the hexagonal one.

import { parseFen, squareCells, squareDistance, squareName } from './position.js';

const CELL = 100;
const NS = 'http://www.w3.org/2000/svg';

export function el(name, attrs, parent) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

/** The glyph that tells a colour apart by shape in the colour-blind style. */
function glyph(letter, cx, cy, g) {
  const d = 14;
  switch (letter) {
    case 'x':
    case 'r':
      return el('path', { d: `M${cx - d} ${cy - d}L${cx + d} ${cy + d}M${cx + d} ${cy - d}L${cx - d} ${cy + d}`, class: 'glyph' }, g);
    case 'g':
      return el('path', { d: `M${cx} ${cy - d - 2}L${cx + d + 2} ${cy + d}L${cx - d - 2} ${cy + d}Z`, class: 'glyph' }, g);
    case 'y':
      return el('rect', { x: cx - d, y: cy - d, width: 2 * d, height: 2 * d, class: 'glyph' }, g);
    default:
      return el('circle', { cx, cy, r: 15, class: 'glyph' }, g);
  }
}

/**
 * The engine's move drawn over a board: an arrow from `from` to `to` (points [x, y] in the
 * board's units of 100 a cell), or a ring on `to` for a move that places a piece.
 */
export function drawArrow(layer, from, to) {
  const g = el('g', { class: 'best-arrow', 'aria-hidden': 'true' }, layer);
  if (!from) return el('circle', { cx: to[0], cy: to[1], r: 30 }, g);
  const [dx, dy] = [to[0] - from[0], to[1] - from[1]];
  const length = Math.hypot(dx, dy) || 1;
  const [ux, uy] = [dx / length, dy / length];
  // The shaft stops where the head begins; the head's tip sits short of the cell's centre.
  const tip = [to[0] - ux * 12, to[1] - uy * 12];
  const base = [tip[0] - ux * 30, tip[1] - uy * 30];
  el('line', { x1: from[0], y1: from[1], x2: base[0], y2: base[1] }, g);
  const side = [-uy * 18, ux * 18];
  el('polygon', { points: [tip, [base[0] + side[0], base[1] + side[1]], [base[0] - side[0], base[1] - side[1]]].map((p) => p.join(',')).join(' ') }, g);
  return g;
}

/**
 * A board of cells, each holding a piece (a letter), a block ('-') or nothing. Subclasses give
 * the geometry: `cells(pos)` → [name, content], `layout(pos)` → {key, width, height, shapes:
 * [{name, center: [x, y], tag, attrs}], labels: [{x, y, text}]}.
 */
export class CellBoard {
  /** onSquare(name) is called with the cell a user clicks. */
  constructor(container, { onSquare, coordinates = true }) {
    this.container = container;
    this.onSquare = onSquare;
    this.coordinates = coordinates;
    this.key = null;
  }

  build(layout) {
    this.key = layout.key;
    this.centers = {};
    this.container.innerHTML = '';
    const svg = el('svg', { viewBox: `0 0 ${layout.width} ${layout.height}`, class: `board ${layout.kind}`, role: 'img', 'aria-label': 'board' }, this.container);
    this.svg = svg;
    this.squares = el('g', { class: 'squares' }, svg);
    this.marks = el('g', { class: 'marks' }, svg);
    this.pieces = el('g', { class: 'pieces' }, svg);
    if (this.coordinates) {
      const labels = el('g', { class: 'labels' }, svg);
      for (const { x, y, text } of layout.labels) el('text', { x, y }, labels).textContent = text;
    }
    for (const { name, center, tag, attrs } of layout.shapes) {
      this.centers[name] = center;
      el(tag, { ...attrs, 'data-sq': name }, this.squares);
    }
    svg.addEventListener('click', (event) => {
      const cell = event.target.closest('[data-sq]');
      if (cell) this.onSquare(cell.dataset.sq);
    });
  }

  /**
   * Draws `pos`. marks: {selected, singles, jumps, lastFrom, lastTo, hintFrom, hintTo, arrow:
   * the engine's move {from, to}};
   * animation: the move just played ({from, to, flipped: [[cell, previous letter]]}).
   */
  render(pos, marks = {}, animation = null) {
    const layout = this.layout(pos);
    if (layout.key !== this.key) this.build(layout);
    const contents = new Map(this.cells(pos));
    for (const shape of this.squares.children) {
      const { sq } = shape.dataset;
      shape.classList.toggle('blocked', contents.get(sq) === '-');
      shape.classList.toggle('selected', marks.selected === sq);
      shape.classList.toggle('last-from', marks.lastFrom === sq);
      shape.classList.toggle('last-to', marks.lastTo === sq);
      shape.classList.toggle('hint', marks.hintFrom === sq || marks.hintTo === sq);
    }
    this.marks.innerHTML = '';
    for (const [kind, r] of [['single', 14], ['jump', 22]]) {
      for (const sq of marks[`${kind}s`] ?? []) {
        const [cx, cy] = this.centers[sq];
        el('circle', { cx, cy, r, class: `target ${kind}`, 'data-target': sq }, this.marks);
      }
    }
    this.pieces.innerHTML = '';
    const drawn = {};
    for (const [sq, c] of contents) {
      if (c !== '' && c !== '-') drawn[sq] = this.drawPiece(sq, c);
    }
    if (animation && animation.to && drawn[animation.to]) this.animate(drawn, animation);
    const { arrow } = marks;
    if (arrow && this.centers[arrow.to]) drawArrow(this.pieces, arrow.from && this.centers[arrow.from], this.centers[arrow.to]);
  }

  drawPiece(sq, letter) {
    const [cx, cy] = this.centers[sq];
    const g = el('g', { class: `piece ${letter}`, 'data-sq': sq, 'data-color': letter }, this.pieces);
    el('circle', { cx, cy, r: 38, class: 'disc' }, g);
    // The colour-blind-safe style tells the sides apart by shape too.
    glyph(letter, cx, cy, g);
    return g;
  }

  animate(drawn, { from, to, flipped }) {
    if (matchMedia('(prefers-reduced-motion: reduce)').matches) return;
    const arrived = drawn[to];
    if (from && this.centers[from]) {
      const [fx, fy] = this.centers[from];
      const [tx, ty] = this.centers[to];
      const scale = this.svg.getBoundingClientRect().width / this.svg.viewBox.baseVal.width;
      arrived.animate([{ transform: `translate(${(fx - tx) * scale}px, ${(fy - ty) * scale}px)` }, { transform: 'none' }], { duration: 260, easing: 'ease-out' });
    } else {
      arrived.animate([{ transform: 'scale(0.2)', opacity: 0.3 }, { transform: 'none', opacity: 1 }], { duration: 220, easing: 'ease-out' });
    }
    const mover = arrived.dataset.color;
    for (const [sq, previous] of flipped) {
      const piece = drawn[sq];
      if (!piece) continue;
      // Turn over: squash in the old colour, grow back in the new one.
      piece.classList.replace(mover, previous);
      piece.classList.add('flipping');
      const half = piece.animate([{ transform: 'scaleX(1)' }, { transform: 'scaleX(0)' }], { duration: 160, delay: 120, fill: 'forwards' });
      half.onfinish = () => {
        piece.classList.replace(previous, mover);
        half.cancel();
        piece.animate([{ transform: 'scaleX(0)' }, { transform: 'scaleX(1)' }], { duration: 160 }).onfinish = () => piece.classList.remove('flipping');
      };
    }
  }
}

/** The square board, n×n, a1 at the bottom left. */
export class Board extends CellBoard {
  cells(pos) {
    return squareCells(pos);
  }

  layout(pos) {
    const { n } = pos;
    const margin = this.coordinates ? 30 : 0;
    const size = n * CELL + margin;
    const shapes = [];
    for (let r = 0; r < n; r++) {
      for (let f = 0; f < n; f++) {
        const x = margin + f * CELL;
        const y = (n - 1 - r) * CELL;
        shapes.push({
          name: squareName(f, r), center: [x + CELL / 2, y + CELL / 2], tag: 'rect',
          attrs: { x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, rx: 8, class: `square ${(f + r) % 2 ? 'light' : 'dark'}` },
        });
      }
    }
    const labels = [];
    for (let f = 0; f < n; f++) labels.push({ x: margin + f * CELL + CELL / 2, y: n * CELL + 22, text: String.fromCharCode(97 + f) });
    for (let r = 0; r < n; r++) labels.push({ x: 14, y: (n - 1 - r) * CELL + CELL / 2 + 8, text: String(r + 1) });
    return { key: `square ${n}`, kind: 'square', width: size, height: size, shapes, labels };
  }
}

/**
 * What the games on a square board share, for their descriptors (kind-*.js): this board, how
 * to read its positions, how its sizes and moves are written, and that the 7×7 board takes a
 * blocked layout.
 */
export const SQUARE_GAME = {
  Board,
  parse: parseFen,
  cells: squareCells,
  distance: squareDistance,
  example: 'd4 or c3b5',
  sizeLabel: (n) => `${n}×${n}`,
  layouts: true,
};
