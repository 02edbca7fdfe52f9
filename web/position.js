// Reading the position texts the server sends, for drawing only: which piece stands on which
// cell, and where cells lie. The rules (legal moves, flips, results) stay on the server, which
// sends the legal moves and the position after every ply.

/** Square name of file f and rank r (0-based): "a1". Hexxagon labels cells the same way. */
export const squareName = (f, r) => String.fromCharCode(97 + f) + (r + 1);

/** [file, rank] of a square name, 0-based. */
export const parseSquare = (name) => [name.charCodeAt(0) - 97, Number(name.slice(1)) - 1];

/** Expands a FEN row ("x5o", "2-1-2") into one character per cell, '' for empty. */
function expandRow(row) {
  const out = [];
  for (const ch of row.toLowerCase()) {
    if (/\d/.test(ch)) for (let k = 0; k < Number(ch); k++) out.push('');
    else out.push(ch);
  }
  return out;
}

/**
 * A square board (Ataxx, four-player Ataxx): size n, cells[rank][file] in a piece letter,
 * '-' (blocked) or '' (empty), and the letter to move.
 */
export function parseFen(fen) {
  const [board, turn = 'x'] = fen.trim().split(/\s+/);
  const rows = board.split('/');
  const n = rows.length;
  const cells = Array.from({ length: n }, () => Array(n).fill(''));
  rows.forEach((row, i) => expandRow(row).forEach((ch, f) => { if (f < n) cells[n - 1 - i][f] = ch; }));
  return { n, cells, turn: turn.toLowerCase() };
}

/** Every cell of a square position as [name, content]. */
export function squareCells(pos) {
  const out = [];
  for (let r = 0; r < pos.n; r++) for (let f = 0; f < pos.n; f++) out.push([squareName(f, r), pos.cells[r][f]]);
  return out;
}

/** Cells apart on a square board: 1 for the eight neighbours, 2 for the jump ring. */
export function squareDistance(a, b) {
  const [fa, ra] = parseSquare(a);
  const [fb, rb] = parseSquare(b);
  return Math.max(Math.abs(fa - fb), Math.abs(ra - rb));
}

/**
 * A Hexxagon board (docs/hexxagon.md): n cells a side, cells as a Map from label to content.
 * Rows run from the top (y = 2n − 2) down; a row lists its cells by increasing x.
 */
export function parseHexFen(fen) {
  const [board, turn = 'x'] = fen.trim().split(/\s+/);
  const rows = board.split('/');
  const n = (rows.length + 1) / 2;
  const cells = new Map();
  rows.forEach((row, i) => {
    const y = 2 * n - 2 - i;
    const x0 = Math.max(0, y - (n - 1));
    expandRow(row).forEach((ch, k) => cells.set(squareName(x0 + k, y), ch));
  });
  return { n, cells, turn: turn.toLowerCase() };
}

/** Steps between two Hexxagon cells: max(|dx|, |dy|, |dx − dy|) in axial coordinates. */
export function hexDistance(a, b) {
  const [xa, ya] = parseSquare(a);
  const [xb, yb] = parseSquare(b);
  const dx = xa - xb;
  const dy = ya - yb;
  return Math.max(Math.abs(dx), Math.abs(dy), Math.abs(dx - dy));
}

/**
 * An Ankor position text (docs/ankor.md): `ankor n H cells side reserveO reserveX ply`. Each
 * cell: its label (`d3''`), level, lattice point (a, b, c) with a + b + c = n − 1 − level, and
 * its cube ('o', 'x' or '').
 */
export function parseAnkor(text) {
  const [, size, height, levels, side, reserveO, reserveX, ply] = text.trim().split(/\s+/);
  const n = Number(size);
  const rows = levels.split('/');
  const cells = [];
  for (let l = 0; l < n; l++) {
    const row = rows[l] ?? '';
    let k = 0;
    for (let letter = l; letter < n; letter++) {
      for (let number = l + 1; number <= letter + 1; number++) {
        const b = n - 1 - letter;
        const a = letter + 1 - number;
        const c = n - 1 - a - b - l;
        const ch = row[k++] ?? '.';
        cells.push({
          label: String.fromCharCode(97 + letter) + number + "'".repeat(l),
          level: l, a, b, c, cube: ch === '.' ? '' : ch.toLowerCase(),
        });
      }
    }
  }
  return {
    n, winHeight: Number(height), cells, turn: side, ply: Number(ply),
    reserves: { o: Number(reserveO), x: Number(reserveX) },
  };
}

/**
 * What a move text names for marking it: {from, to} cells (from null for a placement or a
 * single), or null for a pass or a swap. Square and hex moves are two two-character cells
 * (`c3b5`); Ankor's are `d3` or `d3-f4'`.
 */
export function moveCells(text) {
  if (!text || text === '0000' || text === 'swap') return null;
  if (text.includes('-')) {
    const [from, to] = text.split('-');
    return { from, to };
  }
  return text.length === 4 ? { from: text.slice(0, 2), to: text.slice(2) } : { from: null, to: text };
}
