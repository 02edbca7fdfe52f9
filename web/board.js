// The board as SVG: squares, pieces, move marks and animations. It draws what it is given
// and reports clicked squares; game.js decides what clicks mean.

import { squareName, parseSquare } from './rules.js';

const CELL = 100;
const NS = 'http://www.w3.org/2000/svg';

function el(name, attrs, parent) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

export class Board {
  /** onSquare(name) is called with the square a user clicks; coordinates take a margin. */
  constructor(container, { onSquare, coordinates = true }) {
    this.container = container;
    this.onSquare = onSquare;
    this.margin = coordinates ? 30 : 0;
    this.n = 0;
  }

  build(n) {
    this.n = n;
    const size = n * CELL + this.margin;
    this.container.innerHTML = '';
    const svg = el('svg', { viewBox: `0 0 ${size} ${size}`, class: 'board', role: 'grid', 'aria-label': 'board' }, this.container);
    this.squares = el('g', { class: 'squares' }, svg);
    this.marks = el('g', { class: 'marks' }, svg);
    this.pieces = el('g', { class: 'pieces' }, svg);
    if (this.margin) {
      const labels = el('g', { class: 'labels' }, svg);
      for (let f = 0; f < n; f++) {
        el('text', { x: this.margin + f * CELL + CELL / 2, y: n * CELL + 22 }, labels).textContent = String.fromCharCode(97 + f);
      }
      for (let r = 0; r < n; r++) {
        el('text', { x: 14, y: (n - 1 - r) * CELL + CELL / 2 + 8 }, labels).textContent = String(r + 1);
      }
    }
    for (let r = 0; r < n; r++) {
      for (let f = 0; f < n; f++) {
        const [x, y] = this.origin(squareName(f, r));
        el('rect', {
          x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, rx: 8,
          class: `square ${(f + r) % 2 ? 'light' : 'dark'}`, 'data-sq': squareName(f, r),
        }, this.squares);
      }
    }
    svg.addEventListener('click', (event) => {
      const square = event.target.closest('[data-sq]');
      if (square) this.onSquare(square.dataset.sq);
    });
  }

  origin(name) {
    const [f, r] = parseSquare(name);
    return [this.margin + f * CELL, (this.n - 1 - r) * CELL];
  }

  /**
   * Draws `pos`. marks: {selected, singles, jumps, lastFrom, lastTo, hintFrom, hintTo};
   * animation: the move just played ({from, to, flipped}) to animate.
   */
  render(pos, marks = {}, animation = null) {
    if (pos.n !== this.n) this.build(pos.n);
    for (const rect of this.squares.children) {
      const { sq } = rect.dataset;
      const [f, r] = parseSquare(sq);
      rect.classList.toggle('blocked', pos.cells[r][f] === '-');
      rect.classList.toggle('selected', marks.selected === sq);
      rect.classList.toggle('last-from', marks.lastFrom === sq);
      rect.classList.toggle('last-to', marks.lastTo === sq);
      rect.classList.toggle('hint', marks.hintFrom === sq || marks.hintTo === sq);
    }
    this.marks.innerHTML = '';
    for (const sq of marks.singles ?? []) {
      const [x, y] = this.origin(sq);
      el('circle', { cx: x + CELL / 2, cy: y + CELL / 2, r: 14, class: 'target single', 'data-target': sq }, this.marks);
    }
    for (const sq of marks.jumps ?? []) {
      const [x, y] = this.origin(sq);
      el('circle', { cx: x + CELL / 2, cy: y + CELL / 2, r: 22, class: 'target jump', 'data-target': sq }, this.marks);
    }
    this.pieces.innerHTML = '';
    const drawn = {};
    for (let r = 0; r < pos.n; r++) {
      for (let f = 0; f < pos.n; f++) {
        const c = pos.cells[r][f];
        if (c !== 'x' && c !== 'o') continue;
        const sq = squareName(f, r);
        drawn[sq] = this.drawPiece(sq, c);
      }
    }
    if (animation && animation.to && drawn[animation.to]) this.animate(drawn, animation);
  }

  drawPiece(sq, color) {
    const [x, y] = this.origin(sq);
    const cx = x + CELL / 2;
    const cy = y + CELL / 2;
    const g = el('g', { class: `piece ${color}`, 'data-sq': sq, 'data-color': color }, this.pieces);
    el('circle', { cx, cy, r: 38, class: 'disc' }, g);
    // The colour-blind-safe style tells the sides apart by shape too: a cross or a ring.
    if (color === 'x') el('path', { d: `M${cx - 14} ${cy - 14}L${cx + 14} ${cy + 14}M${cx + 14} ${cy - 14}L${cx - 14} ${cy + 14}`, class: 'glyph' }, g);
    else el('circle', { cx, cy, r: 15, class: 'glyph' }, g);
    return g;
  }

  animate(drawn, { from, to, flipped }) {
    if (matchMedia('(prefers-reduced-motion: reduce)').matches) return;
    const arrived = drawn[to];
    if (from) {
      const [fx, fy] = this.origin(from);
      const [tx, ty] = this.origin(to);
      const box = this.container.querySelector('svg').viewBox.baseVal;
      const scale = this.container.querySelector('svg').getBoundingClientRect().width / box.width;
      const dx = (fx - tx) * scale;
      const dy = (fy - ty) * scale;
      arrived.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: 'none' }], { duration: 260, easing: 'ease-out' });
    } else {
      arrived.animate([{ transform: 'scale(0.2)', opacity: 0.3 }, { transform: 'none', opacity: 1 }], { duration: 220, easing: 'ease-out' });
    }
    const mover = arrived.dataset.color;
    const previous = mover === 'x' ? 'o' : 'x';
    for (const sq of flipped) {
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
